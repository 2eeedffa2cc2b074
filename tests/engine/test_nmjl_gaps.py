"""Three gaps in the card rules, closed (docs/rules.md §6, §11.4, §11.6; §4 P10):

* M6/M7: a hand is dead the moment public information kills it: whenever the tiles in sight change (a discard,
  a call window closing, an exposure, a joker exchange), not only at the start of its own turn; and a dead hand
  can no longer call, so it never wins a race for a tile;
* CH9: two players, sitting opposite, 14/13 tiles, no Charleston;
* P10(c): "first to expose wins" as a table option.
"""

from __future__ import annotations

from support.game_tables import Table, event_types, one_event, payments
from support.tiles import tiles

from bot.engine.actions import Call, Draw, ExchangeJoker, PassCall
from bot.engine.deal import next_east
from bot.engine.legal import legal_actions
from bot.engine.state import Phase
from bot.engine.tiles import Tile
from bot.engine.views import public_view

WAIT_9C = "3Bx4 6Bx4 9C J J E E"  # 369-4 (3333a 6666a 9999b EE), waiting on a third 9 Crak


def _junk(table: Table, seat: int) -> int:
    """A tile of the seat's rack that no scenario here cares about (a suit tile)."""
    return next(t for t in reversed(table.state.seats[seat].rack) if t <= Tile.D9 and t != tiles("9C")[0])


def _south_on_wd6(east: str = "N", west: str = "", north: str = "", south_extra: str = "", wall: str = "") -> Table:
    """East throws North; South calls it for a quint N N N J J, which only wd-6 (EE NNNNN DDDx SSSS) holds: her
    hand now lives on a pair of East. South throws a spare tile, nobody calls it."""
    table = Table({0: east, 1: "N N J J S S S" + south_extra, 2: west, 3: north}, wall=wall)
    table.discard(0, "N")
    table.call(1, "N N J J")
    table.close()
    assert table.state.seats[1].exposures[0].tiles == tiles("N N N J J")
    table.discard(1, _junk(table, 1))
    table.close()
    return table


def _turn(table: Table, seat: int, throw: str | None = None) -> list:  # type: ignore[type-arg]
    """``seat`` draws and throws ``throw`` (or a spare tile); returns the discard's events."""
    table.draw(seat)
    return table.discard(seat, throw if throw is not None else _junk(table, seat))


def test_M6_a_hand_dies_when_the_window_on_its_last_hope_closes_not_at_its_next_turn() -> None:
    """The third East goes out on West's discard; North, not South, plays next. South is dead at once, so she
    can't call North's South for the kong her dead line would want."""
    table = _south_on_wd6(west="E E", north="E S", wall="1D 2D 3D 4D 5D 6D")
    _turn(table, 2, "E")
    table.close()
    _turn(table, 3, "E")
    table.close()
    _turn(table, 0)
    table.close()
    _turn(table, 1)
    table.close()
    assert not table.state.seats[1].dead  # two Easts out: the pair may still come
    _turn(table, 2, "E")
    assert not table.state.seats[1].dead  # while the East may be called, it is not out of reach
    events = table.close()
    dead = one_event(events, "dead_hand")
    kinds = event_types(events)
    assert dead.seat == 1 and table.state.seats[1].dead and kinds.index("dead_hand") < kinds.index("turn")
    assert table.state.turn == 3
    _turn(table, 3, "S")
    table.refuse(Call(1, tuple(tiles("S S S")), False), "Your hand is dead")
    assert legal_actions(table.game, 1) == [] and 1 not in public_view(table.game).waiting_for


def test_M6_a_discard_can_kill_its_own_discarder() -> None:
    """South throws the third East herself: she can never have it back, so she is dead as she discards, and the
    window does not wait for her."""
    table = _south_on_wd6(west="E", north="E", south_extra=" E", wall="1D 2D 3D 4D")
    _turn(table, 2, "E")
    table.close()
    _turn(table, 3, "E")
    table.close()
    _turn(table, 0)
    table.close()
    events = _turn(table, 1, "E")
    assert event_types(events) == ["discard", "dead_hand", "call_window"] and table.state.seats[1].dead
    assert set(public_view(table.game).waiting_for) == {0, 2, 3}


def test_M7_a_call_that_would_kill_the_caller_is_refused() -> None:
    """Three Easts are out before East throws North: the quint would fit only wd-6, whose pair of East can't be
    had. The call is refused and not offered; South's hand stays live."""
    table = Table({0: "E N", 1: "N N J J", 2: "E", 3: "E"}, wall="1D 2D 3D 4D 5D")
    table.discard_and_close(0, "E")
    _turn(table, 1)
    table.close()
    _turn(table, 2, "E")
    table.close()
    _turn(table, 3, "E")
    table.close()
    _turn(table, 0, "N")
    assert Call(1, tuple(tiles("N N J J")), False) not in legal_actions(table.game, 1)
    table.refuse(Call(1, tuple(tiles("N N J J")), False), "would leave your hand dead")
    assert not table.state.seats[1].dead and PassCall(1) in legal_actions(table.game, 1)


def test_M6_a_joker_exchange_can_kill_a_hand() -> None:
    """North's pung of East holds one natural; one more East is discarded: two out, South's pair may still come.
    West gives the drawn East for one of North's jokers: three Easts are out, and South is dead there and then."""
    table = _south_on_wd6(east="N E", west="E", north="J J", wall="1D 2D 3D E")
    table.draw(2)
    table.discard(2, "E")
    table.call(3, "J J")
    table.close()
    table.discard(3, _junk(table, 3))
    table.close()
    _turn(table, 0, "E")
    table.close()
    _turn(table, 1)
    table.close()
    assert not table.state.seats[1].dead
    assert table.draw(2) == tiles("E")[0]
    events = table.act(ExchangeJoker(2, 3, 0, tiles("E")[0]))
    assert event_types(events) == ["joker_exchange", "dead_hand"] and one_event(events, "dead_hand").seat == 1
    assert table.state.turn == 2 and not table.state.seats[2].dead


# ------------------------------------------------------------------------------------------------ CH9


def test_CH9_two_players_sit_opposite_with_14_and_13_and_no_charleston() -> None:
    for east in range(4):
        table = Table(east=east, players=2, charleston=True)
        state = table.state
        seated = [s for s in range(4) if not state.seats[s].empty]
        assert seated == sorted([east, (east + 2) % 4])
        assert len(state.seats[east].rack) == 14 and len(state.seats[(east + 2) % 4].rack) == 13
        assert state.phase == Phase.PLAY and state.charleston is None  # no Charleston even when asked for
        assert len(state.wall) == 152 - 27


def test_CH9_two_players_take_turns_and_pay_each_other() -> None:
    table = Table({0: "9C", 2: WAIT_9C}, wall="1D", players=2)
    state = table.state
    table.discard_and_close(0, table.racks[0][-1])
    assert state.turn == 2
    table.draw(2)
    table.refuse(Draw(1), "There is no player in seat 1")
    table.discard_and_close(2, "1D")
    assert state.turn == 0
    table.draw(0)
    table.discard(0, "9C")
    table.call_mahjong(2)
    result = state.result
    assert result is not None and result.winner == 2 and result.discarder == 0
    assert list(payments(state)) == [(0, 2)]  # nobody else is there to pay
    assert next_east(state) == 2  # the deal passes across


# ------------------------------------------------------------------------------------------------ P10(c)


def test_P10c_first_exposed_wins_as_a_table_option() -> None:
    table = Table({0: "9C", 1: "9C 9C", 2: "9C J"}, first_exposed_wins=True)
    table.discard(0, "9C")
    table.call(2, "9C J")  # West exposes first
    table.call(1, "9C 9C")  # South, nearer, too late
    table.close()
    assert [e.tiles for e in table.state.seats[2].exposures] == [tiles("9C 9C J")]
    assert table.state.seats[1].exposures == [] and table.state.turn == 2


def test_P10c_first_exposed_wins_still_loses_to_mahjong() -> None:
    table = Table({0: "9C", 2: "9C J", 3: WAIT_9C}, first_exposed_wins=True)
    table.discard(0, "9C")
    table.call(2, "9C J")
    table.call_mahjong(3)
    table.close()
    result = table.state.result
    assert result is not None and result.winner == 3 and table.state.seats[2].exposures == []


def test_P10c_by_default_the_nearest_exposure_claim_wins() -> None:
    table = Table({0: "9C", 1: "9C 9C", 2: "9C J"})
    table.discard(0, "9C")
    table.call(2, "9C J")
    table.call(1, "9C 9C")
    table.close()
    assert table.state.seats[2].exposures == [] and table.state.turn == 1
