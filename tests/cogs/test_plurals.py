"""Counts in messages agree with their number (issue 32, item 7): "1 tile in the wall", "2 tiles"; "1 game",
"+1 chip". Each message is made by the real function that makes it, at a count of 1 and of 2."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import pytest

from bot.engine.events import Event
from bot.engine.payloads import Deal
from bot.service.leagues import LeagueInfo, Statement
from bot.service.narration import describe
from bot.service.nights import NightResults, NightView
from bot.service.stats import PlayerStats
from bot.service.tables import TableService
from bot.service.updates import TablePhase
from bot.store.leagues import LeagueRow, PostRow
from bot.store.nights import NightRow
from bot.store.standings import Standing
from cogs.show import league_look, look, night_look, stats_look

STARTS = datetime(2026, 11, 25, 19, 0, tzinfo=UTC).isoformat()
LEAGUE = LeagueRow(1, 10, "Club", "UTC", 0, 77, True, 1, STARTS, STARTS)
# The words a count of one and of two must be followed by, in each message.
ONE, TWO = ("tile", "game", "chip", "member", "try", "line", "variant", "round", "minute"), \
    ("tiles", "games", "chips", "members", "tries", "lines", "variants", "rounds", "minutes")


def _night(rounds: int, games: int | None, minutes: int | None) -> NightView:
    row = NightRow(1, 1, 10, 77, STARTS, STARTS, rounds, games, minutes, "computers", "counts", {}, 1, "signup", 0,
                   None, None, False, None, None, 0, None, 1, STARTS)
    return NightView(row, LEAGUE, [], [], {})


@pytest.mark.parametrize(("count", "tile", "game", "chip", "member", "tries", "line", "variant", "rnd", "minute"),
                         [(1, *ONE), (2, *TWO)])
async def test_counts_say_one_thing_or_two_things(service: TableService, count: int, tile: str, game: str, chip: str,
                                                  member: str, tries: str, line: str, variant: str, rnd: str,
                                                  minute: str) -> None:
    # The table's status line under the table message, mid-play, with the wall down to `count` tiles.
    opened = await service.create_table(1, 2, created_by=5)
    for _ in range(4):
        update = await service.add_computer(opened.table_id)
    update = await service.start(update.table_id)
    assert update.view.game is not None
    playing = replace(update, phase=TablePhase.PLAY, view=replace(update.view, game=replace(update.view.game,
                                                                                            wall=count)))
    assert f"· {count} {tile} in the wall" in look.status_line(playing)
    dealt = describe(Event(Deal(east=0, wall=count, game_no=3)), lambda seat: f"seat {seat}")
    assert dealt == f"Game 3 is dealt. {count} {tile} in the wall."

    # A night's sign-up: its rounds, and a round's games or minutes; its results.
    assert f"{count} {rnd} of {count} {game} ·" in night_look.signup_text(_night(count, count, None))
    assert f"{count} {rnd} of {count} {minute} ·" in night_look.signup_text(_night(count, None, count))
    rows = [Standing(7, "Ruth", count, count, 1, 1.0, 0, 0)]
    shown = await night_look.results_message(NightResults(_night(1, 1, None), rows, count))
    assert f"({count} {game}, net chips)" in shown.content

    # A player's place, ledger and statistics.
    place = league_look.place_line("This week", rows, 7)
    assert place == f"This week: 1st of 1, **+{count}** {chip} in {count} {game}."
    ledger = league_look.statement_text(Statement(7, LEAGUE, count, count, []), "Ruth", "Club")
    assert f"**+{count}** {chip} ({count} {game} settled or corrected)." in ledger
    summary = stats_look.summary_text(PlayerStats(7, "Ruth", games=count, mahjong=count, chips=count), "Ruth", "Club")
    assert f"{count} {game}, {count} Mah Jongg" in summary and f"**+{count}** {chip}." in summary

    # A league's members and a weekly post's failed tries; a card stored.
    failed = PostRow(1, "2026-W48", "failed", 77, None, count, "Missing Permissions", STARTS, True)
    info = league_look.info_text(LeagueInfo(LEAGUE, count, None, 0, [failed]))
    assert f"{count} {member}" in info and f"could not be posted ({count} {tries})" in info
    assert f"`club`: {count} {line}, {count} {variant}," in league_look.stored_text("Club", "club", count, count,
                                                                                 "NMJL")
