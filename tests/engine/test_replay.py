"""Replays (docs/replay-format.md): export and play back, errors with the failing action's index, and the
``charleston replay`` command."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from support.game_tables import PRACTICE, Table
from support.paths import DOCS

from bot.cli import main
from bot.engine.actions import CharlestonPass, CharlestonVote, CourtesyOffer
from bot.engine.game import Game
from bot.engine.legal import legal_actions
from bot.engine.payouts import payouts
from bot.engine.replay import ReplayError, export_replay, replay
from bot.engine.rules import table_rules
from bot.engine.state import Phase
from bot.engine.tiles import Tile

DOC = DOCS / "replay-format.md"


def _won_game() -> Game:
    """South wins on East's East (369-4 with a joker): SC1 50 / 25 / 25."""
    table = Table({0: "E", 1: "3B 3B 3B J 6Bx4 9Cx4 E"})
    table.discard(0, "E")
    table.call_mahjong(1)
    table.close()
    return table.game


def _played_game(seed: int, steps: int, **options: Any) -> Game:
    """A shuffled game with a Charleston, played ``steps`` random legal actions (the clock closes windows)."""
    from bot.engine.actions import TABLE, CloseWindow

    game, _ = Game.new(PRACTICE, table_rules(**options), seed, east=seed % 4)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.state.phase == Phase.FINISHED:
            break
        if game.state.phase == Phase.CALL_WINDOW and rng.random() < 0.5:
            game.apply(CloseWindow(TABLE))
            continue
        options_ = [a for s in range(4) for a in legal_actions(game, s)]
        game.apply(rng.choice(options_))
    return game


def _through_json(data: dict[str, Any]) -> dict[str, Any]:
    return json.loads(json.dumps(data))


# ------------------------------------------------------------------------------------------------ round trips


def test_export_then_replay_reproduces_a_finished_scenario() -> None:
    game = _won_game()
    data = _through_json(export_replay(game))
    assert data["format"] == "charleston-replay" and data["version"] == 1 and data["card"] == "practice"
    assert "deal" in data and len(data["actions"]) == 3
    again = replay(data, PRACTICE)
    assert again.game.state.to_json() == game.state.to_json()
    assert [p.to_json() for p in payouts(again.game.state)] == [p.to_json() for p in payouts(game.state)]
    assert len(again.events) == len(data["actions"])


@pytest.mark.parametrize(("seed", "options"), [
    (1, {}), (2, {"blanks": 4, "blank_timing": "any_time"}), (3, {"players": 3, "three_player_charleston": "bob"}),
    (4, {"declarations": "strict", "hot_wall": 10}),
])
def test_export_then_replay_reproduces_a_shuffled_game_with_a_charleston(seed: int, options: dict) -> None:
    game = _played_game(seed, 400, **options)
    data = _through_json(export_replay(game))
    assert "deal" not in data and data["seed"] == seed and data["east"] == seed % 4
    assert replay(data, PRACTICE).game.state.to_json() == game.state.to_json()


def test_replay_of_an_unfinished_game_and_stop_at() -> None:
    game, _ = Game.new(PRACTICE, table_rules(), 9)
    rng = random.Random(9)
    snapshots = [game.state.to_json()]
    for _ in range(30):
        action = rng.choice([a for s in range(4) for a in legal_actions(game, s)])
        game.apply(action)
        snapshots.append(game.state.to_json())
    data = _through_json(export_replay(game))
    assert replay(data, PRACTICE).game.state.to_json() == snapshots[-1]
    for k in (0, 1, 4, 17):
        assert replay(data, PRACTICE, stop_at=k).game.state.to_json() == snapshots[k]
    seen: list[int] = []
    replay(data, PRACTICE, on_step=lambda g, i: seen.append(i))
    assert seen == list(range(30))


def test_replay_of_the_1946_game() -> None:
    from support.game_tables import CARD_1946

    game, _ = Game.new(CARD_1946, table_rules("nmjl-1946"), 5)
    rng = random.Random(5)
    for _ in range(60):
        actions = [a for s in range(4) for a in legal_actions(game, s)]
        game.apply(rng.choice(actions))
    data = _through_json(export_replay(game))
    assert replay(data, CARD_1946).game.state.to_json() == game.state.to_json()


# ------------------------------------------------------------------------------------------------ errors


def test_an_illegal_action_names_its_index_and_the_reason() -> None:
    data = _through_json(export_replay(_won_game()))
    data["actions"][1] = {"type": "discard", "seat": 2, "tile": "5D"}  # out of turn, during the window
    with pytest.raises(ReplayError) as info:
        replay(data, PRACTICE)
    assert info.value.index == 1
    message = str(info.value)
    assert message.startswith("action 1: ") and "discard by seat 2" in message
    assert "Wait for the call window" in message


def test_the_first_action_can_fail_too() -> None:
    data = _through_json(export_replay(_won_game()))
    data["actions"][0] = {"type": "draw", "seat": 0}  # P1: East does not draw first
    with pytest.raises(ReplayError) as info:
        replay(data, PRACTICE)
    assert info.value.index == 0 and "You already have your tile" in str(info.value)


@pytest.mark.parametrize(("action", "fragment"), [
    ({"type": "teleport", "seat": 0}, "Unknown action type 'teleport'"),
    ({"type": "discard", "seat": 0}, "needs a 'tile'"),
    ({"type": "discard", "seat": 0, "tile": "5X"}, '"5X" is not a tile'),
    ({"type": "discard", "seat": 0, "tile": "E", "speed": 3}, "no field 'speed'"),
    ({"type": "call", "seat": 1, "mahjong": "yes"}, "must be true or false"),
    ({"type": "draw", "seat": "0"}, "must be a whole number"),
    ("discard", "must be an object"),
])
def test_malformed_actions_are_replay_errors_with_the_index(action: Any, fragment: str) -> None:
    data = _through_json(export_replay(_won_game()))
    data["actions"][0] = action
    with pytest.raises(ReplayError) as info:
        replay(data, PRACTICE)
    assert info.value.index == 0 and fragment in str(info.value)


@pytest.mark.parametrize(("change", "fragment"), [
    ({"format": "something"}, "Not a replay"),
    ({"version": 2}, "format version 2, written by a newer Charleston"),
    ({"version": 0}, "format version 0 does not exist"),
    ({"version": "1"}, '"version" must be the whole number 1'),
    ({"card": None}, "names its card"),
    ({"rules": {"hot_wall": 99}}, "Bad rules"),
    ({"seed": "x"}, '"seed" must be a whole number'),
    ({"deal": {"hands": "nope"}}, '"deal" must be'),
    ({"deal": {"hands": ["5X"] * 4}}, "Bad deal"),
    ({"actions": "draw"}, '"actions" must be a list'),
    ({"east": 7}, '"east" must be'),
    ({"deal": {"hands": [[]] * 3}}, "Cannot start the game"),
])
def test_a_bad_header_is_a_replay_error_without_an_index(change: dict, fragment: str) -> None:
    data = {**_through_json(export_replay(_won_game())), **change}
    with pytest.raises(ReplayError) as info:
        replay(data, PRACTICE)
    assert info.value.index is None and fragment in str(info.value)


def test_a_deal_using_too_many_tiles_is_refused_before_any_action() -> None:
    data = _through_json(export_replay(_won_game()))
    data["deal"]["hands"][2] = "J J J J J J J J J 1B 1B 1B 1B"
    with pytest.raises(ReplayError, match="Cannot start the game") as info:
        replay(data, PRACTICE)
    assert info.value.index is None


def test_a_call_by_the_table_seat_is_a_replay_error() -> None:
    table = Table({0: "1B", 3: "1B 1B"})
    table.discard(0, "1B")
    data = _through_json(export_replay(table.game))
    data["actions"] += [{"type": "call", "seat": -1, "tiles": ["1B", "1B"]}, {"type": "close_window"}]
    with pytest.raises(ReplayError) as info:
        replay(data, PRACTICE)
    assert info.value.index == 1


# ------------------------------------------------------------------------------------------------ the command


def _write(tmp_path: Path, data: dict[str, Any]) -> str:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def test_cli_replay_prints_events_and_payouts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, export_replay(_won_game()))
    assert main(["replay", path]) == 0
    out = capsys.readouterr().out
    assert "369 #4" in out and "South" in out
    assert "Payouts:" in out
    assert re.search(r"East pays South 50\b", out)
    assert re.search(r"West pays South 25\b", out) and re.search(r"North pays South 25\b", out)


def test_cli_replay_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = _won_game()
    path = _write(tmp_path, export_replay(game))
    assert main(["replay", path, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) >= {"events", "state", "payouts"}
    assert data["payouts"] == [p.to_json() for p in payouts(game.state)]
    assert data["state"]["result"]["winner"] == 1 and data["state"]["phase"] == "finished"
    assert [e["type"] for e in data["events"]].count("mahjong") == 1


def test_cli_replay_of_a_wall_game_says_no_payments(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from support.game_tables import KEEP_ALIVE, play_to_wall_game

    table = Table(KEEP_ALIVE)
    play_to_wall_game(table)
    path = _write(tmp_path, export_replay(table.game))
    assert main(["replay", path]) == 0
    assert "No payments." in capsys.readouterr().out


def test_cli_replay_illegal_action_exits_2_with_one_line(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    data = export_replay(_won_game())
    data["actions"][2] = {"type": "draw", "seat": 3}
    path = _write(tmp_path, data)
    assert main(["replay", path]) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and "action 2" in lines[0] and "draw by seat 3" in lines[0]
    assert captured.out == ""


@pytest.mark.parametrize(("content", "fragment"), [("{not json", "not valid JSON"), ("[1, 2]", "a JSON object")])
def test_cli_replay_bad_file(tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str,
                             fragment: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and fragment in err[0]
    assert main(["replay", str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_cli_replay_unknown_card(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = export_replay(_won_game())
    data["card"] = "nmjl-2099"
    data["rules"]["card"] = "nmjl-2099"
    assert main(["replay", _write(tmp_path, data)]) == 2
    assert "Unknown card 'nmjl-2099'" in capsys.readouterr().err


# ----------------------------------------------------------------------------------------------- documented example


def _doc_example() -> dict[str, Any]:
    if not DOC.exists():
        pytest.skip("docs/replay-format.md is not written yet")
    blocks = re.findall(r"```json\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)
    replays = [json.loads(b) for b in blocks if '"charleston-replay"' in b]
    if not replays:
        pytest.skip("docs/replay-format.md has no replay example yet")
    return replays[0]


def test_the_documented_example_replays() -> None:
    data = _doc_example()
    from bot.service.cards import load_card

    played = replay(data, load_card(data["card"]))
    state = played.game.state
    assert state.phase == Phase.FINISHED and state.result is not None
    # The doc's story: East wins 2026-1 (X 30) on South's 6 Bam, jokerless: SC1 + SC3.
    assert state.result.winner == 0 and state.result.line == "2026-1" and state.result.discarder == 1
    assert state.result.jokerless and Tile.J not in [t for g in state.result.tiles for t in g]
    amounts = {(p.payer, p.payee): p.amount for p in payouts(state)}
    assert amounts == {(1, 0): 4 * 30, (2, 0): 2 * 30, (3, 0): 2 * 30}


def test_the_documented_example_file_matches_the_doc(capsys: pytest.CaptureFixture[str]) -> None:
    data = _doc_example()
    example = DOC.parent / "examples" / "mahjong-on-a-discard.json"
    if not example.exists():
        pytest.skip("the example file is not there yet")
    assert json.loads(example.read_text(encoding="utf-8")) == data
    assert main(["replay", str(example)]) == 0
    out = capsys.readouterr().out
    assert "South pays East 120" in out and "West pays East 60" in out and "North pays East 60" in out


def test_charleston_actions_serialise_for_replays() -> None:
    for action in (CharlestonPass(1, (Tile.N, Tile.E), 1), CharlestonVote(2, True), CourtesyOffer(3, ())):
        from bot.engine.actions import action_from_json

        assert action_from_json(json.loads(json.dumps(action.to_json()))) == action
