"""What makes an imported line look wrong though it can be written: a value unlike the rest of its section, a
suit count unlike its note, a dragon unlike its note. Transcriptions of printed cards have such slips; the import
says so, so that an organiser checks those lines against her printed card, and changes nothing."""

from __future__ import annotations

import re
import statistics
from collections import defaultdict

from ..pattern import DISTINCT_LETTERS, parse_pattern
from ..tiles import Tile
from .draft import DraftLine

_OR = r"(?:\s*(?:or|,|&|and)\s*([1-3]))?"
_SUITS_NOTE = re.compile(rf"\b([1-3]){_OR}{_OR}\s+suit(?:e|s|es)?\b", re.IGNORECASE)
_DRAGON_NOTE = re.compile(r"\b(red|green|white)\s+dragons?\b", re.IGNORECASE)
_COLOURS = {"red": Tile.RD, "green": Tile.GD, "white": Tile.WD}


def suspicions(lines: list[DraftLine]) -> None:
    """Add a reason to every line that looks wrong (the lines left out included: their values still count)."""
    _values(lines)
    for line in lines:
        if line.fatal or not line.patterns:
            continue
        _suits(line)
        _dragon(line)


def _values(lines: list[DraftLine]) -> None:
    by_section: dict[str, list[DraftLine]] = defaultdict(list)
    for line in lines:
        if line.value is not None:
            by_section[line.section].append(line)
    for section, members in by_section.items():
        for line in members:
            assert line.value is not None
            others = [x.value for x in members if x is not line and x.value is not None]
            if line.value % 5:
                line.reasons.append(f"its value {line.value} is not a multiple of 5, as card values are")
            elif len(others) >= 2:
                typical = statistics.median(others)
                if abs(line.value - typical) > max(10.0, 0.4 * typical):
                    shown = ", ".join(str(v) for v in sorted(set(others)))
                    line.reasons.append(f"its value {line.value} is unlike the other {section} lines' ({shown})")


def _letters(pattern: str) -> tuple[set[str], set[str]] | None:
    """The suit letters a pattern's numbers use, and those its numbers and dragons use; None if it does not parse
    (the validator says why)."""
    groups, problems = parse_pattern(pattern)
    if problems:
        return None
    numbers = {g.letter for g in groups if g.kind == "number" and g.letter in DISTINCT_LETTERS}
    dragons = {g.letter for g in groups if g.kind == "dragon" and g.letter in DISTINCT_LETTERS}
    return numbers, numbers | dragons


def _suits(line: DraftLine) -> None:
    found = _SUITS_NOTE.search(line.note)
    if found is None:
        return
    noted = {int(n) for n in found.groups() if n}
    counts: set[int] = set()
    for pattern in line.patterns:
        letters = _letters(pattern)
        if letters is None:
            return
        numbers, with_dragons = letters
        if len(numbers) not in noted and len(with_dragons) not in noted:
            line.reasons.append(f'the note says "{found.group(0)}" but "{pattern}" has {len(numbers)} suit(s)')
            return
        counts.add(len(numbers) if len(numbers) in noted else len(with_dragons))
    missing = sorted(noted - counts)
    if missing:
        line.reasons.append(f'the note says "{found.group(0)}" but no alternative has '
                            f"{' or '.join(map(str, missing))} suit(s)")


def _dragon(line: DraftLine) -> None:
    named = {_COLOURS[m.lower()] for m in _DRAGON_NOTE.findall(line.note)}
    if len(named) != 1:
        return
    fixed: set[int] = set()
    for pattern in line.patterns:
        groups, problems = parse_pattern(pattern)
        if problems:
            return
        # a single White is most often the soap (a zero), not the dragon the note means
        fixed |= {g.value for g in groups if g.kind == "fixed" and (g.value in (Tile.RD, Tile.GD) or (
            g.value == Tile.WD and g.size > 1))}
    if fixed and not named & fixed:
        colour = next(k for k, v in _COLOURS.items() if v in named)
        line.reasons.append(f"the note names the {colour} dragon but the line has another")
