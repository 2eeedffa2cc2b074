"""Seats, deal, turn order, East's rotation and the heavenly hand (docs/rules.md §2: S1, S3-S6; §11.3, §11.4)."""

from __future__ import annotations

from collections import Counter

import pytest
from support.game_tables import (
    CARD_1946,
    KEEP_ALIVE,
    KEEP_ALIVE_1946,
    PRACTICE,
    Table,
    one_event,
    payments,
    play_to_wall_game,
    tiles_in_game,
    tiles_in_set,
)
from support.tiles import tiles

from bot.engine.actions import CharlestonPass, CharlestonVote, CourtesyOffer, DeclareMahJongg, Discard, Draw
from bot.engine.game import Game, next_east, tile_set_for
from bot.engine.legal import legal_actions
from bot.engine.rules import table_rules
from bot.engine.state import Phase
from bot.engine.tiles import STANDARD, Tile

# ------------------------------------------------------------------------------------------------ S1 turn order


def _turn_sequence(table: Table, turns: int) -> list[int]:
    """Seats in the order they get to draw, after East's opening discard."""
    state = table.state
    seat = state.turn
    table.act(Discard(seat, next(t for t in state.seats[seat].rack if t != Tile.F or table.rules.discard_flowers)))
    if state.phase == Phase.CALL_WINDOW:
        table.close()
    order = []
    for _ in range(turns):
        assert state.turn_state.needs_draw
        order.append(state.turn)
        table.quiet_turn(state.turn)
    return order


@pytest.mark.parametrize("east", [0, 1, 2, 3])
def test_S1_turns_pass_to_the_right_east_south_west_north(east: int) -> None:
    table = Table(east=east)
    assert table.state.turn == east
    # S1: E -> S -> W -> N, i.e. each seat is followed by seat + 1.
    assert _turn_sequence(table, 8) == [(east + k) % 4 for k in range(1, 9)]


def test_S1_three_player_turn_order_skips_the_empty_chair() -> None:
    table = Table(players=3)
    empty = 3  # CH8/§11.4: the chair before East (east + 3) stays empty
    assert table.state.seats[empty].empty
    assert _turn_sequence(table, 6) == [1, 2, 0, 1, 2, 0]


def test_S1_seat_winds_follow_east() -> None:
    from bot.engine.game import seat_wind

    game, _ = Game.new(PRACTICE, table_rules(charleston=False), 1, east=2)
    assert [seat_wind(game.state, s) for s in range(4)] == ["West", "North", "East", "South"]


# ------------------------------------------------------------------------------------------------ S3 deal sizes


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("east", [0, 3])
def test_S3_deal_east_14_others_13_and_99_tiles_left_to_draw(seed: int, east: int) -> None:
    game, events = Game.new(PRACTICE, table_rules(charleston=False), seed, east=east)
    state = game.state
    assert [len(s.rack) for s in state.seats] == [14 if s == east else 13 for s in range(4)]
    assert len(state.wall) == 152 - 14 - 3 * 13 == 99
    # T1: the deal uses exactly the 152-tile set, no tile more or less.
    assert STANDARD.size == 152
    assert tiles_in_game(state) == tiles_in_set(STANDARD)
    assert one_event(events, "deal").payload.wall == 99


def test_S3_deal_is_a_seeded_shuffle() -> None:
    rules = table_rules(charleston=False)
    a, _ = Game.new(PRACTICE, rules, 5)
    b, _ = Game.new(PRACTICE, rules, 5)
    c, _ = Game.new(PRACTICE, rules, 6)
    assert a.state.to_json() == b.state.to_json()
    assert [s.rack for s in a.state.seats] != [s.rack for s in c.state.seats]


def test_S3_three_players_deal_14_13_13_from_the_full_set() -> None:
    game, _ = Game.new(PRACTICE, table_rules(players=3), 4, east=1)
    state = game.state
    empty = (1 + 3) % 4
    assert state.seats[empty].empty and state.seats[empty].rack == []
    assert sorted(len(s.rack) for s in state.seats) == [0, 13, 13, 14]
    assert len(state.seats[1].rack) == 14
    assert len(state.wall) == 152 - 40
    assert tiles_in_game(state) == tiles_in_set(STANDARD)
    # CH8 / §11.4: no Charleston with three players by default; East opens the play.
    assert state.phase == Phase.PLAY and state.turn == 1


@pytest.mark.parametrize("seed", [1, 2])
def test_S3_1946_deal_one_flower_each_then_12_from_the_154_tile_set(seed: int) -> None:
    rules = table_rules("nmjl-1946", charleston=False)
    tile_set = tile_set_for(rules)
    assert tile_set.size == 136 + 18 == 154
    assert tile_set.counts[Tile.F] == 18 and tile_set.counts[Tile.J] == 0
    game, _ = Game.new(CARD_1946, rules, seed)
    state = game.state
    assert [len(s.rack) for s in state.seats] == [14, 13, 13, 13]
    assert all(Tile.F in s.rack for s in state.seats)  # H1 / §11.7
    assert len(state.wall) == 154 - 53
    assert tiles_in_game(state) == tiles_in_set(tile_set)


def test_S3_blanks_grow_the_wall() -> None:
    rules = table_rules(blanks=6, charleston=False)
    game, _ = Game.new(PRACTICE, rules, 3)
    assert tile_set_for(rules).size == 158
    assert len(game.state.wall) == 158 - 53  # T6: the wall grows by the added tiles
    assert tiles_in_game(game.state)[Tile.BL] == 6


def test_S3_explicit_deal_must_have_the_right_sizes() -> None:
    from bot.engine.rules import RulesError

    hands = [tiles("1B") * 1 + tiles("2B 3B 4B 5B 6B 7B 8B 9B 1C 2C 3C 4C"), [], [], []]  # 13 for East
    with pytest.raises(RulesError, match="must be dealt 14 tiles"):
        Game.new(PRACTICE, table_rules(), 1, deal=(hands, []))
    too_many = [tiles("1Bx4") + tiles("1B") + tiles("2B 3B 4B 5B 6B 7B 8B 9B"), [], [], []]
    with pytest.raises(RulesError):
        Game.new(PRACTICE, table_rules(), 1, deal=(too_many, []))


# ------------------------------------------------------------------------------------------------ S4 counts


def test_S4_players_hold_13_except_east_before_her_discard_and_a_player_on_her_turn() -> None:
    table = Table()
    state = table.state
    assert [s.tile_count for s in state.seats] == [14, 13, 13, 13]
    table.act(Discard(0, state.seats[0].rack[0]))
    table.close()
    assert [s.tile_count for s in state.seats] == [13, 13, 13, 13]
    table.act(Draw(1))
    assert [s.tile_count for s in state.seats] == [13, 14, 13, 13]


# ------------------------------------------------------------------------------------------------ S5 rotation


def _win_for_south(preset: str = "nmjl", east: int = 0) -> Table:
    """South (east + 1) wins on East's discard: 369-4 on the practice card, odd-1 on the 1946 card."""
    south = (east + 1) % 4
    if preset == "nmjl":
        table = Table({east: "E", south: "3B 3B 3B J 6Bx4 9Cx4 E"}, east=east)
        table.discard(east, "E")
    else:
        table = Table({east: "3B F", south: "1Bx4 F F 3B 5Bx4 F F"}, east=east, preset=preset)
        table.discard(east, "3B")
    table.call_mahjong(south)
    table.close()
    assert table.state.result is not None and table.state.result.winner == south
    return table


@pytest.mark.parametrize("east", [0, 3])
def test_S5_nmjl_east_passes_right_after_a_win(east: int) -> None:
    table = _win_for_south("nmjl", east)
    assert next_east(table.state) == (east + 1) % 4


def test_S5_nmjl_east_passes_right_after_a_wall_game_too() -> None:
    table = Table(KEEP_ALIVE, east=2)
    play_to_wall_game(table)
    assert table.state.result is not None and table.state.result.how == "wall"
    assert next_east(table.state) == 3


def test_S5_1946_east_keeps_the_deal_after_a_wall_game() -> None:
    table = Table(KEEP_ALIVE_1946, east=1, preset="nmjl-1946")
    play_to_wall_game(table)
    assert table.state.result is not None and table.state.result.how == "wall"
    assert next_east(table.state) == 1


def test_S5_1946_the_deal_passes_after_any_mah_jongg() -> None:
    table = _win_for_south("nmjl-1946", east=1)
    assert next_east(table.state) == 2


def test_S5_three_players_east_passes_to_a_player() -> None:
    table = Table({s: KEEP_ALIVE[s] for s in (0, 1, 2)}, players=3, east=0)
    play_to_wall_game(table)
    nxt = next_east(table.state)
    assert nxt == 1 and not table.state.seats[nxt].empty


# ------------------------------------------------------------------------------------------------ S6 heavenly

HEAVENLY = "3B 3B 3B J 6B 6B 6B J 9C 9C 9C J E E"  # 369-4 (X 25) with three jokers


def test_S6_heavenly_hand_declared_before_the_charleston_wins_as_a_self_pick() -> None:
    table = Table({0: HEAVENLY}, charleston=True)
    assert table.state.phase == Phase.CHARLESTON
    assert DeclareMahJongg(0) in legal_actions(table.game, 0)
    events = table.declare(0)
    result = table.state.result
    assert result is not None and result.how == "heavenly" and result.winner == 0 and result.line == "369-4"
    assert result.self_pick
    assert table.state.phase == Phase.FINISHED
    # SC2: paid as a self-pick, 2V = 50 from everyone.
    assert payments(table.state) == {(1, 0): 50, (2, 0): 50, (3, 0): 50}
    assert one_event(events, "mahjong").payload.how == "heavenly"


def test_S6_only_east_declares_during_the_charleston_and_only_before_passing() -> None:
    table = Table({0: HEAVENLY, 1: "1B 2B 3B"}, charleston=True)
    table.refuse(DeclareMahJongg(1), "only East")
    table.act(CharlestonPass(0, tuple(tiles("3B 6B 9C"))))
    # S6: a hand that is (or becomes) complete during the Charleston must keep passing.
    assert DeclareMahJongg(0) not in legal_actions(table.game, 0)
    table.refuse(DeclareMahJongg(0), "before passing")


def test_S6_incomplete_dealt_hand_cannot_be_declared() -> None:
    table = Table({0: "3B 3B 3B J 6B 6B 6B J 9C 9C 9C J E N"}, charleston=True)
    assert DeclareMahJongg(0) not in legal_actions(table.game, 0)
    table.refuse(DeclareMahJongg(0), "not a Mah Jongg")


def test_11_3_heavenly_hand_after_the_charleston_before_easts_first_discard() -> None:
    """§11.3: East's hand completed by the Charleston may be declared before her first discard, as heavenly.

    East keeps 3B 3B J 6B 6B J 9C J and passes the rest; North's right pass brings 3B 6B 9C, West's across pass
    brings 9C E E; everyone passes three blind on the first Left, so nothing moves (CH7); one player stops (CH3)
    and nobody offers a courtesy tile."""
    table = Table({0: "3B 3B J 6B 6B J 9C J 1D 4C 7B 2C 5D 8B", 2: "9C E E", 3: "3B 6B 9C"},
                  charleston=True)
    table.act(CharlestonPass(0, tuple(tiles("1D 4C 7B"))))
    table.act(CharlestonPass(1, tuple(table.state.seats[1].rack[:3])))
    table.act(CharlestonPass(2, tuple(table.state.seats[2].rack[3:6])))
    table.act(CharlestonPass(3, tuple(tiles("3B 6B 9C"))))  # first right: North gives to East
    for seat in (0, 1, 3):
        table.act(CharlestonPass(seat, tuple(
            tiles("2C 5D 8B") if seat == 0 else [t for t in table.state.seats[seat].rack if t != Tile.J][:3])))
    table.act(CharlestonPass(2, tuple(tiles("9C E E"))))  # first across: West gives to East
    assert table.rack(0) == Counter(tiles(HEAVENLY))
    for seat in range(4):
        table.act(CharlestonPass(seat, (), 3))  # first left, all blind
    assert table.rack(0) == Counter(tiles(HEAVENLY))
    table.act(CharlestonVote(2, True))
    for seat in range(4):
        table.act(CourtesyOffer(seat, ()))
    state = table.state
    assert state.phase == Phase.PLAY and state.turn == 0 and not state.turn_state.needs_draw
    assert DeclareMahJongg(0) in legal_actions(table.game, 0)
    table.declare(0)
    assert state.result is not None and state.result.how == "heavenly"
    assert payments(state) == {(1, 0): 50, (2, 0): 50, (3, 0): 50}


def test_11_3_heavenly_hand_without_a_charleston() -> None:
    table = Table({0: HEAVENLY})
    table.declare(0)
    assert table.state.result is not None and table.state.result.how == "heavenly"


def test_S6_not_heavenly_once_east_has_discarded() -> None:
    """East's later self-drawn win is an ordinary self-pick."""
    table = Table({0: "3B 3B 3B J 6B 6B 6B J 9C 9C 9C E E N", 1: "N"}, wall="1D 2D 3D J")
    table.discard_and_close(0, "N")
    for seat in (1, 2, 3):
        table.quiet_turn(seat)
    table.draw(0)
    table.declare(0)
    assert table.state.result is not None and table.state.result.how == "self_pick"
    assert payments(table.state) == {(1, 0): 50, (2, 0): 50, (3, 0): 50}


def test_S3_no_dead_wall_every_tile_is_drawn() -> None:
    table = Table(KEEP_ALIVE)
    draws = 0
    state = table.state
    table.discard_and_close(0, table.racks[0][-1])
    while state.phase != Phase.FINISHED:
        table.quiet_turn(state.turn)
        draws += 1
    assert draws == 99 and state.wall == []
    assert state.result is not None and state.result.how == "wall"


def test_S5_1946_east_who_wins_passes_the_deal() -> None:
    """H6: East may win only once; the deal passes after any Mah Jongg, East's included."""
    table = Table({0: "1Bx4 F F 3B 3B 5Bx4 F F"}, preset="nmjl-1946")
    table.declare(0)
    assert table.state.result is not None and table.state.result.winner == 0
    assert next_east(table.state) == 1
