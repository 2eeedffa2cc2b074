"""A player's closest targets, for ``/hint``, worked out from the seat's own view only.

With a card: the closest card lines, what each still needs, its value, and how many of those tiles are still out
there. In the classical game (docs/rules.md §9) there is no card: the hint is the closest set structure of the
rack (its sets, pair, partial sets and loose tiles), how many tiles it is from Mah Jongg, and the tiles that
would bring it a step closer.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from bot.engine.analysis import analyze
from bot.engine.classical import SECTION
from bot.engine.sets import Structure, shanten, structure
from bot.engine.tiles import Tile, code, display_sorted
from bot.engine.views import SeatView


@dataclass(frozen=True, slots=True)
class Hint:
    """One target for this rack: a card line, or (classical) the closest four sets and a pair."""

    line_id: str
    section: str
    printed: str  # the line as the card prints it; classical: the rack read as sets, pair, partials, loose tiles
    value: int
    need: tuple[int, ...]  # the tiles still to get (jokers where only a joker will do); classical: any one helps
    live: int  # copies of the needed kinds not yet seen anywhere (discards, exposures, this rack)
    away: int | None = None  # classical: tiles from Mah Jongg (None for a card line: ``need`` says it all)


def hints_for(view: SeatView, top: int = 3, *, base: int = 0) -> list[Hint]:
    """The ``top`` lines this rack is closest to, possible ones first (classical: the one closest structure, worth
    the table's ``base``)."""
    if view.card.ruleset == "classical":
        return [_classical_hint(view, base)]
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


def _classical_hint(view: SeatView, base: int) -> Hint:
    rack = list(view.rack)
    exposed = len(view.exposures)
    seen = Counter([*view.rack, *(t for _, t in view.public.discards),
                    *(t for s in view.public.seats for e in s.exposures for t in e)])
    unseen = [max(0, view.tile_set.count(k) - seen[k]) for k in range(Tile.WD + 1)]
    waiting = list(rack)
    throw = None
    if len(rack) % 3 == 2 and shanten(rack, exposed) >= 0:
        # Her own turn: read the rack after the throw that keeps it closest.
        throw = min(sorted(set(rack)), key=lambda t: shanten([x for i, x in enumerate(rack) if i != rack.index(t)],
                                                              exposed))
        waiting.remove(throw)
    now = shanten(waiting, exposed)
    helps = tuple(t for t in range(Tile.WD + 1) if unseen[t] and now >= 0 and shanten([*waiting, t], exposed) < now)
    read = structure(rack, exposed)
    printed = describe(read, view.exposures) + (f" · throw {code(throw)}" if throw is not None else "")
    return Hint("sets", SECTION, printed, base, tuple(display_sorted(list(helps))), sum(unseen[t] for t in helps),
                max(0, now + 1))


def describe(read: Structure, exposures: tuple[tuple[int, ...], ...] = ()) -> str:
    """A rack read as sets: ``sets 1B-2B-3B 5C-5C-5C | pair RD-RD | partial 7D-9D | loose N E``."""
    def groups(found: tuple[tuple[int, ...], ...]) -> str:
        return " ".join("-".join(code(t) for t in g) for g in found)

    parts = [f"exposed {groups(exposures)}"] if exposures else []
    if read.sets:
        parts.append(f"sets {groups(read.sets)}")
    if read.pair:
        parts.append(f"pair {groups((read.pair,))}")
    if read.partial:
        parts.append(f"partial {groups(read.partial)}")
    if read.loose:
        parts.append("loose " + " ".join(code(t) for t in read.loose))
    return " | ".join(parts) or "nothing yet"
