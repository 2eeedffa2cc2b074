"""The card-wide limit on expansions (docs/card-format.md#limits), applied to an imported card line by line.

The validator counts the (shift, suit binding, wind) combinations of the card's lines in order and refuses the
first line that takes the total over :data:`~bot.engine.cardfile.MAX_EXPANSIONS`. Leaving out that line and
validating again would take one whole-card validation per line left out: minutes for a hostile file. So the
import counts as the validator does (:func:`expansions`) and leaves out every line over the limit at once.
"""

from __future__ import annotations

import tomllib

from ..cardfile import MAX_EXPANSIONS
from ..pattern import binding_count, number_range, parse_pattern
from .draft import DraftLine

OVER_LIMIT = (f"by this line the card expands to more than {MAX_EXPANSIONS:,} combinations of suits, winds and "
              "number shifts; use fewer alternatives, shifts or suit letters (see docs/card-format.md#limits)")


def _written(line: DraftLine) -> tuple[list[str], object]:
    """The line's patterns and shift as they will be written (a TOML source's from its own table)."""
    if line.block is None:
        return line.patterns, line.shift
    try:
        hand = tomllib.loads(line.block).get("hand", [{}])[0]
    except (tomllib.TOMLDecodeError, RecursionError, IndexError, AttributeError):
        return [], None
    if not isinstance(hand, dict):
        return [], None
    pattern = hand.get("pattern")
    if isinstance(pattern, str):
        return [pattern], hand.get("shift")
    return [p for p in pattern if isinstance(p, str)] if isinstance(pattern, list) else [], hand.get("shift")


def expansions(line: DraftLine) -> int:
    """How many combinations the validator counts for the line (0 for one it cannot read: it says why)."""
    patterns, shift = _written(line)
    total = 0
    for text in patterns:
        groups, problems = parse_pattern(text)
        if problems:
            return 0
        span = number_range(groups)
        if shift is None or span is None:
            offsets = 1
        elif shift == "any":
            offsets = max(0, (10 - span[1]) - (1 - span[0]))
        else:
            offsets = len(set(shift)) if isinstance(shift, list) else 1
        total += offsets * binding_count(groups)
    return total
