"""Jokers in play (docs/rules.md §5: J1-J7; SC2 for exchanges that complete Mah Jongg)."""

from __future__ import annotations

from support.game_tables import Table, one_event, payments
from support.tiles import tile, tiles

from bot.engine.actions import Call, DeclareMahJongg, ExchangeJoker
from bot.engine.legal import legal_actions
from bot.engine.matching import exposure_verdict
from bot.engine.state import Phase
from bot.engine.tiles import Tile
from bot.engine.views import public_view


def _west_exposes_north_with_two_jokers(hands: dict[int, str], wall: str = "1D 2D 3D 4D") -> Table:
    """East discards North; West calls it with two jokers (J1: a group may be jokers apart from the called
    tile); West discards a junk tile and play moves to North, who must draw."""
    table = Table({0: "N", **hands, 2: "J J 9D " + hands.get(2, "")}, wall=wall)
    table.discard(0, "N")
    table.call(2, "J J")
    table.close()
    assert table.state.seats[2].exposures[0].tiles == tiles("N J J")
    table.discard_and_close(2, "9D")
    assert table.state.turn == 3 and table.state.turn_state.needs_draw
    return table


def test_J4_exchange_only_after_drawing() -> None:
    table = _west_exposes_north_with_two_jokers({3: "N"})
    table.refuse(ExchangeJoker(3, 2, 0, tile("N")), "Draw a tile first")
    table.refuse(ExchangeJoker(1, 2, 0, tile("N")), "North's turn")
    table.draw(3)
    assert ExchangeJoker(3, 2, 0, tile("N")) in legal_actions(table.game, 3)
    events = table.act(ExchangeJoker(3, 2, 0, tile("N")))
    exchange = one_event(events, "joker_exchange")
    assert not exchange.private and exchange.payload.tile == tile("N")
    assert table.rack(3)[Tile.J] == 1 and table.rack(3)[tile("N")] == 0
    assert table.state.seats[3].tile_count == 14


def test_J4_the_offered_tile_must_be_the_one_the_joker_stands_for() -> None:
    table = _west_exposes_north_with_two_jokers({3: "5D"})
    table.draw(3)
    table.refuse(ExchangeJoker(3, 2, 0, tile("5D")), "That joker stands for North Wind; you offered 5 Dot")
    table.refuse(ExchangeJoker(3, 2, 0, tile("N")), "You don't have 1 x North")
    table.refuse(ExchangeJoker(3, 2, 1, tile("N")), "has no exposure number 2")
    table.refuse(ExchangeJoker(3, 1, 0, tile("N")), "has no exposure number 1")
    table.refuse(ExchangeJoker(3, 7, 0, tile("N")), "There is no player in seat 7")


def test_J4_no_joker_no_exchange() -> None:
    table = Table({0: "9C", 1: "9C 9C", 3: "9C"}, wall="1D 2D 3D")
    table.discard(0, "9C")
    table.call(1, "9C 9C")
    table.close()
    table.discard_and_close(1, table.racks[1][-1])
    table.quiet_turn(2)
    table.draw(3)
    table.refuse(ExchangeJoker(3, 1, 0, tile("9C")), "no joker to exchange")


def test_J4_two_exchanges_from_two_players_in_one_turn() -> None:
    """West exposes N J J, South exposes S J J; North then redeems a joker from each on one turn."""
    table = Table({0: "N", 2: "J J S", 1: "J J", 3: "N S"}, wall="1D 2D 3D")
    state = table.state
    table.discard(0, "N")
    table.call(2, "J J")
    table.close()
    table.discard(2, "S")
    table.call(1, "J J")
    table.close()
    assert state.seats[1].exposures[0].tiles == tiles("S J J") and state.turn == 1
    table.discard_and_close(1, table.racks[1][-1])
    table.quiet_turn(2)
    table.draw(3)
    table.act(ExchangeJoker(3, 2, 0, tile("N")))
    table.act(ExchangeJoker(3, 1, 0, tile("S")))
    assert table.rack(3)[Tile.J] == 2
    assert state.seats[2].exposures[0].tiles.count(Tile.J) == 1
    assert state.seats[1].exposures[0].tiles.count(Tile.J) == 1
    assert state.phase == Phase.PLAY and state.turn == 3  # she still has to discard
    assert state.seats[3].tile_count == 14


def test_J4_exchange_after_a_call_and_from_ones_own_exposure() -> None:
    table = Table({0: "N", 2: "J J N"})
    table.discard(0, "N")
    table.call(2, "J J")
    table.close()
    assert table.state.turn_state.stage == "call"
    table.act(ExchangeJoker(2, 2, 0, tile("N")))
    assert table.state.seats[2].exposures[0].tiles == tiles("N N J")
    assert table.rack(2)[Tile.J] == 1


def test_J4_an_exchange_leaves_the_earlier_exposure_event_as_told() -> None:
    """The exposure event keeps the tiles as they were exposed, though a joker in them is exchanged later."""
    table = Table({0: "N", 2: "J J N"})
    table.discard(0, "N")
    table.call(2, "J J")
    (exposed,) = [e for e in table.close() if e.type == "exposure"]
    table.act(ExchangeJoker(2, 2, 0, tile("N")))
    assert list(exposed.payload.tiles) == tiles("N J J") and exposed.to_json()["tiles"] == ["N", "J", "J"]


def test_J7_after_an_exchange_the_exposure_represents_the_same_tiles() -> None:
    table = _west_exposes_north_with_two_jokers({3: "N"})
    table.draw(3)
    table.act(ExchangeJoker(3, 2, 0, tile("N")))
    exposure = table.state.seats[2].exposures[0]
    assert exposure.tile == tile("N") and sorted(exposure.tiles) == sorted(tiles("N N J"))
    assert exposure.called_from == 0
    assert exposure_verdict(table.card, exposure.tiles).legal
    shown = public_view(table.game).seats[2].exposures
    assert shown == (tuple(exposure.tiles),)


def test_J5_M1c_joker_exchange_completing_mah_jongg_is_a_self_pick() -> None:
    """North draws a North, gives it for West's joker and so completes 369-4 (3333a 6666a 9999b EE, X 25):
    SC2, everyone pays 2V = 50."""
    table = _west_exposes_north_with_two_jokers({3: "3Bx3 6Bx4 9Cx4 E E"}, wall="N 1D")
    assert table.draw(3) == tile("N")
    table.act(ExchangeJoker(3, 2, 0, tile("N")))
    assert DeclareMahJongg(3) in legal_actions(table.game, 3)
    table.declare(3)
    result = table.state.result
    assert result is not None and result.winner == 3 and result.how == "self_pick" and not result.jokerless
    assert payments(table.state) == {(0, 3): 50, (1, 3): 50, (2, 3): 50}


def test_J2_a_joker_never_fills_a_pair() -> None:
    table = Table({0: "3Bx4 6Bx4 9Cx4 E J"})
    assert DeclareMahJongg(0) not in legal_actions(table.game, 0)
    table.refuse(DeclareMahJongg(0), "not a Mah Jongg")
    other = Table({0: "E", 1: "3Bx4 6Bx4 9Cx4 J"})
    other.discard(0, "E")
    other.refuse(Call(1, (), True), "doesn't complete a Mah Jongg")


def test_J1_a_group_may_be_all_jokers_but_the_called_tile() -> None:
    table = Table({0: "9C", 1: "J J J"})
    table.discard(0, "9C")
    assert Call(1, tuple(tiles("J J J")), False) in legal_actions(table.game, 1)
    table.call(1, "J J J")
    table.close()
    assert table.state.seats[1].exposures[0].tiles == tiles("9C J J J")


def test_J4_1946_wild_flowers_are_not_exchanged() -> None:
    table = Table({0: "5D", 1: "5D 5D F", 2: "5D"}, wall="1D 2D", preset="nmjl-1946")
    table.discard(0, "5D")
    table.call(1, "5D 5D F")
    table.close()
    assert table.state.seats[1].exposures[0].tiles == tiles("5D 5D 5D F")
    table.discard_and_close(1, table.racks[1][-1])
    table.draw(2)
    table.refuse(ExchangeJoker(2, 1, 0, tile("5D")), "Wild flowers can't be exchanged")
    assert not any(isinstance(a, ExchangeJoker) for a in legal_actions(table.game, 2))


def test_J3_a_quint_of_numbers_needs_a_joker() -> None:
    """Only four 5 Dots exist: a quint called on the fourth needs at least one joker from the rack."""
    table = Table({0: "5D", 1: "5D 5D 5D J"})
    table.discard(0, "5D")
    table.refuse(Call(1, tuple(tiles("5D 5D 5D 5D"))), "You don't have 4 x 5 Dot (you hold 3)")
    calls = [a for a in legal_actions(table.game, 1) if isinstance(a, Call) and len(a.tiles) == 4]
    assert calls == [Call(1, tuple(tiles("5D 5D 5D J")), False)]
