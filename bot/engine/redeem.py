"""Mah Jongg on a discard (docs/rules.md §6, M3): the hand as it is with the discard added, or, where it is not
complete yet, after redeeming jokers from exposures with tiles from the rack (SL-131).

The claim is one action, ``Call(seat, (), True)``, whichever way the hand is finished: the referee works out the
redemptions when it accepts the claim and makes them when the claim wins the window. P7 still holds for the group
the discard completes: the rest of that group was in the caller's rack when she called, so a joker she gets by
redeeming may fill any group but that one. Only exposed (X) lines are won this way: a concealed hand must be
complete when its last tile is claimed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import product

from .matching import CheckResult, Match, check, exposure_group, may_be_mahjong
from .pattern import Group
from .referee import Referee
from .tiles import Tile

MAX_PLANS = 256  # redemption plans tried for one claim at most (a table holds 8 jokers, so far fewer in practice)


@dataclass(frozen=True, slots=True)
class Redemption:
    """One joker redeemed: the natural ``tile`` given for a joker in exposure ``exposure`` of seat ``owner``."""

    owner: int
    exposure: int
    tile: Tile


@dataclass(frozen=True, slots=True)
class DiscardWin:
    """How a seat wins with the discard: the redemptions to make first (none for a plain Mah Jongg) and the lines
    the finished hand makes."""

    redemptions: tuple[Redemption, ...]
    result: CheckResult

    @property
    def how(self) -> str:
        """How the win is paid: on the discard, or as a self-pick when a redemption finished it (SC2, M3)."""
        return "self_pick" if self.redemptions else "discard"


def discard_win(ref: Referee, seat: int, tile: Tile) -> DiscardWin | None:
    """How ``seat`` can win with the discard ``tile`` now, or None if she can't: the hand as it is, else (M3) the
    redemptions that finish it and pay most (fewest redemptions among those, the nearest exposures first)."""
    card = ref.card
    me = ref.state.seats[seat]
    exposures = [e.tiles for e in me.exposures]
    rack = [*me.rack, tile]
    if may_be_mahjong(card, rack, exposures):
        plain = check(card, rack, exposures, tile_set=ref.tile_set)
        if plain.mahjong:
            return DiscardWin((), plain)
    if card.wild != Tile.J:
        return None  # no jokers to redeem: the classical game, or wild flowers (1946, never exchanged)
    slots = _redeemable(ref, seat)
    if not slots:
        return None
    held = Counter(me.rack)
    best: tuple[tuple[int, int, int], DiscardWin] | None = None
    for order, plan in enumerate(_plans(slots, held)):
        if order >= MAX_PLANS:
            break
        result = _finished(ref, seat, tile, plan, held[Tile.J])
        if result is None:
            continue
        top = result.best
        assert top is not None
        key = (top.line.value, -len(plan), -order)
        if best is None or key > best[0]:
            best = key, DiscardWin(plan, result)
    return best[1] if best is not None else None


def _redeemable(ref: Referee, seat: int) -> dict[Tile, list[tuple[int, int]]]:
    """The jokers ``seat`` could redeem, by the natural each stands for: (owner, exposure) once per joker, her own
    exposures first, then the others' in turn order after her. Only naturals she holds count."""
    state = ref.state
    held = set(state.seats[seat].rack)
    slots: dict[Tile, list[tuple[int, int]]] = {}
    for step in range(4):
        owner = (seat + step) % 4
        for n, exposure in enumerate(state.seats[owner].exposures):
            if exposure.tile in held and Tile.J in exposure.tiles:
                slots.setdefault(exposure.tile, []).extend([(owner, n)] * exposure.tiles.count(Tile.J))
    return slots


def _plans(slots: dict[Tile, list[tuple[int, int]]], held: Counter[Tile]) -> Iterator[tuple[Redemption, ...]]:
    """Every set of redemptions worth trying, fewest first: per natural, how many of the jokers standing for it
    (taken in the order of ``slots``), never more than the rack holds of that natural."""
    kinds = sorted(slots)
    ranges = [range(min(held[k], len(slots[k])) + 1) for k in kinds]
    counts = sorted((c for c in product(*ranges) if any(c)), key=sum)
    for chosen in counts:
        yield tuple(Redemption(owner, n, kind) for kind, count in zip(kinds, chosen, strict=True)
                    for owner, n in slots[kind][:count])


def _finished(ref: Referee, seat: int, tile: Tile, plan: Sequence[Redemption], jokers_held: int) -> CheckResult | None:
    """The X lines the hand makes after ``plan`` with the discard ``tile``, keeping P7 for the group the discard
    completes; None if it makes none."""
    card = ref.card
    me = ref.state.seats[seat]
    rack = [*me.rack, tile]
    exposures = [list(e.tiles) for e in me.exposures]
    for step in plan:
        rack.remove(step.tile)
        rack.append(Tile.J)
        if step.owner == seat:
            mine = exposures[step.exposure]
            mine[mine.index(Tile.J)] = step.tile
    if not may_be_mahjong(card, rack, exposures):
        return None
    result = check(card, rack, exposures, tile_set=ref.tile_set)
    groups = [exposure_group(e, card.wild) for e in exposures]
    kept = tuple(m for m in result.matches
                 if m.exposed and _p7(m, groups, rack.count(tile), tile, jokers_held))
    return CheckResult(kept) if kept else None


def _p7(match: Match, exposed: Sequence[Group], naturals: int, tile: Tile, jokers_held: int) -> bool:
    """Whether the discard can sit in a concealed group of the line whose other tiles were all in the rack at the
    call: a single or pair (naturals only), or a pung or larger needing no more jokers than she held then."""
    open_groups = Counter(match.variant.groups)
    open_groups.subtract(exposed)
    sizes = [size for (kind, size), n in open_groups.items() if kind == tile for _ in range(n)]
    small = [s for s in sizes if s < 3]
    if small:
        return True
    return any(max(0, size - naturals) <= jokers_held for size in sizes)
