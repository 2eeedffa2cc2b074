"""``charleston paired``: two levels compared on the same deals (issue 16's measuring tool)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from bot.cli import main
from bot.cli.paired import Estimate, play_deal, read_deals, seat_for, summarise
from bot.cli.simulate import simulate
from bot.engine.rules import rules_for_card
from bot.service.cards import load_card


def test_the_compared_seat_meets_every_east_over_sixteen_games() -> None:
    pairs = {(seat_for(n), n % 4) for n in range(16)}
    assert pairs == {(seat, east) for seat in range(4) for east in range(4)}


@pytest.mark.slow
def test_a_level_against_itself_differs_by_nothing_on_every_deal() -> None:
    """Both games of a pair are the same deal: with the same level in the seat, they are the same game."""
    card = load_card("practice")
    rules = rules_for_card(card)
    for n in range(3):
        deal = play_deal(card, rules, 7, n, "normal", "normal")
        assert deal.candidate == deal.baseline
    summary = summarise([play_deal(card, rules, 7, n, "normal", "normal") for n in range(3)], "normal", "normal")
    assert summary["difference"]["chips_per_game"] == {"mean": 0.0, "low": 0.0, "high": 0.0}  # type: ignore[index]


@pytest.mark.slow
def test_the_baseline_game_is_the_simulate_game_of_the_same_seed() -> None:
    """Game n of a paired seed is dealt as simulate's game n: the all-baseline game's chips are simulate's."""
    card = load_card("practice")
    rules = rules_for_card(card)
    seed = 5
    by_sim = simulate(4, seed, ["normal"] * 4)
    deals = [play_deal(card, rules, seed, n, "hard", "normal") for n in range(4)]
    # seat_for(n) is 0 for n < 4: the baseline side of each deal is seat 0 of an all-normal game.
    assert sum(d.baseline.chips for d in deals) == by_sim.chips_by_seat[0]
    assert sum(d.baseline.won for d in deals) == by_sim.wins_by_seat[0]


def test_estimate_is_the_mean_with_a_normal_95_percent_interval() -> None:
    est = Estimate.of([1.0, 2.0, 3.0, 4.0])
    half = 1.959964 * math.sqrt((2.25 + 0.25 + 0.25 + 2.25) / 3 / 4)  # sample variance 5/3, n 4
    assert est.mean == 2.5
    assert est.low == pytest.approx(2.5 - half, abs=1e-4) and est.high == pytest.approx(2.5 + half, abs=1e-4)
    assert Estimate.of([3.0]) == Estimate(3.0, 3.0, 3.0)


@pytest.mark.slow
def test_paired_json_jsonl_and_summary_agree(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    records = tmp_path / "deals.jsonl"
    assert main(["paired", "--candidate", "hard", "--baseline", "normal", "--seeds", "3-4", "--games", "2",
                 "--jsonl", str(records), "--json"]) == 0
    played = json.loads(capsys.readouterr().out)
    assert played["deals"] == 4 and played["seeds"] == [3, 4]
    assert set(played["difference"]) == {"chips_per_game", "wins", "threw", "wall_games"}
    lines = records.read_text().splitlines()
    assert len(lines) == 4 and {json.loads(line)["seed"] for line in lines} == {3, 4}
    assert main(["paired", "--summary", str(records), "--json"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["difference"] == played["difference"]
    assert again["candidate_side"] == played["candidate_side"]
    deals = read_deals([records, records])  # the same deals twice pool as once
    assert len(deals) == 4 and all(d.levels == ("hard", "normal") for d in deals)


@pytest.mark.slow
def test_paired_versus_compares_two_candidates_on_their_shared_deals(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    hard, easy = tmp_path / "hard.jsonl", tmp_path / "easy.jsonl"
    assert main(["paired", "--candidate", "hard", "--seeds", "6", "--games", "3", "--jsonl", str(hard)]) == 0
    assert main(["paired", "--candidate", "easy", "--seeds", "6", "--games", "2", "--jsonl", str(easy)]) == 0
    capsys.readouterr()
    assert main(["paired", "--summary", str(hard), "--versus", str(easy), "--json"]) == 0
    compared = json.loads(capsys.readouterr().out)
    first, second = read_deals([hard]), {(d.seed, d.game): d for d in read_deals([easy])}
    diffs = [d.candidate.chips - second[(d.seed, d.game)].candidate.chips for d in first if (d.seed, d.game) in second]
    assert compared["first"] == "hard" and compared["second"] == "easy" and compared["deals"] == 2
    assert compared["chips_per_game"]["mean"] == pytest.approx(sum(diffs) / 2)
    # Mixed records, or --versus without --summary, are refused in one line.
    assert main(["paired", "--summary", str(hard), str(easy)]) == 2
    assert "different levels" in capsys.readouterr().err
    assert main(["paired", "--versus", str(easy)]) == 2
    assert "--versus goes with --summary" in capsys.readouterr().err


def test_paired_text_report_leads_with_chips(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["paired", "--seeds", "2", "--games", "1", "--rules", "nmjl-1946"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("hard against normal, paired over 1 deals")
    assert out[1].startswith("  chips a game: ") and "95% CI" in out[1]


@pytest.mark.parametrize(("argv", "words"), [
    (["--seeds", "9-3"], "not a list of seeds"),
    (["--seeds", "x"], "not a list of seeds"),
    (["--candidate", "genius"], "unknown level 'genius'"),
    (["--baseline", "hard-searching"], "unknown level"),
    (["--rules", "westworld"], "Unknown rules preset"),
    (["--rules", "nmjl", "--card", "nope"], "nope"),
    (["--games", "0"], "--games"),
])
def test_paired_bad_options_exit_2_with_one_line(argv: list[str], words: str,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["paired", "--games", "1", *argv]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and words in err[0]


def test_paired_summary_of_a_foreign_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"seed": 1}\n')
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    for path, words in ((bad, "not a record"), (empty, "no deals"), (tmp_path / "missing.jsonl", "cannot read"),
                        (tmp_path, "cannot read")):
        assert main(["paired", "--summary", str(path)]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and words in err[0]


@pytest.mark.slow
def test_reader_hard_plays_as_reader_normal_under_the_1946_rules_and_not_under_nmjl() -> None:
    """reader-hard's settings were measured weaker than normal's under the 1946 rules, so there it plays normal's:
    every paired deal is the same game twice. Under NMJL rules it plays its own."""
    from bot.engine.rules import table_rules

    for preset, same in (("nmjl-1946", True), ("nmjl", False)):
        rules = table_rules(preset)
        card = load_card(rules.card)
        deals = [play_deal(card, rules, 31, n, "reader-hard", "reader-normal") for n in range(6)]
        assert all(d.candidate == d.baseline for d in deals) == same


@pytest.mark.slow
def test_each_table_level_plays_exactly_as_the_player_the_ladder_names() -> None:
    """The ladder (docs/computer-players.md): hard is reader-normal, normal is reader-normal slipping at one
    discard in four, easy is reader-easy slipping at three in four; every deal is the same game twice, and a
    level is not the same as its neighbour."""
    from bot.ai.players import LADDER
    from bot.engine.rules import table_rules

    for preset in ("nmjl", "nmjl-1946", "classical"):
        rules = table_rules(preset)
        card = load_card(rules.card)
        for level, player in LADDER.items():
            deals = [play_deal(card, rules, 41, n, level, player) for n in range(3)]
            assert all(d.candidate == d.baseline for d in deals), (preset, level)
    card = load_card(table_rules("nmjl").card)
    for upper, lower in (("hard", "normal"), ("normal", "easy")):
        deals = [play_deal(card, table_rules("nmjl"), 41, n, upper, lower) for n in range(4)]
        assert any(d.candidate != d.baseline for d in deals), (upper, lower)


def test_paired_jsonl_refuses_a_file_of_something_else_and_leaves_it_whole(tmp_path: Path,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """--jsonl appends; a database named by mistake is refused, byte for byte untouched."""
    db = tmp_path / "league.db"
    db.write_bytes(b"SQLite format 3\x00" + bytes(range(256)) * 4)
    before = db.read_bytes()
    assert main(["paired", "--seeds", "1", "--games", "1", "--jsonl", str(db)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "holds something other than paired deals" in err[0]
    assert db.read_bytes() == before


@pytest.mark.slow
def test_paired_plays_the_classical_game_deal_by_deal(capsys: pytest.CaptureFixture[str]) -> None:
    """The classical game (no card) is compared like the card games: the same deal twice, the level in one seat."""
    from bot.engine.rules import table_rules

    rules = table_rules("classical")
    card = load_card(rules.card)
    same = [play_deal(card, rules, 12, n, "normal", "normal") for n in range(2)]
    assert all(d.candidate == d.baseline for d in same)
    assert main(["paired", "--candidate", "easy", "--baseline", "normal", "--rules", "classical", "--seeds", "12",
                 "--games", "3", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["deals"] == 3 and summary["candidate"] == "easy"
