"""How players name the game's things, in one place for every face of the program: groups (a pung of 5 Dot with
a joker; under the 1946 rules, with flowers), card lines as a player finds them on the card ("Any Like Numbers
#3", its pattern as printed, its value in chips) and amounts of chips."""

from __future__ import annotations

from collections.abc import Sequence

from .card import Card, Line
from .matching import group_name
from .pattern import DECORATION
from .tiles import SUIT_NAME, Tile, name, number_of, suit_of


def noun(count: float, word: str, many: str | None = None) -> str:
    """The word for ``count`` of it: ``tile`` for 1 (or -1: "-1 chip"), else ``tiles`` (``many`` when its plural is
    not ``word`` + s)."""
    return word if abs(count) == 1 else many or word + "s"


def plural(count: int, word: str, many: str | None = None) -> str:
    """``1 tile``, ``2 tiles``, ``0 tiles`` (``many`` for a word whose plural is not ``word`` + s)."""
    return f"{count:,} {noun(count, word, many)}"


def chips(amount: int) -> str:
    """``1 chip``, ``25 chips``: the one unit of every value and payment."""
    return f"{amount} chip{'' if abs(amount) == 1 else 's'}"


def wild_word(wild: Tile | None, count: int = 2) -> str:
    """What the wild tile is called: ``joker``/``jokers``, or ``flower``/``flowers`` under the 1946 rules."""
    word = "flower" if wild == Tile.F else "joker"
    return word if count == 1 else word + "s"


def group_words(tiles: Sequence[Tile], wild: Tile | None = Tile.J) -> str:
    """An exposure or a called group in words: ``pung of 5 Dot``, ``kong of North with 2 jokers``, ``kong of 7
    Dot with 3 flowers`` (1946, where flowers are wild), ``chow 3-4-5 Dot`` (classical)."""
    naturals = [t for t in tiles if t != wild]
    kinds = set(naturals)
    if len(kinds) > 1:  # a run: the classical game's chow
        suit = suit_of(naturals[0])
        run = "-".join(str(number_of(t)) for t in sorted(naturals))
        return f"chow {run} {SUIT_NAME[suit]}" if suit is not None else "chow " + ", ".join(map(name, naturals))
    tile = naturals[0] if naturals else (wild if wild is not None else tiles[0])
    text = f"{group_name(len(tiles))} of {name(tile)}"
    wilds = len(tiles) - len(naturals)
    if wilds:
        text += f" with {wilds} {wild_word(wild, wilds)}"
    return text


def call_words(size: int, tile: Tile | None = None) -> str:
    """What a call is for: ``a pung``, ``a kong of 5 Dot``."""
    what = group_name(size)
    article = "an" if what[0] in "aeiou" else "a"
    return f"{article} {what}" + (f" of {name(tile)}" if tile is not None else "")


def line_number(card: Card, line: Line) -> int:
    """The line's place in its section, counting from 1: how players name it ("2468 #3")."""
    return [x.index for x in card.lines if x.section == line.section].index(line.index) + 1


def line_name(card: Card, line: Line) -> str:
    """The line as a player finds it on the card: ``Any Like Numbers #3``."""
    return f"{line.section} #{line_number(card, line)}"


def line_by_name(card: Card, text: str) -> Line:
    """The line a player or organiser names: as the card prints it, its section and number (``2468 #1``, any
    case and spacing, the ``#`` optional), or by its id in the card file (``2468-1``); raises KeyError."""
    wanted = " ".join(text.split()).casefold()
    try:
        return card.line(text.strip())
    except KeyError:
        pass
    section, _, number = wanted.rpartition("#") if "#" in wanted else wanted.rpartition(" ")
    section, number = section.strip(), number.strip()
    if number.isascii() and number.isdigit():  # not "²", which int() refuses
        in_section = [x for x in card.lines if " ".join(x.section.split()).casefold() == section]
        if 1 <= int(number) <= len(in_section):
            return in_section[int(number) - 1]
    for line in card.lines:
        if line.id.casefold() == wanted:
            return line
    raise KeyError(text)


def printed_pattern(pattern: str) -> str:
    """A pattern as the card prints it, the suit letters left out (the card shows them as colours; the note says
    which suits): ``FFF 111 DD 1111 DD``."""
    out = []
    for token in pattern.split():
        if token not in DECORATION and len(token) > 1 and token[-1] in "abcxyz":
            token = token[:-1]
        out.append(token)
    return " ".join(out)


def line_value(line: Line) -> str:
    """The value in chips: ``25 chips``; under the 1946 rules ``50 chips (100 with East)``."""
    if line.east_value is None:
        return chips(line.value)
    return f"{chips(line.value)} ({line.east_value} with East)"


def line_words(card: Card, line: Line, *, value: bool = True) -> str:
    """A line in full, as a player reads it off the card: ``Any Like Numbers #3: FFF 111 DD 1111 DD, any like
    number in 2 suits, pairs of matching dragons; exposed, 25 chips``. A line printed with "or" more than a few
    times shows its first alternatives and how many more there are."""
    shown, more = line.shown_patterns()
    text = f"{line_name(card, line)}: {' or '.join(printed_pattern(p) for p in shown)}"
    if more:
        text += f" or {more} more"
    if line.note:
        text += f", {line.note}"
    if value:
        text += f"; {'exposed' if line.exposed else 'concealed'}, {line_value(line)}"
    return text


def line_called(card: Card, line_id: str | None, section: str | None = None) -> str:
    """A line named by id (as results and events carry it) the way players name it; the classical game's hand is
    "four sets and a pair". An id the card does not have is named by its section alone, never by the id."""
    if line_id is None:
        return "a hand"
    if not card.lines:
        return "four sets and a pair"
    try:
        return line_name(card, card.line(line_id))
    except KeyError:
        return f"a line of {section}" if section else "a line of the card"
