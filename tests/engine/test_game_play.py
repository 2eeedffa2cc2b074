"""Turns, calls and claim priority (docs/rules.md §4: P1-P14; §11.2, §11.5; TR1 hot wall)."""

from __future__ import annotations

import pytest
from support.game_tables import Table, event_types, one_event, payments
from support.tiles import tile, tiles

from bot.engine.actions import (
    TABLE,
    Call,
    CloseWindow,
    Discard,
    Draw,
    ExchangeJoker,
    Hold,
    PassCall,
)
from bot.engine.legal import legal_actions
from bot.engine.state import Phase
from bot.engine.tiles import Tile
from bot.engine.views import public_view

# ------------------------------------------------------------------------------------------------ P1, P2 turns


def test_P1_east_opens_by_discarding_without_drawing() -> None:
    table = Table()
    legal = legal_actions(table.game, 0)
    assert not any(isinstance(a, Draw) for a in legal)
    assert any(isinstance(a, Discard) for a in legal)
    table.refuse(Draw(0), "You already have your tile")
    for seat in (1, 2, 3):
        assert legal_actions(table.game, seat) == []
        table.refuse(Draw(seat), "East's turn")


def test_P2_a_turn_is_draw_then_discard() -> None:
    table = Table({0: "N", 1: "S"})
    table.discard_and_close(0, "N")
    state = table.state
    assert state.phase == Phase.PLAY and state.turn == 1 and state.turn_state.needs_draw
    assert legal_actions(table.game, 1) == [Draw(1)]
    table.refuse(Discard(1, tile("S")), "Draw a tile first")
    table.refuse(Draw(2), "South's turn")
    table.draw(1)
    table.refuse(Draw(1), "You already have your tile")
    table.refuse(Discard(1, tile("RD")), "You don't have Red Dragon")
    table.discard(1, "S")
    assert state.phase == Phase.CALL_WINDOW and state.discards[-1] == (1, tile("S"))


def test_P2_the_discard_is_named_by_the_table() -> None:
    table = Table({0: "5D"})
    events = table.discard(0, "5D")
    assert one_event(events, "discard").payload.tile == tile("5D") and not one_event(events, "discard").private


# ------------------------------------------------------------------------------------------------ P3, P12


def test_P3_only_the_latest_discard_can_be_claimed() -> None:
    table = Table({0: "5D", 1: "5D", 2: "5D 5D"})
    table.discard_and_close(0, "5D")
    table.draw(1)
    # The earlier 5 Dot is dead: there is no window to call into while South takes her turn.
    table.refuse(Call(2, tuple(tiles("5D 5D"))))
    table.discard(1, "5D")
    # The same tile discarded again: only this second one can be claimed, and it came from South.
    table.call(2, "5D 5D")
    table.close()
    assert table.state.seats[2].exposures[0].called_from == 1
    assert [t for _, t in table.state.discards] == tiles("5D")  # East's 5 Dot stays in the dead pool


def test_P12_a_discarded_joker_is_dead_and_opens_no_window() -> None:
    table = Table({0: "J", 1: "J J", 2: "3B 3B 3B 6Bx4 9Cx4 E E"})
    events = table.discard(0, "J")
    state = table.state
    assert "call_window" not in event_types(events)
    assert state.phase == Phase.PLAY and state.turn == 1 and state.turn_state.needs_draw
    table.refuse(Call(1, tuple(tiles("J J"))))
    table.refuse(Call(2, (), True))  # not even for Mah Jongg
    assert legal_actions(table.game, 2) == [] and legal_actions(table.game, 1) == [Draw(1)]


# ------------------------------------------------------------------------------------------------ P4, §11.2


def test_P4_window_stays_open_until_everyone_answers_and_the_next_player_cannot_draw() -> None:
    table = Table({0: "5D"})
    events = table.discard(0, "5D")
    state = table.state
    assert one_event(events, "call_window").payload.tile == tile("5D")
    assert public_view(table.game).waiting_for == (1, 2, 3)
    table.act(PassCall(1))
    table.refuse(Draw(1), "Wait for the call window")
    table.act(PassCall(3))
    assert state.phase == Phase.CALL_WINDOW and public_view(table.game).waiting_for == (2,)
    events = table.act(PassCall(2))
    # §11.2: closes early once every eligible player has passed.
    assert one_event(events, "window_closed").payload.claimed is False
    assert state.phase == Phase.PLAY and state.turn == 1 and state.turn_state.needs_draw
    table.refuse(CloseWindow(TABLE))


def test_P4_the_clock_closes_the_window() -> None:
    table = Table({0: "5D"})
    table.discard(0, "5D")
    table.act(PassCall(2))
    events = table.act(CloseWindow(TABLE))
    assert "window_closed" in event_types(events)
    assert table.state.phase == Phase.PLAY and table.state.turn == 1


def test_P4_each_player_answers_a_discard_once_and_never_her_own() -> None:
    table = Table({0: "5D", 1: "5D 5D"})
    table.discard(0, "5D")
    table.refuse(PassCall(0), "your own discard")
    table.refuse(Call(0, tuple(tiles("5D 5D"))), "your own discard")
    table.act(PassCall(1))
    table.refuse(Call(1, tuple(tiles("5D 5D"))), "already answered")
    table.refuse(PassCall(1), "already answered")


def test_P4_a_player_cannot_close_the_window_for_everyone() -> None:
    table = Table({0: "5D", 2: "5D 5D"})
    table.discard(0, "5D")
    table.refuse(CloseWindow(1))


def test_P4_only_the_clock_acts_as_the_table() -> None:
    table = Table({0: "1B", 3: "1B 1B"})
    table.discard(0, "1B")
    table.refuse(Call(TABLE, tuple(tiles("1B 1B"))))


# ------------------------------------------------------------------------------------------------ P5, P6, P7


def test_P5_no_call_for_a_pair_or_single_unless_mah_jongg() -> None:
    table = Table({0: "5D", 1: "5D J"})
    table.discard(0, "5D")
    table.refuse(Call(1, tuple(tiles("5D"))), "You can't call 5 Dot for a pair unless it completes Mah Jongg.")
    table.refuse(Call(1, ()), "You can't call 5 Dot for a single unless it completes Mah Jongg.")
    table.refuse(Call(1, tuple(tiles("J"))), "for a pair")  # J2: a joker never fills a pair
    table.refuse(Call(1, (), True), "doesn't complete a Mah Jongg")
    # The calls on offer are pungs (5D 5D J), never a pair or a single.
    calls = [a for a in legal_actions(table.game, 1) if isinstance(a, Call)]
    assert calls and all(len(a.tiles) >= 2 and not a.mahjong for a in calls)


def test_P5_an_exposure_is_one_tile_repeated() -> None:
    table = Table({0: "N", 1: "E W S"})
    table.discard(0, "N")
    # NEWS is four singles: never callable as a group.
    table.refuse(Call(1, tuple(tiles("E W S"))), "You can't expose East Wind with North Wind")


def test_P5_the_exposure_must_fit_an_exposed_card_line() -> None:
    table = Table({0: "5D", 1: "5D 5D 5D J J"})
    table.discard(0, "5D")
    table.refuse(Call(1, tuple(tiles("5D 5D 5D J J"))), "No exposed (X) line", "sextet of 5 Dot")
    table.call(1, "5D 5D 5D J")  # a quint of 5 Dots fits quint-3 (11111a 33b 55555c FF, odd shift)
    table.close()
    assert table.state.seats[1].exposures[0].tiles == tiles("5D 5D 5D 5D J")


def test_P5_1946_calls_only_for_a_kong_or_larger() -> None:
    table = Table({0: "5D", 1: "5D 5D 5D F"}, preset="nmjl-1946")
    table.discard(0, "5D")
    table.refuse(Call(1, tuple(tiles("5D 5D"))), "only a kong or larger")
    assert all(len(a.tiles) >= 3 for a in legal_actions(table.game, 1) if isinstance(a, Call) and not a.mahjong)
    table.call(1, "5D 5D 5D")
    table.close()
    assert table.state.seats[1].exposures[0].tiles == tiles("5D 5D 5D 5D")


def test_P6_a_group_found_only_on_concealed_lines_cannot_be_called() -> None:
    """A quint of East appears only in quint-4 (NNNNN 2468a EEEEE, C): a player on that hand may call only her
    Mah Jongg tile."""
    table = Table({0: "E", 1: "E E E J"})
    table.discard(0, "E")
    table.refuse(Call(1, tuple(tiles("E E E J"))), "No exposed (X) line", "quint of East")
    assert Call(1, tuple(tiles("E E E J")), False) not in legal_actions(table.game, 1)


def test_P7_the_caller_must_already_hold_the_rest_of_the_group() -> None:
    table = Table({0: "9C", 1: "9C J J"})
    table.discard(0, "9C")
    table.refuse(Call(1, tuple(tiles("9C 9C"))), "You don't have 2 x 9 Crak (you hold 1)")
    table.refuse(Call(1, tuple(tiles("9C J J J"))), "You don't have 3 x Joker (you hold 2)")
    # She cannot use a joker exchange to complete the group she is calling: no exchanges in a window.
    table.refuse(ExchangeJoker(1, 1, 0, tile("9C")), "Wait for the call window")
    # Jokers and no other natural are fine (SL-595 Q13).
    table.call(1, "J J")
    table.close()
    assert table.state.seats[1].exposures[0].tiles == tiles("9C J J")
    assert table.rack(1)[Tile.J] == 0 and table.rack(1)[tile("9C")] == 1


# ------------------------------------------------------------------------------------------------ P8, P9


def test_P8_P9_exposure_then_the_caller_discards_and_play_goes_to_her_right() -> None:
    table = Table({0: "9C", 2: "9C 9C N"})
    state = table.state
    table.discard(0, "9C")
    table.call(2, "9C 9C")
    events = table.close()
    exposure = one_event(events, "exposure")
    assert exposure.seat == 2 and list(exposure.payload.tiles) == tiles("9C 9C 9C") and not exposure.private
    assert [e.tiles for e in state.seats[2].exposures] == [tiles("9C 9C 9C")]  # exactly one group
    assert state.seats[2].tile_count == 14 and len(state.seats[2].rack) == 11
    assert state.phase == Phase.PLAY and state.turn == 2 and not state.turn_state.needs_draw
    table.refuse(Draw(2), "You already have your tile")  # the called tile replaces her draw
    assert state.discards == []  # the called tile left the discard pool
    south_rack = table.rack(1)
    table.discard_and_close(2, "N")
    # P9: play continues with the caller's right (North); South lost her turn.
    assert state.turn == 3 and state.turn_state.needs_draw
    assert table.rack(1) == south_rack
    table.quiet_turn(3)
    table.quiet_turn(0)
    assert state.turn == 1


# ------------------------------------------------------------------------------------------------ P10 priority

WAIT_9C = "3Bx4 6Bx4 9C J J E E"  # 369-4 (3333a 6666a 9999b EE), waiting on a third 9 Crak
WAIT_E_369 = "3B 3B 3B J 6Bx4 9Cx4 E"  # 369-4, waiting on East for the pair
WAIT_E_2468 = "E E J 4Dx3 6D 6D 8Dx3 W W"  # 2468-3 (EEEE 444a 66a 888a WW), waiting on the kong of East


def test_P10a_mahjong_claim_beats_nearer_exposure() -> None:
    table = Table({0: "9C", 1: "9C 9C", 2: WAIT_9C})
    table.discard(0, "9C")
    table.call(1, "9C 9C")  # South, next in turn, claims first for an exposure
    table.call_mahjong(2)
    events = table.act(PassCall(3))
    assert one_event(events, "window_closed").payload.winner == 2
    result = table.state.result
    assert result is not None and result.winner == 2 and result.how == "discard" and result.discarder == 0
    assert table.state.seats[1].exposures == []


@pytest.mark.parametrize("east", [0, 1, 2, 3])
def test_P10b_between_mahjong_claims_the_next_in_turn_after_the_discarder_wins(east: int) -> None:
    nearer, farther = (east + 1) % 4, (east + 3) % 4
    table = Table({east: "E", nearer: WAIT_E_369, farther: WAIT_E_2468}, east=east)
    table.discard(east, "E")
    table.call_mahjong(farther)  # claimed first, but sits farther from the discarder
    table.call_mahjong(nearer)
    table.close()
    result = table.state.result
    assert result is not None and result.winner == nearer and result.line == "369-4"


def test_P10b_nearest_mahjong_claim_wins_from_a_later_discarder() -> None:
    """West (seat 2) discards: North (3) is next in turn, South (1) is last."""
    table = Table({1: WAIT_E_369, 3: WAIT_E_2468, 2: "E"}, wall="1D 2D")
    table.discard_and_close(0, table.racks[0][-1])
    table.quiet_turn(1)
    table.draw(2)
    table.discard(2, "E")
    table.call_mahjong(1)
    table.call_mahjong(3)
    table.close()
    result = table.state.result
    assert result is not None and result.winner == 3 and result.line == "2468-3" and result.discarder == 2


def test_P10c_between_exposure_claims_the_next_in_turn_wins() -> None:
    table = Table({0: "9C", 1: "9C 9C", 2: "9C J"})
    table.discard(0, "9C")
    table.call(2, "9C J")
    table.call(1, "9C 9C")
    table.close()
    assert [e.tiles for e in table.state.seats[1].exposures] == [tiles("9C 9C 9C")]
    assert table.state.seats[2].exposures == [] and table.rack(2)[Tile.J] == 1
    assert table.state.turn == 1


# ------------------------------------------------------------------------------------------------ P11 hold


def test_P11_hold_keeps_the_window_open_once_per_player_per_discard() -> None:
    table = Table({0: "5D 6D"}, wall="1D 2D")
    state = table.state
    table.discard(0, "5D")
    events = table.act(Hold(1))
    assert one_event(events, "hold").payload.seconds == table.rules.hold_seconds
    table.refuse(Hold(1), "only once per discard")
    table.refuse(Hold(0), "your own discard")
    table.act(PassCall(2))
    table.act(PassCall(3))
    assert state.phase == Phase.CALL_WINDOW  # the holder has not answered yet
    assert Hold(1) not in legal_actions(table.game, 1) and PassCall(1) in legal_actions(table.game, 1)
    table.act(PassCall(1))
    assert state.phase == Phase.PLAY
    # A new discard, a new hold.
    table.quiet_turn(1)
    table.draw(2)
    table.discard(2, state.turn_state.drawn)  # type: ignore[arg-type]
    table.act(Hold(1))


# ------------------------------------------------------------------------------------------------ P13 flowers


def test_P13_1946_a_flower_may_never_be_discarded() -> None:
    table = Table({0: "F F 1D"}, preset="nmjl-1946")
    table.refuse(Discard(0, Tile.F), "Flowers may never be discarded")
    assert Discard(0, Tile.F) not in legal_actions(table.game, 0)


def test_P13_1946_a_rack_of_flowers_only_may_throw_a_flower_so_the_game_goes_on() -> None:
    """§11.7: with nothing but flowers in hand, no tile could be thrown; the game would stop for good."""
    table = Table({0: "F F F F F F F F F F F F F F"}, preset="nmjl-1946")
    assert Discard(0, Tile.F) in legal_actions(table.game, 0)
    table.discard(0, "F")
    assert table.state.discards[-1] == (0, Tile.F)


def test_P13_nmjl_flowers_are_ordinary_discards_and_any_flower_matches_any_flower() -> None:
    table = Table({0: "F", 2: "F F"})
    table.discard(0, "F")
    assert table.state.phase == Phase.CALL_WINDOW
    table.call(2, "F F")
    table.close()
    assert table.state.seats[2].exposures[0].tiles == tiles("F F F")


# ------------------------------------------------------------------------------------------------ P14, §11.5


def _last_discard(hands: dict[int, str]) -> Table:
    """Play to North's draw of the wall's last tile, an East, which she throws: the last discard. Jokers and
    flowers stay in the racks, so no hand is dead by then (§11.6)."""
    base = {0: "J J F F W", 1: "J F F W", 2: "J J F F", 3: "J J F W"}
    table = Table({**base, **hands}, full_wall="E")
    state = table.state
    table.discard_and_close(0, table.racks[0][-1])
    while len(state.wall) > 1:
        table.quiet_turn(state.turn)
    assert state.turn == 3  # 99 draws: the last one is North's
    assert table.draw(3) == tile("E") and not state.wall
    table.discard(3, "E")
    return table


def test_P14_last_discard_may_be_claimed_for_mah_jongg() -> None:
    table = _last_discard({1: WAIT_E_369})
    table.call_mahjong(1)
    table.close()
    result = table.state.result
    assert result is not None and result.winner == 1 and result.how == "discard" and result.discarder == 3
    assert payments(table.state) == {(3, 1): 50, (0, 1): 25, (2, 1): 25}


def test_P14_unclaimed_last_discard_is_a_wall_game() -> None:
    table = _last_discard({})
    events = table.pass_all()
    result = table.state.result
    assert result is not None and result.how == "wall" and result.winner is None
    assert table.state.phase == Phase.FINISHED
    assert payments(table.state) == {}  # M10
    assert "game_over" in event_types(events)


def test_11_5_last_discard_may_be_called_for_an_exposure_then_only_mah_jongg() -> None:
    """§11.5 / P14 [IMPL]: the last discard is treated like any other; after an exposure on it, the caller's own
    discard may be claimed only for Mah Jongg, and the game is a wall game if nobody does."""
    table = _last_discard({2: "E E N J F", 1: "N N J F"})
    state = table.state
    assert state.window is not None and not state.window.mahjong_only
    table.call(2, "E E")
    table.close()
    assert state.seats[2].exposures[0].tiles == tiles("E E E")
    assert state.phase == Phase.PLAY and state.turn == 2 and not state.turn_state.needs_draw
    events = table.discard(2, "N")
    assert one_event(events, "call_window").payload.mahjong_only is True
    table.refuse(Call(1, tuple(tiles("N N"))), "Only a Mah Jongg call is allowed now: the wall is empty.")
    table.close()
    assert state.result is not None and state.result.how == "wall"


def test_11_5_mah_jongg_on_the_callers_discard_after_the_last_exposure() -> None:
    # South waits on a pair of North for odd-3 (111a 333a 555b 777b NN, X 25), jokerless.
    table = _last_discard({2: "E E N J F", 1: "1Bx3 3Bx3 5Cx3 7Cx3 N"})
    table.call(2, "E E")
    table.close()
    table.discard(2, "N")
    table.call_mahjong(1)
    table.close()
    result = table.state.result
    assert result is not None and result.winner == 1 and result.discarder == 2 and result.line == "odd-3"
    assert payments(table.state) == {(2, 1): 100, (0, 1): 50, (3, 1): 50}  # SC3 jokerless


# ------------------------------------------------------------------------------------------------ TR1 hot wall


@pytest.mark.parametrize(("left", "hot"), [(13, False), (12, True), (5, True)])
def test_TR1_hot_wall_allows_only_mah_jongg_calls(left: int, hot: bool) -> None:
    tail = "9C " + " ".join(["1D", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "1C", "2C", "3C", "4C"][:left])
    table = Table({1: "9C 9C J F", 0: "J J F F", 2: "J J F F", 3: "J J F F"}, full_wall=tail, hot_wall=12)
    state = table.state
    table.discard_and_close(0, table.racks[0][-1])
    while len(state.wall) > left + 1:
        table.quiet_turn(state.turn)
    drawer = state.turn
    assert drawer != 1
    assert table.draw(drawer) == tile("9C") and len(state.wall) == left
    events = table.discard(drawer, "9C")
    assert one_event(events, "call_window").payload.mahjong_only is hot
    if hot:
        table.refuse(Call(1, tuple(tiles("9C 9C"))), "the wall is hot")
        assert not any(isinstance(a, Call) for a in legal_actions(table.game, 1))
    else:
        table.call(1, "9C 9C")
        table.close()
        assert table.state.seats[1].exposures[0].tiles == tiles("9C 9C 9C")


def test_TR1_hot_wall_is_off_by_default() -> None:
    table = Table({1: "9C 9C", 0: "J J F F", 2: "J J F F", 3: "J J F F"}, full_wall="9C 1D 2D 3D")
    state = table.state
    table.discard_and_close(0, table.racks[0][-1])
    while len(state.wall) > 4:
        table.quiet_turn(state.turn)
    drawer = state.turn
    table.draw(drawer)
    assert drawer != 1
    table.discard(drawer, "9C")
    assert state.window is not None and not state.window.mahjong_only


# ------------------------------------------------------------------------------------------------ §11.7 1946 window


def test_11_7_1946_a_discard_stays_claimable_until_the_next_player_discards() -> None:
    """P4 [1946] / H3: the window lasts until the next player discards; a claim made after she drew sends her
    drawn tile back to the wall (P4), and play goes on from the caller."""
    table = Table({0: "5D", 2: "5D 5D 5D"}, wall="1D 2D", preset="nmjl-1946")
    state = table.state
    table.discard(0, "5D")
    table.close()
    assert state.phase == Phase.PLAY and state.turn == 1
    south = table.rack(1)
    assert table.draw(1) == tile("1D")
    assert Call(2, tuple(tiles("5D 5D 5D")), False) in legal_actions(table.game, 2)
    events = table.call(2, "5D 5D 5D")
    assert "draw_returned" in event_types(events)
    assert table.rack(1) == south and state.wall[0] == tile("1D")
    assert state.seats[2].exposures[0].tiles == tiles("5D 5D 5D 5D") and state.seats[2].exposures[0].called_from == 0
    assert state.turn == 2 and not state.turn_state.needs_draw


def test_11_7_1946_the_window_ends_with_the_next_discard() -> None:
    table = Table({0: "5D", 2: "5D 5D 5D"}, wall="1D 2D", preset="nmjl-1946")
    table.discard(0, "5D")
    table.close()
    table.draw(1)
    table.discard(1, "1D")
    table.refuse(Call(2, tuple(tiles("5D 5D 5D"))), "with 1 Dot")  # now only South's 1 Dot is live
    table.close()
    table.refuse(Call(2, tuple(tiles("5D 5D 5D"))))


def test_11_7_1946_the_discarder_cannot_claim_her_own_discard_later() -> None:
    table = Table({0: "5D 5D 5D 5D"}, wall="1D", preset="nmjl-1946")
    table.discard(0, "5D")
    table.close()
    table.draw(1)
    assert not any(isinstance(a, Call) for a in legal_actions(table.game, 0))
    table.refuse(Call(0, tuple(tiles("5D 5D 5D"))))


def test_P4_nmjl_window_does_not_outlast_the_next_draw() -> None:
    table = Table({0: "5D", 2: "5D 5D 5D"})
    table.discard(0, "5D")
    table.close()
    table.draw(1)
    assert not any(isinstance(a, Call) for a in legal_actions(table.game, 2))
    table.refuse(Call(2, tuple(tiles("5D 5D 5D"))))


def test_11_7_1946_late_window_takes_calls_only() -> None:
    table = Table({0: "5D", 2: "5D 5D 5D"}, wall="1D 2D", preset="nmjl-1946")
    table.discard(0, "5D")
    table.close()
    table.draw(1)
    assert PassCall(2) not in legal_actions(table.game, 2) and Hold(2) not in legal_actions(table.game, 2)
    table.refuse(PassCall(2))
    table.refuse(Hold(2))
