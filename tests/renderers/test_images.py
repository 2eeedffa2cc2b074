"""Rack, table, card and standings images: sizes and modes as documented (docs/rendering.md), alt text, limits."""

from __future__ import annotations

import io
import json
from dataclasses import replace

import pytest
from PIL import Image, ImageChops
from support.cards import StandingsRow, language_card
from support.paths import DOCS

from bot.engine.card import Card
from bot.engine.notation import parse_groups, parse_tile, parse_tiles
from bot.engine.replay import replay
from bot.engine.state import Phase
from bot.engine.tiles import Tile, display_sorted, name
from bot.engine.views import public_view, seat_view
from bot.engine.wording import printed_pattern
from bot.service.cards import load_card
from renderers import (
    NotOnCard,
    Rendered,
    render_card,
    render_card_pages,
    render_rack,
    render_season,
    render_seat_view,
    render_table,
    render_weekly,
    samples,
)
from renderers import rack as rack_module
from renderers.common import ALT_LIMIT, HIGHLIGHT

EXAMPLE = DOCS / "examples" / "mahjong-on-a-discard.json"


def opened(image: Rendered) -> Image.Image:
    picture = Image.open(io.BytesIO(image.png))
    assert picture.format == "PNG"
    assert picture.size == (image.width, image.height)
    return picture


def test_rack_size_mode_and_budget() -> None:
    concealed, exposed, drawn = samples.rack()
    image = render_rack(concealed, exposed, drawn)
    picture = opened(image)
    assert picture.mode == "P"  # 8-bit palette: a third of the bytes of RGB, no visible loss
    assert image.width == rack_module.WIDTH == 824
    assert image.height == 584
    assert len(image.png) <= 150_000
    full = render_rack(*samples.full_rack())
    assert (full.width, full.height) == (824, 420)
    assert len(full.png) <= 150_000


def test_rack_alt_text_lists_every_tile_in_display_order() -> None:
    concealed, exposed, drawn = samples.rack()
    alt = render_rack(concealed, exposed, drawn).alt
    listed = ", ".join(name(t) for t in display_sorted(concealed))
    assert f"Your rack, 10 tiles in order: {listed}." in alt
    assert "Just drawn, shown apart on the right: 5 Dot." in alt
    assert "Exposed: Pung of Green Dragon with 1 joker." in alt


def _highlight_pixels(picture: Image.Image, box: tuple[int, int, int, int]) -> int:
    """Pixels within a few levels of the highlight colour (the palette may shift it slightly)."""
    rgb = picture.convert("RGB").crop(box)
    diff = ImageChops.difference(rgb, Image.new("RGB", rgb.size, HIGHLIGHT))
    red, green, blue = diff.split()
    worst = ImageChops.lighter(ImageChops.lighter(red, green), blue)
    return worst.point(lambda v: 255 if v <= 16 else 0).histogram()[255]


def test_drawn_tile_is_set_apart_and_highlighted() -> None:
    concealed = parse_tiles(samples.FULL_RACK)
    with_drawn = opened(render_rack(concealed, [], Tile.D5))
    without = opened(render_rack(concealed, [], None))
    column = (rack_module.WIDTH - 130, 0, rack_module.WIDTH, with_drawn.height)
    assert _highlight_pixels(with_drawn, column) > 500
    assert _highlight_pixels(without, column) == 0
    assert with_drawn.size == without.size  # the image does not jump in size between turns


def test_rack_of_a_seat_view_takes_the_drawn_tile_out_of_the_row() -> None:
    card = load_card("practice")
    data = json.loads(EXAMPLE.read_text())
    game = replay(data, card, stop_at=5).game  # South has drawn and must discard
    view = seat_view(game, 1)
    assert view.drawn is not None
    image = render_seat_view(view)
    assert f"Your rack, {len(view.rack) - 1} tiles" in image.alt
    assert f"Just drawn, shown apart on the right: {name(view.drawn)}." in image.alt


def test_rack_wraps_long_exposure_lines_and_unusual_racks() -> None:
    exposures = parse_groups("1B 1B 1B 1B; 2C 2C 2C 2C; 3D 3D 3D 3D; N N N N N")
    image = render_rack(parse_tiles("J"), exposures, None)
    assert image.width == 824
    assert image.height > render_rack(parse_tiles("J"), exposures[:1], None).height
    assert render_rack([], [], None).png.startswith(b"\x89PNG")  # nothing left concealed still draws


def test_table_size_mode_budget_and_alt() -> None:
    view = samples.table()
    image = render_table(view, samples.NAMES)
    picture = opened(image)
    assert picture.mode == "P"
    assert image.width == 720
    assert image.height == 1128
    assert len(image.png) <= 150_000
    alt = image.alt
    assert alt.startswith("Mah Jongg table, game 1. West to draw. 31 tiles left in the wall.")
    assert "South, Sadie: 6 concealed tiles, exposed Kong of White Dragon and Pung of 1 Crak with 1 joker." in alt
    assert "West, Ida, to play:" in alt and "North, Dorothy, dead:" in alt
    assert "68 discards; the latest is South Wind, from South." in alt
    assert "Out by tile: 1 Bam 3, 2 Bam 3," in alt and alt.endswith("Flower 3, Joker 1.")
    assert len(alt) <= ALT_LIMIT


def test_table_from_a_replay_at_every_step() -> None:
    card = load_card("practice")
    data = json.loads(EXAMPLE.read_text())
    for step in range(len(data["actions"]) + 1):
        view = public_view(replay(data, card, stop_at=step).game)
        image = render_table(view, card=card)
        assert image.width == 720 and len(image.alt) <= ALT_LIMIT
        # Whose move it is: in play only, never the discarder while her tile may be called.
        assert ("to play" in image.alt) == (view.phase == Phase.PLAY)
    assert view.phase == Phase.FINISHED
    assert "Mah Jongg! East wins on a discard." in image.alt
    assert "Winning hand: 2026 #1, 30 chips, jokerless:" in image.alt and "6 Bam won it." in image.alt


def test_table_leaves_empty_chairs_out_at_two_and_three_players() -> None:
    seats = samples.table().seats
    three = samples.table(seats=tuple(replace(s, empty=True, exposures=()) if s.seat == 3 else s for s in seats))
    two = samples.table(seats=tuple(replace(s, empty=True, exposures=()) if s.seat in (1, 3) else s for s in seats))
    four = render_table(samples.table(), samples.NAMES)
    for view, shown in ((three, ("East", "South", "West")), (two, ("East", "West"))):
        image = render_table(view, samples.NAMES)
        assert image.height < four.height
        for seat, wind in enumerate(("East", "South", "West", "North")):
            assert (f"{wind}, {samples.NAMES[seat]}" in image.alt) == (wind in shown), (wind, image.alt)
        assert "empty" not in image.alt


def test_table_groups_the_discards_by_tile_with_counts() -> None:
    view = samples.table()
    alt = render_table(view, samples.NAMES).alt
    out = {name(t): sum(1 for _, x in view.discards if x == t) for _, t in view.discards}
    listed = alt.split("Out by tile: ")[1].rstrip(".").split(", ")
    assert dict(item.rsplit(" ", 1) for item in listed) == {k: str(v) for k, v in out.items()}


def test_table_marks_the_winning_tile_at_the_end() -> None:
    """The tile that won is ringed in the winning hand (and named); a result saved without it rings nothing."""
    card = load_card("practice")
    view = public_view(replay(json.loads(EXAMPLE.read_text()), card).game)
    assert view.result is not None and view.result.tile == parse_tile("6B")
    marked = opened(render_table(view, card=card))
    unmarked = opened(render_table(replace(view, result=replace(view.result, tile=None)), card=card))
    band = (0, marked.height - 140, marked.width, marked.height - 40)  # the winning hand's row of tiles
    assert _highlight_pixels(marked, band) > 200 > 20 > _highlight_pixels(unmarked, band)


def test_table_with_no_discards_and_odd_names() -> None:
    view = samples.table(discards=(), phase=Phase.PLAY)
    image = render_table(view, ["🀄", None, "Zoë", "x" * 300])
    assert "No discards yet." in image.alt
    assert "West, Zoë" in image.alt and "Seat" not in image.alt
    assert "East: 6 concealed tiles" in image.alt and "South: 6" in image.alt  # no printable name: the wind


def test_card_sheet_sizes_and_alt(practice: Card) -> None:
    section = render_card(practice, section="2468")
    assert opened(section).mode == "P"
    assert section.width == 824
    lines = [line for line in practice.lines if line.section == "2468"]
    for number, line in enumerate(lines, start=1):
        assert f"2468 #{number}: {' or '.join(printed_pattern(p) for p in line.patterns)}" in section.alt
        assert line.id not in section.alt  # named as the card prints it, never by the file's id
    one = render_card(practice, line_id="2468-1", tiles=parse_groups("GD GD; 2B 2B 2B 2B; 8B 8B; 4C 4C J; 6C 6C 6C"))
    assert one.width == 824
    assert "Winning tiles: Green Dragon, Green Dragon; 2 Bam, 2 Bam, 2 Bam, 2 Bam;" in one.alt
    whole = render_card(practice)
    assert whole.height > section.height and len(whole.alt) <= ALT_LIMIT
    pages = render_card_pages(practice)
    assert len(pages) > 1 and all(p.height <= 1400 for p in pages)  # never one 5,000-pixel strip on a phone
    assert sum(p.height for p in pages) >= whole.height


def test_card_sheet_handles_east_values_and_free_letters(card1946: Card) -> None:
    image = render_card(card1946, section="1-3-5-7-9")
    assert "60 chips (120 with East)" in image.alt


def test_R2_the_legend_explains_x_y_z_only_on_a_sheet_that_uses_them() -> None:
    card = language_card()
    legend = (400, 50, 824, 100)  # right of the three colours: "x y z: any suit", then "Z: any wind"
    with_z = opened(render_card(card, section="Winds")).crop(legend)
    plain = opened(render_card(card, section="Pairs")).crop(legend)
    assert len(plain.getcolors(1 << 24) or []) == 1  # nothing there: no line of the section has x, y or z
    assert len(with_z.getcolors(1 << 24) or []) > 1


def test_card_sheet_rejects_unknown_sections_and_lines(practice: Card) -> None:
    with pytest.raises(NotOnCard, match="no section 'nope'"):
        render_card(practice, section="nope")
    with pytest.raises(NotOnCard, match="no line 'nope'"):
        render_card(practice, line_id="nope")
    assert render_card(practice, section="QUINTS").height > 0  # section names match without case


def test_a_line_printed_with_or_42_times_shows_three_and_how_many_more_with_its_note() -> None:
    card = language_card()
    image = render_card(card, line_id="long-1")
    assert image.height < 600  # three alternatives and a row saying how many more, not 42 rows
    first = " or ".join(printed_pattern(p) for p in card.line("long-1").patterns[:3])
    assert f"Long #1: {first} or 39 more, any wind, a kong and a pung of two numbers in 2 suits;" in image.alt
    assert "Z is any one wind." in image.alt
    two_rows = render_card(card, line_id="pairs-1")
    assert "Pairs #1: 11 2222 11 3333 FF, any 3 suits, two separate pairs of 1s; exposed, 25 chips" in two_rows.alt
    assert "any one wind" not in two_rows.alt


def test_R5_a_card_sheet_with_an_any_wind_line_explains_Z_in_its_legend() -> None:
    card = language_card()
    with_z, without_z = render_card(card, section="Winds"), render_card(card, section="Pairs")
    legend = (0, 50, 824, 100)  # the strip under the title where the colours are explained
    assert opened(with_z).crop(legend).tobytes() != opened(without_z).crop(legend).tobytes()
    assert "Z is any one wind." in with_z.alt and "Winds #2: ZZ 4444 ZZ 5555 FF" in with_z.alt


ROWS = [StandingsRow(1, "Ruth", 42, 5, 2), StandingsRow(2, "Sadie", 0, 3, 0), StandingsRow(3, "Ida", -17, 4, 1),
        StandingsRow(4, "Dorothy 🀄", -25, 4, 1)]


def test_weekly_standings_chart() -> None:
    image = render_weekly("2026-W48", ROWS)
    assert opened(image).mode == "P"
    assert (image.width, image.height) == (824, 92 + 4 * 58 + 18)
    assert image.alt == ("Weekly standings, 2026-W48, 4 players, ranked by net chips. 1. Ruth: up 42, 5 games, "
                         "2 wins. 2. Sadie: even, 3 games, 0 wins. 3. Ida: down 17, 4 games, 1 win. "
                         "4. Dorothy: down 25, 4 games, 1 win.")


def test_negative_bars_are_hatched_not_only_coloured() -> None:
    picture = opened(render_weekly("2026-W48", ROWS)).convert("RGB")
    row_y = 92 + 3 * 58 + 29  # the middle of the 4th (negative) row
    colours = {picture.getpixel((x, row_y)) for x in range(400, 824)}
    assert len(colours) >= 3  # hatch lines over a pale fill, not one flat bar


def test_empty_week_and_season() -> None:
    empty = render_weekly("2026-W49", [])
    assert empty.alt == "Weekly standings, 2026-W49: no games this week."
    assert (empty.width, empty.height) == (824, 92 + 58 + 18)
    season = render_season("2026", [("2026-W47", ROWS), ("2026-W48", ROWS[:2])])
    assert (season.width, season.height) == (824, 560)
    assert "1. Ruth: +84 after 2 weeks." in season.alt
    assert render_season("2026", []).alt == "Season, 2026: no games."


@pytest.mark.parametrize("how", ["self_pick", "discard", "heavenly"])
def test_the_table_title_names_the_winner_whole_however_long(how: str) -> None:
    from renderers.common import text_width
    from renderers.table import HOW, TITLE_ROOM, status, title_font

    view = public_view(replay(json.loads(EXAMPLE.read_text()), load_card("practice")).game)
    assert view.result is not None
    for winner in range(4):
        done = replace(view, phase=Phase.FINISHED, result=replace(view.result, winner=winner, how=how))
        said = status(done)
        assert said.startswith("Mah Jongg! ") and said.endswith(HOW[how])
        assert text_width(title_font(said), said) <= TITLE_ROOM


def test_a_table_without_names_calls_each_seat_by_its_wind() -> None:
    image = render_table(samples.table(discards=(), phase=Phase.PLAY))
    assert "Seat" not in image.alt
    for wind in ("East", "South", "West", "North"):
        assert f"{wind}: " in image.alt or f"{wind}, " in image.alt
