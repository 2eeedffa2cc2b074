"""The Charleston's passes (RULES CH1-CH8): the order, which passes may be blind, and how a round of passes with
blind tiles is resolved (CH7)."""

from __future__ import annotations

import random
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class PassStep:
    name: str  # "first right", ... as players say it
    direction: str  # right, across, left
    offset: int  # seat offset of the receiver: right = next in turn
    blind_allowed: bool


# CH1: Right, Over, Left; then Left, Over, Right. CH5 (and CH11 for 1946): blind only on the first Left and last Right.
PASSES = (
    PassStep("first right", "right", 1, False),
    PassStep("first across", "across", 2, False),
    PassStep("first left", "left", 3, True),
    PassStep("second left", "left", 3, False),
    PassStep("second across", "across", 2, False),
    PassStep("last right", "right", 1, True),
)
FIRST_CHARLESTON_END = 2  # index of the first Left, after which any player may stop (CH3)


def resolve_round(own: dict[int, list[int]], blind: dict[int, int], offset: int,
                  rng: random.Random) -> dict[int, list[int]]:
    """Tiles each position receives and keeps, given what each passes of its own and how many it forwards blind.

    CH7: every position sends its own tiles; one that owes ``b`` blind tiles forwards ``b`` random tiles from
    those it has received and not yet forwarded, as soon as it has them. A tile may come back to its owner; if
    every position passes all three blind, nothing moves.
    """
    positions = sorted(own)
    target = {p: (p + offset) % 4 for p in positions}
    inbox: dict[int, list[int]] = {p: [] for p in positions}
    for p in positions:
        inbox[target[p]].extend(own[p])
    owed = dict(blind)
    moved = True
    while moved:
        moved = False
        for p in positions:
            if owed[p] and inbox[p]:
                count = min(owed[p], len(inbox[p]))
                picks = sorted(rng.sample(range(len(inbox[p])), count), reverse=True)
                forwarded = [inbox[p].pop(i) for i in picks]
                inbox[target[p]].extend(forwarded)
                owed[p] -= count
                moved = True
    return inbox
