"""Leagues in a guild: the leagues themselves, the tables that count for them, members, seasons and the weekly
standings posts. Every read names its guild (or a league id the caller found through its guild), so nothing of
one server is visible in another."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from bot.engine.tournament import LeagueScoring

from .db import Database, IntegrityError, Row
from .standings import League, name_key

_LEAGUE_COLUMNS = ("league_id, guild_id, name, timezone, week_start, standings_channel_id, auto_join, created_by, "
                   "created_at, posts_after, scoring")


@dataclass(frozen=True, slots=True)
class LeagueRow:
    """One league of a guild."""

    league_id: int
    guild_id: int
    name: str
    timezone: str
    week_start: int  # 0 = Monday ... 6 = Sunday
    channel_id: int | None  # tables opened there count for the league; its weekly standings are posted there
    auto_join: bool  # players join on their first game at one of its tables
    created_by: int | None
    created_at: str
    posts_after: str  # weeks ending after this moment (ISO, UTC) are posted
    scoring: LeagueScoring = field(default_factory=LeagueScoring)  # chips or tournament points; how it ranks

    @property
    def weeks(self) -> League:
        """The league's week settings, for :mod:`bot.store.standings`."""
        return League(self.guild_id, self.name, self.timezone, self.week_start)


@dataclass(frozen=True, slots=True)
class SeasonRow:
    """A season of a league: from ``started_at`` to ``ended_at`` (None while it runs)."""

    season_id: int
    league_id: int
    name: str
    started_at: str
    ended_at: str | None


@dataclass(frozen=True, slots=True)
class PostRow:
    """What became of one league week's standings post."""

    league_id: int
    week: str
    status: str  # sending, posted, failed, empty
    channel_id: int | None
    message_id: int | None
    attempts: int
    last_error: str | None
    next_try_at: str | None
    reported: bool


def _league(row: Row) -> LeagueRow:
    return LeagueRow(row[0], row[1], row[2], row[3], row[4], row[5], bool(row[6]), row[7], row[8], row[9],
                     LeagueScoring.from_json(json.loads(row[10] or "{}")))


# -- leagues ------------------------------------------------------------------------------------------------


async def insert_league(db: Database, guild_id: int, name: str, timezone: str, week_start: int,
                        created_by: int | None, now: str) -> LeagueRow | None:
    """A new league; None if the guild already has one of that name (the unique key decides, so two at once
    make one)."""
    async with db.single_statement() as conn:
        league_id = await conn.fetchval(
            "INSERT INTO leagues (guild_id, name, name_key, timezone, week_start, created_by, created_at, posts_after)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, name_key) DO NOTHING RETURNING league_id",
            (guild_id, name, name_key(name), timezone, week_start, created_by, now, now))
    if league_id is None:
        return None
    return await league_by_id(db, guild_id, league_id)


async def league_by_id(db: Database, guild_id: int, league_id: int) -> LeagueRow | None:
    """A league of this guild by id."""
    row = await db.fetchone(f"SELECT {_LEAGUE_COLUMNS} FROM leagues WHERE guild_id = ? AND league_id = ?",
                            (guild_id, league_id))
    return _league(row) if row else None


async def league_by_name(db: Database, guild_id: int, name: str) -> LeagueRow | None:
    """A league of this guild by name (case and spacing ignored)."""
    row = await db.fetchone(f"SELECT {_LEAGUE_COLUMNS} FROM leagues WHERE guild_id = ? AND name_key = ?",
                            (guild_id, name_key(name)))
    return _league(row) if row else None


async def league_by_channel(db: Database, guild_id: int, channel_ids: list[int]) -> LeagueRow | None:
    """The league whose channel is one of ``channel_ids`` (a channel, or a thread and its parent)."""
    for channel_id in channel_ids:
        row = await db.fetchone(f"SELECT {_LEAGUE_COLUMNS} FROM leagues WHERE guild_id = ? "
                                "AND standings_channel_id = ?", (guild_id, channel_id))
        if row:
            return _league(row)
    return None


async def leagues_of(db: Database, guild_id: int) -> list[LeagueRow]:
    """The guild's leagues, oldest first."""
    rows = await db.fetchall(f"SELECT {_LEAGUE_COLUMNS} FROM leagues WHERE guild_id = ? ORDER BY league_id",
                             (guild_id,))
    return [_league(row) for row in rows]


async def leagues_with_channel(db: Database) -> list[LeagueRow]:
    """Every league, of every guild, that has a channel: the weekly poster's work list."""
    rows = await db.fetchall(f"SELECT {_LEAGUE_COLUMNS} FROM leagues WHERE standings_channel_id IS NOT NULL "
                             "ORDER BY league_id")
    return [_league(row) for row in rows]


async def set_channel(db: Database, league: LeagueRow, channel_id: int, now: str) -> bool:
    """Make ``channel_id`` the league's channel; False if another league of the guild has it (the unique index on
    a guild's channels decides, so of two leagues given one channel at once, one gets it). A league given its
    first channel posts the weeks that end from now on (not those that ended before anyone could see them)."""
    try:
        async with db.transaction() as conn:
            await conn.execute("UPDATE leagues SET standings_channel_id = ? WHERE league_id = ?",
                               (channel_id, league.league_id))
            if league.channel_id is None:
                await conn.execute("UPDATE leagues SET posts_after = CASE WHEN posts_after > ? THEN posts_after "
                                   "ELSE ? END WHERE league_id = ?", (now, now, league.league_id))
            # Posts that failed are tried again at once, in the new channel.
            await conn.execute("UPDATE league_posts SET next_try_at = ? WHERE league_id = ? AND status = 'failed'",
                               (now, league.league_id))
    except IntegrityError:
        return False  # one_league_per_channel: another league of the guild has it
    return True


async def set_auto_join(db: Database, league_id: int, auto_join: bool) -> None:
    """Whether players join the league on their first game at its tables."""
    async with db.single_statement() as conn:
        await conn.execute("UPDATE leagues SET auto_join = ? WHERE league_id = ?", (int(auto_join), league_id))


async def set_scoring(db: Database, league_id: int, scoring: LeagueScoring) -> None:
    """The league's scoring: what its standings count and how they rank."""
    async with db.single_statement() as conn:
        await conn.execute("UPDATE leagues SET scoring = ? WHERE league_id = ?",
                           (json.dumps(scoring.to_json()), league_id))


# -- tables -------------------------------------------------------------------------------------------------


async def attach_table(db: Database, table_id: int, league_id: int) -> None:
    """The table's games count for the league."""
    async with db.single_statement() as conn:
        await conn.execute("UPDATE tables SET league_id = ? WHERE table_id = ?", (league_id, table_id))


async def table_league(db: Database, table_id: int) -> LeagueRow | None:
    """The league a table counts for, if any."""
    row = await db.fetchone(f"SELECT {', '.join('l.' + c.strip() for c in _LEAGUE_COLUMNS.split(','))} "
                            "FROM tables t JOIN leagues l ON l.league_id = t.league_id WHERE t.table_id = ?",
                            (table_id,))
    return _league(row) if row else None


# -- members ------------------------------------------------------------------------------------------------


async def add_member(db: Database, league_id: int, player_id: int, how: str, now: str) -> bool:
    """Make a player a member; False if they already were."""
    async with db.single_statement() as conn:
        return await conn.execute("INSERT INTO league_members (league_id, player_id, joined_at, how) "
                                  "VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING", (league_id, player_id, now, how)) > 0


async def remove_member(db: Database, league_id: int, player_id: int) -> bool:
    """Take a player off the league's members; False if they were not one."""
    async with db.single_statement() as conn:
        return await conn.execute("DELETE FROM league_members WHERE league_id = ? AND player_id = ?",
                                  (league_id, player_id)) > 0


async def member_ids(db: Database, league_id: int) -> list[int]:
    """The league's members, in the order they joined."""
    rows = await db.fetchall("SELECT player_id FROM league_members WHERE league_id = ? ORDER BY joined_at, player_id",
                             (league_id,))
    return [int(row[0]) for row in rows]


# -- seasons ------------------------------------------------------------------------------------------------


def _season(row: Row) -> SeasonRow:
    return SeasonRow(row[0], row[1], row[2], row[3], row[4])


async def open_season(db: Database, league_id: int) -> SeasonRow | None:
    """The season running now, if any."""
    row = await db.fetchone("SELECT season_id, league_id, name, started_at, ended_at FROM seasons "
                            "WHERE league_id = ? AND ended_at IS NULL", (league_id,))
    return _season(row) if row else None


async def season_by_name(db: Database, league_id: int, name: str) -> SeasonRow | None:
    """A season of the league by name."""
    row = await db.fetchone("SELECT season_id, league_id, name, started_at, ended_at FROM seasons "
                            "WHERE league_id = ? AND name_key = ?", (league_id, name_key(name)))
    return _season(row) if row else None


async def seasons_of(db: Database, league_id: int) -> list[SeasonRow]:
    """The league's seasons, newest first."""
    rows = await db.fetchall("SELECT season_id, league_id, name, started_at, ended_at FROM seasons "
                             "WHERE league_id = ? ORDER BY season_id DESC", (league_id,))
    return [_season(row) for row in rows]


async def insert_season(db: Database, league_id: int, name: str, now: str) -> SeasonRow | None:
    """Start a season; None if one is running or the league had one of that name (unique indexes decide, so of
    two seasons started at once, one starts)."""
    async with db.single_statement() as conn:
        season_id = await conn.fetchval("INSERT INTO seasons (league_id, name, name_key, started_at) "
                                        "VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING season_id",
                                        (league_id, name, name_key(name), now))
    if season_id is None:
        return None
    return await season_by_name(db, league_id, name)


async def end_season(db: Database, season_id: int, now: str) -> None:
    """End a season now."""
    async with db.single_statement() as conn:
        await conn.execute("UPDATE seasons SET ended_at = ? WHERE season_id = ?", (now, season_id))


# -- weekly posts -------------------------------------------------------------------------------------------


def _post(row: Row) -> PostRow:
    return PostRow(row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7], bool(row[8]))


_POST_COLUMNS = "league_id, week, status, channel_id, message_id, attempts, last_error, next_try_at, reported"


async def posts_of(db: Database, league_id: int, statuses: tuple[str, ...] | None = None) -> list[PostRow]:
    """The league's post records (of these statuses), oldest week first."""
    query = f"SELECT {_POST_COLUMNS} FROM league_posts WHERE league_id = ?"
    params: list[object] = [league_id]
    if statuses:
        query += f" AND status IN ({', '.join('?' for _ in statuses)})"
        params += statuses
    return [_post(row) for row in await db.fetchall(query + " ORDER BY week", params)]


async def last_week_handled(db: Database, league_id: int) -> str | None:
    """The latest week with a post record (labels sort as weeks do)."""
    row = await db.fetchone("SELECT MAX(week) FROM league_posts WHERE league_id = ?", (league_id,))
    return row[0] if row and row[0] else None


async def record_post(db: Database, league_id: int, week: str, status: str, now: str, *,
                      channel_id: int | None = None, message_id: int | None = None, attempt: bool = False,
                      error: str | None = None, next_try_at: str | None = None,
                      reported: bool | None = None, claimed_until: str | None = None) -> PostRow:
    """Write what became of a week's post (``attempt`` counts one more try; ``claimed_until`` extends the
    claim); returns the record."""
    async with db.transaction() as conn:
        await conn.execute("INSERT INTO league_posts (league_id, week, status, updated_at) "
                           "VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING", (league_id, week, status, now))
        row = await conn.fetchone(
            "UPDATE league_posts SET status = ?, channel_id = COALESCE(?, channel_id), "
            "message_id = COALESCE(?, message_id), attempts = attempts + ?, last_error = ?, next_try_at = ?, "
            "reported = COALESCE(?, reported), claimed_until = COALESCE(?, claimed_until), updated_at = ? "
            f"WHERE league_id = ? AND week = ? RETURNING {_POST_COLUMNS}",
            (status, channel_id, message_id, int(attempt), error, next_try_at,
             None if reported is None else int(reported), claimed_until, now, league_id, week))
    assert row is not None
    return _post(row)


async def claim_post(db: Database, league_id: int, week: str, owner: str, now: str, until: str) -> PostRow | None:
    """Claim a week's post for ``owner`` until ``until``, in one statement: it becomes ``sending`` if it has no
    record yet, failed and its retry time has come, or is ``sending`` under this owner (a pass of it that was
    interrupted) or under a claim that ran out. None if another owner holds it or it is done: of several
    processes claiming one week at once, exactly one gets it."""
    async with db.single_statement() as conn:
        row = await conn.fetchone(
            "INSERT INTO league_posts (league_id, week, status, updated_at, claimed_by, claimed_until) "
            "VALUES (?, ?, 'sending', ?, ?, ?) ON CONFLICT (league_id, week) DO UPDATE SET status = 'sending', "
            "claimed_by = excluded.claimed_by, claimed_until = excluded.claimed_until, "
            "updated_at = excluded.updated_at "
            "WHERE (league_posts.status = 'failed' AND COALESCE(league_posts.next_try_at, '') <= excluded.updated_at) "
            "OR (league_posts.status = 'sending' AND (league_posts.claimed_by IS NULL "
            "OR league_posts.claimed_by = excluded.claimed_by "
            "OR COALESCE(league_posts.claimed_until, '') <= excluded.updated_at)) "
            f"RETURNING {_POST_COLUMNS}", (league_id, week, now, owner, until))
    return _post(row) if row is not None else None


async def record_empty(db: Database, league_id: int, week: str, now: str) -> None:
    """A week without games: recorded ``empty`` unless the week already has a record."""
    async with db.single_statement() as conn:
        await conn.execute("INSERT INTO league_posts (league_id, week, status, updated_at) VALUES (?, ?, 'empty', ?) "
                           "ON CONFLICT DO NOTHING", (league_id, week, now))


# -- managers -----------------------------------------------------------------------------------------------


async def saw_manager(db: Database, guild_id: int, user_id: int, now: str) -> None:
    """Remember a user who passed the manager check in the guild (told when something needs a manager)."""
    async with db.single_statement() as conn:
        await conn.execute("INSERT INTO guild_managers (guild_id, user_id, seen_at) VALUES (?, ?, ?) "
                           "ON CONFLICT (guild_id, user_id) DO UPDATE SET seen_at = excluded.seen_at",
                           (guild_id, user_id, now))


async def managers_of(db: Database, guild_id: int, limit: int = 5) -> list[int]:
    """The managers seen most recently in the guild."""
    rows = await db.fetchall("SELECT user_id FROM guild_managers WHERE guild_id = ? ORDER BY seen_at DESC LIMIT ?",
                             (guild_id, limit))
    return [int(row[0]) for row in rows]
