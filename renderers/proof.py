"""The proof sheet: a card drawn line by line as it is printed, each line with one winning hand beneath it, a page
per section, for an organiser to hold next to her printed card and check line by line (README, "Running a league").

Each line shows its name as players say it ("2468 #1"), its pattern(s) in the suit colours of
:mod:`renderers.card` (every coloured group keeps its letter as a subscript), its note, X or C and its value; under
it, 14 tiles the engine accepts as a Mah Jongg on that line: the first of the line's concrete variants (in the
order the card's compiler lists suits and shifts) that needs no joker, so the same card always gives the same
sheet. The page is 720 px
wide like the table image, every word at least 24 px and every tile 44 px wide, so that a phone showing it 360 px
wide keeps the words at 12 px.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from bot.engine.card import Card, Line, Variant
from bot.engine.tiles import Tile
from bot.engine.wording import line_name, line_number, line_words

from . import fonts
from .card import GREY as GREY_TEXT
from .card import LETTER_COLOURS, PAPER, RULE, STRIPE, NotOnCard, _any_wind, _tokens, draw_pattern
from .common import ALT_LIMIT, INK, WHITE, Rendered, canvas, clip_alt, ellipsize, finish, spoken, text_width
from .tiles import paste_tile, tile_size

WIDTH = 720
MARGIN = 18
ROOM = WIDTH - 2 * MARGIN
TILE_W = 44
TEXT = 24  # the smallest words on the sheet: 12 px on a phone showing it 360 px wide
HEADER_H = 128
LEGEND_ROW_H = 34
NAME_H = 44
PATTERN_H = 48
NOTE_LINE_H = 32
EXAMPLE_LABEL_H = 34
GAP_IN_GROUP = 2


def example_variant(card: Card, line: Line) -> Variant:
    """The variant the sheet shows: the first (in the compiler's fixed order) that the set's tiles make without a
    wild tile, else the first: a joker in the example would make an organiser wonder what it stands for."""
    counts = card.tile_set.counts
    return next((v for v in line.variants if all(n <= counts[k] for k, n in enumerate(v.need))), line.variants[0])


def example_hand(card: Card, line: Line) -> list[list[Tile]]:
    """One winning hand of the line, group by group: a concrete variant of the engine's compiled line
    (:func:`example_variant`), so the same card always gives the same sheet. Where a group needs more copies of
    its tile than the set holds (a quint), the wild tile stands in for the rest, as it would in play."""
    left = list(card.tile_set.counts)
    groups = example_variant(card, line).groups
    hand: list[list[Tile]] = [[] for _ in groups]
    # Singles and pairs take their naturals first: no wild may stand in them.
    for n in sorted(range(len(groups)), key=lambda k: groups[k][1]):
        tile, size = groups[n]
        take = min(size, left[tile])
        left[tile] -= take
        wild = card.wild if card.wild is not None and size >= 3 else tile
        hand[n] = [tile] * take + [wild] * (size - take)
    return hand


def render_proof_pages(card: Card) -> list[Rendered]:
    """The proof sheet: a page per section of the card, in the card's order."""
    sections = card.sections or tuple(dict.fromkeys(line.section for line in card.lines))
    pages = []
    for number, section in enumerate(sections, 1):
        lines = [line for line in card.lines if line.section == section]
        if lines:
            pages.append(_page(card, lines, f"{section} (page {number} of {len(sections)})"))
    return pages


def render_proof_line(card: Card, line_id: str) -> Rendered:
    """One line's proof: the line as printed with its example hand (the answer to a line just replaced)."""
    try:
        line = card.line(line_id)
    except KeyError:
        raise NotOnCard(f"card '{card.id}' has no line '{line_id}'") from None
    return _page(card, [line], line_name(card, line))


def _page(card: Card, lines: list[Line], scope: str) -> Rendered:
    notes = {line.index: _wrapped(line.note) for line in lines}
    top = _header_height(lines)
    height = top + sum(_line_height(line, notes[line.index]) for line in lines) + MARGIN
    image, draw = canvas(WIDTH, height, PAPER)
    _header(draw, card, scope, lines)
    y = top
    for k, line in enumerate(lines):
        y = _line(image, draw, card, line, notes[line.index], y, shaded=k % 2 == 1)
    return finish(image, proof_alt(card, lines, scope))


def _legend(lines: Sequence[Line]) -> list[str]:
    """What the page's lines write besides the three suit letters, and the legend then explains."""
    free = any(letter in ("x", "y", "z") for line in lines for p in line.patterns for _, letter in _tokens(p))
    return [text for text, shown in (("x y z: any suit", free), ("Z: any wind", _any_wind(lines))) if shown]


def _header_height(lines: Sequence[Line]) -> int:
    return HEADER_H + (LEGEND_ROW_H if len(_legend(lines)) > 1 else 0)


def _header(draw: ImageDraw.ImageDraw, card: Card, scope: str, lines: Sequence[Line]) -> None:
    draw.rectangle((0, 0, WIDTH, 84), fill=INK)
    draw.text((MARGIN, 10), ellipsize(f"Proof: {card.name}", fonts.bold(30), ROOM), font=fonts.bold(30), fill=WHITE)
    draw.text((MARGIN, 48), ellipsize(scope, fonts.bold(TEXT), ROOM), font=fonts.bold(TEXT), fill=WHITE)
    # What the colours mean, with the letters that carry the same meaning without colour.
    x, y = MARGIN, 92
    font = fonts.regular(TEXT)
    for letter, label in (("a", "1st suit"), ("b", "2nd"), ("c", "3rd")):
        draw.rounded_rectangle((x, y, x + 28, y + 28), radius=5, fill=LETTER_COLOURS[letter])
        draw.text((x + 14, y + 14), letter, font=fonts.bold(TEXT), fill=WHITE, anchor="mm")
        draw.text((x + 34, y + 14), label, font=font, fill=INK, anchor="lm")
        x += 34 + text_width(font, label) + 16
    for k, text in enumerate(_legend(lines)):  # one on the right of the colours, a second on a row of its own
        draw.text((WIDTH - MARGIN, y + 14 + k * LEGEND_ROW_H), text, font=font, fill=INK, anchor="rm")


def _wrapped(note: str) -> list[str]:
    """The note in lines that fit the page (a phone cannot scroll sideways in an image)."""
    font = fonts.regular(TEXT)
    rows: list[str] = []
    for word in note.split():
        if rows and text_width(font, f"{rows[-1]} {word}") <= ROOM:
            rows[-1] += f" {word}"
        else:
            rows.append(ellipsize(word, font, ROOM))
    return rows[:4]  # a note longer than four lines is cut: the card file holds it whole


def _line_height(line: Line, note: list[str]) -> int:
    shown, more = line.shown_patterns()
    return (8 + NAME_H + (len(shown) + (1 if more else 0)) * PATTERN_H + len(note) * NOTE_LINE_H
            + EXAMPLE_LABEL_H + tile_size(TILE_W)[1] + 16)


def _line(image: Image.Image, draw: ImageDraw.ImageDraw, card: Card, line: Line, note: list[str], top: int, *,
          shaded: bool) -> int:
    height = _line_height(line, note)
    if shaded:
        draw.rectangle((0, top, WIDTH, top + height), fill=STRIPE)
    middle = top + 8 + NAME_H // 2
    draw.text((MARGIN, middle), f"{line.section} #{line_number(card, line)}", font=fonts.bold(28), fill=INK,
              anchor="lm")
    value = str(line.value) if line.east_value is None else f"{line.value}-{line.east_value}"
    draw.text((WIDTH - MARGIN, middle), f"{line.mark}  {value}", font=fonts.bold(28), fill=INK, anchor="rm")
    y = top + 8 + NAME_H
    shown, more = line.shown_patterns()
    for k, pattern in enumerate(shown):
        x = MARGIN
        if k:
            draw.text((x, y + PATTERN_H // 2), "or", font=fonts.regular(TEXT), fill=GREY_TEXT, anchor="lm")
            x += 40
        draw_pattern(draw, pattern, x, y + PATTERN_H // 2, room=WIDTH - MARGIN - x, size=34, least=TEXT)
        y += PATTERN_H
    if more:
        draw.text((MARGIN, y + PATTERN_H // 2), f"or {more} more ways, as the note says", font=fonts.regular(TEXT),
                  fill=GREY_TEXT, anchor="lm")
        y += PATTERN_H
    for row in note:
        draw.text((MARGIN, y + NOTE_LINE_H // 2), row, font=fonts.regular(TEXT), fill=GREY_TEXT, anchor="lm")
        y += NOTE_LINE_H
    draw.text((MARGIN, y + EXAMPLE_LABEL_H // 2), "For example:", font=fonts.regular(TEXT), fill=GREY_TEXT,
              anchor="lm")
    _tiles(image, example_hand(card, line), y + EXAMPLE_LABEL_H)
    draw.line((0, top + height - 1, WIDTH, top + height - 1), fill=RULE, width=2)
    return top + height


def _tiles(image: Image.Image, groups: Sequence[Sequence[Tile]], top: int) -> None:
    """The example hand on one row, a wider gap between groups than inside one."""
    count = sum(len(g) for g in groups)
    spare = ROOM - count * TILE_W - GAP_IN_GROUP * (count - len(groups))
    gap = max(GAP_IN_GROUP, min(12, spare // max(1, len(groups) - 1)))
    x = MARGIN
    for group in groups:
        for tile in group:
            paste_tile(image, tile, (x, top), TILE_W)
            x += TILE_W + GAP_IN_GROUP
        x += gap - GAP_IN_GROUP


def proof_alt(card: Card, lines: Sequence[Line], scope: str) -> str:
    """The alt text of a proof page: each line in words with its example hand, or, where that would pass
    Discord's limit, the lines alone (the picture still shows the examples)."""
    head = f"Proof sheet of {card.name}, {scope}."
    full = " ".join(f"{line_words(card, line)}. For example: {spoken(t for g in example_hand(card, line) for t in g)}."
                    for line in lines)
    if len(head) + 1 + len(full) <= ALT_LIMIT:
        return f"{head} {full}"
    short = " ".join(line_words(card, line) + "." for line in lines)
    return clip_alt(f"{head} Each line's example hand is drawn under it. {short}")
