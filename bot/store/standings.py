"""League standings: per week in the league's own time zone and week start, and over a season.

A league week is labelled like an ISO week, ``2026-W48``: the label of the week containing a date is the ISO
week of the week's fourth day (for a Monday start this is exactly the ISO week; for a Sunday start, the week
from Sunday 22 to Saturday 28 November 2026 is 2026-W48). Games count in the week they ended; a correction
counts with its game.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import asdict, dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from .db import Database, now_iso

WEEK_LABEL = re.compile(r"^(\d{4})-W(\d{2})$")


@dataclass(frozen=True, slots=True)
class League:
    """A guild's league settings for the standings: name, time zone, week start."""
    guild_id: int
    name: str = ""
    timezone: str = "UTC"
    week_start: int = 0  # 0 = Monday ... 6 = Sunday

    @property
    def zone(self) -> ZoneInfo:
        """The league's time zone."""
        return ZoneInfo(self.timezone)


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's line in the standings: net chips, games, wins and more."""
    player_id: int
    name: str
    net: int
    games: int
    wins: int
    mahjong_rate: float
    self_picks: int
    jokerless_wins: int
    # A league that ranks otherwise than by chips over every game (issue 31): what it ranks by (tournament
    # points, a week's best games, an average a game), and whether the player has played enough games to be ranked.
    score: float | None = None
    ranked: bool = True

    @property
    def value(self) -> float:
        """What the standings rank by: ``score`` where the league has one, else net chips."""
        return self.net if self.score is None else self.score


CSV_COLUMNS = ("rank", "player_id", "name", "net", "games", "wins", "mahjong_rate", "self_picks", "jokerless_wins")


def parse_week(label: str) -> tuple[int, int]:
    """The (ISO year, week) of a label like 2026-W48; ValueError with a hint if malformed."""
    m = WEEK_LABEL.match(label)
    if not m:
        raise ValueError(f"'{label}' is not a week: write it as YYYY-Www, e.g. 2026-W48.")
    year, week = int(m.group(1)), int(m.group(2))
    try:
        monday = date.fromisocalendar(year, week, 1)
    except ValueError:
        raise ValueError(f"{year} has no week {week}.") from None
    if not date(1000, 1, 1) <= monday <= date(9998, 12, 1):  # a league week's bounds reach a few days either side
        raise ValueError(f"'{label}' is out of range: give a week between years 1000 and 9998.")
    return year, week


def week_start_date(label: str, week_start: int) -> date:
    """The first day of the league week labelled ``label``."""
    year, week = parse_week(label)
    monday = date.fromisocalendar(year, week, 1)
    base = monday - timedelta(days=3)
    return base + timedelta(days=(week_start - base.weekday()) % 7)


def week_label(day: date, week_start: int) -> str:
    """The label (YYYY-Www) of the league week holding ``day``."""
    start = day - timedelta(days=(day.weekday() - week_start) % 7)
    year, week, _ = (start + timedelta(days=3)).isocalendar()
    return f"{year}-W{week:02d}"


def week_bounds(league: League, label: str) -> tuple[datetime, datetime]:
    """The week's start and end as UTC instants (local midnights in the league's zone)."""
    start_day = week_start_date(label, league.week_start)
    zone = league.zone
    start = datetime.combine(start_day, time(0), zone)
    end = datetime.combine(start_day + timedelta(days=7), time(0), zone)
    return start.astimezone(UTC), end.astimezone(UTC)


def current_week(league: League, now: datetime | None = None) -> str:
    """The label of the league's week now (or at ``now``), in its time zone."""
    now = now or datetime.now(UTC)
    return week_label(now.astimezone(league.zone).date(), league.week_start)


async def get_league(db: Database, guild_id: int) -> League:
    """The week settings of the guild's first league (UTC, Monday when it has none): for guild-wide figures."""
    row = await db.fetchone("SELECT guild_id, name, timezone, week_start FROM leagues WHERE guild_id = ? "
                            "ORDER BY league_id LIMIT 1", (guild_id,))
    if row is None:
        return League(guild_id)
    return League(row[0], row[1], row[2], row[3])


def check_timezone(timezone: str) -> None:
    """Raise ValueError (a sentence for the user) unless ``timezone`` is a known IANA zone name."""
    try:
        ZoneInfo(timezone)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        raise ValueError(f"Unknown time zone '{timezone[:60]}': use a name like America/New_York.") from None


async def set_league(db: Database, guild_id: int, *, name: str | None = None, timezone: str | None = None,
                     week_start: int | None = None, standings_channel_id: int | None = None) -> League:
    """Change the guild's first league (made, named 'League', if the guild has none)."""
    if timezone is not None:
        check_timezone(timezone)
    if week_start is not None and not 0 <= week_start <= 6:
        raise ValueError("The week starts on a day from 0 (Monday) to 6 (Sunday).")
    async with db.transaction() as conn:
        # The guild's first league, made if it has none (the unique name decides between two writers at once).
        if await conn.fetchval("SELECT league_id FROM leagues WHERE guild_id = ? LIMIT 1", (guild_id,)) is None:
            await conn.execute("INSERT INTO leagues (guild_id, name, name_key, created_at, posts_after) "
                               "VALUES (?, 'League', 'league', ?, ?) ON CONFLICT DO NOTHING",
                               (guild_id, now_iso(), now_iso()))
        league_id = await conn.fetchval("SELECT league_id FROM leagues WHERE guild_id = ? ORDER BY league_id LIMIT 1",
                                        (guild_id,))
        for column, value in (("name", name), ("timezone", timezone), ("week_start", week_start),
                              ("standings_channel_id", standings_channel_id)):
            if value is not None:
                await conn.execute(f"UPDATE leagues SET {column} = ? WHERE league_id = ?", (value, league_id))
        if name is not None:
            await conn.execute("UPDATE leagues SET name_key = ? WHERE league_id = ?", (name_key(name), league_id))
    return await get_league(db, guild_id)


def name_key(name: str) -> str:
    """A league, season or card name as compared: case and runs of spaces do not matter."""
    return " ".join(name.split()).casefold()


async def standings(db: Database, guild_id: int, start: datetime | None = None,
                    end: datetime | None = None, *, league_id: int | None = None) -> list[Standing]:
    """Every human player's totals over the guild's games (those of one league's tables, with ``league_id``)
    that ended in [start, end), best net first."""
    # A voided game no longer counts (its chips were put back by a correcting transaction: bot/store/corrections).
    where = ("g.guild_id = ? AND g.ended_at IS NOT NULL AND NOT EXISTS (SELECT 1 FROM game_corrections gc "
             "WHERE gc.game_id = g.game_id AND gc.kind = 'void')")
    params: list[object] = [guild_id]
    if league_id is not None:
        where += " AND g.table_id IN (SELECT table_id FROM tables WHERE league_id = ?)"
        params.append(league_id)
    if start is not None:
        where += " AND g.ended_at >= ?"
        params.append(start.astimezone(UTC).isoformat(timespec="milliseconds"))
    if end is not None:
        where += " AND g.ended_at < ?"
        params.append(end.astimezone(UTC).isoformat(timespec="milliseconds"))
    rows = await db.fetchall(f"""
            SELECT gs.player_id, COALESCE(p.display_name, CAST(gs.player_id AS TEXT)) AS name, COUNT(*) AS games,
                   SUM(CASE WHEN g.winner_seat = gs.seat THEN 1 ELSE 0 END) AS wins,
                   SUM(CASE WHEN g.winner_seat = gs.seat AND g.self_pick = 1 THEN 1 ELSE 0 END) AS self_picks,
                   SUM(CASE WHEN g.winner_seat = gs.seat AND g.jokerless = 1 THEN 1 ELSE 0 END) AS jokerless_wins
              FROM game_seats gs JOIN games g USING (game_id) LEFT JOIN players p ON p.player_id = gs.player_id
             WHERE {where} AND gs.player_id IS NOT NULL
             GROUP BY gs.player_id, p.display_name""", params)
    net = {player: int(total) for player, total in await db.fetchall(f"""
            SELECT lp.player_id, SUM(lp.amount) FROM ledger_postings lp
              JOIN ledger_transactions lt ON lt.txn_id = lp.txn_id JOIN games g ON g.game_id = lt.game_id
             WHERE {where} AND lt.closed = 1 AND lp.player_id IS NOT NULL
             GROUP BY lp.player_id""", params)}
    table = [Standing(r["player_id"], r["name"], net.get(r["player_id"], 0), int(r["games"]), int(r["wins"]),
                      round(r["wins"] / r["games"], 3), int(r["self_picks"]), int(r["jokerless_wins"]))
             for r in rows]
    table.sort(key=lambda s: (-s.net, -s.wins, s.name.lower(), s.player_id))
    return table


async def weekly_standings(db: Database, guild_id: int, label: str | None = None) -> tuple[str, list[Standing]]:
    """A guild league's standings for one week (this week by default), with the week's label."""
    league = await get_league(db, guild_id)
    label = label or current_week(league)
    start, end = week_bounds(league, label)
    return label, await standings(db, guild_id, start, end)


def to_csv(rows: list[Standing]) -> str:
    """The standings as CSV text, one row per player with rank; with a ``score`` column where the league ranks by
    one (tournament points, best games, an average), and ``ranked`` (an average's minimum met)."""
    scored = any(row.score is not None for row in rows)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([*CSV_COLUMNS, *(("score", "ranked") if scored else ())])
    for rank, row in enumerate(rows, start=1):
        data = asdict(row)
        line = [rank, *(data[column] for column in CSV_COLUMNS[1:])]
        writer.writerow([*line, *((row.score, int(row.ranked)) if scored else ())])
    return out.getvalue()
