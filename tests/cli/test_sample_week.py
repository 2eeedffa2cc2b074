"""`charleston sample-week`: a week of named players' games, so the standings have someone in them."""

from __future__ import annotations

import csv
import io
import json
from collections import Counter
from pathlib import Path

import pytest

from bot.cli import main
from bot.cli.sample import PEOPLE, seating


def test_everyone_sits_out_in_turn_so_six_games_seat_each_person_four_times() -> None:
    seated = Counter(name for game in range(6) for _, name in seating(game))
    assert seated == {name: 4 for _, name in PEOPLE}
    assert all(len({p for p, _ in seating(game)}) == 4 for game in range(6))


@pytest.mark.slow
def test_a_sample_week_fills_the_standings_that_computers_alone_leave_empty(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    computers = tmp_path / "sim.db"
    assert main(["simulate", "--games", "1", "--db", str(computers)]) == 0
    assert "computer players are not in the standings" in capsys.readouterr().out
    assert main(["standings", "--db", str(computers)]) == 0
    assert "Standings count people only" in capsys.readouterr().out

    path = tmp_path / "weeks" / "sample.db"
    assert main(["sample-week", "--db", str(path), "--games", "2"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith(f"Recorded 2 games between Ruth, Sadie, Ida, Dorothy, Bea and Miriam in {path}")
    assert f"created the folder {path.parent}" in err
    assert main(["standings", "--db", str(path), "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)[0]["standings"]
    assert {r["name"] for r in rows} == {"Ruth", "Sadie", "Ida", "Dorothy", "Bea"}  # Miriam first plays game 3
    assert sum(r["net"] for r in rows) == 0 and sum(r["games"] for r in rows) == 8
    assert main(["ledger", "verify", "--db", str(path)]) == 0
    capsys.readouterr()
    assert main(["ledger", "export", "--db", str(path)]) == 0
    postings = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert {p["player_name"] for p in postings} == {r["name"] for r in rows}
    assert sum(int(p["amount"]) for p in postings) == 0 and len({p["game_id"] for p in postings}) == 2
    assert main(["sample-week", "--db", str(path)]) == 2
    assert "already holds games of guild 1" in capsys.readouterr().err
