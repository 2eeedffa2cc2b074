"""What organisers and players read on the offline Discord (issue 23, item 10): ``/standings`` in a server without a
league shows the server's standings (every table, as ``charleston standings --guild`` gives them); weeks are named
as people say them ("week of 23 Nov 2026") in the answers and the suggestions, and accepted when typed so; and
``/ledger player:`` run by someone else shows the channel only what the standings show (the player's place and net
chips), the game-by-game detail going privately to the one who asked."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from pathlib import Path

from support.discord_double import Double
from support.discord_double.models import Message
from support.league_bots import RunningClock, answer_to, create_league, league_game, make_league_bot

from bot.store import ledger


def _monday_week(now: datetime) -> str:
    """The week (Monday to Sunday, UTC) holding ``now``, as people say it."""
    monday = now.date() - timedelta(days=now.weekday())
    return f"week of {monday.day} {monday:%b} {monday.year}"


def _table(message: Message) -> str:
    """The text table of a standings answer."""
    return message.content.split("```")[1]


def _games(message: Message, name: str) -> int:
    """A player's games in a standings answer's text table."""
    line = next(x for x in _table(message).splitlines() if name in x)
    return int(line.split()[-2])


async def test_standings_and_ledger_in_a_server_without_a_league(discord_double: Double, tmp_path: Path) -> None:
    double = discord_double
    ruth, sadie = double.user("ruth"), double.user("sadie", manager=False)
    clock = RunningClock()
    bot = make_league_bot(double, tmp_path / "no-league.db", clock)
    async with double.running(bot):
        await double.wait_for_commands("standings", "ledger", "table")
        table_id = await league_game(double, bot, sadie)  # no league here: the game counts for the server
        db = bot.service.db
        assert await ledger.verify(db) == [] and await bot.leagues.leagues(double.guild_id) == []
        (net,) = await db.fetchone("SELECT SUM(amount) FROM ledger_postings WHERE player_id = ?", (sadie.id,))
        week = _monday_week(clock.now())

        # /standings: the server's week, publicly, with its chart; the week named as people say it
        shown = await answer_to(await ruth.slash("standings"))
        assert not shown.ephemeral and shown in sadie.sees()
        assert shown.content.startswith(f"**Charleston Test** · standings for the {week}, every table here")
        assert re.search(r"\d{4}-W\d", shown.content) is None  # no ISO week label
        line = next(x for x in _table(shown).splitlines() if "Sadie" in x)
        assert f"{int(net):+d}" in line.split()
        (chart,) = shown.attachments
        assert chart.filename.startswith("standings-week-of-") and chart.description
        assert chart.description.startswith(f"Charleston Test standings, {week}") and "Sadie" in chart.description

        # suggestions show the weeks by name; the week typed that way (or as suggested) is the same week
        offered = await ruth.autocomplete("standings", week="")
        assert offered[0]["name"] == week and all(c["name"].startswith("week of ") for c in offered)
        for typed in (week, offered[0]["value"], week.removeprefix("week of ")):
            again = await answer_to(await ruth.slash("standings", week=typed))
            assert again.content.split("\n")[0] == shown.content.split("\n")[0], typed
        earlier = await answer_to(await ruth.slash("standings", week=offered[1]["name"]))
        assert offered[1]["name"] in earlier.content and "No games." in earlier.content
        wrong = await answer_to(await ruth.slash("standings", week="next Tuesday"))
        assert wrong.ephemeral and "like 23 Nov 2026" in wrong.content

        # every game so far; seasons belong to leagues, and the answer says what to type instead
        assert [c["value"] for c in await ruth.autocomplete("standings", season="")] == ["*"]
        totals = await answer_to(await ruth.slash("standings", season="*"))
        assert totals.content.startswith("**Charleston Test** · standings for every game so far")
        assert "Sadie" in _table(totals) and totals.attachments
        no_season = await answer_to(await ruth.slash("standings", season="Autumn"))
        assert no_season.ephemeral and "has none yet" in no_season.content and "All games so far" in no_season.content

        # /ledger player: by someone else: the channel sees the place and net chips only; the asker alone the games
        asked = await ruth.slash("ledger", player=sadie)
        public, detail = await asked.messages(2, timeout=10)
        assert not public.ephemeral and public in sadie.sees()
        assert public.content.startswith("**Sadie** in this server, as the standings show:")
        assert f"{week[:1].upper()}{week[1:]}: 1st of 1, **{int(net):+d}**".replace("+0", "0") in public.content
        assert "Every game so far: 1st of 1" in public.content
        for detail_only in ("table", "<t:", "Latest", "settled"):
            assert detail_only not in public.content
        assert detail.ephemeral and detail in ruth.sees() and detail not in sadie.sees()
        assert f"table {table_id}" in detail.content and "Latest:" in detail.content
        assert re.search(r"game \d", detail.content) is None  # tables by number; no internal game ids

        # her own: the whole statement, privately
        mine = await answer_to(await sadie.slash("ledger"))
        assert mine.ephemeral and mine not in ruth.sees() and f"table {table_id}" in mine.content


async def test_league_weeks_by_name_and_the_server_beside_several_leagues(discord_double: Double,
                                                                         tmp_path: Path) -> None:
    double = discord_double
    ruth, sadie = double.user("ruth"), double.user("sadie", manager=False)
    clock = RunningClock()
    bot = make_league_bot(double, tmp_path / "leagues.db", clock)
    async with double.running(bot):
        await double.wait_for_commands("standings", "ledger", "league-admin", "table")
        await create_league(double, ruth, "Tuesday Night")
        await create_league(double, ruth, "Friday")
        await answer_to(await ruth.slash("league-admin", "season", "start", name="Autumn", league="Friday"))
        await league_game(double, bot, sadie, league="Friday")
        await league_game(double, bot, sadie)  # a table of no league: only the server's standings count it
        assert await ledger.verify(bot.service.db) == []
        friday = (await bot.leagues.leagues(double.guild_id))[1]
        ((name, label), _) = bot.leagues.week_choices(friday, 2)
        assert name.startswith("week of ") and label[4:6] == "-W"

        # #general belongs to neither league: the server's standings, saying how to see a league's
        server = await answer_to(await sadie.slash("standings"))
        assert server.content.startswith("**Charleston Test** · standings for the week of ")
        assert "Leagues here: **Tuesday Night**, **Friday**" in server.content
        assert _games(server, "Sadie") == 2  # both games

        # a league's week, typed as people say it, answered by name; its suggestions by name too
        offered = await sadie.autocomplete("standings", league="Friday", week="")
        assert (offered[0]["name"], offered[0]["value"]) == (name, label)
        shown = await answer_to(await sadie.slash("standings", league="Friday", week=name))
        assert shown.content.startswith(f"**Friday** · standings for the {name} (") and label not in shown.content
        assert _games(shown, "Sadie") == 1  # the league's game only
        assert shown.attachments[0].description.startswith(f"Friday standings, {name}")
        season = await answer_to(await sadie.slash("standings", league="Friday", season="Autumn"))
        assert season.content.startswith("**Friday** · season **Autumn**") and "-W" not in season.content

        # another player's ledger in one league: this week, the running season and every game, by place
        asked = await ruth.slash("ledger", player=sadie, league="Friday")
        public, detail = await asked.messages(2, timeout=10)
        assert public.content.startswith("**Sadie** in **Friday**, as the standings show:")
        lines = public.content.split("\n")[1:]
        assert [x.split(":")[0] for x in lines] == [name[:1].upper() + name[1:], "Season Autumn", "Every game so far"]
        assert all("1st of 1" in x for x in lines) and "table" not in public.content
        assert detail.ephemeral and detail not in sadie.sees() and "Latest:" in detail.content
