"""Mah Jongg, false declarations and dead hands (docs/rules.md §6: M1, M2, M4, M6, M7, M10; §11.1, §11.6)."""

from __future__ import annotations

import pytest
from support.game_tables import KEEP_ALIVE, Table, event_types, one_event, payments, play_to_wall_game
from support.tiles import tile, tiles

from bot.engine.actions import Call, DeclareMahJongg, Discard, Draw, ExchangeJoker, Hold, PassCall
from bot.engine.legal import legal_actions
from bot.engine.state import Phase
from bot.engine.views import public_view

# 369-4: 3333a 6666a 9999b EE (or WW), X 25
WIN_369 = tiles("3B 3B 3B J 6B 6B 6B 6B 9C 9C 9C 9C E E")

# ------------------------------------------------------------------------------------------------ M1, M2


def test_M1a_M2_self_drawn_fourteenth_tile() -> None:
    table = Table({1: "3B 3B 3B J 6Bx4 9Cx4 E"}, wall="E")
    table.discard_and_close(0, table.racks[0][-1])
    assert table.draw(1) == tile("E")
    assert DeclareMahJongg(1) in legal_actions(table.game, 1)
    events = table.declare(1)
    result = table.state.result
    assert result is not None and result.how == "self_pick" and result.winner == 1 and result.line == "369-4"
    assert table.state.phase == Phase.FINISHED
    # M2: the whole hand is shown, group by group, in the line's order.
    mahjong = one_event(events, "mahjong")
    assert not mahjong.private and mahjong.payload.line == "369-4"
    assert [sorted(g) for g in result.tiles] == [sorted(tiles("3B 3B 3B J")), tiles("6Bx4"), tiles("9Cx4"),
                                                 tiles("E E")]
    assert sorted(t for g in result.tiles for t in g) == sorted(WIN_369)
    assert "game_over" in event_types(events)


def test_M2_the_tile_that_won_is_recorded_with_the_result() -> None:
    """The winning hand is shown with the tile that won it marked: the drawn tile, or the discard taken."""
    drawn = Table({1: "3B 3B 3B J 6Bx4 9Cx4 E"}, wall="E")
    drawn.discard_and_close(0, drawn.racks[0][-1])
    drawn.draw(1)
    drawn.declare(1)
    assert drawn.state.result is not None and drawn.state.result.tile == tile("E")
    assert drawn.state.result.to_json()["tile"] == "E"
    called = Table({0: "5D", 1: "N E W S 1B 1B 9B 9B 1C 1C 9C 9C 5D"})
    called.discard(0, "5D")
    called.call_mahjong(1)
    called.close()
    assert called.state.result is not None and called.state.result.tile == tile("5D")


def test_M1b_a_discard_may_complete_a_pair_on_a_concealed_hand() -> None:
    """sp-3 (N E W S 11a 99a 11b 99b 55c, C 50, Singles and Pairs): 5 Dot completes the pair of 5s."""
    table = Table({0: "5D", 1: "N E W S 1B 1B 9B 9B 1C 1C 9C 9C 5D"})
    table.discard(0, "5D")
    assert Call(1, (), True) in legal_actions(table.game, 1)
    table.call_mahjong(1)
    table.close()
    result = table.state.result
    assert result is not None and result.line == "sp-3" and result.how == "discard" and result.discarder == 0


def test_M1b_a_discard_may_complete_a_single() -> None:
    """like-2 (N E W S 1111a 11b 1111c, C 40): the single West comes from a discard."""
    table = Table({0: "W", 3: "N E S 7B 7B 7B 7B 7C 7C 7D 7D 7D J"})
    table.discard(0, "W")
    table.call_mahjong(3)
    table.close()
    result = table.state.result
    assert result is not None and result.winner == 3 and result.line == "like-2"


def test_M1_exposure_then_mah_jongg_on_the_callers_turn_is_a_discard_win() -> None:
    """South calls the kong of 9 Crak and her hand is complete without any exchange: she declares, and East,
    whose tile it was, pays as the discarder (SC1)."""
    table = Table({0: "9C", 1: "3B 3B 3B J 6Bx4 9C 9C 9C E E"})
    table.discard(0, "9C")
    table.call(1, "9C 9C 9C")
    table.close()
    table.declare(1)
    result = table.state.result
    assert result is not None and result.how == "discard" and result.discarder == 0
    assert payments(table.state) == {(0, 1): 50, (2, 1): 25, (3, 1): 25}


def test_M3_mahjong_call_from_an_exposed_hand() -> None:
    """South has exposed 6666 and wins on East's East for the pair."""
    table = Table({0: "6B E", 1: "3B 3B 3B J 6B 6B 6B 9Cx4 E"}, wall="1D 2D 3D")
    table.discard(0, "6B")
    table.call(1, "6B 6B 6B")
    table.close()
    table.discard_and_close(1, table.racks[1][-1])
    table.quiet_turn(2)
    table.quiet_turn(3)
    table.draw(0)
    table.discard(0, "E")
    table.call_mahjong(1)
    table.close()
    result = table.state.result
    assert result is not None and result.winner == 1 and result.line == "369-4"
    assert tiles("6Bx4") in [sorted(g) for g in result.tiles]


# ------------------------------------------------------------------------------------------------ M4, §11.1


def test_M4a_friendly_mode_refuses_a_false_declaration_without_change() -> None:
    table = Table({1: "1B"}, wall="2B")
    table.discard_and_close(0, table.racks[0][-1])
    table.draw(1)
    assert table.rules.declarations == "friendly"
    table.refuse(DeclareMahJongg(1), "not a Mah Jongg")
    assert not table.state.seats[1].dead


def test_M4a_friendly_mode_refuses_a_false_mahjong_call() -> None:
    table = Table({0: "5D"})
    table.discard(0, "5D")
    table.refuse(Call(1, (), True), "5 Dot doesn't complete a Mah Jongg for you.")


def test_M4b_strict_mode_false_declaration_kills_the_hand() -> None:
    table = Table({1: "1B"}, wall="2B 3B 4B", declarations="strict")
    state = table.state
    table.discard_and_close(0, table.racks[0][-1])
    table.draw(1)
    events = table.declare(1)
    assert "false_mahjong" in event_types(events)
    dead = one_event(events, "dead_hand")
    assert dead.seat == 1 and state.seats[1].dead
    # Play goes on with the next live player; no penalty under NMJL rules.
    assert state.phase == Phase.PLAY and state.turn == 2 and state.turn_state.needs_draw
    assert state.penalties == []
    assert public_view(table.game).seats[1].dead


def test_M4b_strict_mode_false_mahjong_call_kills_the_hand_and_the_window_goes_on() -> None:
    table = Table({0: "5D", 2: "5D 5D"}, declarations="strict")
    state = table.state
    table.discard(0, "5D")
    events = table.call_mahjong(1)
    assert "dead_hand" in event_types(events) and state.seats[1].dead
    assert state.phase == Phase.CALL_WINDOW
    assert public_view(table.game).waiting_for == (2, 3)
    table.call(2, "5D 5D")
    table.act(PassCall(3))
    assert state.seats[2].exposures[0].tiles == tiles("5D 5D 5D")


@pytest.mark.parametrize(("liar", "expected"), [
    (1, {(1, 0): 60, (1, 2): 30, (1, 3): 30}),  # East receives double
    (0, {(0, 1): 60, (0, 2): 60, (0, 3): 60}),  # East pays double
])
def test_M4_1946_strict_false_mahjong_costs_30_to_each_intact_player(liar: int, expected: dict) -> None:
    table = Table({}, wall="1D 2D", preset="nmjl-1946", declarations="strict")
    if liar != 0:
        table.discard_and_close(0, table.racks[0][-1])
        table.draw(liar)
    table.declare(liar)
    assert table.state.seats[liar].dead
    assert {(p.payer, p.payee): p.amount for p in table.state.penalties} == expected
    assert all(p.reason == "false Mah Jongg" for p in table.state.penalties)


# ------------------------------------------------------------------------------------------------ M6, M7, §11.6


def _south_dead_by_public_information() -> Table:
    """South calls East's North for a quint (N N N J J), which fits only wd-6 (EE NNNNN DDDx SSSS). Then North
    calls South's East for a kong: all four Easts are in North's exposure, wd-6's pair of East can no longer be
    had, and South is dead at once (§11.6), though it is North who plays on."""
    table = Table({0: "N", 1: "N N J J E", 3: "E E E", 2: "3B 3B 3B 6Bx4 9Cx4 W W"}, wall="1D N 2D 3D")
    table.discard(0, "N")
    table.call(1, "N N J J")
    table.close()
    assert table.state.seats[1].exposures[0].tiles == tiles("N N N J J") and not table.state.seats[1].dead
    table.discard(1, "E")
    table.call(3, "E E E")
    events = table.close()
    assert table.state.seats[3].exposures[0].tiles == tiles("E E E E")
    dead = one_event(events, "dead_hand")
    assert dead.seat == 1 and not dead.private
    return table


def test_M6_dead_hand_detected_from_public_information() -> None:
    table = _south_dead_by_public_information()
    state = table.state
    assert state.seats[1].dead and "no line" in state.seats[1].dead_reason
    assert state.turn == 3 and not state.turn_state.needs_draw  # North plays on after her call
    assert not state.seats[3].dead and not state.seats[2].dead and not state.seats[0].dead


def test_M7_dead_hand_no_longer_draws_discards_or_calls() -> None:
    table = _south_dead_by_public_information()
    state = table.state
    assert legal_actions(table.game, 1) == []
    table.refuse(Draw(1), "Your hand is dead")
    table.refuse(Discard(1, state.seats[1].rack[0]), "Your hand is dead")
    table.discard(3, state.seats[3].rack[0])
    table.refuse(PassCall(1), "Your hand is dead")
    table.refuse(Hold(1), "Your hand is dead")
    table.refuse(Call(1, (), True), "Your hand is dead")
    # The window does not wait for a dead hand.
    assert set(public_view(table.game).waiting_for) == {0, 2}
    table.act(PassCall(0))
    table.act(PassCall(2))
    # ... and the dead hand is skipped in turn order: East -> West -> North -> East.
    assert state.turn == 0
    table.quiet_turn(0)
    assert state.turn == 2
    table.quiet_turn(2)
    assert state.turn == 3
    table.quiet_turn(3)
    assert state.turn == 0
    # Dead hands keep their exposures.
    assert state.seats[1].exposures[0].tiles == tiles("N N N J J")


def test_J4_M7_jokers_of_a_dead_hand_can_be_exchanged_and_the_dead_hand_pays() -> None:
    """West draws the last North, redeems a joker from South's dead exposure and completes 369-4 (WW pair):
    a self-pick (SC2); the dead South pays like everyone else (M7, SC4)."""
    table = _south_dead_by_public_information()
    table.discard_and_close(3, table.state.seats[3].rack[0])
    table.quiet_turn(0)  # East throws the 1 Dot; the dead South is skipped
    assert table.draw(2) == tile("N")
    assert ExchangeJoker(2, 1, 0, tile("N")) in legal_actions(table.game, 2)
    table.act(ExchangeJoker(2, 1, 0, tile("N")))
    assert table.state.seats[1].exposures[0].tiles == tiles("N N N N J")
    table.declare(2)
    result = table.state.result
    assert result is not None and result.winner == 2 and result.how == "self_pick"
    assert payments(table.state) == {(0, 2): 50, (1, 2): 50, (3, 2): 50}


def test_11_6_the_last_live_player_plays_on_alone() -> None:
    """Strict mode: South, West and North each declare in error and die; East draws and discards on her own
    (nobody may claim), until the wall ends in a wall game."""
    table = Table(KEEP_ALIVE, declarations="strict")
    state = table.state
    table.discard_and_close(0, table.racks[0][-1])
    for seat in (1, 2, 3):
        assert state.turn == seat
        table.draw(seat)
        table.declare(seat)
        assert state.seats[seat].dead
    assert state.live_seats == [0]
    assert state.turn == 0 and state.turn_state.needs_draw
    table.draw(0)
    events = table.discard(0, state.turn_state.drawn)  # type: ignore[arg-type]
    assert "call_window" not in event_types(events)
    assert state.phase == Phase.PLAY and state.turn == 0 and state.turn_state.needs_draw
    while state.phase != Phase.FINISHED:
        table.quiet_turn(0)
    assert state.result is not None and state.result.how == "wall"


# ------------------------------------------------------------------------------------------------ M10


def test_M10_wall_game_pays_nothing() -> None:
    table = Table(KEEP_ALIVE)
    play_to_wall_game(table)
    assert table.state.result is not None and table.state.result.how == "wall"
    assert table.state.result.winner is None
    assert payments(table.state) == {}
    assert public_view(table.game).result is not None and public_view(table.game).payouts == ()
