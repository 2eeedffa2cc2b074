"""Two servers, each with a league called "Tuesday Night" and a card called "garden" of its own, and one player in
both: each server sees only its own league, standings, ledger, cards and suggestions."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from support.discord_double import Double
from support.league_bots import RunningClock, answer_to, create_league, league_game, make_league_bot
from support.league_cards import GOOD

OTHER_GOOD = GOOD.replace(b"Garden Club card", b"Allotment card").replace(b"value = 30", b"value = 35")


async def test_two_servers_with_same_named_leagues_see_only_their_own(discord_double: Double,
                                                                      tmp_path: Path) -> None:
    double = discord_double
    other = double.add_guild("Other Server")
    ruth, sadie = double.user("ruth"), double.user("sadie")
    zoe, sadie_there = double.user("zoe", guild=other), double.user("sadie", guild=other)
    assert sadie_there.id == sadie.id
    bot = make_league_bot(double, tmp_path / "two.db", RunningClock(), global_commands=True)
    async with double.running(bot):
        await double.wait_for_commands("league-admin", "standings", "ledger", "card-admin", guild=False)
        assert {g.id for g in bot.guilds} == {double.guild_id, other.id}
        await create_league(double, ruth, "Tuesday Night")
        await create_league(double, zoe, "Tuesday Night")  # the same name in another server is no clash
        for manager, data in ((ruth, GOOD), (zoe, OTHER_GOOD)):
            imported = await answer_to(await manager.slash("card-admin", "import", name="garden",
                                                      file=manager.upload("garden.toml", data)))
            assert "Imported" in imported.content, imported.content
        ids = set()
        for player in (sadie, zoe):  # "garden" is each server's own card
            opened = await answer_to(await player.slash("table", "new", card="garden"))
            ids.add(bot.service.view(int(opened.content.split("**table ")[1].split("**")[0])).rules.card)
        assert ids == {f"garden@{double.guild_id}", f"garden@{other.id}"}
        await league_game(double, bot, sadie, league="Tuesday Night")
        await league_game(double, bot, zoe, league="Tuesday Night")

        here = await answer_to(await ruth.slash("standings"))
        there = await answer_to(await zoe.slash("standings"))
        here_table_text, there_table_text = here.content.split("```")[1], there.content.split("```")[1]
        assert "Sadie" in here_table_text and "Zoe" not in here_table_text
        assert "Zoe" in there_table_text and "Sadie" not in there_table_text
        assert "Zoe" not in (here.attachments[0].description or "")

        for manager, player, guild_id in ((ruth, sadie, double.guild_id), (zoe, zoe, other.id)):
            exported = await answer_to(await manager.slash("ledger", export=True))
            rows = list(csv.DictReader(io.StringIO(exported.attachments[0].data.decode())))
            players = {int(r["player_id"]) for r in rows if r["player_id"]}
            assert players == {player.id}
            games = {int(r["game_id"]) for r in rows}
            (expected,) = await bot.service.db.fetchall("SELECT GROUP_CONCAT(game_id) FROM games WHERE guild_id = ?",
                                                        (guild_id,))
            assert games == {int(g) for g in str(expected[0]).split(",")}
        # Sadie plays only here: in the other server her ledger is empty
        ledger_there = await answer_to(await sadie_there.slash("ledger"))
        assert "**0** chips (0 games settled or corrected)" in ledger_there.content
        assert "(0 games" not in (await answer_to(await sadie.slash("ledger"))).content

        for player, title, hidden in ((ruth, "Garden Club card", "Allotment card"),
                                      (zoe, "Allotment card", "Garden Club card")):
            listed = (await answer_to(await player.slash("card", "list"))).content
            assert title in listed and hidden not in listed
        here_leagues = await ruth.autocomplete("standings", league="")
        assert [c["value"] for c in here_leagues] == ["Tuesday Night"]
        info = await answer_to(await zoe.slash("league", "info"))
        assert "1 member" in info.content  # Zoe alone: Sadie's game was in the other server
