"""Messages too long for Discord's 2,000 characters (a big night's results, its sign-up and round list, a week's
standings with many corrections, a long ledger, a long DM) are cut between whole lines with their code block
closed and a last line saying how many lines were left out and where to see them (cogs/show/fit.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from support.discord_double import Double

from bot.service.leagues import Statement, WeekStandings
from bot.service.nights import NightResults, NightView
from bot.store.corrections import CorrectionRow
from bot.store.leagues import LeagueRow
from bot.store.nights import NightRow, NightTable, SignUp
from bot.store.standings import Standing
from cogs.door import Door
from cogs.show import league_look, night_look

STARTS = datetime(2026, 11, 25, 19, 0, tzinfo=UTC)
LEAGUE = LeagueRow(1, 10, "Thursday Night Mah Jongg at the Community Center", "America/New_York", 0, 77, True, 1,
                   STARTS.isoformat(), STARTS.isoformat())


def _balanced_whole_lines(content: str, tail: str) -> list[str]:
    """Checks a cut message and returns its lines: within the limit, its fences balanced, the tail last."""
    assert len(content) <= 2000
    assert content.count("```") % 2 == 0
    lines = content.split("\n")
    assert lines[-1].startswith("… and ") and "more line" in lines[-1] and lines[-1].endswith(tail), lines[-1]
    return lines


def _night(players: int, rounds: int) -> NightView:
    night = NightRow(1, 1, 10, 77, STARTS.isoformat(), (STARTS - timedelta(minutes=10)).isoformat(), rounds, 1,
                     None, "computers", "counts", {}, 1, "finished", rounds, None, 5, True, "due", None, 0, None, 1,
                     STARTS.isoformat())
    names = {p: f"Player with a long name {p:03d}" for p in range(1, players + 1)}
    signed = [SignUp(p, names[p], "in" if p % 5 else "out", 1, STARTS.isoformat()) for p in names]
    tables = [NightTable(1, r, t + 1, 100 * r + t, tuple(range(4 * t + 1, 4 * t + 5)), t % 4, "done", None)
              for r in range(1, rounds + 1) for t in range(players // 4)]
    return NightView(night, LEAGUE, signed, tables, names)


def _rows(count: int) -> list[Standing]:
    return [Standing(p, f"Player with a long name {p:03d}", 60 - 3 * p, 3, 1, 0.33, 0, 0) for p in range(1, count + 1)]


async def test_a_big_nights_results_are_cut_between_whole_lines_with_the_table_closed() -> None:
    view = _night(48, 3)  # twelve tables a round, three rounds: far over one message
    shown = await night_look.results_message(NightResults(view, _rows(48), 36))
    lines = _balanced_whole_lines(shown.content, "`/standings` shows the league's standings.")
    assert lines[0].startswith(night_look.results_headline(view))
    table_lines = [line for line in lines if line.startswith("Table ")]
    assert table_lines and all(line.count(" · ") == 3 and "North Player with" in line for line in table_lines)
    assert shown.image.png.startswith(b"\x89PNG")


def test_a_big_sign_up_lists_names_as_far_as_they_fit_and_counts_the_rest() -> None:
    text = night_look.signup_text(_night(200, 1))
    assert len(text) <= 2000
    (coming,) = [line for line in text.split("\n") if line.startswith("**In (160):**")]
    assert coming.endswith(" more") and "Player with a long name 001" in coming
    (absent,) = [line for line in text.split("\n") if line.startswith("Can't come (40):")]
    assert absent.endswith(" more")


def test_a_round_of_many_tables_is_cut_between_tables() -> None:
    view = _night(160, 1)  # forty tables
    text = night_look.round_text(view, 1, {t: 5000 + t for t in range(1, 41)})
    lines = _balanced_whole_lines(text, "each table's thread shows its players.")
    assert all(line.count(" · ") == 3 for line in lines[1:-1])
    assert lines[-1].startswith(f"… and {40 - (len(lines) - 2)} more lines")


async def test_a_weeks_standings_at_their_longest_stay_one_message_with_the_table_whole() -> None:
    fixes = [CorrectionRow(n, "void", "the wrong card was used at this table " * 3, 2, "An organiser with a long name "
                           * 2, STARTS.isoformat(), 9) for n in range(8)]
    week = WeekStandings(LEAGUE, "2026-W48", STARTS - timedelta(days=3), STARTS + timedelta(days=4), _rows(30), fixes)
    shown = await league_look.week_message(week)
    assert len(shown.content) <= 2000 and shown.content.count("```") == 2
    lines = shown.content.split("\n")
    assert lines[-1] in ("- … and 3 more (`/ledger export:True` lists them all)",
                         "… and 1 more line, too long for one message: the chart has the standings.")
    fenced = shown.content.split("```")[1].strip("\n").split("\n")
    assert len(fenced) == 1 + 20 + 1  # the heading, twenty rows and "… and 10 more": the table is whole
    assert lines[0] == league_look.week_headline(week)


def test_a_long_ledger_statement_ends_with_where_to_see_every_posting() -> None:
    latest: list[dict[str, object]] = [{"created_at": STARTS.isoformat(), "table_id": n, "kind": "settlement",
                                        "amount": 12, "reason": f"won Any Like Numbers #{n} " * 12}
                                       for n in range(20)]
    text = league_look.statement_text(Statement(1, LEAGUE, 240, 20, latest), "Ruth", "the server")
    lines = _balanced_whole_lines(text, "`/ledger export:True` lists every posting.")
    assert all(line.startswith("- <t:") for line in lines[2:-1])


async def test_a_long_dm_arrives_cut_between_lines_with_its_block_closed(discord_double: Double, door: Door) -> None:
    ruth = discord_double.user("ruth")
    text = "\n".join(["Your games:", "```", *[f"Game {n}: a line of the card won, {n} chips" for n in range(120)],
                      "```"])
    assert await door.tell([ruth.id], text, "tell a long text") == [ruth.id]
    (dm,) = ruth.dms()
    lines = _balanced_whole_lines(dm.content, "too long for one message.")
    assert lines[-2] == "```" and lines[-3].startswith("Game ")
