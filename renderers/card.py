"""Card sheets: a card, one section or one line drawn like a printed card, for looking lines up and for showing
the winning line (with the winning tiles) after a Mah Jongg.

As on a printed card each suit letter has its colour (a blue, b red, c green); since colour alone must not carry
meaning, every coloured group also keeps its letter as a small subscript, and a legend explains them.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from bot.engine.card import Card, Line
from bot.engine.pattern import DECORATION
from bot.engine.tiles import Tile
from bot.engine.wording import line_name, line_number, line_words

from . import fonts
from .common import (
    BAM_GREEN,
    CRAK_RED,
    DOT_BLUE,
    INK,
    RGB,
    WHITE,
    Rendered,
    canvas,
    clip_alt,
    ellipsize,
    finish,
    fit_font,
    spoken,
    text_width,
)
from .tiles import paste_tile, tile_size

WIDTH = 824
MARGIN = 18
PAPER: RGB = (255, 253, 246)
STRIPE: RGB = (244, 240, 228)
GREY: RGB = (92, 92, 100)
RULE: RGB = (210, 204, 190)
LETTER_COLOURS: dict[str, RGB] = {"a": DOT_BLUE, "b": CRAK_RED, "c": BAM_GREEN}
ID_W = 118
VALUE_W = 150  # X/C and the value in chips, at the right
POINTS_W = 108
PATTERN_X = MARGIN + ID_W
PATTERN_W = WIDTH - MARGIN - VALUE_W - PATTERN_X - 8
PATTERN_SIZE = 32
ROW_PATTERN_H = 46
NOTE_H = 32
HEADER_H = 112
SECTION_H = 44
TILE_W = 50
PAGE_HEIGHT = 1400  # the tallest card page sent: a phone scrolls it in two or three screens


class NotOnCard(LookupError):
    """A section or line id the card does not have."""


def render_card(card: Card, *, section: str | None = None, line_id: str | None = None,
                tiles: Sequence[Sequence[Tile]] | None = None) -> Rendered:
    """The whole card, one ``section`` or one line (``line_id``); ``tiles`` (a winning hand group by group) is
    drawn under a single line. The classical game's card has no lines: its sheet is the winning hand alone. For a
    phone, send a whole card as :func:`render_card_pages`."""
    if not card.lines:
        return _hand_sheet(card, [list(g) for g in tiles or ()])
    lines = _select(card, section, line_id)
    winning = [list(g) for g in tiles] if tiles and line_id is not None else []
    return _sheet(card, lines, section, winning)


def render_card_pages(card: Card, *, max_height: int = PAGE_HEIGHT) -> list[Rendered]:
    """The whole card as pages no taller than ``max_height`` (a section taller than that alone gets a page of its
    own), whole sections on each, in the card's order: what a phone can show."""
    if not card.lines:
        return [_hand_sheet(card, [])]
    pages: list[list[Line]] = [[]]
    for name in card.sections or dict.fromkeys(line.section for line in card.lines):
        section = [line for line in card.lines if line.section == name]
        if pages[-1] and _height(pages[-1] + section, []) > max_height:
            pages.append([])
        pages[-1] += section
    return [_sheet(card, page, page[0].section if len({x.section for x in page}) == 1 else None, [])
            for page in pages]


def _height(lines: Sequence[Line], winning: Sequence[Sequence[int]]) -> int:
    sections = dict.fromkeys(line.section for line in lines)
    return (HEADER_H + len(sections) * SECTION_H + sum(_line_height(line) for line in lines)
            + (tile_size(TILE_W)[1] + 60 if winning else 0) + MARGIN)


def _sheet(card: Card, lines: list[Line], section: str | None, winning: list[list[Tile]]) -> Rendered:
    """The sheet of ``lines`` (with the winning tiles under a single line)."""
    sections = list(dict.fromkeys(line.section for line in lines))
    image, draw = canvas(WIDTH, _height(lines, winning), PAPER)
    free = any(letter in ("x", "y", "z") for line in lines for p in line.patterns for _, letter in _tokens(p))
    _header(draw, card, free, _any_wind(lines))
    y = HEADER_H
    for name in sections:
        draw.rectangle((0, y, WIDTH, y + SECTION_H), fill=INK)
        draw.text((MARGIN, y + SECTION_H // 2), ellipsize(name, fonts.bold(24), WIDTH - 2 * MARGIN - 260),
                  font=fonts.bold(24), fill=WHITE, anchor="lm")
        draw.text((WIDTH - MARGIN, y + SECTION_H // 2), "X exposed · C concealed · chips", font=fonts.regular(19),
                  fill=WHITE, anchor="rm")
        y += SECTION_H
        for k, line in enumerate(x for x in lines if x.section == name):
            y = _line(draw, line, f"#{line_number(card, line)}", y, k % 2 == 1)
    if winning:
        _winning(image, draw, winning, y)
    return finish(image, card_alt(card, lines, section, winning))


def _hand_sheet(card: Card, winning: list[list[Tile]]) -> Rendered:
    """The classical game (docs/rules.md §9): no card to show, only what a hand is and the winning tiles."""
    rule = "Four sets (chows, pungs or kongs) and a pair; no jokers."
    height = 100 + (tile_size(TILE_W)[1] + 60 if winning else 0) + MARGIN
    image, draw = canvas(WIDTH, height, PAPER)
    draw.text((MARGIN, 16), ellipsize(card.name, fonts.bold(30), WIDTH - 2 * MARGIN), font=fonts.bold(30),
              fill=INK)
    draw.text((MARGIN, 62), rule, font=fonts.regular(22), fill=GREY)
    if winning:
        _winning(image, draw, winning, 100)
    alt = f"{card.name}. {rule}"
    if winning:
        alt += " Winning tiles: " + "; ".join(spoken(g) for g in winning) + "."
    return finish(image, clip_alt(alt))


def _select(card: Card, section: str | None, line_id: str | None) -> list[Line]:
    if line_id is not None:
        try:
            return [card.line(line_id)]
        except KeyError:
            raise NotOnCard(f"card '{card.id}' has no line '{line_id}'; its lines are listed by "
                            f"'charleston card show --card {card.id}'") from None
    if section is not None:
        chosen = [line for line in card.lines if line.section.lower() == section.lower()]
        if not chosen:
            raise NotOnCard(f"card '{card.id}' has no section '{section}'; its sections are: "
                            + ", ".join(card.sections))
        return chosen
    return list(card.lines)


def _any_wind(lines: Sequence[Line]) -> bool:
    """Whether a line shown writes ``Z`` (any wind), which the legend then explains."""
    return any(text.startswith("Z") for line in lines for p in line.shown_patterns()[0] for text, _ in _tokens(p))


def _header(draw: ImageDraw.ImageDraw, card: Card, free_letters: bool, any_wind: bool = False) -> None:
    title = card.name + (f" ({card.year})" if card.year and str(card.year) not in card.name else "")
    draw.text((MARGIN, 16), ellipsize(title, fonts.bold(30), WIDTH - 2 * MARGIN), font=fonts.bold(30), fill=INK)
    # The legend: what the colours mean, with the letters that carry the same meaning without colour.
    x, y = MARGIN, 62
    small = fonts.regular(20)
    for letter, label in (("a", "1st suit"), ("b", "2nd suit"), ("c", "3rd suit")):
        colour = LETTER_COLOURS[letter]
        draw.rounded_rectangle((x, y, x + 26, y + 26), radius=5, fill=colour)
        draw.text((x + 13, y + 13), letter, font=fonts.bold(20), fill=WHITE, anchor="mm")
        draw.text((x + 32, y + 13), label, font=small, fill=INK, anchor="lm")
        x += 32 + text_width(small, label) + 18
    extra = [text for text, shown in (("x y z: any suit", free_letters), ("Z: any wind", any_wind)) if shown]
    if extra:
        draw.text((x, y + 13), "   ".join(extra), font=small, fill=INK, anchor="lm")


def _line_height(line: Line) -> int:
    shown, more = line.shown_patterns()
    return (len(shown) + (1 if more else 0)) * ROW_PATTERN_H + (NOTE_H if line.note else 0) + 16


def _line(draw: ImageDraw.ImageDraw, line: Line, number: str, top: int, shaded: bool) -> int:
    height = _line_height(line)
    if shaded:
        draw.rectangle((0, top, WIDTH, top + height), fill=STRIPE)
    # The line's number in its section, as players name lines ("2468 #3"); the card file's ids are for files.
    draw.text((MARGIN, top + 8 + ROW_PATTERN_H // 2), number, font=fonts.bold(24), fill=GREY, anchor="lm")
    y = top + 8
    shown, more = line.shown_patterns()
    for k, pattern in enumerate(shown):
        x = PATTERN_X
        if k:
            draw.text((x - 8, y + ROW_PATTERN_H // 2), "or", font=fonts.regular(19), fill=GREY, anchor="rm")
        _pattern(draw, pattern, x, y + ROW_PATTERN_H // 2)
        y += ROW_PATTERN_H
    if more:
        # Dozens of alternatives would fill a phone's screen; the note says what they have in common.
        draw.text((PATTERN_X - 8, y + ROW_PATTERN_H // 2), "or", font=fonts.regular(19), fill=GREY, anchor="rm")
        draw.text((PATTERN_X, y + ROW_PATTERN_H // 2), f"{more} more ways, as the note says",
                  font=fonts.regular(24), fill=GREY, anchor="lm")
        y += ROW_PATTERN_H
    if line.note:
        draw.text((PATTERN_X, y + 2), ellipsize(line.note, fonts.regular(22), WIDTH - MARGIN - PATTERN_X),
                  font=fonts.regular(22), fill=GREY)
    value = str(line.value) if line.east_value is None else f"{line.value}-{line.east_value}"
    middle = top + 8 + ROW_PATTERN_H // 2
    value_font = fit_font(value, fonts.bold, 28, POINTS_W)
    draw.text((WIDTH - MARGIN, middle), value, font=value_font, fill=INK, anchor="rm")
    draw.text((WIDTH - MARGIN - POINTS_W - 20, middle), line.mark, font=fonts.bold(28), fill=INK, anchor="mm")
    draw.line((0, top + height - 1, WIDTH, top + height - 1), fill=RULE, width=1)
    return top + height


def _tokens(pattern: str) -> list[tuple[str, str]]:
    """(printed text, suit letter) per token: ``2222a`` -> (``2222``, ``a``); decorations and fixed tiles have no
    letter."""
    out = []
    for token in pattern.split():
        if token not in DECORATION and len(token) > 1 and token[-1] in "abcxyz":
            out.append((token[:-1], token[-1]))
        else:
            out.append((token, ""))
    return out


def _pattern(draw: ImageDraw.ImageDraw, pattern: str, x: int, middle: int) -> None:
    tokens = _tokens(pattern)
    size = PATTERN_SIZE
    while size > 14 and _pattern_width(tokens, size) > PATTERN_W:
        size -= 1
    big, tag, space = fonts.bold(size), fonts.bold(max(10, round(size * 0.58))), size * 0.45
    for text, letter in tokens:
        colour = LETTER_COLOURS.get(letter, INK)
        draw.text((x, middle), text, font=big, fill=colour, anchor="lm")
        x += text_width(big, text)
        if letter:
            draw.text((x + 1, middle + size * 0.42), letter, font=tag, fill=colour, anchor="ls")
            x += text_width(tag, letter) + 2
        x += round(space)


def _pattern_width(tokens: list[tuple[str, str]], size: int) -> float:
    big, tag = fonts.bold(size), fonts.bold(max(10, round(size * 0.58)))
    return sum(big.getlength(t) + (tag.getlength(c) + 3 if c else 0) + size * 0.45 for t, c in tokens)


def _winning(image: Image.Image, draw: ImageDraw.ImageDraw, groups: list[list[Tile]], top: int) -> None:
    draw.text((MARGIN, top + 24), "Winning tiles", font=fonts.bold(24), fill=INK, anchor="lm")
    count = sum(len(g) for g in groups)
    gap = 10 if count * (TILE_W + 2) + len(groups) * 10 <= WIDTH - 2 * MARGIN else 2
    x, y = MARGIN, top + 46
    for group in groups:
        for tile in group:
            paste_tile(image, tile, (x, y), TILE_W)
            x += TILE_W + 2
        x += gap


def card_alt(card: Card, lines: Sequence[Line], section: str | None, winning: Sequence[Sequence[Tile]]) -> str:
    """The alt text of a card sheet: the lines shown, in words, each named as players name it."""
    scope = line_name(card, lines[0]) if len(lines) == 1 else f"section {lines[0].section}" if section else \
        ", ".join(dict.fromkeys(x.section for x in lines))
    head = f"{card.name}, {scope}. The notes say which suits each line takes."
    if _any_wind(lines):
        head += " Z is any one wind."
    body = " ".join(line_words(card, line) + "." for line in lines)
    if winning:
        body += " Winning tiles: " + "; ".join(spoken(g) for g in winning) + "."
    text = f"{head} {body}"
    if len(text) > 1000 and len(lines) > 1:
        counts = {s: sum(1 for x in lines if x.section == s) for s in dict.fromkeys(x.section for x in lines)}
        text = f"{head} {len(lines)} lines: " + ", ".join(f"{s} ({n})" for s, n in counts.items()) + ". " + body
    return clip_alt(text)
