"""A player's closest card lines, for ``/hint``: what each still needs, its value, and how many of those tiles
are still out there to be had. Worked out from the seat's own view only."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from bot.engine.analysis import analyze
from bot.engine.views import SeatView


@dataclass(frozen=True, slots=True)
class Hint:
    """One card line as a target for this rack."""

    line_id: str
    section: str
    printed: str  # the line as the card prints it
    value: int
    need: tuple[int, ...]  # the tiles still to get (jokers where only a joker will do)
    live: int  # copies of the needed kinds not yet seen anywhere (discards, exposures, this rack)


def hints_for(view: SeatView, top: int = 3) -> list[Hint]:
    """The ``top`` lines this rack is closest to, possible ones first."""
    visible = view.visible_elsewhere()
    ranked = analyze(view.card, view.rack, view.exposures, visible, view.tile_set)
    seen = Counter([*visible, *view.rack, *(t for e in view.exposures for t in e)])
    hints = []
    for found in [a for a in ranked if a.possible][:top]:
        kinds = set(found.need) - {view.card.wild}
        live = sum(max(0, view.tile_set.count(k) - seen[k]) for k in kinds)
        line = found.line
        hints.append(Hint(line.id, line.section, line.printed(), line.value, found.need, live))
    return hints
