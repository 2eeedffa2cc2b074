"""The one rule for the database of every command that takes --db (issue 32): --db, else CHARLESTON_DB from the
environment, else from .env, else ./charleston.db; and the one rule for the files a command writes."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main


@pytest.fixture
def fresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty folder to work in, with no CHARLESTON_DB in the environment."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CHARLESTON_DB", raising=False)
    return tmp_path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """A command's status, stdout and stderr."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_migrate_starts_a_new_database_where_other_commands_advise_a_new_file(
        fresh: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "migrate", "--db", "fresh.db")
    assert code == 0 and out.startswith("fresh.db created; it is at schema ")
    code, out, _ = run(capsys, "migrate", "--db", "fresh.db")
    assert code == 0 and out.startswith("fresh.db is at schema ")


def test_without_db_commands_use_dot_charleston_db(fresh: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "ledger", "verify")
    assert code == 2 and "no database at charleston.db, the default" in err and "charleston migrate" in err
    assert run(capsys, "migrate")[1].startswith("charleston.db created")
    assert (fresh / "charleston.db").is_file()
    for argv in (["ledger", "verify"], ["tables", "list"], ["standings"], ["tables", "resume"]):
        assert run(capsys, *argv)[0] == 0, argv


@pytest.mark.parametrize("argv", [["standings"], ["ledger", "verify"], ["tables", "list"], ["migrate"],
                                  ["render", "standings", "-o", "chart.png"]])
def test_charleston_db_from_the_environment_is_every_commands_default(
        fresh: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    assert run(capsys, "migrate", "--db", "sim.db")[0] == 0
    monkeypatch.setenv("CHARLESTON_DB", "sim.db")
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    assert not (fresh / "charleston.db").exists()
    if argv == ["migrate"]:
        assert out.startswith("sim.db is at schema")


def test_charleston_db_from_dot_env_comes_after_the_environment(fresh: Path, monkeypatch: pytest.MonkeyPatch,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    (fresh / ".env").write_text("DISCORD_TOKEN=\nCHARLESTON_DB=from-file.db\n")
    assert run(capsys, "migrate")[1].startswith("from-file.db created")
    monkeypatch.setenv("CHARLESTON_DB", "from-env.db")
    assert run(capsys, "migrate")[1].startswith("from-env.db created")
    assert run(capsys, "migrate", "--db", "given.db")[1].startswith("given.db created")


def test_a_malformed_default_is_one_line_naming_the_setting(fresh: Path, monkeypatch: pytest.MonkeyPatch,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("CHARLESTON_DB", "mysql://nowhere/db")
    code, _, err = run(capsys, "standings")
    assert code == 2 and err.startswith("charleston: CHARLESTON_DB: ") and "(or give --db)" in err
    assert err.count("\n") == 1


def test_backup_into_a_missing_folder_creates_it_and_says_so(fresh: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, "migrate")
    code, out, err = run(capsys, "backup", "--to", "backups/x.db")
    assert code == 0 and out.strip() == "backed up charleston.db to backups/x.db"
    assert err.strip() == "charleston: created the folder backups"
    code, _, err = run(capsys, "backup", "--to", "backups/x.db")
    assert code == 2 and "already exists; choose a new file name" in err


@pytest.mark.slow
def test_simulate_into_a_missing_folder_says_so_as_every_command_does(
        fresh: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "simulate", "--games", "1", "--db", "runs/today/sim.db")
    assert code == 0 and err.strip() == f"charleston: created the folder {Path('runs/today')}"
    code, _, err = run(capsys, "simulate", "--games", "1", "--db", "runs")
    assert code == 2 and "runs is a folder; give the path of a database file" in err


def test_tables_list_reads_as_words(fresh: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import asyncio

    from bot.service.tables import TableService
    from bot.store.db import Database

    async def open_table() -> None:
        db = await Database.open("charleston.db")
        service = TableService(db, computer_delay=0)
        table_id = (await service.create_table(5, 6)).table_id
        await service.join(table_id, 42, "Ruth", seat=0)
        await service.add_computer(table_id, "hard", 2)
        await db.close()

    asyncio.run(open_table())
    code, out, _ = run(capsys, "tables", "list")
    assert code == 0
    assert out.strip() == ("table 1: guild 5 channel 6, open, 0 games, phase -; seats 0 player 42; "
                           "1 empty; 2 computer (hard); 3 empty")


def test_db_copy_reads_charleston_db_from_dot_env_when_not_given_from(fresh: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 35: ``db copy`` follows the rule of every --db: --from, else CHARLESTON_DB (environment, .env), else
    ./charleston.db."""
    assert run(capsys, "sample-week", "--games", "1", "--db", "league.db")[0] == 0
    (fresh / ".env").write_text("CHARLESTON_DB=league.db\n")
    code, out, err = run(capsys, "db", "copy", "--to", "copied.db")
    assert code == 0, err
    assert out.startswith("league.db -> copied.db: ")
    copied = run(capsys, "standings", "--all-time", "--db", "copied.db")
    assert copied[0] == 0 and "Guild 1, all games:" in copied[1]
    assert copied == run(capsys, "standings", "--all-time", "--db", "league.db")
    assert run(capsys, "ledger", "verify", "--db", "copied.db")[1] == "ok\n"


def test_db_copy_without_from_or_a_database_is_one_line_saying_what_to_give(
        fresh: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "db", "copy", "--to", "copied.db")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "no database at charleston.db, the default of --from" in err and "give --from DB" in err
    assert not (fresh / "copied.db").exists()
    (fresh / ".env").write_text("CHARLESTON_DB=mysql://db/charleston\n")
    code, _, err = run(capsys, "db", "copy", "--to", "copied.db")
    assert code == 2 and err.startswith("charleston: CHARLESTON_DB: mysql:// is not a database") and "--from" in err
