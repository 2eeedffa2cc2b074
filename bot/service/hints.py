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
from bot.engine.tiles import SUIT_NAME, Tile, display_sorted, name, number_of, suit_of
from bot.engine.views import SeatView
from bot.engine.wording import chips, group_words, line_name, line_words

from .narration import tiles_text

_CLASSICAL_KINDS = tuple(t for t in Tile if t <= Tile.WD)  # suits, winds and dragons: the classical set


@dataclass(frozen=True, slots=True)
class Hint:
    """One target for this rack: a card line, or (classical) the closest four sets and a pair."""

    line_id: str  # the card's own id for the line, for code (players know it by ``title``)
    section: str
    printed: str  # the line as the card prints it (no suit letters) and its note; classical: the rack read as sets
    value: int  # in chips
    need: tuple[Tile, ...]  # the tiles still to get (jokers where only a joker will do); classical: any one helps
    live: int  # copies of the needed kinds not yet seen anywhere (discards, exposures, this rack)
    away: int | None = None  # classical: tiles from Mah Jongg (None for a card line: ``need`` says it all)
    title: str = ""  # how a player finds the line on the card: "Any Like Numbers #3" (classical: "Closest hand")

    @property
    def text(self) -> str:
        """The hint in short sentences for a phone: the line, its value, what it still needs and how many of
        those tiles are still out there."""
        if self.away is not None:  # classical: the closest four sets and a pair
            shown = self.need[:6]  # a phone's line: the first few, and how many more
            helps = tiles_text(shown) if shown else "no tile still out there"
            if len(self.need) > len(shown):
                helps = helps.replace(" and ", ", ") + f" and {len(self.need) - len(shown)} more"
            away = f"{self.away} tile{'' if self.away == 1 else 's'}"
            return (f"{self.title}: {self.printed}. {away} from Mah Jongg. Any of these helps: {helps} "
                    f"({self.live} still out there).")
        head = f"{self.title} · {chips(self.value)}: {self.printed}."
        if not self.need:
            return f"{head} You have it: Mah Jongg!"
        out = f"{self.live} of those tiles are" if self.live != 1 else "1 of those tiles is"
        return f"{head} Still to get: {tiles_text(self.need)}. {out} still out there."


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
        printed = line_words(view.card, line, value=False).split(": ", 1)[1]
        hints.append(Hint(line.id, line.section, printed, line.value, found.need, live,
                          title=line_name(view.card, line)))
    return hints


def _classical_hint(view: SeatView, base: int) -> Hint:
    rack = list(view.rack)
    exposed = len(view.exposures)
    seen = Counter([*view.rack, *(t for _, t in view.public.discards),
                    *(t for s in view.public.seats for e in s.exposures for t in e)])
    unseen = [max(0, view.tile_set.count(k) - seen[k]) for k in _CLASSICAL_KINDS]
    waiting = list(rack)
    throw = None
    if len(rack) % 3 == 2 and shanten(rack, exposed) >= 0:
        # Her own turn: read the rack after the throw that keeps it closest.
        throw = min(sorted(set(rack)), key=lambda t: shanten([x for i, x in enumerate(rack) if i != rack.index(t)],
                                                              exposed))
        waiting.remove(throw)
    now = shanten(waiting, exposed)
    helps = tuple(t for t in _CLASSICAL_KINDS if unseen[t] and now >= 0 and shanten([*waiting, t], exposed) < now)
    read = structure(rack, exposed)
    printed = describe(read, view.exposures) + (f"; throw {name(throw)}" if throw is not None else "")
    return Hint("sets", SECTION, printed, base, tuple(display_sorted(list(helps))), sum(unseen[t] for t in helps),
                max(0, now + 1), title="Your closest hand")


def describe(read: Structure, exposures: tuple[tuple[Tile, ...], ...] = ()) -> str:
    """A rack read as sets, in words: ``sets 1-2-3 Bam, pung of 5 Crak; pair of Red Dragon; partly 7 and 9 Dot;
    loose North and East``."""
    def groups(found: tuple[tuple[Tile, ...], ...]) -> str:
        return ", ".join(_group(g) for g in found)

    parts = [f"exposed {groups(exposures)}"] if exposures else []
    if read.sets:
        parts.append(f"sets: {groups(read.sets)}")
    if read.pair:
        parts.append(f"pair of {name(read.pair[0])}")
    if read.partial:
        parts.append("partly " + ", ".join(_compact(g) for g in read.partial))
    if read.loose:
        parts.append("loose " + _compact(read.loose))
    return "; ".join(parts) or "nothing yet"


def _compact(tiles: tuple[Tile, ...]) -> str:
    """Tiles in few words, numbers of a suit together: ``7/9 Bam, North``."""
    by_suit: dict[str, list[str]] = {}
    for tile in tiles:
        suit = suit_of(tile)
        if suit is None:
            by_suit.setdefault(name(tile), [])
        else:
            by_suit.setdefault(SUIT_NAME[suit], []).append(str(number_of(tile)))
    return ", ".join(f"{'/'.join(numbers)} {kind}" if numbers else kind for kind, numbers in by_suit.items())


def _group(tiles: tuple[Tile, ...]) -> str:
    """A set in words: a run ``1-2-3 Bam``, else ``pung of 5 Crak`` / ``kong of North``."""
    return group_words(tiles, None)
