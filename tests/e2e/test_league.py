"""A league on the offline Discord: a manager creates it and gives it a channel, games are played at its tables
(opened in its channel, or anywhere with ``league:``), and everyone reads ``/standings`` (the chart with its alt
text, and a text table), ``/ledger`` (their own privately), a manager exports the ledger as CSV; members join and
leave, seasons start and end; someone without Manage Server is refused every manager command."""

from __future__ import annotations

import csv
import io
from collections import defaultdict
from pathlib import Path

from PIL import Image
from support.discord_double import Double
from support.league_bots import RunningClock, answer_to, create_league, league_game, make_league_bot

from bot.store import ledger
from bot.store.db import Database

MANAGE_GUILD = 1 << 5


async def _nets(db: Database, tables: list[int]) -> dict[int, int]:
    """Each person's chips over the games at these tables, straight from the ledger."""
    marks = ", ".join("?" for _ in tables)
    rows = await db.fetchall(
        f"SELECT p.player_id, SUM(p.amount) FROM ledger_postings p JOIN ledger_transactions t USING (txn_id) "
        f"JOIN games g ON g.game_id = t.game_id WHERE g.table_id IN ({marks}) AND p.player_id IS NOT NULL "
        "GROUP BY p.player_id", tables)
    return {int(r[0]): int(r[1]) for r in rows}


async def test_a_league_counts_its_tables_and_shows_standings_ledger_and_csv(discord_double: Double,
                                                                             tmp_path: Path) -> None:
    double = discord_double
    ruth = double.user("ruth")  # a server manager
    sadie = double.user("sadie", manager=False)
    clock = RunningClock()
    bot = make_league_bot(double, tmp_path / "league.db", clock)
    async with double.running(bot):
        await double.wait_for_commands("league", "league-admin", "standings", "ledger", "table")
        await create_league(double, ruth, "Tuesday Night", timezone="America/New_York")
        room = double.channel("mahjong")
        answer = await answer_to(await ruth.slash("league-admin", "channel", channel=room))
        assert f"<#{room.id}>" in answer.content and "Tuesday Night" in answer.content

        in_room = await league_game(double, bot, ruth.at(room))  # opened in the league's channel: counts
        by_option = await league_game(double, bot, sadie, league="tuesday night")  # named (any case): counts
        elsewhere = await league_game(double, bot, sadie)  # #general, no league: does not count
        db = bot.service.db
        assert await ledger.verify(db) == []
        league_nets = await _nets(db, [in_room, by_option])
        every_net = await _nets(db, [in_room, by_option, elsewhere])
        opened = [m for m in double.general.messages if "opened **table" in m.content]
        assert "counts for **Tuesday Night**" in opened[0].content and "counts for" not in opened[1].content

        # /standings: public, a chart with alt text and a text table with the league games' figures only
        shown = await answer_to(await sadie.slash("standings"))
        assert not shown.ephemeral
        assert shown.content.startswith("**Tuesday Night** · standings for the week of ")
        (chart,) = shown.attachments
        assert chart.filename.endswith(".png") and chart.description
        assert "Tuesday Night standings" in chart.description and "ruth" in chart.description.lower()
        with Image.open(io.BytesIO(chart.data)) as image:
            assert image.size[0] == 824
        table = shown.content.split("```")[1]
        for player in (ruth, sadie):
            line = next(x for x in table.splitlines() if player.user.name.title() in x)
            assert f"{league_nets[player.id]:+d}" in line.split()

        # /ledger: one's own is private; another player's is for the channel; league: narrows it
        mine = await answer_to(await sadie.slash("ledger"))
        assert mine.ephemeral and mine in sadie.sees() and mine not in ruth.sees()
        assert f"**{every_net[sadie.id]:+d}**".replace("+0", "0") in mine.content and "this server" in mine.content
        league_only = await answer_to(await sadie.slash("ledger", league="Tuesday Night"))
        assert f"**{league_nets[sadie.id]:+d}**".replace("+0", "0") in league_only.content
        hers = await answer_to(await ruth.slash("ledger", player=sadie))
        assert not hers.ephemeral and "Sadie" in hers.content

        # CSV export: managers only; every posting of the league, balanced per transaction
        refused = await answer_to(await sadie.slash("ledger", export=True, league="Tuesday Night"))
        assert refused.ephemeral and "Only server managers" in refused.content and not refused.attachments
        exported = await answer_to(await ruth.slash("ledger", export=True, league="Tuesday Night"))
        assert exported.ephemeral
        (attachment,) = exported.attachments
        rows = list(csv.DictReader(io.StringIO(attachment.data.decode())))
        totals: dict[str, int] = defaultdict(int)
        for row in rows:
            totals[row["txn_id"]] += int(row["amount"])
            assert row["league"] == "Tuesday Night"
        assert totals and all(total == 0 for total in totals.values())
        by_player: dict[int, int] = defaultdict(int)
        for row in rows:
            if row["player_id"]:
                by_player[int(row["player_id"])] += int(row["amount"])
        assert dict(by_player) == {p: n for p, n in league_nets.items() if n or p in by_player}


async def test_members_seasons_and_the_manager_check(discord_double: Double, tmp_path: Path) -> None:
    double = discord_double
    ruth, sadie = double.user("ruth"), double.user("sadie", manager=False)
    clock = RunningClock()
    bot = make_league_bot(double, tmp_path / "members.db", clock)
    async with double.running(bot):
        await double.wait_for_commands("league", "league-admin", "card-admin", "standings")
        admin = next(c for c in double.world.commands.values() if c.name == "league-admin")
        assert int(admin.body["default_member_permissions"]) == MANAGE_GUILD  # hidden from members by default
        for names, options in ((("league-admin", "create"), {"name": "Sadie's"}),
                               (("card-admin", "default"), {"name": "practice"})):
            refused = await answer_to(await sadie.slash(*names, **options))
            assert refused.ephemeral and "Only server managers" in refused.content
        assert await bot.service.db.fetchall("SELECT * FROM leagues") == []

        await create_league(double, ruth, "Thursday")
        again = await answer_to(await ruth.slash("league-admin", "create", name="  thursday "))
        assert again.ephemeral and "already has a league named 'thursday'" in again.content
        refused = await answer_to(await sadie.slash("league-admin", "season", "start", name="Autumn"))
        assert "Only server managers" in refused.content

        await league_game(double, bot, ruth, league="Thursday")  # Ruth joins by playing (auto-join)
        assert "1 member" in (await answer_to(await sadie.slash("league", "info"))).content
        assert "You're a member of **Thursday**" in (await answer_to(await sadie.slash("league", "join"))).content
        assert "already a member" in (await answer_to(await sadie.slash("league", "join", league="THURSDAY"))).content
        assert "2 members" in (await answer_to(await sadie.slash("league", "info"))).content
        assert "You've left" in (await answer_to(await sadie.slash("league", "leave"))).content
        assert "not a member" in (await answer_to(await sadie.slash("league", "leave"))).content
        missing = await answer_to(await sadie.slash("league", "join", league="Friday"))
        assert missing.ephemeral and "no league named 'Friday'" in missing.content and "Thursday" in missing.content

        started = await answer_to(await ruth.slash("league-admin", "season", "start", name="Autumn"))
        assert "Season **Autumn** of **Thursday** has started" in started.content
        twice = await answer_to(await ruth.slash("league-admin", "season", "start", name="Winter"))
        assert "still running" in twice.content
        await league_game(double, bot, ruth, league="Thursday")
        assert "Autumn" in (await answer_to(await ruth.slash("league-admin", "season", "end"))).content
        season = await answer_to(await sadie.slash("standings", season="Autumn"))
        assert season.content.startswith("**Thursday** · season **Autumn**")
        assert "Ruth" in season.content.split("```")[1]
        (chart,) = season.attachments
        assert "Thursday season" in (chart.description or "") and "Ruth" in (chart.description or "")
        both = await answer_to(await sadie.slash("standings", season="Autumn", week="2026-W01"))
        assert both.ephemeral and "not both" in both.content
        bad_week = await answer_to(await sadie.slash("standings", week="last week"))
        assert bad_week.ephemeral and "like 23 Nov 2026" in bad_week.content
        no_season = await answer_to(await sadie.slash("standings", season="Spring"))
        assert no_season.ephemeral and "no season named 'Spring'. Seasons: Autumn." in no_season.content
        offered = await sadie.autocomplete("standings", season="")
        assert [c["value"] for c in offered] == ["Autumn", "*"]

        quiet = await answer_to(await ruth.slash("league-admin", "auto-join", on=False))
        assert "no longer join **Thursday**" in quiet.content
        assert "players join" not in (await answer_to(await sadie.slash("league", "info"))).content
