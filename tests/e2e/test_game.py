"""Whole games in Discord, on the offline Discord: scripted people open a table with /table new, fill it with the
lobby's buttons and play every move through their DMs, the private "My rack" answer and the table message's
buttons, to the end; then the ledger is checked. (The double fails a test on any request Discord would refuse.)"""

from __future__ import annotations

from pathlib import Path

from support.discord_double import Double
from support.e2e_tables import finish, open_table, seat_everyone
from support.game_driver import Driver, Person, greedy, make_bot

from bot.service.clock import ManualClock
from bot.service.narration import describe
from cogs.show import look


async def test_a_person_and_three_computers_with_a_call_race_a_joker_exchange_and_mahjong_by_discard(
        discord_double: Double, tmp_path: Path) -> None:
    alice = discord_double.user("alice")
    events = []
    # Table seed 22 (found by playing the same policies through the service): Alice, who calls whatever she
    # can, races a computer for a discard, exchanges jokers, and the game ends on a discard.
    bot = make_bot(discord_double, tmp_path / "race.db", seeds=iter([22]))
    async with discord_double.running(bot):
        await discord_double.wait_for_commands("table", "play", "rack", "hint", "back")
        table_id = await open_table(discord_double, alice, computer_delay=0)
        bot.service.subscribe(lambda u: events.extend(u.events), table_id)
        await seat_everyone(discord_double, bot, table_id, [alice], 3, level="hard")
        driver = Driver(discord_double, bot, table_id, [Person(alice, 0, greedy)])
        await finish(driver, bot)
        state = driver.live.game.state
    races = _races(events)
    assert any(0 in calls for calls, _, _ in races), "Alice raced a computer for a discard"
    for calls, winner, discarder in races:  # P10: Mah Jongg first, then the next in turn after the discarder
        assert winner == min(calls, key=lambda s: (not calls[s], (s - discarder) % 4))
    assert any(e.type == "joker_exchange" and e.seat == 0 for e in events)
    assert "jokers" in driver.people[0].used  # made through the "Exchange a joker" button
    assert state.result is not None and state.result.how == "discard"


def _races(events: list) -> list[tuple[dict[int, bool], int, int]]:  # type: ignore[type-arg]
    """Every call window two players or more called: ({caller: for Mah Jongg}, winner, discarder)."""
    races, calls, discarder = [], {}, -1
    for event in events:
        if event.type == "call_window":
            calls, discarder = {}, event.seat
        elif event.type == "call":
            calls[event.seat] = event.payload.mahjong
        elif event.type == "window_closed" and len(calls) >= 2:
            races.append((calls, event.payload.winner, discarder))
    return races


async def test_four_people_play_a_whole_game_through_their_dms(discord_double: Double, tmp_path: Path) -> None:
    """... and nothing the bot posts outside a player's own DM shows a concealed tile."""
    people = [discord_double.user(name) for name in ("ruth", "sadie", "tova", "vera")]
    bot = make_bot(discord_double, tmp_path / "four.db", seeds=iter([5]))
    secrets: set[str] = set()  # every sentence of a private event, as the table would word it
    async with discord_double.running(bot):
        await discord_double.wait_for_commands("table")
        table_id = await open_table(discord_double, people[0], computer_delay=0)
        for seat in range(4):
            bot.service.subscribe_seat(lambda u: secrets.update(
                describe(e, lambda s: look.seat_label(u.table.view, s)) for e in u.events if e.private), table_id, seat)
        await seat_everyone(discord_double, bot, table_id, people, 0)
        driver = Driver(discord_double, bot, table_id, [Person(p, n) for n, p in enumerate(people)])
        await finish(driver, bot)
        assert all(p.moves >= 3 for p in driver.people.values())
        assert all("dm" in p.used for p in driver.people.values())
    _assert_no_secrets_outside_dms(discord_double, secrets)


def _assert_no_secrets_outside_dms(double: Double, secrets: set[str]) -> None:
    """Every body the bot sent anywhere but a DM (thread messages, their edits, public answers), text and alt text,
    holds no rack (no DM's rack alt text) and no private event's sentence."""
    dm_channels = {c.id for c in double.world.channels.values() if c.type == 1}
    racks: set[str] = set()
    public: list[str] = []
    for record in double.world.requests:
        body = record.body if isinstance(record.body, dict) else {}
        if isinstance(body.get("data"), dict):
            body = body["data"]  # an interaction's answer
        files = [a for a in body.get("attachments") or [] if isinstance(a, dict)]
        texts = [str(body.get("content") or "")] + [str(a.get("description") or "") for a in files]
        names = [str(a.get("filename") or "") for a in files]
        channel = record.path.split("/channels/")[1].split("/")[0] if "/channels/" in record.path else None
        if "/webhooks/" in record.path or "/interactions/" in record.path:  # through an interaction: its channel
            token = record.path.split("/")[5]
            channel = next(str(i.channel.id) for i in double.world.interactions.values() if i.token == token)
        ephemeral = bool(int(body.get("flags") or 0) & 64)
        if (channel is not None and int(channel) in dm_channels) or ephemeral:
            racks.update(t for t, n in zip(texts[1:], names, strict=False) if n == "rack.png")
            continue
        assert "rack.png" not in names, record.path
        public.extend(texts)
    assert racks and secrets, "the game produced private things to look for"
    for text in public:
        assert not any(rack and rack in text for rack in racks), text
        assert not any(secret in text for secret in secrets), text
        assert "You drew" not in text and "receives" not in text


async def test_a_person_with_closed_dms_plays_from_the_my_rack_button(discord_double: Double,
                                                                       tmp_path: Path) -> None:
    alice = discord_double.user("alice")
    closed = discord_double.user("bea", dms_open=False)
    bot = make_bot(discord_double, tmp_path / "closed.db", seeds=iter([8]))
    async with discord_double.running(bot):
        await discord_double.wait_for_commands("table")
        table_id = await open_table(discord_double, alice, computer_delay=0)
        await seat_everyone(discord_double, bot, table_id, [alice, closed], 2)
        driver = Driver(discord_double, bot, table_id, [Person(alice, 0), Person(closed, 1)])
        await discord_double.wait_for(lambda: 1 in driver.live.display.dms_closed, 10,
                                      "the bot to notice Bea's closed DMs")
        await discord_double.wait_for(lambda: (m := driver.table_message()) is not None
                                      and "your DMs are closed" in m.content, 10, "the table message to say so")
        await finish(driver, bot)
        assert "rack" in driver.people[1].used and "dm" not in driver.people[1].used
        assert not closed.dms()


async def test_a_person_who_misses_her_turn_is_played_for_and_comes_back(discord_double: Double,
                                                                          tmp_path: Path) -> None:
    alice, bea = discord_double.user("alice"), discord_double.user("bea")
    clock = ManualClock()
    bot = make_bot(discord_double, tmp_path / "away.db", clock=clock, seeds=iter([9]))
    async with discord_double.running(bot):
        await discord_double.wait_for_commands("table", "back")
        table_id = await open_table(discord_double, alice, computer_delay=0)
        await seat_everyone(discord_double, bot, table_id, [alice, bea], 2)
        driver = Driver(discord_double, bot, table_id, [Person(alice, 0)])  # Bea does nothing for now
        await driver.play(until=lambda: 1 in driver.live.people_awaited() and 0 not in driver.live.people_awaited())
        clock.advance(bot.service.charleston_timeout + bot.service.turn_timeout + 1)
        await bot.service.tick()  # her time is up: a computer takes her seat
        assert 1 in driver.live.away
        dm = await discord_double.wait_for(
            lambda: next((m for m in reversed(bea.dms()) if f"ch:t:{table_id}:back" in m.custom_ids), None), 10,
            "Bea's DM to offer I'm back")
        await (await bea.at(dm.channel).click(dm, f"ch:t:{table_id}:back")).message()
        assert 1 not in driver.live.away
        driver.people[1] = Person(bea, 1)
        await finish(driver, bot)
        assert driver.people[1].moves >= 1


async def test_the_1946_rules_play_to_the_end(discord_double: Double, tmp_path: Path) -> None:
    alice = discord_double.user("alice")
    bot = make_bot(discord_double, tmp_path / "1946.db", seeds=iter([3]), render_workers=1)  # drawn in a process
    async with discord_double.running(bot):
        await discord_double.wait_for_commands("table")
        table_id = await open_table(discord_double, alice, rules="nmjl-1946", computer_delay=0)
        assert bot.service.view(table_id).rules.card == "nmjl-1946"
        await seat_everyone(discord_double, bot, table_id, [alice], 3)
        driver = Driver(discord_double, bot, table_id, [Person(alice, 0)])
        await finish(driver, bot)
        message = driver.table_message()
        assert message is not None and "nmjl-1946" in message.content
