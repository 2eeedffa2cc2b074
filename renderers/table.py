"""The table image, for a phone: what is happening, each seat with its exposures, and the discards grouped by tile
with counts, from a :class:`PublicView` only.

It is 720 px wide, so a phone showing it 360 px wide halves it: every word is at least 24 px (12 on the phone)
and every tile at least 44 px, whose index then stands 11 px or more. Seats are stacked in turn order from East,
one line each plus their exposures; empty chairs (two and three players) are left out. The discards are a grid of
every kind, a suit a row, each kind with how many are out, so what is left to draw reads at a glance; the latest
discard is ringed and named under it. Whose move it is, dead hands, the latest discard and the winning tile are
each marked by a ring or frame *and* a word, never by colour alone.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from PIL import Image, ImageDraw

from bot.engine.card import Card
from bot.engine.state import Phase
from bot.engine.tiles import KINDS, Tile, code, name
from bot.engine.views import PublicSeat, PublicView
from bot.engine.wording import chips, line_called

from . import fonts, palette
from .common import (
    ALERT,
    ALT_LIMIT,
    CREAM,
    FELT,
    FELT_DARK,
    FELT_LIGHT,
    HIGHLIGHT,
    INK,
    MUTED,
    WHITE,
    Rendered,
    canvas,
    counted,
    describe_group,
    draw_centered,
    ellipsize,
    finish,
    pill,
    spoken,
    text_width,
    wrap_groups,
)
from .tiles import paste_back, paste_tile, tile_size

WIDTH = 720
MARGIN = 16
INNER = WIDTH - 2 * MARGIN
TILE_W = 50  # discards and exposures
WIN_W = 44  # the winning hand: 14 tiles and their gaps on one line
TILE_GAP = 2
GROUP_GAP = 12
HEADER_H = 104
HEAD_H = 56  # a seat's line
PAD = 8
RING = 4
TILE_H = tile_size(TILE_W)[1]
WIN_H = tile_size(WIN_W)[1]
COLUMNS = 9
CELL_W = INNER // COLUMNS
ROW_H = TILE_H + 12
# The discard grid: a suit a row, 1 to 9; then winds, dragons, the flower and the joker; blanks only if any are out.
GRID: tuple[tuple[Tile, ...], ...] = (
    KINDS[Tile.B1:Tile.B9 + 1], KINDS[Tile.C1:Tile.C9 + 1], KINDS[Tile.D1:Tile.D9 + 1],
    (Tile.N, Tile.E, Tile.W, Tile.S, Tile.RD, Tile.GD, Tile.WD, Tile.F, Tile.J))
HOW = {"self_pick": "self-picked", "discard": "on a discard", "heavenly": "with the heavenly hand"}


def render_table(view: PublicView, names: Sequence[str | None] | None = None, *, wild: Tile | None = Tile.J,
                 card: Card | None = None) -> Rendered:
    """The table for everyone: ``names[seat]`` are the players' display names (default: the seat's wind, as
    the demo's images say it); ``card`` names the winning line as the card prints it (without it, the line is not
    named)."""
    labels = [_seat_name(names, s.seat, s.wind) for s in view.seats]
    order = seats_in_order(view)
    heights = [_panel_height(seat) for seat in order]
    winning = _winning_groups(view)
    grid = _grid(view)
    height = (MARGIN + HEADER_H + sum(h + PAD for h in heights) + _discards_height(grid)
              + (WIN_H + 100 if winning else 0) + MARGIN)
    image, draw = canvas(WIDTH, height, FELT)
    y = _header(image, draw, view)
    for seat, panel_h in zip(order, heights, strict=True):
        _panel(image, draw, view, seat, labels[seat.seat], y, panel_h)
        y += panel_h + PAD
    y = _discards(image, draw, view, grid, y)
    if winning:
        _winning_hand(image, draw, winning, _winning_caption(view, card), _winning_tile(view), y)
    return finish(image, table_alt(view, labels, wild, card), palette.shared())


def seats_in_order(view: PublicView) -> list[PublicSeat]:
    """The seats that are played, in turn order from East (empty chairs left out)."""
    count = len(view.seats)
    return [s for s in (view.seats[(view.east + k) % count] for k in range(count)) if not s.empty]


def _seat_name(names: Sequence[str | None] | None, seat: int, wind: str) -> str:
    given = names[seat] if names is not None and seat < len(names) else None
    # A seat without a (printable) name is called by its wind, the word the rest of the image uses for it.
    return fonts.printable(given, wind) if given else wind


def status(view: PublicView) -> str:
    """What is happening now, in a few words and winds only (names are on the seats): "West to discard"."""
    wind = view.seats[view.turn].wind
    if view.phase == Phase.CHARLESTON:
        return f"Charleston: {view.charleston_step or 'passing'}"
    if view.phase == Phase.CHARLESTON_VOTE:
        return "Charleston: stop or go on?"
    if view.phase == Phase.COURTESY:
        return "Courtesy pass across"
    if view.phase == Phase.CALL_WINDOW and view.window_tile is not None:
        return f"{name(view.window_tile)} may be called" + (", Mah Jongg only" if view.mahjong_only else "")
    if view.phase == Phase.FINISHED:
        return _result_text(view)
    return f"{wind} to {'draw' if view.needs_draw else 'discard'}"


def _result_text(view: PublicView) -> str:
    result = view.result
    if result is None or result.winner is None:
        return "Wall game: nobody pays" if result is not None and result.how == "wall" else "Game over: nobody pays"
    return f"Mah Jongg! {view.seats[result.winner].wind} wins {HOW.get(result.how, '')}".rstrip()


TITLE_ROOM = INNER - 28


def title_font(text: str) -> fonts.Font:
    """The type of the header's first line: the line a player looks for is told whole, so a long one ("Mah Jongg!
    South wins self-picked") takes a smaller type before anything is cut."""
    sizes = (34, 31, 28, 25, 23)
    return next((f for f in map(fonts.bold, sizes) if text_width(f, text) <= TITLE_ROOM), fonts.bold(sizes[-1]))


def _header(image: Image.Image, draw: ImageDraw.ImageDraw, view: PublicView) -> int:
    """Two lines: what is happening now (the line a player looks for), then the game and the wall."""
    top = MARGIN
    draw.rounded_rectangle((MARGIN, top, WIDTH - MARGIN, top + HEADER_H - 10), radius=12, fill=FELT_DARK)
    said = status(view)
    big = title_font(said)
    draw.text((MARGIN + 14, top + 28), ellipsize(said, big, TITLE_ROOM), font=big, fill=WHITE, anchor="lm")
    small = fonts.bold(24)
    line2 = top + 70
    draw.text((MARGIN + 14, line2), f"Game {view.game_no}", font=small, fill=MUTED, anchor="lm")
    wall = f"{view.wall} in the wall"
    right = WIDTH - MARGIN - 14
    draw.text((right, line2), wall, font=small, fill=CREAM, anchor="rm")
    icon_x = right - text_width(small, wall) - 12 - 2 * 10 - 20
    for k in range(3):  # a short stack of tile backs stands for the wall
        paste_back(image, (icon_x + k * 10, line2 - 14), 20)
    return top + HEADER_H


def _panel_height(seat: PublicSeat) -> int:
    lines = len(_exposure_lines(seat.exposures)) if seat.exposures else 0
    return HEAD_H + lines * (TILE_H + 6) + (PAD if lines else 0)


def _exposure_lines(exposures: Sequence[Sequence[Tile]]) -> list[list[Sequence[Tile]]]:
    return wrap_groups(exposures, INNER - 2 * PAD, lambda g: len(g) * (TILE_W + TILE_GAP), GROUP_GAP)


def _tags(view: PublicView, seat: PublicSeat) -> list[tuple[str, tuple[int, int, int], tuple[int, int, int]]]:
    """The words that mark a seat: whose move it is (in play, not the discarder while her tile may be called),
    the winner, a dead hand, a seat a call window waits for."""
    tags = []
    winner = view.result is not None and view.result.winner == seat.seat
    to_play = view.phase == Phase.PLAY and seat.seat == view.turn
    if winner:
        tags.append(("MAH JONGG", HIGHLIGHT, INK))
    elif to_play:
        tags.append(("TO PLAY", HIGHLIGHT, INK))
    if seat.dead:
        tags.append(("DEAD", ALERT, WHITE))
    if view.phase in (Phase.CALL_WINDOW, Phase.CHARLESTON, Phase.CHARLESTON_VOTE, Phase.COURTESY) \
            and seat.seat in view.waiting_for:
        tags.append(("waiting", MUTED, INK))
    return tags


def _panel(image: Image.Image, draw: ImageDraw.ImageDraw, view: PublicView, seat: PublicSeat, label: str, top: int,
           height: int) -> None:
    left, right = MARGIN, WIDTH - MARGIN
    tags = _tags(view, seat)
    marked = any(text in ("MAH JONGG", "TO PLAY") for text, _, _ in tags)
    fill = FELT_DARK if seat.dead else FELT_LIGHT
    outline, width = (HIGHLIGHT, 5) if marked else ((ALERT, 3) if seat.dead else (FELT_DARK, 2))
    draw.rounded_rectangle((left, top, right, top + height), radius=12, fill=fill, outline=outline, width=width)
    badge = 40
    bx, by = left + PAD, top + (HEAD_H - badge) // 2
    draw.ellipse((bx, by, bx + badge, by + badge), fill=CREAM, outline=INK, width=2)
    draw_centered(draw, (bx, by, bx + badge, by + badge), seat.wind[0], fonts.bold(26), INK)
    tag_font = fonts.bold(22)
    x = right - PAD
    for text, back, ink in tags:
        x -= text_width(tag_font, text) + 16
        pill(draw, (x, top + 14), text, tag_font, back, ink)
        x -= 8
    count = counted(seat.tiles, "tile")
    count_font = fonts.regular(24)
    x -= text_width(count_font, count)
    middle = top + HEAD_H // 2
    draw.text((x, middle), count, font=count_font, fill=CREAM, anchor="lm")
    name_x = bx + badge + 12
    name_font = fonts.bold(28)
    draw.text((name_x, middle), ellipsize(label, name_font, x - name_x - 14), font=name_font, fill=WHITE,
              anchor="lm")
    y = top + HEAD_H
    for line in _exposure_lines(seat.exposures) if seat.exposures else []:
        x = left + PAD
        for group in line:
            for tile in group:
                paste_tile(image, tile, (x, y), TILE_W)
                x += TILE_W + TILE_GAP
            x += GROUP_GAP
        y += TILE_H + 6


def _grid(view: PublicView) -> list[tuple[Tile, ...]]:
    """The rows of the discard grid: the four always, a row for blanks when one is out."""
    rows = list(GRID)
    if any(t == Tile.BL for _, t in view.discards):
        rows.append((Tile.BL,))
    return rows


def _discards_height(grid: Sequence[Sequence[Tile]]) -> int:
    return 44 + len(grid) * ROW_H + 44  # the title, the rows, the latest (or, at the end, a gap)


def _discards(image: Image.Image, draw: ImageDraw.ImageDraw, view: PublicView, grid: Sequence[Sequence[Tile]],
              top: int) -> int:
    caption = fonts.bold(26)
    out = Counter(t for _, t in view.discards)
    count = len(view.discards)
    draw.text((MARGIN, top + 22), "Discards by tile", font=caption, fill=CREAM, anchor="lm")
    draw.text((WIDTH - MARGIN, top + 22), f"{count} out", font=fonts.regular(24), fill=MUTED, anchor="rm")
    finished = view.phase == Phase.FINISHED  # the winning tile is ringed below instead
    latest = view.discards[-1][1] if view.discards and not finished else None
    y = top + 44
    faint = fonts.regular(20)
    for row in grid:
        for column, tile in enumerate(row):
            x = MARGIN + column * CELL_W + (CELL_W - TILE_W) // 2 - 6
            if not out[tile]:
                draw.rounded_rectangle((x, y, x + TILE_W, y + TILE_H), radius=6, outline=FELT_LIGHT, width=2)
                draw.text((x + TILE_W // 2, y + TILE_H // 2), code(tile), font=faint, fill=FELT_LIGHT, anchor="mm")
                continue
            if tile == latest:
                draw.rounded_rectangle((x - RING, y - RING, x + TILE_W + RING, y + TILE_H + RING), radius=8,
                                       fill=HIGHLIGHT)
            paste_tile(image, tile, (x, y), TILE_W)
            _count_badge(draw, out[tile], x + TILE_W - 4, y + TILE_H - 10)
        y += ROW_H
    if not finished:
        draw.text((MARGIN, y + 18), ellipsize(_latest_note(view), fonts.bold(24), INNER), font=fonts.bold(24),
                  fill=HIGHLIGHT if view.discards else MUTED, anchor="lm")
    return y + 44


def _count_badge(draw: ImageDraw.ImageDraw, count: int, cx: int, cy: int) -> None:
    """How many of a kind are out, on a dark disc over the tile's corner."""
    r = 15
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=INK, outline=CREAM, width=2)
    draw_centered(draw, (cx - r, cy - r, cx + r, cy + r), str(count), fonts.bold(22), WHITE)


def _latest_note(view: PublicView) -> str:
    if not view.discards:
        return "No discards yet."
    seat, tile = view.discards[-1]
    note = f"Latest (ringed): {name(tile)}, from {view.seats[seat].wind}"
    return note + (" · may be called" if view.window_tile is not None else "")


def _winning_groups(view: PublicView) -> list[list[Tile]]:
    if view.result is None or view.result.winner is None:
        return []
    return [list(group) for group in view.result.tiles if group]


def _winning_tile(view: PublicView) -> Tile | None:
    return view.result.tile if view.result is not None else None


def _winning_hand(image: Image.Image, draw: ImageDraw.ImageDraw, groups: list[list[Tile]], caption: str,
                  marked: Tile | None, top: int) -> None:
    font = fonts.bold(26)
    draw.text((MARGIN, top + 22), ellipsize(caption, font, INNER), font=font, fill=HIGHLIGHT, anchor="lm")
    if marked is not None:
        draw.text((MARGIN, top + 48 + WIN_H + 26), f"Ringed: {name(marked)}, the tile that won", font=fonts.bold(24),
                  fill=HIGHLIGHT, anchor="lm")
    x, y = MARGIN, top + 48
    tiles = sum(len(g) for g in groups)
    gap = max(2, min(10, (INNER - tiles * (WIN_W + 1)) // max(1, len(groups) - 1)))
    ring = marked
    for group in groups:
        for tile in group:
            if tile == ring:  # the tile that won, ringed once
                draw.rounded_rectangle((x - RING + 1, y - RING + 1, x + WIN_W + RING - 1, y + WIN_H + RING - 1),
                                       radius=7, fill=HIGHLIGHT)
                ring = None
            paste_tile(image, tile, (x, y), WIN_W)
            x += WIN_W + 1
        x += gap


def _winning_caption(view: PublicView, card: Card | None) -> str:
    result = view.result
    if result is None:
        return "Winning hand"
    worth = chips(result.value)
    if result.line == "classical":
        what = ": four sets and a pair"
    elif card is not None:
        what = f": {line_called(card, result.line)}"
    else:
        what = ""
    return f"Winning hand{what}, {worth}" + (", jokerless" if result.jokerless else "")


def table_alt(view: PublicView, labels: Sequence[str], wild: Tile | None = Tile.J, card: Card | None = None) -> str:
    """The alt text of the table image: status, wall, seats and exposures, the discards by tile (no concealed
    tile)."""
    parts = [f"Mah Jongg table, game {view.game_no}. {status(view)}. {counted(view.wall, 'tile')} left in the wall."]
    winning = _winning_groups(view)
    if winning:
        won = _winning_tile(view)
        parts.append(f"{_winning_caption(view, card)}: {'; '.join(spoken(g) for g in winning)}."
                     + (f" {name(won)} won it." if won is not None else ""))
    for seat in seats_in_order(view):
        marks = "".join(f", {text.lower()}" for text, _, _ in _tags(view, seat))
        exposed = " and ".join(describe_group(g, wild) for g in seat.exposures)
        who = seat.wind if labels[seat.seat] == seat.wind else f"{seat.wind}, {labels[seat.seat]}"
        parts.append(f"{who}{marks}: {counted(seat.tiles, 'concealed tile')}, "
                     + (f"exposed {exposed}." if exposed else "no exposures."))
    if not view.discards:
        return " ".join([*parts, "No discards yet."])
    by, tile = view.discards[-1]
    count = len(view.discards)
    if view.phase != Phase.FINISHED:
        parts.append(f"{count} discard{'s' if count != 1 else ''}; the latest is {name(tile)}, from "
                     f"{view.seats[by].wind}.")
    out = Counter(t for _, t in view.discards)
    kinds = [t for row in GRID for t in row if out[t]] + ([Tile.BL] if out[Tile.BL] else [])
    parts.append("Out by tile: " + ", ".join(f"{name(t)} {out[t]}" for t in kinds) + ".")
    text = " ".join(parts)
    return text if len(text) <= ALT_LIMIT else text[: ALT_LIMIT - 1].rstrip(" ,") + "…"
