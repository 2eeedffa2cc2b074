"""A quick start for a big bot: restarted, the bot redraws nothing that did not change while it was down (a lobby,
a table waiting on a person's turn, her DM for that turn), so a thousand tables do not cost the request budget of
a thousand redraws; the first change at a table brings its message up to date, and a button drawn before the
restart works after it."""

from __future__ import annotations

from pathlib import Path

from support.discord_double import Double
from support.e2e_tables import open_table, seat_everyone
from support.game_driver import Driver, Person, make_bot


async def test_a_restart_writes_nothing_to_tables_and_dms_that_did_not_change(discord_double: Double,
                                                                               tmp_path: Path) -> None:
    alice, bea = discord_double.user("alice"), discord_double.user("bea")
    db = tmp_path / "quick.db"
    first = make_bot(discord_double, db, seeds=iter([8, 9]))
    async with discord_double.running(first):
        await discord_double.wait_for_commands("table")
        lobby_id = await open_table(discord_double, bea, computer_delay=0)  # a table still in its lobby
        table_id = await open_table(discord_double, alice, computer_delay=0)
        await seat_everyone(discord_double, first, table_id, [alice], 3)
        driver = Driver(discord_double, first, table_id, [Person(alice, 0)])
        await driver.play(until=lambda: 0 in driver.live.people_awaited() and driver.live.game is not None
                          and driver.live.game.state.phase.value == "play")
        token = first.service.seat_update(table_id, alice.id).table.token
        dm = await discord_double.wait_for(lambda: next((m for m in reversed(alice.dms())
                                                         if any(f":{token}:d." in c for c in m.custom_ids)), None),
                                           10, "her turn's DM")
        await first.service.drain()
        await first.presenter.settle()
    before = len(discord_double.world.requests)

    second = make_bot(discord_double, db, seeds=iter([10]))
    async with discord_double.running(second):
        await second.presenter.settle()
        assert set(second.service.table_ids()) == {lobby_id, table_id}
        written = [r.key for r in discord_double.world.requests[before:] if r.write_channel is not None]
        assert written == [], f"the restart redrew what had not changed: {written}"
        # The turn's button, drawn before the restart, makes her move; the table message then catches up.
        discard = next(c for c in dm.custom_ids if f":{token}:d." in c and not c.endswith("d.J"))
        version = second.service.tables[table_id].version
        await (await alice.at(dm.channel).click(dm, discard)).response()
        await discord_double.wait_for(lambda: second.service.tables[table_id].version > version, 10, "her move")
        table_message = second.service.display(table_id).message
        await discord_double.wait_for(lambda: any(r.key == "PATCH /channels/{channel_id}/messages/{message_id}"
                                                  and str(table_message) in r.path
                                                  for r in discord_double.world.requests[before:]), 10,
                                      "the table message brought up to date by the change")
