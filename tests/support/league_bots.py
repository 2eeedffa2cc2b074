"""Shared steps of the league tests on the offline Discord: a bot whose clock the test moves, a league created by
command, and a league game played quickly (a person opens a table, three computers join, the deal, and the person
steps away, so a computer plays their seat and the computers finish the game at once; the person's chips still
count)."""

from __future__ import annotations

import itertools
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

from bot.engine.state import Phase
from bot.service.clock import ManualClock
from bot.settings import Settings
from cogs.app import CharlestonBot
from support.discord_double import Double, Player
from support.discord_double.models import Channel, Message


class RunningClock(ManualClock):
    """A :class:`ManualClock` that also runs: the wall clock's time, moved on by :meth:`advance`. The store stamps
    a game's end with the wall clock, so a league's clock must keep pace with it for games to fall in the weeks
    and seasons the league's clock says they do; a test moves it past a week's end with ``advance``."""

    def __init__(self) -> None:
        super().__init__(datetime.now(UTC))
        self._started = time.monotonic()

    def now(self) -> datetime:
        """The wall clock's time plus every advance."""
        return super().now() + timedelta(seconds=time.monotonic() - self._started)


def make_league_bot(double: Double, db: Path, clock: ManualClock, *, global_commands: bool = False) -> CharlestonBot:
    """The Charleston bot for the double, with the test's clock and table seeds 1, 2, 3...; commands synced to the
    double's guild (or, with ``global_commands``, globally, so every guild of the double has them)."""
    guild = None if global_commands else double.guild_id
    settings = Settings(double.token, str(db), guild, "INFO", double.api_base, double.gateway_url, 0.05)
    return CharlestonBot(settings, clock=clock, seeds=itertools.count(1))


def mid_week(timezone: str = "UTC", now: datetime | None = None) -> int:
    """The week start day (0 = Monday) that puts ``now`` in the middle of a league week in ``timezone``: three
    days after its start, four before its end, so games played now by the wall clock fall in the week the test's
    clock is in, however long the test takes."""
    local = (now or datetime.now(UTC)).astimezone(ZoneInfo(timezone))
    return (local.weekday() - 3) % 7


def past_the_week_end() -> timedelta:
    """How far to move a :func:`mid_week` clock to be past the end of its week (and before the next one ends)."""
    return timedelta(days=5)


async def answer_to(sent: object) -> Message:
    """The bot's answer to an interaction (its response message, once finished)."""
    return await sent.message()  # type: ignore[attr-defined,no-any-return]


async def create_league(double: Double, manager: Player, name: str, timezone: str = "UTC") -> Message:
    """``/league-admin create`` with a mid-week week start; the answer says it is created."""
    answer = await answer_to(await manager.slash("league-admin", "create", name=name, timezone=timezone,
                                            week_starts=mid_week(timezone)))
    assert "is created" in answer.content, answer.content
    return answer


async def league_game(double: Double, bot: CharlestonBot, player: Player, level: str = "hard",
                      **options: object) -> int:
    """``player`` opens a table where they are (with ``options``, e.g. ``league=``), seats three computers, deals
    and steps away; the computers finish the game at once. Returns the table id once the game is settled.

    Stepping away is asked of the service, not typed as ``/table leave``: that command plays the whole game out
    before it answers, which on a loaded machine is later than Discord's 3 seconds."""
    opened = await answer_to(await player.slash("table", "new", computer_delay=0, **options))
    assert "opened **table" in opened.content, opened.content
    table_id = int(opened.content.split("**table ")[1].split("**")[0])
    thread = double.world.channels[bot.service.view(table_id).display.thread]
    at_table = player.at(thread)
    for _ in range(3):
        seated = await answer_to(await at_table.slash("table", "computer", level=level))
        assert "computer player sits" in seated.content
    assert "Dealt" in (await answer_to(await at_table.slash("table", "start"))).content
    live = bot.service.tables[table_id]
    if live.playing:
        await bot.service.leave(table_id, player.id)

    def settled() -> bool:
        game = live.game
        return game is not None and game.state.phase == Phase.FINISHED and live.version == len(game.state.log) \
            and not live.playing

    await double.wait_for(settled, 10, f"the game at table {table_id} to end")
    await bot.service.drain()
    return table_id


def standings_posts(channel: Channel) -> list[Message]:
    """The weekly standings the bot posted in a channel."""
    return [m for m in channel.live_messages if m.visible_to is None
            and any(a.filename.startswith("standings-") for a in m.attachments)]


