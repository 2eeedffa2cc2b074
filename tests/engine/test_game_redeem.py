"""M3 (docs/rules.md §6): a Mah Jongg called on a discard and finished by redeeming jokers from exposures, with P7
kept for the group the discard completes, X lines only, paid as a self-pick (SC2)."""

from __future__ import annotations

from support.game_tables import Table, event_types, one_event, payments
from support.tiles import tile, tiles

from bot.ai.selfplay import computer_move
from bot.engine import payloads
from bot.engine.actions import Call
from bot.engine.legal import legal_actions
from bot.engine.state import Phase
from bot.engine.tiles import Tile

# 369-4: 3333a 6666a 9999b EE (or WW), X 25.


def _west_exposes_north_with_two_jokers(hands: dict[int, str]) -> Table:
    """East throws North, West calls it with two jokers and throws 9 Dot; North has a quiet turn; East has
    drawn and is about to discard."""
    table = Table({**hands, 0: "N " + hands.get(0, ""), 2: "J J 9D"}, wall="1D 2D")
    table.discard(0, "N")
    table.call(2, "J J")
    table.close()
    assert table.state.seats[2].exposures[0].tiles == tiles("N J J")
    table.discard_and_close(2, "9D")
    table.quiet_turn(3)
    table.draw(0)
    return table


def test_M3_a_mahjong_on_a_discard_finished_by_redeeming_a_joker() -> None:
    """South holds 3333 6666 999 E and a North: East's East makes the pair, and giving her North for a joker in
    West's N J J finishes the kong of 9 Crak. One claim does it all; everyone pays 2V (a self-pick, SC2)."""
    table = _west_exposes_north_with_two_jokers({0: "E", 1: "3Bx4 6Bx4 9Cx3 E N"})
    table.discard(0, "E")
    assert Call(1, (), True) in legal_actions(table.game, 1)
    events = table.call_mahjong(1) + table.close()
    assert event_types(events)[-3:] == ["joker_exchange", "mahjong", "game_over"]
    exchange = one_event(events, "joker_exchange")
    assert exchange.seat == 1 and exchange.payload == payloads.JokerExchange(owner=2, exposure=0, tile=tile("N"))
    assert sorted(table.state.seats[2].exposures[0].tiles) == sorted(tiles("N N J"))
    result = table.state.result
    assert result is not None and result.winner == 1 and result.line == "369-4"
    assert result.how == "self_pick" and result.discarder is None and not result.jokerless
    assert sorted(t for g in result.tiles for t in g) == sorted(tiles("3Bx4 6Bx4 9Cx3 J E E"))
    assert payments(table.state) == {(0, 1): 50, (2, 1): 50, (3, 1): 50}


def test_M3_P7_a_redeemed_joker_never_completes_the_group_the_discard_is_called_for() -> None:
    """South holds 3333 6666 99 EE and a North: East's 9 Crak would need a joker in its own kong, and a joker she
    only gets by redeeming can't complete the group she calls (P7, SL-131). No Mah Jongg is offered; a claim is
    refused with nothing changed."""
    table = _west_exposes_north_with_two_jokers({0: "9C", 1: "3Bx4 6Bx4 9C 9C E E N"})
    table.discard(0, "9C")
    assert all(not (isinstance(a, Call) and a.mahjong) for a in legal_actions(table.game, 1))
    table.refuse(Call(1, (), True), "doesn't complete a Mah Jongg")


def test_M3_a_concealed_line_is_never_finished_by_redeeming() -> None:
    """2026-5 (2026a EEEE 2222b 66c, C 35): South's East kong is made by the discard, and redeeming her North
    would fill the kong of 2 Crak, but a concealed hand must be whole when its last tile is claimed."""
    table = _west_exposes_north_with_two_jokers({0: "E", 1: "2B WD 2B 6B E E E 2C 2C 2C 6D 6D N"})
    table.discard(0, "E")
    assert all(not (isinstance(a, Call) and a.mahjong) for a in legal_actions(table.game, 1))
    table.refuse(Call(1, (), True), "doesn't complete a Mah Jongg")


def test_M3_J4_a_joker_may_be_redeemed_from_the_callers_own_exposure() -> None:
    """South has exposed 6B 6B J J and holds a loose 6 Bam: on East's East she gives that 6 Bam for her own
    joker, which makes her 3333, and wins."""
    table = Table({0: "6B E", 1: "6B 6B J J 3Bx3 9Cx4 E"}, wall="1D 2D 3D")
    table.discard(0, "6B")
    table.call(1, "6B J J")
    table.close()
    table.discard_and_close(1, table.racks[1][-1])
    table.quiet_turn(2)
    table.quiet_turn(3)
    table.draw(0)
    table.discard(0, "E")
    events = table.call_mahjong(1) + table.close()
    exchange = one_event(events, "joker_exchange")
    assert exchange.payload == payloads.JokerExchange(owner=1, exposure=0, tile=tile("6B"))
    result = table.state.result
    assert result is not None and result.winner == 1 and result.how == "self_pick"
    assert sorted(table.state.seats[1].exposures[0].tiles) == sorted(tiles("6B 6B 6B J"))


def test_M3_the_computer_players_take_a_mahjong_that_needs_a_redemption() -> None:
    table = _west_exposes_north_with_two_jokers({0: "E", 1: "3Bx4 6Bx4 9Cx3 E N"})
    table.discard(0, "E")
    for level in ("easy", "normal", "hard"):
        assert computer_move(level, table.game, 1) == Call(1, (), True)


def test_M3_P10b_the_nearer_claim_wins_though_it_needs_a_redemption() -> None:
    """South (finishing by a redemption) and North (a plain Mah Jongg) both claim East's East: South is next in
    turn after East, so hers wins (P10 b); a claim that needs a redemption ranks as any Mah Jongg claim."""
    table = _west_exposes_north_with_two_jokers({0: "E", 1: "3Bx4 6Bx4 9Cx3 E N", 3: "3Dx4 6Dx4 9Bx4 E"})
    table.discard(0, "E")
    table.call_mahjong(3)
    table.call_mahjong(1)
    table.close()
    result = table.state.result
    assert table.state.phase == Phase.FINISHED and result is not None and result.winner == 1


def test_M3_1946_wild_flowers_are_never_redeemed_for_a_mahjong() -> None:
    """dragons-1 (RRRR 0000 GGGG NN, X 70): South lacks a wild for her kong of Green and holds a spare 6 Crak;
    West's kong of 6 Crak lies with three flowers. Wild flowers are never exchanged under the 1946 rules
    (§11.7), so East's North is no Mah Jongg for her."""
    table = Table({0: "6C N", 1: "RD RD RD RD WD WD WD WD GD GD GD N 6C", 2: "F F F 9D"}, preset="nmjl-1946",
                  wall="1D 2D 3D 4D")
    assert table.card.wild == Tile.F
    table.discard(0, "6C")
    table.call(2, "F F F")
    table.close()
    table.discard_and_close(2, "9D")
    table.quiet_turn(3)
    table.draw(0)
    table.discard(0, "N")
    assert all(not (isinstance(a, Call) and a.mahjong) for a in legal_actions(table.game, 1))
    table.refuse(Call(1, (), True), "doesn't complete a Mah Jongg")
