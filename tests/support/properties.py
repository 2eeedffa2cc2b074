"""Hypothesis strategies over the shipped cards' lines and variants."""

from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from bot.engine.card import Card, Line, Variant
from bot.service.cards import load_card

CARDS = {card_id: load_card(card_id) for card_id in ("practice", "nmjl-1946")}


SETTINGS = settings(max_examples=150, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])


class Picked(tuple):  # type: ignore[type-arg]
    """(card, line, variant) with a short repr, so that failing examples stay readable."""

    def __repr__(self) -> str:
        card, line, variant = self
        return f"<{card.id} {line.id}: {variant.describe()}>"


@st.composite
def variants(draw: st.DrawFn) -> tuple[Card, Line, Variant]:
    card = CARDS[draw(st.sampled_from(sorted(CARDS)))]
    line = card.lines[draw(st.integers(0, len(card.lines) - 1))]
    variant = line.variants[draw(st.integers(0, len(line.variants) - 1))]
    return Picked((card, line, variant))


def legal_replacement(draw: st.DrawFn, card: Card, tiles: list[int], avoid_wild: bool = False) -> int:
    """A tile kind the set still has a copy of, given ``tiles`` already in use."""
    used = Counter(tiles)
    kinds = [k for k, n in enumerate(card.tile_set.counts) if n > used[k] and not (avoid_wild and k == card.wild)]
    return draw(st.sampled_from(kinds))


def mutate(draw: st.DrawFn, card: Card, hand: list[int], max_changes: int, others: list[int] = (),  # type: ignore[assignment]
           avoid_wild: bool = False) -> list[int]:
    """Up to ``max_changes`` tiles of ``hand`` replaced by other tiles, keeping the counts of hand plus
    ``others`` within the set."""
    hand = hand[:]
    for _ in range(draw(st.integers(0, max_changes))):
        position = draw(st.integers(0, len(hand) - 1))
        rest = [*hand[:position], *hand[position + 1:], *others]
        hand[position] = legal_replacement(draw, card, rest, avoid_wild)
    return hand


