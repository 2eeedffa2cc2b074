"""Opening, seating and finishing a table through the offline Discord."""

from __future__ import annotations

from bot.engine.state import Phase
from bot.store import ledger
from cogs.app import CharlestonBot
from support.discord_double import Double, Player
from support.discord_double.models import Message
from support.game_driver import Driver


async def open_table(double: Double, opener: Player, **options: object) -> int:
    """``/table new`` in #general: returns the table's id once its lobby message is up."""
    sent = await opener.slash("table", "new", **options)
    answer = await sent.message()
    assert "opened **table" in answer.content, answer.content
    table_id = int(answer.content.split("**table ")[1].split("**")[0])
    await double.wait_for(lambda: lobby(double, table_id), 10, "the lobby message")
    return table_id


def lobby(double: Double, table_id: int) -> Message | None:
    """The lobby (or table) message of a table, while it offers the lobby's buttons."""
    for thread in double.threads():
        for message in reversed(thread.messages):
            if f"ch:t:{table_id}:start" in message.custom_ids and not message.deleted:
                return message
    return None


async def seat_everyone(double: Double, bot: CharlestonBot, table_id: int, people: list[Player],
                        computers: int, level: str | None = None) -> None:
    """The people join with the lobby's Join button (the opener is seated already), the rest are computers: the
    lobby's Add computer button seats them at its level, or ``/table computer`` at ``level`` when one is given
    (a seeded scenario found with the player that is now ``hard`` names it)."""
    thread = double.world.channels[bot.service.view(table_id).display.thread]
    for person in people[1:]:
        message = lobby(double, table_id)
        assert message is not None
        joined = await (await person.at(thread).click(message, f"ch:t:{table_id}:join")).message()
        assert "You're in seat" in joined.content and joined.ephemeral
    for _ in range(computers):
        if level is not None:
            added = await (await people[0].at(thread).slash("table", "computer", level=level)).message()
            assert "computer" in added.content.lower(), added.content
            continue
        message = lobby(double, table_id)
        assert message is not None
        assert await (await people[0].at(thread).click(message, f"ch:t:{table_id}:computer")).response() == 6
    def full() -> bool:
        view = bot.service.view(table_id)
        return sum(not s.empty for s in view.seats) == view.rules.players

    await double.wait_for(full, 5, "a full table")
    message = lobby(double, table_id)
    assert message is not None
    await (await people[0].at(thread).click(message, f"ch:t:{table_id}:start")).response()


async def finish(driver: Driver, bot: CharlestonBot) -> None:
    """Play to the end; the game is over, settled, and its results are in the thread."""
    await driver.play()
    await bot.service.drain()
    await bot.presenter.settle()
    live = driver.live
    assert live.game is not None and live.game.state.phase == Phase.FINISHED
    assert await ledger.verify(bot.service.db) == []
    (settled,) = await bot.service.db.fetchone(
        "SELECT COUNT(*) FROM ledger_transactions WHERE game_id = ? AND kind = 'settlement'", (live.game_id,))
    assert settled == 1
    texts = [m.content for m in driver.thread().messages if not m.deleted]
    assert any("Settled in the chip ledger" in t for t in texts)
    final = driver.table_message()
    assert final is not None and f"ch:t:{driver.table_id}:start" in final.custom_ids  # Deal again


def most_channel_writes(double: Double, window: float = 5.0) -> int:
    """The most writes (posts, edits, deletes through the channel's routes) the bot made to one channel, a DM
    included, within any ``window`` seconds: Discord allows about 5 per 5 s."""
    times: dict[int, list[float]] = {}
    for record in double.world.requests:
        channel = record.write_channel
        if channel is not None:
            times.setdefault(channel, []).append(record.at)
    most = 0
    for stamps in times.values():
        stamps.sort()
        start = 0
        for end, at in enumerate(stamps):
            while at - stamps[start] >= window:
                start += 1
            most = max(most, end - start + 1)
    return most
