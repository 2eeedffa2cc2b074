"""What the card-reading players decide, position by position: the rack measure (outlook) against a direct
recount, the jokerless valuation, and hard's late-wall defence."""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest

from bot.ai.outlook import Chances, Outlook, card_tables
from bot.ai.strategy import LEVEL_SETTINGS, Strategy
from bot.engine.actions import CharlestonVote, Discard
from bot.engine.card import Card
from bot.engine.game import Game
from bot.engine.rules import table_rules
from bot.engine.tiles import NUM_KINDS, Tile
from bot.engine.views import SeatView, seat_view
from bot.service.cards import load_card

# A late opponent (seat 1) with East kong, 4-bam and 8-bam pungs out: on the practice card only 2468-3
# (EEEE 444a 66a 888a WW) holds them, so her concealed tiles are a pair of 6-bam and a pair of West.
LATE_EXPOSURES = ((Tile.E,) * 4, (Tile.B4,) * 3, (Tile.B8,) * 3)


@pytest.fixture(scope="module")
def practice() -> Card:
    return load_card("practice")


def discard_view(card: Card, rack: list[int], wall: int,
                 exposures: tuple[tuple[int, ...], ...] = LATE_EXPOSURES) -> SeatView:
    """East's discard decision in a real dealt game, with the rack, wall count and seat 1's exposures set."""
    game, _ = Game.new(card, table_rules(charleston=False), seed=9)
    view = seat_view(game, game.state.east)
    seats = tuple(dataclasses.replace(s, exposures=exposures) if s.seat == 1 else s for s in view.public.seats)
    public = dataclasses.replace(view.public, wall=wall, seats=seats, discards=())
    legal = tuple(Discard(view.seat, t) for t in sorted(set(rack)))
    return dataclasses.replace(view, public=public, rack=tuple(rack), drawn=None, legal=legal)


def outlook_for(card: Card, rack: list[int], bonus: float, unseen: list[int]) -> Outlook:
    naturals = [0] * NUM_KINDS
    for tile in rack:
        naturals[tile] += 1
    jokers, naturals[Tile.J] = naturals[Tile.J], 0
    unseen = list(unseen)
    unseen_jokers, unseen[Tile.J] = unseen[Tile.J], 0
    return Outlook(card_tables(card), naturals, jokers, [0] * NUM_KINDS, None, unseen, unseen_jokers,
                   Chances(0.2, 0.05), 0.3, jokerless_bonus=bonus)


def random_rack(card: Card, rng: random.Random, size: int = 14, jokers: bool = True) -> list[int]:
    pool = [k for k in range(NUM_KINDS) for _ in range(card.tile_set.counts[k]) if jokers or k != Tile.J]
    return rng.sample(pool, size)


def unseen_after(card: Card, rack: list[int]) -> list[int]:
    unseen = list(card.tile_set.counts)
    for tile in rack:
        unseen[tile] -= 1
    return unseen


@pytest.mark.parametrize("bonus", [0.0, 0.3 * np.log(2)], ids=["plain", "jokerless-bonus"])
def test_outlook_after_removal_matches_a_recount_of_the_smaller_rack(practice: Card, bonus: float) -> None:
    """The one-pass chances after each discard equal an outlook built afresh for the rack without that tile."""
    rng = random.Random(4)
    for _ in range(25):
        rack = random_rack(practice, rng, jokers=bonus == 0.0)
        unseen = unseen_after(practice, rack)
        outlook = outlook_for(practice, rack, bonus, unseen)
        kinds = sorted(set(rack))
        after, keep = outlook.after_removal(kinds, Tile.J, lines=4)
        for row, kind in enumerate(kinds):
            smaller = list(rack)
            smaller.remove(kind)
            fresh = outlook_for(practice, smaller, bonus, unseen)
            np.testing.assert_allclose(after[row], fresh.log_chance[keep], atol=1e-9)


def test_a_jokerless_line_counts_at_double_value_only_where_that_pays(practice: Card) -> None:
    """NMJL scoring doubles a jokerless win except on singles-and-pairs lines: the bonus raises exactly the
    variants that may be made without jokers, never lowers one, and is not offered to a rack holding jokers."""
    rng = random.Random(8)
    tables = card_tables(practice)
    bonus = 0.3 * np.log(2)
    raised = 0
    for _ in range(20):
        rack = random_rack(practice, rng, size=13, jokers=False)
        unseen = unseen_after(practice, rack)
        plain = outlook_for(practice, rack, 0.0, unseen).log_chance
        valued = outlook_for(practice, rack, bonus, unseen).log_chance
        assert (valued >= plain - 1e-12).all()
        assert np.allclose(valued[~tables.doubles_jokerless], plain[~tables.doubles_jokerless])
        assert (valued <= plain + bonus + 1e-12).all()
        raised += int((valued > plain + 1e-12).sum())
    # Random racks lack too much: the jokers still to come are worth more than the bonus. A rack whose
    # pungs and kongs are complete in naturals takes it.
    assert raised == 0
    ready = [*(Tile.E,) * 4, *(Tile.B4,) * 3, *(Tile.B8,) * 3, Tile.B6, Tile.W, Tile.C1]
    unseen = unseen_after(practice, ready)
    plain = outlook_for(practice, ready, 0.0, unseen).log_chance
    valued = outlook_for(practice, ready, bonus, unseen).log_chance
    line = next(n for n, line in enumerate(practice.lines) if line.id == "2468-3")
    best = int(np.argmax(np.where(tables.line_of == line, plain, -np.inf)))
    assert valued[best] == pytest.approx(plain[best] + bonus)
    with_joker = [*random_rack(practice, rng, size=12, jokers=False), Tile.J]
    unseen = unseen_after(practice, with_joker)
    assert np.array_equal(outlook_for(practice, with_joker, bonus, unseen).log_chance,
                          outlook_for(practice, with_joker, 0.0, unseen).log_chance)


def test_hard_reads_a_late_opponents_exposures_for_the_tiles_she_waits_on(practice: Card) -> None:
    rack = [Tile.B6, Tile.W, Tile.C1, Tile.C2, Tile.C3, Tile.D5, Tile.D5, Tile.D7, Tile.J, Tile.N, Tile.N,
            Tile.F, Tile.F, Tile.C9]
    hard = Strategy("hard", random.Random(1))
    danger = hard.danger(discard_view(practice, rack, wall=20))
    assert danger is not None
    assert danger[Tile.B6] > 0.2 and danger[Tile.W] > 0.2  # her two concealed pairs
    assert danger[Tile.C1] == danger[Tile.N] == danger[Tile.J] == 0.0
    # Early in the wall hard does not defend, and normal never does.
    assert hard.danger(discard_view(practice, rack, wall=LEVEL_SETTINGS["hard"].defend_below + 1)) is None
    assert Strategy("normal", random.Random(1)).danger(discard_view(practice, rack, wall=20)) is None


def test_hard_keeps_back_the_tile_a_late_opponent_waits_on(practice: Card) -> None:
    """Across racks holding a lone 6-bam among craks, dots and honours, whenever hard without its defence
    would throw the 6-bam, hard with it throws something else, and something safer."""
    rng = random.Random(12)
    careless = Strategy("hard", random.Random(1))
    careless.settings = dataclasses.replace(careless.settings, defend_below=0)
    careful = Strategy("hard", random.Random(1))
    held_back = 0
    for _ in range(150):
        others = [t for t in random_rack(practice, rng, size=40) if not Tile.B1 <= t <= Tile.B9]
        rack = [Tile.B6, *others[:13]]
        view = discard_view(practice, rack, wall=20)
        if careless.decide(view) != Discard(view.seat, Tile.B6):
            continue
        choice = careful.decide(view)
        assert isinstance(choice, Discard) and choice.tile != Tile.B6
        danger = careful.danger(view)
        assert danger is not None and danger[choice.tile] < danger[Tile.B6]
        held_back += 1
    assert held_back >= 3


def test_hard_stops_the_second_charleston_only_with_a_rack_worth_keeping(practice: Card) -> None:
    """CH3: any player may stop the second Charleston. It helps every rack, so hard stops it when its own
    rack is already close to a line, and normal always goes on."""
    strong = [*(Tile.E,) * 4, *(Tile.B4,) * 3, *(Tile.B8,) * 3, Tile.B6, Tile.W, Tile.J]
    weak = [Tile.B1, Tile.B5, Tile.B9, Tile.C3, Tile.C7, Tile.D2, Tile.D9, Tile.N, Tile.S, Tile.E, Tile.W,
            Tile.RD, Tile.GD]
    hard = Strategy("hard", random.Random(1))
    normal = Strategy("normal", random.Random(1))
    for rack, stops in ((strong, True), (weak, False)):
        view = discard_view(practice, rack, wall=99, exposures=())
        assert hard.vote(view) == CharlestonVote(view.seat, stops)
        assert normal.vote(view) == CharlestonVote(view.seat, False)


def test_rule_SC3_hard_counts_the_jokerless_double_only_where_the_rules_pay_it() -> None:
    """The 1946 rules pay no jokerless double, so hard must not chase one there; NMJL rules do (SC3)."""
    import random as _random

    from bot.ai.strategy import Strategy
    from bot.engine.game import Game as _Game
    from bot.engine.rules import table_rules as _table_rules
    from bot.engine.views import seat_view as _seat_view
    from bot.service.cards import load_card as _load_card

    bonus = {}
    for preset in ("nmjl", "nmjl-1946"):
        rules = _table_rules(preset)
        card = _load_card(rules.card)
        game, _ = _Game.new(card, rules, 3)
        view = _seat_view(game, (game.state.east + 1) % 4)
        no_wild = [t for t in view.rack if t != card.wild]  # a rack holding a wild tile is never jokerless
        bonus[preset] = Strategy("hard", _random.Random(0)).outlook(view, no_wild, []).jokerless_bonus is not None
    assert bonus == {"nmjl": True, "nmjl-1946": False}


def test_rule_P13_under_the_1946_rules_a_player_never_calls_or_exchanges_into_a_rack_of_flowers_only() -> None:
    """A 1946 flower may never be thrown (P13): a concealed rack left with flowers alone could throw nothing after
    its next draw, so a call or exchange that leads there is a trap; under NMJL rules a joker may be thrown."""
    from bot.ai.strategy import leaves_a_discard, traps

    for preset, trapped in (("nmjl-1946", True), ("nmjl", False)):
        rules = table_rules(preset)
        card = load_card(rules.card)
        game, _ = Game.new(card, rules, 4)
        view = seat_view(game, game.state.east)
        wild = card.wild
        assert wild is not None
        assert traps(view, [wild, wild, wild, Tile.D5]) is trapped
        assert not traps(view, [wild, wild, Tile.D5, Tile.D6])
        assert leaves_a_discard(view, [wild, Tile.D5, Tile.D6], Tile.D5)
        assert leaves_a_discard(view, [wild, Tile.D5], Tile.D5) is not trapped
