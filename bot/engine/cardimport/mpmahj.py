"""Reading mpmahj's symbolic card JSON (thetrev68/mpmahj, ``data/cards/card2025.json``'s structure).

``{"year": 2025, "sections": [{"group_description": "2468", "hands": [hand, ...]}, ...]}``, where a hand is
``{"description": "22 444 66 888 DDDD (Any 1 Suit)", "vsuit_count": 1, "concealed": false, "odd": false, "even":
false, "components": [{"suit": "VSUIT1", "number": 2, "count": 2}, ...]}``. Its meaning, as that project's
converter (scripts/card_tools/convert_legacy_to_unified.py) reads it:

- ``suit``: ``VSUIT1``-``VSUIT3`` a suit the player chooses, ``VSUITn_DRAGON`` the dragon of that suit,
  ``Dragon`` (number 0 White, the soap; 1 Green; 2 Red), ``Wind`` (1 North, 2 East, 3 South, 4 West), ``Flower``;
- ``vsuit_count``: 1, the VSUITs are one suit; 2, VSUIT1 differs from VSUIT2, and VSUIT3 is VSUIT2's; 3, three
  different suits; 5, a run with its pair anywhere in it and kongs of the pair's number (``112345 1111 1111``);
- ``number`` 100 and up: a number that moves with the line, 100 the first, 101 the next...; ``odd``/``even`` keep
  those numbers odd or even; "Any Wind" in the description makes every wind of the hand one wind, any;
  dragons of a hand of no suit, or of one suit with dragons of different sizes, are any dragons, each different.

Hands one after another with the same description are one printed line (its alternatives). The format gives no
values, and the unified files (``unified_card2025.json``) hold only expanded variants, which are not read.
"""

from __future__ import annotations

import itertools
import re

from .draft import Alternative, Draft, DraftLine, ImportProblem, Piece, glue_runs
from .located import Dict, Unreadable, read_json

FORMAT = "mpmahj"
PLACEHOLDER_VALUE = 25
SECTION_NAMES = {"LikeNumbers": "Any Like Numbers", "Consecutive": "Consecutive Run",
                 "WindsDragons": "Winds - Dragons", "SinglesPairs": "Singles and Pairs"}
WINDS = {1: "N", 2: "E", 3: "S", 4: "W"}
DRAGONS = {0: "0", 1: "G", 2: "R"}
LETTERS = {0: "aaa", 1: "aaa", 2: "abb", 3: "abc", 5: "abc"}
FIXED_SUITS = {"Bam": "Bams", "Bams": "Bams", "Crak": "Craks", "Craks": "Craks", "Cracks": "Craks", "Dot": "Dots",
               "Dots": "Dots"}
_NOTE = re.compile(r"^(.*?)\s*\(([^()]*)\)\s*$", re.DOTALL)
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")
_VSUIT = re.compile(r"^VSUIT([123])(_DRAGON)?$")
_SINGLES_AND_PAIRS = re.compile(r"singles\s*(?:and|&)\s*pairs", re.IGNORECASE)


def read(text: str, source: str) -> Draft:
    """The card an mpmahj card file holds; raises :class:`ImportProblem` if it is not one."""
    try:
        data = read_json(text)
    except Unreadable as exc:
        raise ImportProblem(f"{source}:{exc.line}: not an mpmahj card file: not JSON ({exc.message})") from None
    if isinstance(data, Dict) and "patterns" in data and "sections" not in data:
        raise ImportProblem(f"{source}: an mpmahj unified card, which holds only expanded variants: import the "
                            "symbolic card file instead (like data/cards/card2025.json)")
    if not isinstance(data, Dict) or not isinstance(data.get("sections"), list):
        raise ImportProblem(f'{source}: not an mpmahj card file: it has no "sections" list (is it another '
                            "format? name it with --format)")
    year = data.get("year")
    sections = data["sections"]
    assert isinstance(sections, list)
    draft = Draft(FORMAT, "", year if isinstance(year, int) and 1000 <= year <= 9999 else None, [], [], [])
    for section in sections:
        if not isinstance(section, Dict) or not isinstance(section.get("hands"), list):
            draft.notices.append(f'{source}:{getattr(section, "line", 0)}: a section without a "hands" list: '
                                 "skipped")
            continue
        title, hands = section.get("group_description"), section["hands"]
        assert isinstance(hands, list)
        draft.lines.extend(_lines(_section_name(title if isinstance(title, str) else ""), hands, draft, source))
    draft.notices.append(f"{source}: mpmahj card files give no values: every line is written with value = "
                         f"{PLACEHOLDER_VALUE}; type the printed values")
    return draft


def _section_name(title: str) -> str:
    """The section as a card prints it: ``LikeNumbers`` is "Any Like Numbers"."""
    title = title.strip()
    return SECTION_NAMES.get(title) or _CAMEL.sub(" ", title) or "Card"


def _lines(section: str, hands: list[object], draft: Draft, source: str) -> list[DraftLine]:
    lines: list[DraftLine] = []
    last: tuple[str, bool] | None = None
    for hand in hands:
        if not isinstance(hand, Dict):
            draft.notices.append(f"{source}:{getattr(hand, 'line', 0)}: a hand that is not an object {{...}}: "
                                 "skipped")
            continue
        raw = hand.get("description")
        description = " ".join(raw.split()) if isinstance(raw, str) else ""
        concealed = hand.get("concealed") is True
        if lines and last == (description, concealed):
            _hand(hand, description, lines[-1])
            continue
        last = (description, concealed)
        match = _NOTE.match(description)
        note = match.group(2).strip() if match else ""
        line = DraftLine(hand.line, description[:80] or f"hand at line {hand.line}", section, None, [], [],
                         not concealed, None, note=note, independent_winds=False)
        line.wording = [f'"{description}"' + (", concealed" if concealed else "")]
        line.singles_and_pairs = bool(_SINGLES_AND_PAIRS.search(section))
        _hand(hand, description, line)
        lines.append(line)
    return lines


def _hand(hand: Dict, description: str, line: DraftLine) -> None:
    """Add one hand of the source to a line: its alternatives and their starting numbers."""
    components = hand.get("components")
    vsuits = hand.get("vsuit_count")
    if not isinstance(components, list) or not components:
        line.fatal.append(f'the hand at line {hand.line} has no "components"')
        return
    if not isinstance(vsuits, int) or isinstance(vsuits, bool) or vsuits not in LETTERS:
        line.fatal.append(f"vsuit_count {str(vsuits)[:10]} is not 0, 1, 2, 3 or 5")
        return
    odd, even = hand.get("odd") is True, hand.get("even") is True
    if odd and even:
        line.reasons.append("it is marked both odd and even: read as odd")
    parts = _components(components, vsuits, "any wind" in description.lower(), line)
    if parts is None:
        return
    for alternative in parts:
        offsets = [p.offset for p in alternative if p.symbol == "X"]
        bases = [] if not offsets else [b for b in range(1, 10) if all(
            1 <= b + o <= 9 and (not odd or (b + o) % 2) and (odd or not even or not (b + o) % 2) for o in offsets)]
        line.alternatives.append(tuple(glue_runs(list(alternative))))
        line.bases.append(bases)


def _components(components: list[object], vsuits: int, any_wind: bool,
                line: DraftLine) -> list[Alternative] | None:
    """The hand's alternatives (several for vsuit_count 5 and for any-dragon hands), or None if it cannot be read."""
    rows: list[tuple[str, int, int]] = []
    for item in components:
        suit, number, count = (item.get("suit"), item.get("number"), item.get("count")) if isinstance(
            item, dict) else (None, None, None)
        if not (isinstance(suit, str) and isinstance(number, int) and isinstance(count, int)
                and _whole(number) and _whole(count) and 1 <= count <= 14):
            line.fatal.append(f'a component is not {{"suit": ..., "number": ..., "count": 1-14}}: {str(item)[:60]}')
            return None
        rows.append((suit, number, count))
    variants = _pair_positions(rows, line) if vsuits == 5 else [rows]
    dragons = [s for s, _, _ in rows if s.endswith("_DRAGON")]
    any_dragon = bool(dragons) and (vsuits == 0 or (vsuits == 1 and len(dragons) >= 2 and len(
        {c for s, _, c in rows if s.endswith("_DRAGON")}) > 1))
    numbers_in_suits = any(_VSUIT.match(s) and not s.endswith("_DRAGON") for s, _, _ in rows)
    if vsuits == 0 and numbers_in_suits:
        line.reasons.append("vsuit_count 0 with tiles of a chosen suit: read as one suit")
    fixed = sorted({FIXED_SUITS[s] for s, _, _ in rows if s in FIXED_SUITS})
    if fixed:
        line.reasons.append(f"the card language has no fixed suits: {' and '.join(fixed)} are read as any "
                            f"{len(fixed)} different suits")
        if numbers_in_suits:
            line.fatal.append("it mixes fixed suits with chosen ones")
            return None
    names = list(dict.fromkeys(dragons))
    choices: list[dict[str, str]] = [{}]
    if any_dragon and numbers_in_suits:
        choices = [dict(zip(names, chosen, strict=True)) for chosen in itertools.permutations("RG0", len(names))]
    elif any_dragon:
        choices = [{name: f"D{letter}" for name, letter in zip(names, "abc", strict=False)}]
    out: list[Alternative] = []
    for variant in variants:
        for choice in choices:
            pieces = [_piece(suit, number, count, vsuits, any_wind, fixed, choice, line)
                      for suit, number, count in variant]
            if any(p is None for p in pieces):
                return None
            out.append(tuple(p for p in pieces if p is not None))
    _suit_count(out[0] if out else (), vsuits, line)
    return out


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _piece(suit: str, number: int, count: int, vsuits: int, any_wind: bool, fixed: list[str],
           dragon_choice: dict[str, str], line: DraftLine) -> Piece | None:
    if suit == "Flower":
        return Piece("F", count)
    if suit == "Wind":
        if number not in WINDS:
            line.fatal.append(f"wind number {number} is not 1 (North), 2 (East), 3 (South) or 4 (West)")
            return None
        return Piece("Z" if any_wind else WINDS[number], count)
    if suit == "Dragon":
        if number not in DRAGONS:
            line.fatal.append(f"dragon number {number} is not 0 (White), 1 (Green) or 2 (Red)")
            return None
        return Piece(DRAGONS[number], count)
    if suit in FIXED_SUITS:
        letter = "abc"[fixed.index(FIXED_SUITS[suit])]
        return _number(number, count, letter, line)
    m = _VSUIT.match(suit)
    if m is None:
        line.fatal.append(f'unknown suit "{suit[:20]}"')
        return None
    letter = LETTERS[vsuits][int(m.group(1)) - 1]
    if m.group(2):
        chosen = dragon_choice.get(suit, "")
        if chosen.startswith("D"):
            return Piece("D", count, chosen[1:])
        return Piece(chosen, count) if chosen else Piece("D", count, letter)
    return _number(number, count, letter, line)


def _number(number: int, count: int, letter: str, line: DraftLine) -> Piece | None:
    if 1 <= number <= 9:
        return Piece(str(number), count, letter)
    if 100 <= number <= 108:
        return Piece("X", count, letter, number - 100)
    line.fatal.append(f"number {number} is neither 1-9 nor a moving number 100-108")
    return None


def _pair_positions(rows: list[tuple[str, int, int]], line: DraftLine) -> list[list[tuple[str, int, int]]]:
    """vsuit_count 5: the run in VSUIT1 with its pair on each of its numbers in turn, the other suits' moving
    numbers on the pair's number."""
    run = sorted({n for s, n, _ in rows if s == "VSUIT1" and n >= 100})
    if not run or not any(s == "VSUIT1" and n >= 100 and c == 2 for s, n, c in rows):
        line.reasons.append("vsuit_count 5 without a run holding a pair: read as 3 suits")
        return [rows]
    variants = []
    for pair in run:
        variants.append([(s, n, (2 if n == pair else 1)) if s == "VSUIT1" and n in run
                         else (s, pair, c) if s in ("VSUIT2", "VSUIT3") and n >= 100 else (s, n, c)
                         for s, n, c in rows])
    return variants


def _suit_count(alternative: Alternative, vsuits: int, line: DraftLine) -> None:
    used = {p.letter for p in alternative if p.letter and (p.symbol == "D" or p.symbol[0] in "123456789X")}
    if vsuits in (2, 3) and len(used) < vsuits and "fixed suits" not in " ".join(line.reasons):
        line.reasons.append(f"vsuit_count is {vsuits} but its tiles use {len(used)} suit(s)")
