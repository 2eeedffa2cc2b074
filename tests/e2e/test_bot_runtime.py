"""``charleston bot`` itself, as a separate process against the offline Discord: it connects, syncs valid
commands, answers, survives a reconnect and a 429, stops cleanly on SIGTERM, and after a SIGKILL the next start
carries every table on."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest
from support.bot_runs import kill_bot, start_bot, stop_bot
from support.discord_double import Double

from bot.cli import main
from bot.engine.rules import table_rules
from bot.service.clock import ManualClock
from bot.service.tables import TableService
from bot.service.updates import TableOptions
from bot.store import ledger
from bot.store.db import Database


async def test_the_bot_connects_answers_survives_a_reconnect_and_a_429_and_stops_on_sigterm(
        discord_double: Double, tmp_path: Path) -> None:
    db = tmp_path / "bot.db"
    process = await start_bot(discord_double, db)
    alice = discord_double.user("alice")
    try:
        answer = await (await alice.slash("ping")).message()
        assert answer.content.startswith("Pong!") and answer.ephemeral
        synced = {c.name for c in discord_double.world.commands.values() if c.guild_id == discord_double.guild_id}
        assert "ping" in synced  # every body it sent was validated against the spec (the fixture checks)

        discord_double.rate_limit("POST /interactions/{interaction_id}/{interaction_token}/callback", times=1,
                                  retry_after=0.2)
        late = await (await alice.slash("ping")).message()  # discord.py waited out the 429: nothing lost
        assert late.content.startswith("Pong!") and sum(discord_double.world.rate_limited.values()) >= 1

        await discord_double.reconnect()  # op 7: the bot resumes its session
        assert discord_double.gateway.resumes == 1
        again = await (await alice.slash("ping")).message()
        assert again.content.startswith("Pong!")
    finally:
        err = await stop_bot(process)
    log = err.decode()
    assert process.returncode == 0, log[-3000:]
    assert "stopping: finishing in-flight actions" in log and "Traceback" not in log
    database = await Database.open(db)  # closed cleanly: it opens and reads
    assert await database.fetchall("SELECT * FROM tables") == []
    await database.close()


async def _paced_computer_table(path: Path) -> int:
    """A table of four computers, each taking 0.005 s a move, dealt and left mid-game, as a bot would leave it."""
    db = await Database.open(path)
    try:
        service = TableService(db, clock=ManualClock())
        opened = await service.create_table(1, 2, seed=77, rules=table_rules(), options=TableOptions(0.005))
        for seat in range(4):
            await service.add_computer(opened.table_id, "easy", seat)
        await service.start(opened.table_id)
        return opened.table_id
    finally:
        await db.close()


async def test_a_bot_killed_mid_game_carries_every_table_on_when_started_again(
        discord_double: Double, tmp_path: Path) -> None:
    db = tmp_path / "kill.db"
    await _paced_computer_table(db)
    reader = await Database.open(db)

    async def actions() -> int:
        row = await reader.fetchone("SELECT COUNT(*) FROM actions")
        return int(row[0]) if row else 0

    try:
        process = await start_bot(discord_double, db, run=1)
        await discord_double.wait_for(lambda: True, 0.1)
        for _ in range(100):  # let the computers play some moves at the table's pace, then kill the bot
            if await actions() >= 20:
                break
            await asyncio.sleep(0.05)
        await kill_bot(process)
        before = await actions()
        assert before >= 20
        (ended,) = await reader.fetchone("SELECT COUNT(*) FROM games WHERE ended_at IS NOT NULL")
        assert ended == 0, "killed mid-game"

        process = await start_bot(discord_double, db, run=2)
        try:
            for _ in range(600):
                row = await reader.fetchone("SELECT COUNT(*) FROM games WHERE ended_at IS NOT NULL")
                if row and row[0] == 1:
                    break
                await asyncio.sleep(0.05)
            else:
                pytest.fail("the restarted bot did not finish the game")
        finally:
            await stop_bot(process)
        assert await actions() > before
        assert await ledger.verify(reader) == []
    finally:
        await reader.close()


@pytest.mark.parametrize(("env", "message"), [
    ({}, "DISCORD_TOKEN is not set"),
    ({"DISCORD_TOKEN": "not-a-token"}, "doesn't look like a bot token"),
    ({"DISCORD_TOKEN": "MTIzNDU2Nzg5MDEyMzQ1Njc4.GxYz12.abcdefghijklmnopqrstuvwxyz012345",
      "CHARLESTON_DB": "/proc/no/such/dir/x.db"}, "/proc/no/such/dir"),
    ({"DISCORD_TOKEN": "MTIzNDU2Nzg5MDEyMzQ1Njc4.GxYz12.abcdefghijklmnopqrstuvwxyz012345",
      "CHARLESTON_GUILD": "12x"}, "CHARLESTON_GUILD must be a server id"),
    ({"DISCORD_TOKEN": "MTIzNDU2Nzg5MDEyMzQ1Njc4.GxYz12.abcdefghijklmnopqrstuvwxyz012345",
      "DISCORD_API_BASE": "ftp://x"}, "DISCORD_API_BASE must be a http:// or https:// address"),
])
def test_bad_settings_are_one_clear_line(env: dict[str, str], message: str, tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    for name in list(os.environ):
        if name.startswith(("DISCORD_", "CHARLESTON_")):
            monkeypatch.delenv(name)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.chdir(tmp_path)  # no .env here
    assert main(["bot"]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_invite_and_check(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                          capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".env").write_text("# settings\nDISCORD_TOKEN='MTIzNDU2Nzg5MDEyMzQ1Njc4.GxYz12.abcdefghijklmnopqrstu"
                                   "vwxyz012345'\nexport CHARLESTON_DB=here.db\n", encoding="utf-8")
    for name in list(os.environ):
        if name.startswith(("DISCORD_", "CHARLESTON_")):
            monkeypatch.delenv(name)
    assert main(["bot", "--invite"]) == 0
    link = capsys.readouterr().out
    assert "client_id=123456789012345678" in link and "scope=bot+applications.commands" in link
    assert main(["bot", "--check"]) == 0
    assert "ok: settings are valid; database here.db (0 open tables)" in capsys.readouterr().out
    assert (tmp_path / "here.db").exists()
