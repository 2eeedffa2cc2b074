"""Computer players: only legal actions, only the seat's own view, and complete games through the real engine."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from support.ai_play import play_checking
from support.cards import language_card

from bot.ai.players import LEVELS, make_player
from bot.cli import main
from bot.cli.simulate import simulate
from bot.engine.actions import Action
from bot.engine.game import Game
from bot.engine.replay import replay
from bot.engine.rules import table_rules
from bot.engine.state import Phase
from bot.engine.views import SeatView, seat_view, waiting_for
from bot.service.cards import load_card

OPTIONS: list[tuple[str, str, dict[str, Any]]] = [
    ("practice", "nmjl", {}),
    ("nmjl-1946", "nmjl-1946", {}),
    ("practice", "nmjl", {"blanks": 6}),
    ("practice", "nmjl", {"blanks": 4, "blank_timing": "any_time"}),
    ("practice", "nmjl", {"hot_wall": 16}),
    ("practice", "nmjl", {"players": 3}),
    ("practice", "nmjl", {"players": 3, "three_player_charleston": "bob"}),
    ("practice", "nmjl", {"declarations": "strict", "courtesy_pass": False}),
]






@pytest.mark.slow
@pytest.mark.parametrize(("card_id", "preset", "options"), OPTIONS,
                         ids=[f"{c}-{'-'.join(f'{k}={v}' for k, v in o.items()) or 'default'}" for c, _, o in OPTIONS])
@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_only_legal_actions(card_id: str, preset: str, options: dict[str, Any], level: str) -> None:
    card = load_card(card_id)
    rules = table_rules(preset, card=card_id, **options)
    for seed in range(2):
        game, _ = Game.new(card, rules, seed=seed, east=seed % 4)
        levels = [level, "normal", level, "random"] if level != "normal" else ["normal"] * 4
        assert play_checking(game, levels, seed) > 20
        assert game.state.result is not None


def test_a_computer_player_is_given_a_view_not_the_state() -> None:
    """The only argument a player gets is a SeatView, whose fields hold no game, state or other rack."""
    card = load_card("practice")
    game, _ = Game.new(card, table_rules(), seed=5)
    seen: list[Any] = []

    class Spy:
        level = "spy"

        def __init__(self) -> None:
            self.inner = make_player("normal", seed=1)

        def decide(self, view: SeatView) -> Action:
            seen.append(view)
            # the rack in the view is this seat's own, and nobody else's
            assert sorted(view.rack) == sorted(game.state.seats[view.seat].rack)
            return self.inner.decide(view)

    spy = Spy()
    for _ in range(40):
        waiting = waiting_for(game)
        if not waiting or game.state.phase == Phase.FINISHED:
            break
        game.apply(spy.decide(seat_view(game, waiting[0])))
    assert seen and all(isinstance(v, SeatView) for v in seen)
    names = {f.name for f in dataclasses.fields(SeatView)}
    assert names == {"seat", "public", "rack", "drawn", "legal", "card", "tile_set", "rules"}
    # The rules are the table's options (public); they carry no tile of anybody's.
    assert all(isinstance(view.rules, type(game.state.rules)) and view.rules == game.state.rules for view in seen)
    for view in seen:
        public_json = json.dumps(view.public.to_json())
        # the public part carries tile counts for other seats, never their tiles
        for other in view.public.seats:
            assert isinstance(other.tiles, int)
        assert "rack" not in public_json


def test_a_views_rack_is_its_own_seat_only() -> None:
    card = load_card("practice")
    game, _ = Game.new(card, table_rules(charleston=False), seed=9)
    for seat in range(4):
        view = seat_view(game, seat)
        assert sorted(view.rack) == sorted(game.state.seats[seat].rack)
        assert view.public.seats[seat].tiles == len(view.rack)


@pytest.mark.slow
def test_simulate_counts_add_up_and_replays_reproduce_each_game(tmp_path: Path) -> None:
    result = simulate(6, 3, ["normal", "easy", "hard", "random"], log_dir=tmp_path)
    assert result.games == 6 == result.mahjong + result.wall_games
    assert sum(result.wins_by_seat) == result.mahjong
    assert result.self_picks <= result.mahjong and result.avg_turns > 0
    files = sorted(tmp_path.glob("game-*.json"))
    assert len(files) == 6
    card = load_card("practice")
    winners = 0
    for path in files:
        data = json.loads(path.read_text())
        game = replay(data, card).game
        assert game.state.phase == Phase.FINISHED
        winners += game.state.result is not None and game.state.result.winner is not None
    assert winners == result.mahjong


@pytest.mark.slow
def test_simulate_is_deterministic_for_a_seed() -> None:
    first = simulate(3, 11, ["normal", "normal", "hard", "easy"])
    second = simulate(3, 11, ["normal", "normal", "hard", "easy"])
    assert (first.mahjong, first.wins_by_seat, first.avg_turns) == (second.mahjong, second.wins_by_seat,
                                                                   second.avg_turns)


def test_simulate_json_has_exactly_the_documented_keys(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--games", "3", "--seed", "2", "--players", "normal,random,random,random",
                 "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {"games", "mahjong", "wall_games", "wins_by_seat", "chips_by_seat", "self_picks",
                         "jokerless", "avg_turns", "games_per_sec"}
    assert data["games"] == 3 and len(data["wins_by_seat"]) == 4


@pytest.mark.slow
def test_simulate_chips_by_seat_are_the_games_payouts_summed() -> None:
    """chips_by_seat is each seat's net over the run's payouts: it sums to zero and matches the payouts."""
    from bot.engine.payouts import payouts

    expected = [0, 0, 0, 0]

    def tally(game: Game) -> None:
        for payout in payouts(game.state):
            expected[payout.payer] -= payout.amount
            expected[payout.payee] += payout.amount

    result = simulate(6, 4, ["normal", "random", "hard", "easy"], on_game=tally)
    assert result.chips_by_seat == expected
    assert sum(result.chips_by_seat) == 0 and any(result.chips_by_seat)


def test_simulate_1946_rules_use_the_1946_card(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--games", "2", "--rules", "nmjl-1946", "--players", "normal,normal,normal,normal",
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 2


@pytest.mark.parametrize("players", ["normal,normal,normal", "normal,genius,normal,normal"])
def test_simulate_bad_players_exit_2_with_one_line(players: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--games", "1", "--players", players]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "level" in err[0]


def test_demo_narrates_a_whole_game_and_writes_its_images(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    images = tmp_path / "images"
    assert main(["demo", "--seed", "2026", "--no-db", "--images", str(images)]) == 0
    out = capsys.readouterr().out
    written = sorted(p.name for p in images.iterdir())
    assert {"table.png", "rack-east.png", "rack-south.png", "rack-west.png", "rack-north.png"} <= set(written)
    assert all((images / name).read_bytes().startswith(b"\x89PNG") for name in written)
    assert ("winning-line.png" in written) == ("Mah Jongg!" in out)
    assert "Charleston, first right" in out and "discards" in out
    assert "Mah Jongg!" in out or "wall game" in out
    if "Mah Jongg!" in out:
        assert " #" in out and "chips" in out and "Payouts:" in out


@pytest.mark.slow
@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_only_legal_actions_on_the_card_languages_new_lines(level: str) -> None:
    """R1, R5 (docs/rules.md §8): separate same-tile groups, any wind and a line of 1,008 variants, through each
    level's analysis, calls and exchanges (the made-up card of tests/support/cards.py)."""
    card = language_card()
    rules = table_rules("nmjl", card=card.id)
    game, _ = Game.new(card, rules, seed=3, east=1)
    assert play_checking(game, [level, "normal", level, "random"], 3) > 20
    assert game.state.result is not None
