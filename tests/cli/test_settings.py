"""The bot's settings for running at scale: the database (a path or a PostgreSQL URL), the shards a process runs,
the processes its computer players think in. Each mistake is one sentence naming the setting."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from bot.cli import main
from bot.service.tables import TableService
from bot.settings import Settings, SettingsError, load_settings

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GxYz12.abcdefghijklmnopqrstuvwxyz012345"
PG = "postgresql://charleston@db.internal/charleston"


def settings(**env: str) -> Settings:
    return load_settings({"DISCORD_TOKEN": TOKEN, **env}, dotenv=None)


def test_without_shard_settings_the_bot_runs_as_one_process() -> None:
    found = settings()
    assert (found.db_path, found.shard_count, found.shard_ids, found.sharded) == ("charleston.db", None, None, False)


@pytest.mark.parametrize(("ids", "expected"), [("0,1", (0, 1)), ("2-3", (2, 3)), (" 3 , 0-1 ", (0, 1, 3))])
def test_a_process_runs_the_shards_it_is_given(ids: str, expected: tuple[int, ...]) -> None:
    found = settings(CHARLESTON_DB=PG, CHARLESTON_SHARD_COUNT="4", CHARLESTON_SHARD_IDS=ids)
    assert found.shard_count == 4 and found.shard_ids == expected and found.sharded


def test_all_shards_in_one_process_may_keep_sqlite() -> None:
    assert not settings(CHARLESTON_SHARD_COUNT="4").sharded
    assert not settings(CHARLESTON_SHARD_COUNT="2", CHARLESTON_SHARD_IDS="0,1").sharded


@pytest.mark.parametrize(("env", "message"), [
    ({"CHARLESTON_SHARD_COUNT": "4", "CHARLESTON_SHARD_IDS": "0,1"},
     "CHARLESTON_SHARD_IDS=0,1 runs only some of the 4 shards, so other processes run the rest, and they cannot "
     "share the SQLite file charleston.db: set CHARLESTON_DB to a postgresql:// URL"),
    ({"CHARLESTON_SHARD_IDS": "0"}, "CHARLESTON_SHARD_IDS needs CHARLESTON_SHARD_COUNT"),
    ({"CHARLESTON_SHARD_COUNT": "0"}, "CHARLESTON_SHARD_COUNT must be a whole number from 1 to 10,000"),
    ({"CHARLESTON_SHARD_COUNT": "four"}, "CHARLESTON_SHARD_COUNT must be a whole number"),
    ({"CHARLESTON_DB": PG, "CHARLESTON_SHARD_COUNT": "4", "CHARLESTON_SHARD_IDS": "3,4"},
     "'4' is not among the shards 0 to 3"),
    ({"CHARLESTON_DB": PG, "CHARLESTON_SHARD_COUNT": "4", "CHARLESTON_SHARD_IDS": "1,0-1"}, "names a shard twice"),
    ({"CHARLESTON_DB": PG, "CHARLESTON_SHARD_COUNT": "4", "CHARLESTON_SHARD_IDS": "one"},
     "must be shard numbers separated by commas"),
    ({"CHARLESTON_DB": "mysql://db/charleston"}, "CHARLESTON_DB: mysql:// is not a database Charleston can use"),
    ({"CHARLESTON_THINK_WORKERS": "99"}, "CHARLESTON_THINK_WORKERS must be a whole number from 0 to 16"),
])
def test_a_bad_setting_is_one_sentence_naming_it(env: dict[str, str], message: str) -> None:
    with pytest.raises(SettingsError) as refused:
        settings(**env)
    assert message in str(refused.value) and "\n" not in str(refused.value)


def test_bot_check_counts_the_tables_without_restoring_them(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    """The bot restores its tables once, when it starts: the settings check before it only opens the database."""
    assert main(["simulate", "--games", "1", "--db", str(tmp_path / "here.db"), "--json"]) == 0
    with sqlite3.connect(tmp_path / "here.db") as conn:
        conn.execute("UPDATE tables SET status = 'open'")  # one table left open
    restores: list[object] = []
    monkeypatch.setattr(TableService, "restore", lambda *args: restores.append(args))
    monkeypatch.chdir(tmp_path)
    for name in list(os.environ):
        if name.startswith(("DISCORD_", "CHARLESTON_")):
            monkeypatch.delenv(name)
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("CHARLESTON_DB", "here.db")
    capsys.readouterr()
    assert main(["bot", "--check"]) == 0
    assert "database here.db (1 open table)" in capsys.readouterr().out and restores == []
