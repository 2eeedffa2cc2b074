"""Who pays whom (docs/rules.md §7: SC1-SC5; H5 and §11.7 for 1946; M10). Every case is a real game from an
explicit deal.

SC5 test vectors (V = 25): discard 50 / 25 / 25; self-pick 50 each; jokerless discard 100 / 50 / 50; jokerless
self-pick 100 each; Singles & Pairs (no jokers) discard 2V / V / V, never the jokerless bonus.
"""

from __future__ import annotations

import pytest
from support.game_tables import KEEP_ALIVE_1946, Table, payments, play_to_wall_game

from bot.engine.actions import ExchangeJoker
from bot.engine.payouts import payouts
from bot.engine.tiles import Tile

WAIT_E = "3B 3B 3B J 6Bx4 9Cx4 E"  # 369-4 (X 25) with a joker, waiting on the pair of East
WAIT_E_JOKERLESS = "3Bx4 6Bx4 9Cx4 E"  # the same, all naturals
WAIT_5D_SP = "N E W S 1B 1B 9B 9B 1C 1C 9C 9C 5D"  # sp-3 (C 50, Singles and Pairs), waiting on the 5 Dot pair


def _discard_win(winner_hand: str, *, discarder: int = 0, winner: int = 1, tile: str = "E") -> Table:
    """``discarder`` throws ``tile`` (East opens; other discarders get there by quiet turns) and ``winner``
    claims it for Mah Jongg."""
    table = Table({winner: winner_hand, discarder: tile}, wall="1D 2D 3D 4D")
    state = table.state
    if discarder != 0:
        table.discard_and_close(0, table.racks[0][-1])
        while state.turn != discarder:
            table.quiet_turn(state.turn)
        table.draw(discarder)
    table.discard(discarder, tile)
    table.call_mahjong(winner)
    table.close()
    assert state.result is not None and state.result.winner == winner and state.result.how == "discard"
    return table


def _self_pick(winner_hand: str, *, winner: int = 1, tile: str = "E") -> Table:
    table = Table({winner: winner_hand}, wall=" ".join([*["1D", "2D", "3D"][: (winner - 1) % 4], tile]))
    state = table.state
    table.discard_and_close(0, table.racks[0][-1])
    while state.turn != winner:
        table.quiet_turn(state.turn)
    table.draw(winner)
    table.declare(winner)
    assert state.result is not None and state.result.winner == winner and state.result.how == "self_pick"
    return table


def _check_balanced(table: Table) -> None:
    paid = payouts(table.state)
    winner = table.state.result.winner  # type: ignore[union-attr]
    assert all(p.amount > 0 and p.payee == winner and p.payer != winner for p in paid)
    assert sorted(p.payer for p in paid) == sorted(s for s in table.state.players if s != winner)


# ------------------------------------------------------------------------------------------------ SC1-SC5


def test_SC1_win_on_a_discard_discarder_pays_2V_others_V() -> None:
    table = _discard_win(WAIT_E)
    assert table.state.result.value == 25 and not table.state.result.jokerless  # type: ignore[union-attr]
    assert payments(table.state) == {(0, 1): 50, (2, 1): 25, (3, 1): 25}
    _check_balanced(table)


def test_SC1_the_discarder_need_not_be_east() -> None:
    table = _discard_win(WAIT_E, discarder=3, winner=1)
    assert payments(table.state) == {(3, 1): 50, (0, 1): 25, (2, 1): 25}
    _check_balanced(table)


def test_SC2_self_pick_everyone_pays_2V() -> None:
    table = _self_pick(WAIT_E)
    assert payments(table.state) == {(0, 1): 50, (2, 1): 50, (3, 1): 50}
    _check_balanced(table)


def test_SC3_jokerless_discard_doubles_every_payment() -> None:
    table = _discard_win(WAIT_E_JOKERLESS)
    assert table.state.result.jokerless  # type: ignore[union-attr]
    assert payments(table.state) == {(0, 1): 100, (2, 1): 50, (3, 1): 50}
    _check_balanced(table)


def test_SC3_jokerless_self_pick_everyone_pays_4V() -> None:
    table = _self_pick(WAIT_E_JOKERLESS, winner=2)
    assert payments(table.state) == {(0, 2): 100, (1, 2): 100, (3, 2): 100}
    _check_balanced(table)


def test_SC3_SC5_singles_and_pairs_never_get_the_jokerless_bonus() -> None:
    table = _discard_win(WAIT_5D_SP, tile="5D")
    result = table.state.result
    assert result is not None and result.line == "sp-3" and result.singles_and_pairs and result.value == 50
    # 2V / V / V with V = 50: the SC5 row "S&P, no jokers, discard: 50 / 25" scaled to this line's value.
    assert payments(table.state) == {(0, 1): 100, (2, 1): 50, (3, 1): 50}
    _check_balanced(table)


def test_SC3_singles_and_pairs_self_pick_is_2V_each() -> None:
    table = _self_pick(WAIT_5D_SP, tile="5D", winner=3)
    assert payments(table.state) == {(0, 3): 100, (1, 3): 100, (2, 3): 100}


def test_SC2_call_then_joker_exchange_completing_mahjong_is_a_self_pick() -> None:
    """SL-595 Q17: West exposes N J J; East later throws a 9 Crak that South calls for a kong (9C 9C 9C J);
    South then gives her North for West's joker, which completes 369-4: everybody pays double (50)."""
    table = Table({0: "N 9C", 2: "J J", 1: "3Bx4 6B 6B 6B 9C 9C J E E N"}, wall="1D 2D 3D")
    state = table.state
    table.discard(0, "N")
    table.call(2, "J J")
    table.close()
    table.discard_and_close(2, table.racks[2][-1])
    table.quiet_turn(3)
    table.draw(0)
    table.discard(0, "9C")
    table.call(1, "9C 9C J")
    table.close()
    assert state.turn == 1 and state.turn_state.stage == "call"
    table.act(ExchangeJoker(1, 2, 0, Tile.N))
    table.declare(1)
    assert state.result is not None and state.result.how == "self_pick" and state.result.line == "369-4"
    assert payments(state) == {(0, 1): 50, (2, 1): 50, (3, 1): 50}


def test_SC4_payouts_are_empty_while_the_game_runs_and_for_a_wall_game() -> None:
    table = Table(KEEP_ALIVE_1946, preset="nmjl-1946")
    assert payouts(table.state) == []
    play_to_wall_game(table)
    assert table.state.result is not None and table.state.result.how == "wall"
    assert payouts(table.state) == []


def test_payout_json_form() -> None:
    table = _discard_win(WAIT_E)
    data = [p.to_json() for p in payouts(table.state)]
    assert {(d["from"], d["to"], d["amount"]) for d in data} == {(0, 1, 50), (2, 1, 25), (3, 1, 25)}
    assert all(isinstance(d["reason"], str) and d["reason"] for d in data)


# ------------------------------------------------------------------------------------------------ 1946 (H5)

WAIT_3B_1946 = "1Bx4 F F 3B 5Bx4 F F"  # odd-1 (111111a 33a 555555a, X 60-120), waiting on the 3 Bam pair


def _win_1946(*, winner: int, discarder: int | None, east: int = 0) -> Table:
    hands = {winner: WAIT_3B_1946}
    if discarder is not None:
        hands[discarder] = "3B"
    before_winner = ["1D", "2D", "3D"][: (winner - east - 1) % 4]
    wall = "1D 2D 3D" if discarder is not None else " ".join([*before_winner, "3B"])
    table = Table(hands, wall=wall, east=east, preset="nmjl-1946")
    state = table.state
    if discarder == east:
        table.discard(east, "3B")
    else:
        table.discard_and_close(east, table.racks[east][-1])
        while state.turn != (discarder if discarder is not None else winner):
            table.quiet_turn(state.turn)
        table.draw(state.turn)
        if discarder is None:
            table.declare(winner)
            return table
        table.discard(discarder, "3B")
    table.call_mahjong(winner)
    table.close()
    return table


def test_H5_1946_east_pays_double_and_there_is_no_discarder_double() -> None:
    table = _win_1946(winner=1, discarder=0)
    result = table.state.result
    assert result is not None and result.line == "odd-1" and result.value == 60 and result.east_value == 120
    assert payments(table.state) == {(0, 1): 120, (2, 1): 60, (3, 1): 60}


def test_H5_1946_a_non_east_discarder_pays_the_plain_value() -> None:
    table = _win_1946(winner=1, discarder=3)
    assert payments(table.state) == {(0, 1): 120, (2, 1): 60, (3, 1): 60}


def test_H5_1946_east_winning_receives_double_from_everyone() -> None:
    table = _win_1946(winner=0, discarder=2)
    assert payments(table.state) == {(1, 0): 120, (2, 0): 120, (3, 0): 120}


def test_H5_1946_self_pick_is_not_doubled() -> None:
    table = _win_1946(winner=2, discarder=None)
    assert table.state.result is not None and table.state.result.how == "self_pick"
    assert payments(table.state) == {(0, 2): 120, (1, 2): 60, (3, 2): 60}


@pytest.mark.parametrize("east", [1, 3])
def test_H5_1946_east_column_follows_the_dealer(east: int) -> None:
    winner = (east + 1) % 4
    table = _win_1946(winner=winner, discarder=east, east=east)
    expected = {(s, winner): (120 if s == east else 60) for s in range(4) if s != winner}
    assert payments(table.state) == expected


def test_M4_1946_false_mahjong_penalty_is_paid_on_top_of_the_win() -> None:
    table = Table({1: WAIT_3B_1946, 2: "3B"}, wall="1D 2D", preset="nmjl-1946", declarations="strict")
    table.declare(0)  # East declares in error: dead, pays 60 to each intact player
    assert table.state.seats[0].dead and table.state.turn == 1
    table.draw(1)
    table.discard_and_close(1, "1D")
    table.draw(2)
    table.discard(2, "3B")
    table.call_mahjong(1)
    table.close()
    paid = payouts(table.state)
    assert [(p.payer, p.payee, p.amount) for p in paid[:3]] == [(0, 1, 60), (0, 2, 60), (0, 3, 60)]
    # The dead East still pays the winner, from the East column (M7, H5).
    assert payments(table.state) == {(0, 1): 60 + 120, (0, 2): 60, (0, 3): 60, (2, 1): 60, (3, 1): 60}
