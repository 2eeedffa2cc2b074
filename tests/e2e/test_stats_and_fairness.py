"""Provable deals and ``/stats`` on the offline Discord: the table message shows the deal's commitment while the
game is played (and never its seed), the results reveal the seed and salt that open it, ``charleston fairness
verify`` checks the game the bot recorded; ``/stats`` gives one's own figures privately and another player's
summary for the channel with the detail privately to the one who asked, figures as the ledger and results say."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from support.discord_double import Double
from support.league_bots import RunningClock, answer_to, league_game, make_league_bot

from bot.cli import main
from bot.engine import fairness
from bot.engine.fairness import DealTerms
from bot.engine.state import Phase

COMMITMENT = re.compile(r"Deal sealed: `([0-9a-f]{64})`")
OPENED = re.compile(r"The deal: seed `(\d+)`, salt `([0-9a-f]{32})`, sealed as `([0-9a-f]{64})`")


async def test_the_table_message_shows_the_commitment_and_the_results_reveal_the_seed(
        discord_double: Double, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    double = discord_double
    ruth = double.user("ruth")
    path = tmp_path / "fair.db"
    bot = make_league_bot(double, path, RunningClock())
    async with double.running(bot):
        await double.wait_for_commands("table")
        opened = await answer_to(await ruth.slash("table", "new", computer_delay=0))
        table_id = int(opened.content.split("**table ")[1].split("**")[0])
        display = bot.service.view(table_id).display
        thread = double.world.channels[display.thread]
        at_table = ruth.at(thread)
        for _ in range(3):
            await answer_to(await at_table.slash("table", "computer", level="hard"))
        await answer_to(await at_table.slash("table", "start"))
        live = bot.service.tables[table_id]
        assert live.game is not None and live.game.state.phase != Phase.FINISHED  # Ruth's Charleston awaits her

        def sealed() -> str | None:
            message = next((m for m in thread.live_messages if m.id == bot.service.view(table_id).display.message),
                           None)
            found = COMMITMENT.search(message.content) if message is not None else None
            return found.group(1) if found else None

        commitment = await double.wait_for(sealed, 10, "the table message to show the deal's commitment")
        seed = live.game.state.seed
        (stored,) = await bot.service.db.fetchall("SELECT commitment, salt FROM deal_seals WHERE game_id = ?",
                                                  (live.game_id,))
        assert stored[0] == commitment
        # what opens the commitment stays secret while the game is played: no message names the salt or a seed
        shown = [m.content for m in thread.live_messages] + [m.content for m in ruth.dms()]
        assert not any(stored[1] in text or "seed `" in text for text in shown)

        await bot.service.leave(table_id, ruth.id)  # the computers finish the game

        def results() -> re.Match[str] | None:
            return next((found for m in thread.live_messages if (found := OPENED.search(m.content))), None)

        opened_deal = await double.wait_for(results, 10, "the results to reveal the deal's seed")
        assert (int(opened_deal.group(1)), opened_deal.group(3)) == (seed, commitment)
        terms = DealTerms(seed, 1, live.game.state.east, live.game.card.id, live.row.rules)
        assert fairness.matches(terms, opened_deal.group(2), commitment)  # anyone can open it with what was shown
        await bot.service.drain()
    assert await asyncio.to_thread(main, ["fairness", "verify", "--db", str(path)]) == 0  # the command line's own loop
    assert "ok: 1 game checked" in capsys.readouterr().out


async def test_stats_own_privately_and_anothers_summary_for_the_channel(discord_double: Double,
                                                                        tmp_path: Path) -> None:
    double = discord_double
    ruth = double.user("ruth")
    sadie = double.user("sadie", manager=False)
    bot = make_league_bot(double, tmp_path / "stats.db", RunningClock())
    async with double.running(bot):
        await double.wait_for_commands("stats", "table")
        nothing = await answer_to(await sadie.slash("stats"))
        assert nothing.ephemeral and "no finished game in this server yet" in nothing.content
        await league_game(double, bot, sadie)
        db = bot.service.db
        (net,) = await db.fetchone("SELECT COALESCE(SUM(amount), 0) FROM ledger_postings WHERE player_id = ?",
                                   (sadie.id,))
        (won,) = await db.fetchone("SELECT COUNT(*) FROM games g JOIN game_seats s ON s.game_id = g.game_id "
                                   "WHERE s.player_id = ? AND g.winner_seat = s.seat", (sadie.id,))
        signed = f"{int(net):+d}".replace("+0", "0")

        mine = await answer_to(await sadie.slash("stats"))
        assert mine.ephemeral and mine in sadie.sees() and mine not in ruth.sees()
        assert "Games: **1**" in mine.content and f"Mah Jongg: **{won}**" in mine.content
        assert f"Chips: **{signed}** ({signed} a game)" in mine.content
        assert "As East:" in mine.content and "Lines won most:" in mine.content

        asked = await ruth.slash("stats", player=sadie)
        summary = await answer_to(asked)
        assert not summary.ephemeral and "Sadie" in summary.content and "1 game," in summary.content
        assert f"**{signed}** chips" in summary.content and "As East" not in summary.content
        (detail,) = await asked.followups(1)
        assert detail.ephemeral and detail in ruth.sees() and detail not in sadie.sees()
        assert "Games: **1**" in detail.content and "Wall games:" in detail.content

        unknown = await answer_to(await ruth.slash("stats", league="Nowhere"))
        assert unknown.ephemeral and "Nowhere" in unknown.content
