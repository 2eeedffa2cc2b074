"""An organiser on the offline Discord (issue 31, items 2 and 3): ``/league-admin scoring`` makes a league score
tournament points, ``/league-admin game record`` records games played at a physical table, ``/league-admin game
void`` voids one with a reason; ``/standings`` ranks by points and lists the corrections (who, when, why), and the
ledger's export has them too. Members may do none of it; a malformed recorded game is one sentence and nothing
stored."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from support.discord_double import Double
from support.discord_double.models import Message
from support.league_bots import RunningClock, answer_to, create_league, make_league_bot

from bot.store import ledger


def _points(message: Message) -> dict[str, str]:
    """Each player's figure in a standings answer's text table."""
    lines = message.content.split("```")[1].strip().splitlines()[1:]
    return {line.split()[1]: line.split()[2] for line in lines}


async def test_tournament_points_a_recorded_physical_game_and_a_void(discord_double: Double, tmp_path: Path) -> None:
    double = discord_double
    ruth, sadie = double.user("ruth"), double.user("sadie", manager=False)
    ann, bea = double.user("ann", manager=False), double.user("bea", manager=False)
    clock = RunningClock()
    bot = make_league_bot(double, tmp_path / "corrections.db", clock)
    async with double.running(bot):
        await double.wait_for_commands("league-admin", "standings", "ledger")
        await create_league(double, ruth, "Club")
        await answer_to(await ruth.slash("league-admin", "channel", channel=double.world.general))

        refused = await answer_to(await sadie.slash("league-admin", "scoring", unit="tournament"))
        assert refused.ephemeral and "Only server managers" in refused.content
        shown = await answer_to(await ruth.slash("league-admin", "scoring"))
        assert shown.ephemeral and "Scoring: chips" in shown.content  # nothing asked: the scoring as it is
        scoring = await answer_to(await ruth.slash("league-admin", "scoring", preset="tournament"))
        assert not scoring.ephemeral and "**Club** now: Scoring: tournament points (I Love Mahj" in scoring.content

        seats = {"east": ruth, "south": sadie, "west": ann, "north": bea}
        # Sadie wins 2468-1 (25) on Ann's discard with two exposures: Sadie 25, Ann -20.
        first = await answer_to(await ruth.slash("league-admin", "game", "record", **seats, winner=sadie,
                                                 line="2468-1", thrower=ann, exposures=2))
        assert not first.ephemeral and "is recorded for **Club**" in first.content, first.content
        assert "Sadie won with 2468-1 on Ann's discard, 2 exposures." in first.content
        number = int(first.content.split("Game ")[1].split()[0])
        # A wall game: 10 each.
        wall = await answer_to(await ruth.slash("league-admin", "game", "record", **seats))
        assert "A wall game." in wall.content

        games = await bot.service.db.fetchval("SELECT COUNT(*) FROM games")
        bad = await answer_to(await ruth.slash("league-admin", "game", "record", **seats, winner=sadie))
        assert bad.ephemeral and "Name the winning line" in bad.content
        members = await answer_to(await sadie.slash("league-admin", "game", "record", **seats))
        assert members.ephemeral and "Only server managers" in members.content
        assert await bot.service.db.fetchval("SELECT COUNT(*) FROM games") == games

        standings = await answer_to(await sadie.slash("standings"))
        assert _points(standings) == {"Sadie": "+35", "Ruth": "+10", "Bea": "+10", "Ann": "-10"}
        assert " Pts " in standings.content and "recorded at a physical table by Ruth" in standings.content
        assert "ranked by points" in standings.attachments[0].description

        offered = await ruth.autocomplete("league-admin", "game", "void", reason="x", game="")
        assert offered[0]["name"].startswith(f"Game {number + 1} · physical table")
        assert any(o["value"] == number for o in offered)
        not_theirs = await answer_to(await sadie.slash("league-admin", "game", "void", game=number, reason="no"))
        assert not_theirs.ephemeral and "Only server managers" in not_theirs.content
        voided = await answer_to(await ruth.slash("league-admin", "game", "void", game=number,
                                                  reason="played with 150 tiles"))
        assert not voided.ephemeral and f"Game {number} (table" in voided.content, voided.content
        again = await answer_to(await ruth.slash("league-admin", "game", "void", game=number, reason="twice"))
        assert again.ephemeral and "voided already" in again.content

        after = await answer_to(await sadie.slash("standings"))
        assert _points(after) == {"Ruth": "+10", "Sadie": "+10", "Ann": "+10", "Bea": "+10"}
        assert f"Game {number} voided by Ruth" in after.content and "played with 150 tiles" in after.content
        assert await ledger.verify(bot.service.db) == []

        exported = await answer_to(await ruth.slash("ledger", export=True, league="Club"))
        (attachment,) = exported.attachments
        rows = list(csv.DictReader(io.StringIO(attachment.data.decode())))
        voids = [r for r in rows if r["correction"] == "void"]
        assert voids and {(r["game_id"], r["made_by"], r["made_by_name"], r["correction_reason"]) for r in voids} \
            == {(str(number), str(ruth.id), "Ruth", "played with 150 tiles")}
        assert {r["game_id"] for r in rows if r["correction"] == "recorded"} == {str(number), str(number + 1)}
        assert all(r["made_at"] for r in rows if r["correction"])
