"""A number in the record typed over by hand (issue 35): SQLite keeps any text in an INTEGER column, and the
commands that add up games and chips (stats, standings, the ledger, fairness, the standings chart) answer with
one line naming the game and the field, and exit 1 (problems found), never a traceback or status 70."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.cli import run

CHARLESTON = Path(sys.executable).parent / "charleston"
READERS = [["stats", "--json"], ["stats"], ["standings", "--all-time"], ["standings", "--json"],
           ["ledger", "verify"], ["ledger", "export", "-o", "ledger.csv"], ["fairness", "verify"],
           ["render", "standings", "-o", "chart.png"]]


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real database with two games between people, settled in the ledger (``sample-week``), made once."""
    path = tmp_path_factory.mktemp("recorded") / "league.db"
    done = subprocess.run([sys.executable, "-m", "bot", "sample-week", "--games", "2", "--db", str(path)],
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    return path


@pytest.fixture
def damaged(recorded: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the recorded database in a fresh folder, to be damaged by the test."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CHARLESTON_DB", raising=False)
    return Path(shutil.copy(recorded, tmp_path / "league.db"))


def edit_by_hand(path: Path, sql: str, params: tuple[object, ...] = ()) -> None:
    """What someone does in ``sqlite3``: a ledger posting is protected by a trigger, which they drop first."""
    with sqlite3.connect(path) as conn:
        conn.execute("DROP TRIGGER IF EXISTS ledger_postings_immutable")
        conn.execute(sql, params)
    conn.close()


@pytest.mark.parametrize("argv", READERS, ids=" ".join)
def test_text_in_a_games_winner_seat_is_one_line_naming_the_game_and_field(
        damaged: Path, capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    edit_by_hand(damaged, "UPDATE games SET winner_seat = 'two' WHERE game_id = 2")
    code, _, err = run(capsys, *argv, "--db", "league.db")
    assert code == 1 and err.count("\n") == 1, err
    assert err.startswith("charleston: league.db: game 2 has 'two' in games.winner_seat, where a whole number")
    assert "restore a backup" in err
    assert not Path("chart.png").exists() and not Path("ledger.csv").exists()  # nothing written from it


@pytest.mark.parametrize(("sql", "named"), [
    ("UPDATE games SET value = 'twenty-five' WHERE game_id = 1", "game 1 has 'twenty-five' in games.value"),
    ("UPDATE games SET east = 'N' WHERE game_id = 2", "game 2 has 'N' in games.east"),
    ("UPDATE games SET guild_id = 'my server' WHERE game_id = 1", "game 1 has 'my server' in games.guild_id"),
    ("UPDATE game_seats SET player_id = 'Ruth' WHERE game_id = 2 AND seat = 1",
     "game 2's game_seats row (game_id 2) has 'Ruth' in game_seats.player_id"),
    ("UPDATE ledger_postings SET amount = '12.5' WHERE posting_id = 3",
     "ledger_postings row (posting_id 3) has '12.5' in ledger_postings.amount"),
    ("UPDATE ledger_postings SET amount = 9223372036854775807 WHERE posting_id = 3",
     "has '9223372036854775807' in ledger_postings.amount, far past any game's chips"),
    ("UPDATE ledger_postings SET amount = 'ten' WHERE posting_id = 3",
     "ledger_postings row (posting_id 3) has 'ten' in ledger_postings.amount"),
])
def test_each_kind_of_hand_edit_is_named_by_stats(damaged: Path, capsys: pytest.CaptureFixture[str], sql: str,
                                                  named: str) -> None:
    edit_by_hand(damaged, sql)
    code, out, err = run(capsys, "stats", "--json", "--db", str(damaged))
    assert code == 1 and out == "" and named in err, err


def test_a_number_typed_back_as_digits_is_a_number_again(damaged: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """SQLite stores '25' typed into an INTEGER column as the number 25: that edit is no damage."""
    edit_by_hand(damaged, "UPDATE games SET value = '25' WHERE game_id = 1")
    code, out, err = run(capsys, "stats", "--json", "--db", str(damaged))
    assert code == 0 and out.startswith('{"players"'), err


def test_the_commands_that_do_not_add_up_games_still_open_a_damaged_file(
        damaged: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A backup of the damaged file is still possible (to mend it at leisure), and the open tables are listed."""
    edit_by_hand(damaged, "UPDATE games SET value = 'x' WHERE game_id = 1")
    assert run(capsys, "backup", "--db", str(damaged), "--to", "copy.db")[0] == 0
    assert run(capsys, "tables", "list", "--db", str(damaged))[0] == 0


@pytest.mark.skipif(not CHARLESTON.exists(), reason="the charleston console script is not installed")
def test_stats_json_on_a_hand_edited_file_exits_1_from_the_installed_command(damaged: Path) -> None:
    edit_by_hand(damaged, "UPDATE games SET winner_seat = 'abc' WHERE game_id = 2")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CHARLESTON_", "DISCORD_"))}
    done = subprocess.run([str(CHARLESTON), "stats", "--db", "league.db", "--json"], cwd=damaged.parent, env=env,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.splitlines() == [done.stderr.strip()] and "game 2" in done.stderr
    assert "games.winner_seat" in done.stderr and "Traceback" not in done.stderr


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.one_of(st.text(max_size=30), st.binary(max_size=10), st.floats(allow_nan=False),
                 st.integers(-2**63, 2**63 - 1)))
def test_whatever_is_typed_into_a_chips_amount_is_never_a_traceback(
        damaged: Path, capsys: pytest.CaptureFixture[str], typed: object) -> None:
    copy = damaged.parent / "fuzzed.db"
    shutil.copy(damaged, copy)
    edit_by_hand(copy, "UPDATE ledger_postings SET amount = ? WHERE posting_id = 3", (typed,))
    with sqlite3.connect(copy) as conn:
        kind, stored = conn.execute("SELECT typeof(amount), amount FROM ledger_postings "
                                    "WHERE posting_id = 3").fetchone()
    conn.close()
    for argv in (["stats", "--json"], ["ledger", "verify"]):
        code, _, err = run(capsys, *argv, "--db", str(copy))
        if kind != "integer" or abs(stored) > 1_000_000_000:  # SQLite turns '12' or '1e3' into a number itself
            # text, a fraction, binary data or chips no game moves: named, status 1
            assert code == 1 and "ledger_postings.amount" in err and err.count("\n") == 1, err
        else:  # a whole number: read as one (the ledger may then not balance, which verify reports)
            assert code in ((0,) if argv[0] == "stats" else (0, 1)) and err == "", err
