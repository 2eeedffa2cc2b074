"""How leagues look in Discord: standings (the chart with its alt text, and a compact text table), a player's
ledger statement, a league's settings. Messages only; the numbers come from :mod:`bot.service.leagues`."""

from __future__ import annotations

import asyncio
import io
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

import discord

from bot.service.leagues import DAYS, LeagueInfo, LeagueRow, SeasonStandings, Standing, Statement, WeekStandings
from renderers import Rendered, render_season, render_weekly

TABLE_ROWS = 20  # rows of the text table (the chart shows as many)
NAME_WIDTH = 18


@dataclass(frozen=True, slots=True)
class Shown:
    """A message: its text and its image (with alt text)."""

    content: str
    image: Rendered
    filename: str

    def file(self) -> discord.File:
        """The image as an attachment, its alt text as the description."""
        return discord.File(io.BytesIO(self.image.png), filename=self.filename, description=self.image.alt)


def plain(name: str, width: int | None = None) -> str:
    """A player's name safe inside a code block: no backticks or control characters, cut to ``width``."""
    text = "".join(c for c in name if unicodedata.category(c)[0] != "C").replace("`", "'").strip() or "?"
    if width is not None and len(text) > width:
        text = text[: width - 1] + "…"
    return text


def standings_table(rows: Sequence[Standing], limit: int = TABLE_ROWS) -> str:
    """The compact text table: rank, player, net chips, games, wins."""
    if not rows:
        return "No games."
    lines = [f"{'#':>2}  {'Player':<{NAME_WIDTH}} {'Net':>6} {'Games':>5} {'Wins':>4}"]
    for rank, row in enumerate(rows[:limit], start=1):
        lines.append(f"{rank:>2}  {plain(row.name, NAME_WIDTH):<{NAME_WIDTH}} {row.net:>+6} {row.games:>5} "
                     f"{row.wins:>4}")
    if len(rows) > limit:
        lines.append(f"… and {len(rows) - limit} more")
    return "```\n" + "\n".join(lines) + "\n```"


def _day(moment: datetime, league: LeagueRow) -> str:
    local = moment.astimezone(league.weeks.zone)
    return f"{DAYS[local.weekday()][:3]} {local.day} {local:%b %Y}"


def week_headline(week: WeekStandings) -> str:
    """The first line of a week's standings; the weekly poster also finds its own posts by it."""
    last = week.end - timedelta(seconds=1)
    return (f"**{week.league.name}** · standings for week {week.label} ({_day(week.start, week.league)} to "
            f"{_day(last, week.league)}, {week.league.timezone})")


async def week_message(week: WeekStandings) -> Shown:
    """A week's standings: headline, text table and the chart."""
    title = f"{week.league.name} standings"
    image = await asyncio.to_thread(render_weekly, week.label, week.rows, title=title)
    content = f"{week_headline(week)}\n{standings_table(week.rows)}"
    return Shown(content, image, f"standings-{week.label}.png")


async def season_message(season: SeasonStandings) -> Shown:
    """A season's totals (or every game so far) and the chart of cumulative net chips week by week."""
    league = season.league
    if season.season is None:
        what, label = "every game so far", "all time"
    else:
        start = datetime.fromisoformat(season.season.started_at)
        end = datetime.fromisoformat(season.season.ended_at) if season.season.ended_at else None
        span = f"{_day(start, league)} to {_day(end, league)}" if end else f"since {_day(start, league)}"
        what, label = f"season **{season.season.name}** ({span})", season.season.name
    image = await asyncio.to_thread(render_season, label, season.weeks, title=f"{league.name} season")
    content = f"**{league.name}** · {what}\n{standings_table(season.totals)}"
    return Shown(content, image, "season.png")


def _signed(amount: int) -> str:
    return f"+{amount}" if amount > 0 else str(amount)


def statement_text(statement: Statement, name: str, where: str) -> str:
    """A player's balance and latest postings."""
    count = statement.transactions
    lines = [f"**{plain(name)}** in {where}: **{_signed(statement.balance)}** chips "
             f"({count} game{'s' if count != 1 else ''} settled or corrected)."]
    if statement.latest:
        lines.append("Latest:")
    for entry in statement.latest:
        when = datetime.fromisoformat(str(entry["created_at"]))
        game = f"game {entry['game_id']}" + (f" at table {entry['table_id']}" if entry["table_id"] else "")
        kind = "" if entry["kind"] == "settlement" else f" ({entry['kind']})"
        reasons = "; ".join(dict.fromkeys(str(entry["reason"] or "").split("; ")))
        lines.append(f"- <t:{int(when.timestamp())}:d> {game}{kind}: **{_signed(int(str(entry['amount'])))}**"
                     + (f" ({plain(reasons)})" if reasons else ""))
    return "\n".join(lines)[:2000]


def info_text(info: LeagueInfo) -> str:
    """A league's settings, members, season, and any weekly post that could not be made."""
    league = info.league
    channel = f"<#{league.channel_id}>" if league.channel_id else "none yet (/league-admin channel)"
    lines = [f"**{league.name}**",
             f"Channel: {channel} · time zone {league.timezone} · weeks start on {DAYS[league.week_start]}",
             f"{info.members} member{'s' if info.members != 1 else ''}"
             + (" · players join with their first game at its tables" if league.auto_join else ""),
             f"Season: **{info.season.name}**" if info.season else f"No season running ({info.seasons} so far)."]
    for post in info.problems:
        tries = f"{post.attempts} tr{'y' if post.attempts == 1 else 'ies'}"
        lines.append(f"⚠ The standings of week {post.week} could not be posted ({tries}): "
                     f"{post.last_error}. Next try <t:{int(datetime.fromisoformat(post.next_try_at).timestamp())}:R>."
                     if post.next_try_at else f"⚠ Week {post.week}: {post.last_error}")
    return "\n".join(lines)[:2000]
