"""The classical chow/pung game (docs/rules.md §9, CL1-CL8): the hand, the deal, claims and their priority races,
kongs and replacement draws, dead hands, wall games, payments and replays.

Every scenario deals full racks (nothing padded), so no set appears by accident.
"""

from __future__ import annotations

import json

import pytest
from support.game_tables import Table, event_types, one_event, payments
from support.paths import DOCS
from support.tiles import tile, tiles

from bot.engine.actions import Call, DeclareKong, DeclareMahJongg, Discard, Draw, ExchangeJoker, Hold, PassCall
from bot.engine.legal import legal_actions
from bot.engine.payouts import payouts
from bot.engine.replay import export_replay, replay
from bot.engine.rules import RulesError, table_rules
from bot.engine.sets import arrange, is_complete, shanten, structure
from bot.engine.state import Phase, TurnStage
from bot.engine.tiles import CLASSICAL, Tile
from bot.service.cards import load_card

# East's dealt hand: thirteen lone tiles and the 5 Dot she throws first (no set, no pair, no run).
EAST = "5D 1B 9B 1C 9C 1D 9D E S W N RD GD WD"
WAIT_5D = "1B 2B 3B 4C 5C 6C 7C 8C 9C WD WD WD 5D"  # three sets and a set of White: waits on 5 Dot for the pair
WAIT_5D_TOO = "4B 5B 6B 1C 2C 3C 7B 8B 9B RD RD RD 5D"  # waits on 5 Dot as well
CHOW_5D = "4D 6D 2B 5B 8B 2C 5C 8C E S W RD GD"  # could chow a 5 Dot (4-5-6)
PUNG_5D = "5D 5D 3B 6B 9B 3C 6C 9C 3D 7D N E S"  # could pung a 5 Dot
KONG_5D = "5D 5D 5D 3B 6B 9B 3C 6C 9C 3D 7D N E"
LONE = "2D 3D 7D 8D 2B 6B 2C 6C E S W N GD"  # no set, no pair: calls nothing East throws
LONE_TOO = "3D 7D 3B 7B 4C 8C 3C 7C E S W N RD"


def classical(hands: dict[int, str], wall: str = "", **options: object) -> Table:
    """A classical table dealt exactly these racks (all four given, in full)."""
    east = options.get("east", 0)
    assert len(hands) == 4 and all(len(tiles(h)) == (14 if s == east else 13) for s, h in hands.items())
    return Table(hands, wall, preset="classical", **options)  # type: ignore[arg-type]


def race(south: str, west: str, north: str) -> Table:
    """East throws the 5 Dot to South, West and North holding these racks."""
    table = classical({0: EAST, 1: south, 2: west, 3: north}, wall="1D 2D 3D 4D")
    table.discard(0, "5D")
    return table


# ------------------------------------------------------------------------------------------------ CL1 the hand


@pytest.mark.parametrize(("rack", "exposed", "complete"), [
    ("1B 2B 3B 5C 5C 5C 7D 8D 9D N N N RD RD", 0, True),  # chows, pungs and a pair
    ("1B 1B 1B 2B 2B 2B 3B 3B 3B 4B 4B 5B 5B 5B", 0, True),  # all one suit, read as pungs
    ("2D 3D 4D 2D 3D 4D 2D 3D 4D 6D 7D 8D 9D 9D", 0, True),  # the same chow three times
    ("1B 2B 3B 5C 5C 5C 7D 8D 9D N N N RD GD", 0, False),  # no pair
    ("E S W 1B 2B 3B 5C 5C 5C 7D 8D 9D RD RD", 0, False),  # honours never run
    ("1B 1B 2B 2B 3B 3B 4C 4C 5C 5C 6D 6D 7D 7D", 0, False),  # seven pairs is not four sets and a pair
    ("8B 9B 1C 5C 5C 5C 7D 8D 9D N N N RD RD", 0, False),  # runs don't cross suits
    ("5C 5C 5C RD RD", 3, True),  # three sets exposed: one set and the pair still concealed
    ("5C 5C 5C RD", 3, False),
])
def test_CL1_four_sets_and_a_pair_make_mahjong(rack: str, exposed: int, complete: bool) -> None:
    assert is_complete(tiles(rack), exposed) is complete
    groups = arrange(tiles(rack), [tiles("N N N")] * exposed)
    assert (groups is not None) is complete
    if groups is not None:
        assert sorted(t for g in groups for t in g) == sorted(tiles(rack) + tiles("N N N") * exposed)
        assert sum(len(g) == 2 for g in groups) == 1 and len(groups) == 5


def test_CL1_the_set_has_136_tiles_and_nothing_wild() -> None:
    assert CLASSICAL.size == 136 and CLASSICAL.wild is None
    assert all(CLASSICAL.count(t) == 4 for t in range(Tile.WD + 1))
    assert CLASSICAL.count(Tile.F) == CLASSICAL.count(Tile.J) == CLASSICAL.count(Tile.BL) == 0
    card = load_card("classical")
    assert card.ruleset == "classical" and card.lines == () and card.tile_set is CLASSICAL


def test_CL1_the_distance_to_a_ready_hand() -> None:
    assert shanten(tiles("1B 2B 3B 5C 5C 5C 7D 8D 9D N N N RD RD")) == -1
    assert shanten(tiles("1B 2B 3B 5C 5C 5C 7D 8D 9D N N N RD")) == 0
    assert shanten(tiles("1B 4B 7B 1C 4C 7C 1D 4D 7D N E W S")) == 8  # nothing fits: the farthest a hand can be
    assert shanten(tiles("5C 5C RD RD"), 3) == 0
    found = structure(tiles("1B 2B 3B 5C 5C 7D 9D N E W S RD GD"))
    assert found.sets == (tuple(tiles("1B 2B 3B")),)
    assert found.shanten == shanten(tiles("1B 2B 3B 5C 5C 7D 9D N E W S RD GD"))
    assert found.pair == tuple(tiles("5C 5C")) and tuple(tiles("7D 9D")) in found.partial


def test_CL1_the_preset_refuses_what_the_classical_game_has_not() -> None:
    rules = table_rules("classical")
    assert rules.classical and rules.card == "classical" and not rules.has_charleston and rules.dead_hand_draws
    for option, value in (("charleston", True), ("blanks", 4), ("flowers_wild", True), ("card", "practice")):
        with pytest.raises(RulesError):
            table_rules("classical", **{option: value})
    with pytest.raises(RulesError, match="preset 'classical'"):
        table_rules("nmjl", card="classical")


# ------------------------------------------------------------------------------------------------ CL2 turns


def test_CL2_east_is_dealt_14_and_play_goes_round_without_a_charleston() -> None:
    game = Table(preset="classical", charleston=False).game
    state = game.state
    assert state.phase == Phase.PLAY and state.turn == 0 and state.turn_state.stage == TurnStage.DEALT
    assert [len(s.rack) for s in state.seats] == [14, 13, 13, 13] and len(state.wall) == 136 - 53
    table = classical({0: EAST, 1: LONE, 2: LONE_TOO, 3: CHOW_5D}, wall="1D 2D")
    table.discard(0, "5D")
    table.pass_all()
    assert table.state.turn == 1 and table.state.turn_state.needs_draw  # counter-clockwise: South is next
    assert legal_actions(table.game, 1) == [Draw(1)]
    table.draw(1)
    assert table.state.seats[1].rack.count(tile("1D")) == 1


# ------------------------------------------------------------------------------------------------ CL3 claims


def test_CL3_a_chow_only_from_the_player_on_your_left() -> None:
    table = race(CHOW_5D, LONE, LONE_TOO)
    assert Call(1, tuple(tiles("4D 6D")), False) in legal_actions(table.game, 1)  # South plays after East
    table.call(1, "4D 6D")
    table.pass_all()
    assert table.state.seats[1].exposures[0].tiles == tiles("4D 5D 6D") and table.state.turn == 1
    # West may not chow South's discard's neighbour from East: only the next player may chow.
    other = race(LONE, CHOW_5D, LONE_TOO)
    assert not any(isinstance(a, Call) and not a.mahjong for a in legal_actions(other.game, 2))
    other.refuse(Call(2, tuple(tiles("4D 6D")), False), "only from the player just before you")


def test_CL3_a_pung_or_kong_from_anyone() -> None:
    table = race(LONE, LONE_TOO, PUNG_5D)  # North sits farthest from East
    table.call(3, "5D 5D")
    table.pass_all()
    assert table.state.seats[3].exposures[0].tiles == tiles("5D 5D 5D") and table.state.turn == 3
    table.refuse(Discard(1, tile("2D")), "North's turn")
    kong = race(LONE, KONG_5D, LONE_TOO)
    assert Call(2, tuple(tiles("5D 5D 5D")), False) in legal_actions(kong.game, 2)
    kong.refuse(Call(2, tuple(tiles("5D")), False), "for a pair unless it completes Mah Jongg")
    kong.refuse(Call(2, tuple(tiles("3D 7D")), False), "a call makes a chow")


def test_CL3_mahjong_from_anyone_and_the_set_it_completes_is_shown() -> None:
    table = race(LONE, LONE_TOO, WAIT_5D)
    table.call_mahjong(3)
    events = table.pass_all()
    result = table.state.result
    assert result is not None and result.winner == 3 and result.how == "discard" and result.discarder == 0
    mahjong = one_event(events, "mahjong")
    assert mahjong.payload.line == "classical" and len(mahjong.payload.tiles) == 5
    table.refuse(PassCall(1), "The game is over")


def test_CL3_a_false_mahjong_call_is_refused_at_a_friendly_table() -> None:
    table = race(PUNG_5D, LONE, LONE_TOO)
    table.refuse(Call(1, (), True), "doesn't complete four sets and a pair")


# ------------------------------------------------------------------------------------------------ CL4 priority


def _taken_by(table: Table) -> int:
    events = table.pass_all() if table.state.phase == Phase.CALL_WINDOW else []
    return one_event(events, "window_closed").payload.winner


def test_CL4_mahjong_beats_a_pung() -> None:
    table = race(LONE, PUNG_5D, WAIT_5D)
    table.call(2, "5D 5D")  # West, nearer, asks first
    table.call_mahjong(3)
    assert _taken_by(table) == 3 and table.state.result is not None and table.state.seats[2].exposures == []


def test_CL4_mahjong_beats_a_chow() -> None:
    table = race(CHOW_5D, LONE, WAIT_5D)
    table.call(1, "4D 6D")
    table.call_mahjong(3)
    assert _taken_by(table) == 3


def test_CL4_a_pung_beats_a_chow() -> None:
    table = race(CHOW_5D, PUNG_5D, LONE)
    table.call(1, "4D 6D")
    table.call(2, "5D 5D")
    assert _taken_by(table) == 2
    state = table.state
    assert state.seats[2].exposures[0].tiles == tiles("5D 5D 5D") and state.seats[1].exposures == []
    assert state.seats[1].rack.count(tile("4D")) == 1  # the chow's tiles stay in South's rack


def test_CL4_a_kong_beats_a_chow_and_draws_a_replacement() -> None:
    table = classical({0: EAST, 1: CHOW_5D, 2: KONG_5D, 3: LONE}, full_wall="8B 1D")
    table.discard(0, "5D")
    table.call(1, "4D 6D")
    table.call(2, "5D 5D 5D")
    assert _taken_by(table) == 2
    state = table.state
    assert state.seats[2].exposures[0].tiles == tiles("5D 5D 5D 5D")
    assert state.turn == 2 and state.turn_state.stage == TurnStage.DREW and state.turn_state.drawn == tile("1D")


def test_CL4_between_two_mahjong_claims_the_next_in_turn_wins() -> None:
    """RULES' own example: East discards, South and West both want it to win: South gets it."""
    table = race(WAIT_5D, WAIT_5D_TOO, LONE)
    table.call_mahjong(2)  # West asks first
    table.call_mahjong(1)
    assert _taken_by(table) == 1
    result = table.state.result
    assert result is not None and result.winner == 1 and result.discarder == 0


def test_CL4_first_exposed_wins_does_not_let_a_chow_beat_a_pung() -> None:
    table = classical({0: EAST, 1: CHOW_5D, 2: PUNG_5D, 3: LONE}, wall="1D", first_exposed_wins=True)
    table.discard(0, "5D")
    table.call(1, "4D 6D")  # the chow is asked first
    table.call(2, "5D 5D")
    assert _taken_by(table) == 2


# ------------------------------------------------------------------------------------------------ CL5 the window


def test_CL5_the_window_stays_open_until_the_next_player_takes_her_turn() -> None:
    table = race(LONE, PUNG_5D, LONE_TOO)
    table.refuse(Draw(1), "Wait for the call window")
    table.act(PassCall(1))
    table.act(Hold(3))
    table.call(2, "5D 5D")  # still in time: South has not drawn
    table.act(PassCall(3))
    assert table.state.seats[2].exposures[0].tiles == tiles("5D 5D 5D")
    later = race(LONE, PUNG_5D, LONE_TOO)
    later.pass_all()
    later.draw(1)
    later.refuse(Call(2, tuple(tiles("5D 5D")), False), "no discard to call")


# ------------------------------------------------------------------------------------------------ CL6 dead hands


def test_CL6_a_wrong_mahjong_kills_the_hand_but_it_keeps_drawing_and_throwing() -> None:
    table = classical({0: EAST, 1: LONE, 2: LONE_TOO, 3: CHOW_5D}, wall="1D 7B 4B 2D 3D", declarations="strict")
    table.discard(0, "5D")
    table.pass_all()
    table.draw(1)
    events = table.declare(1)  # South declares with nothing
    assert table.state.seats[1].dead and "false_mahjong" in event_types(events) and "dead_hand" in event_types(events)
    assert one_event(events, "discard").payload.tile == tile("1D")  # she throws the tile she drew
    table.pass_all()
    table.quiet_turn(2)
    table.quiet_turn(3)
    table.quiet_turn(0)
    state = table.state
    assert state.turn == 1 and legal_actions(table.game, 1) == [Draw(1)]  # the dead hand keeps its turn
    events = table.act(Draw(1))
    assert event_types(events)[:3] == ["draw", "drew", "discard"]
    assert one_event(events, "discard").payload.tile == tile("3D")
    assert len(state.seats[1].rack) == 13
    table.refuse(Call(1, (), True), "Your hand is dead")
    table.refuse(PassCall(1), "Your hand is dead")
    assert 1 not in table.game.state.live_seats and not legal_actions(table.game, 1)


def test_CL6_a_dead_hand_still_pays_the_winner() -> None:
    table = classical({0: EAST, 1: LONE, 2: LONE_TOO, 3: WAIT_5D}, wall="1D 7B 5D", declarations="strict")
    events = table.declare(0)  # East declares her thirteen lone tiles: dead, and she throws one
    assert table.state.seats[0].dead and "discard" in event_types(events)
    table.pass_all()
    table.quiet_turn(1)
    table.quiet_turn(2)
    table.draw(3)
    table.declare(3)
    result = table.state.result
    assert result is not None and result.winner == 3 and result.how == "self_pick"
    assert payments(table.state) == {(0, 3): 20, (1, 3): 20, (2, 3): 20}


# ------------------------------------------------------------------------------------------------ CL7 wall games


def test_CL7_a_wall_game_has_no_winner_and_pays_nothing() -> None:
    table = classical({0: EAST, 1: LONE, 2: LONE_TOO, 3: CHOW_5D}, wall="")
    table.discard(0, "5D")
    table.pass_all()
    state = table.state
    while state.phase != Phase.FINISHED:
        seat = state.turn
        table.draw(seat)
        drawn = state.turn_state.drawn
        assert drawn is not None
        table.act(Discard(seat, drawn))
        if state.phase == Phase.CALL_WINDOW:
            table.close()
    assert state.result is not None and state.result.how == "wall" and state.result.winner is None
    assert payments(state) == {} and not state.wall


# ------------------------------------------------------------------------------------------------ CL8 after a claim


def test_CL8_after_a_claim_play_goes_on_from_the_claimant() -> None:
    table = race(CHOW_5D, LONE, PUNG_5D)
    table.call(3, "5D 5D")
    table.pass_all()
    assert table.state.turn == 3 and not table.state.turn_state.needs_draw
    table.discard(3, "3D")
    table.pass_all()
    assert table.state.turn == 0  # South and West lost their turns
    assert table.state.turn_state.needs_draw


# ------------------------------------------------------------------------------------------------ kongs


def test_CL1_a_concealed_kong_is_laid_down_and_replaced_from_the_wall_end() -> None:
    east = "WD WD WD WD 1B 9B 1C 9C 1D 9D E S W N"
    table = classical({0: east, 1: LONE, 2: LONE_TOO, 3: CHOW_5D}, full_wall="2D 8B")
    wall = len(table.state.wall)
    assert DeclareKong(0, Tile.WD) in legal_actions(table.game, 0)
    events = table.act(DeclareKong(0, Tile.WD))
    assert event_types(events) == ["kong", "replacement", "drew"]
    kong = one_event(events, "kong")
    assert kong.payload.concealed and not kong.payload.added
    drew = one_event(events, "drew")
    assert drew.private and drew.payload.tile == tile("8B")  # the wall's last tile
    exposure = table.state.seats[0].exposures[0]
    assert exposure.tiles == [Tile.WD] * 4 and exposure.concealed and table.state.wall[-1] == tile("2D")
    assert len(table.state.wall) == wall - 1 and table.state.seats[0].tile_count == 15


def test_CL1_a_pung_grows_into_a_kong_with_the_fourth_tile() -> None:
    table = classical({0: EAST, 1: LONE, 2: LONE_TOO, 3: PUNG_5D}, wall="1B 4B 8B 5D")
    table.discard(0, "5D")
    table.call(3, "5D 5D")
    table.pass_all()
    table.discard(3, "3D")
    table.pass_all()
    for seat in (0, 1, 2):
        table.quiet_turn(seat)
    assert table.draw(3) == tile("5D")
    state = table.state
    last = state.wall[-1]
    assert DeclareKong(3, tile("5D")) in legal_actions(table.game, 3)
    events = table.act(DeclareKong(3, tile("5D")))
    kong = one_event(events, "kong")
    assert kong.payload.added and not kong.payload.concealed
    assert state.seats[3].exposures[0].tiles == tiles("5D 5D 5D 5D") and len(state.seats[3].exposures) == 1
    assert state.turn_state.drawn == last and state.turn_state.stage == TurnStage.DREW


def test_CL1_no_kong_without_a_replacement_or_after_a_call() -> None:
    table = race(LONE, LONE_TOO, KONG_5D)
    table.call(3, "5D 5D")
    table.pass_all()
    table.refuse(DeclareKong(3, tile("5D")), "after drawing")
    empty = classical({0: "WD WD WD WD 1B 9B 1C 9C 1D 9D E S W N", 1: LONE, 2: LONE_TOO, 3: CHOW_5D})
    empty.state.wall.clear()
    empty.refuse(DeclareKong(0, Tile.WD), "no replacement tile")
    assert not any(isinstance(a, DeclareKong) for a in legal_actions(empty.game, 0))


def test_CL1_mahjong_on_a_kong_replacement_is_self_drawn() -> None:
    east = "WD WD WD WD 1B 2B 3B 4C 5C 6C 7D 8D 9D N"
    table = classical({0: east, 1: LONE, 2: LONE_TOO, 3: CHOW_5D}, full_wall="2D N")
    table.act(DeclareKong(0, Tile.WD))
    assert DeclareMahJongg(0) in legal_actions(table.game, 0)
    table.declare(0)
    result = table.state.result
    assert result is not None and result.how == "self_pick" and result.winner == 0
    assert payments(table.state) == {(1, 0): 20, (2, 0): 20, (3, 0): 20}


def test_CL1_nothing_to_exchange_in_the_classical_set() -> None:
    table = race(LONE, PUNG_5D, LONE_TOO)
    table.call(2, "5D 5D")
    table.pass_all()
    table.refuse(ExchangeJoker(2, 2, 0, tile("5D")), "no jokers")


# ------------------------------------------------------------------------------------------------ payments


def test_CL_a_win_on_a_discard_pays_double_from_the_discarder() -> None:
    table = race(LONE, LONE_TOO, WAIT_5D)
    table.call_mahjong(3)
    table.pass_all()
    assert payments(table.state) == {(0, 3): 20, (1, 3): 10, (2, 3): 10}


def test_CL_the_base_is_a_table_option() -> None:
    table = classical({0: EAST, 1: LONE, 2: LONE_TOO, 3: WAIT_5D}, wall="1D", base=3)
    table.discard(0, "5D")
    table.call_mahjong(3)
    table.pass_all()
    assert payments(table.state) == {(0, 3): 6, (1, 3): 3, (2, 3): 3}
    assert {p.reason for p in payouts(table.state)} == {"threw the winning tile", "the hand's value"}


def test_CL_heavenly_hand() -> None:
    table = classical({0: "1B 2B 3B 4C 5C 6C 7D 8D 9D WD WD WD RD RD", 1: LONE, 2: LONE_TOO, 3: CHOW_5D})
    table.declare(0)
    result = table.state.result
    assert result is not None and result.how == "heavenly"
    assert payments(table.state) == {(1, 0): 20, (2, 0): 20, (3, 0): 20}


# ------------------------------------------------------------------------------------------------ replays


def test_CL_a_classical_game_replays_exactly() -> None:
    table = classical({0: EAST, 1: CHOW_5D, 2: KONG_5D, 3: LONE}, full_wall="9C 8B 1D")
    table.discard(0, "5D")
    table.call(2, "5D 5D 5D")
    table.pass_all()
    table.discard(2, "3D")
    table.pass_all()
    data = json.loads(json.dumps(export_replay(table.game)))
    assert data["rules"]["preset"] == "classical" and data["card"] == "classical"
    again = replay(data, load_card("classical"))
    assert again.game.state.to_json() == table.state.to_json()
    assert any(a["type"] == "call" and a["tiles"] == ["5D", "5D", "5D"] for a in data["actions"])


def test_CL4_the_documented_classical_replay_plays_back() -> None:
    """The classical example of docs/replay-format.md: the pung beats the chow, West plays on."""
    import re

    doc = (DOCS / "replay-format.md").read_text(encoding="utf-8")
    blocks = [json.loads(b) for b in re.findall(r"```json\n(.*?)```", doc, flags=re.S) if '"classical"' in b]
    assert len(blocks) == 1
    played = replay(blocks[0], load_card("classical"))
    state = played.game.state
    assert state.seats[2].exposures[0].tiles == tiles("5D 5D 5D") and state.seats[1].exposures == []
    assert state.turn == 3 and state.turn_state.needs_draw


def test_CL1_the_card_command_checks_and_analyses_classical_racks(capsys: pytest.CaptureFixture[str]) -> None:
    from bot.cli import main

    assert main(["card", "check", "--card", "classical", "--exposed", "5C 5C 5C 5C; 7D 8D 9D",
                 "1B 2B 3B N N N RD RD"]) == 0
    assert "Mah Jongg: four sets and a pair" in capsys.readouterr().out
    assert main(["card", "check", "--card", "classical", "--json", "1B 2B 3B 5C 5C 5C 7D 8D 9D N N N RD GD"]) == 0
    assert json.loads(capsys.readouterr().out) == {"mahjong": False, "matches": []}
    assert main(["card", "analyze", "--card", "classical", "--json", "1B 2B 3B 5C 5C 5C 7D 8D 9D N N N RD"]) == 0
    (hand,) = json.loads(capsys.readouterr().out)["hands"]
    assert hand["missing"] == 1 and hand["need"] == ["RD"]
    assert main(["card", "check", "--card", "classical", "1B J 3B"]) == 2
    assert "no Joker" in capsys.readouterr().err
    assert main(["card", "check", "--card", "classical", "--exposed", "5C 6C 8C", "1B 2B 3B N N N RD RD 2D"]) == 2
    assert "is not a set" in capsys.readouterr().err
