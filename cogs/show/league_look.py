"""How leagues look in Discord: standings (the chart with its alt text, and a compact text table) of a league or of
the whole server, a player's ledger statement and their place as the standings show it, a league's settings.
Messages only; the numbers come from :mod:`bot.service.leagues`. Weeks are named as people say them ("week of 23
Nov 2026")."""

from __future__ import annotations

import asyncio
import io
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

import discord

from bot.engine.wording import noun, plural
from bot.service.card_admin import PENDING_MINUTES, ImportPreview
from bot.service.corrections import CorrectionRow, GameRow, PhysicalGame
from bot.service.leagues import (
    DAYS,
    LeagueInfo,
    LeagueRow,
    SeasonStandings,
    ServerStandings,
    Standing,
    Statement,
    WeekStandings,
)
from bot.service.scoring import LeagueScoring
from bot.service.weeks import week_name
from renderers import Rendered, render_season, render_weekly

from . import ids
from .components import CardButton, Components
from .fit import fit_lines

CHARTED = "… and {more}, too long for one message: the chart has the standings."  # the tail of a cut standings message
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


def _column(scoring: LeagueScoring | None) -> str:
    """The text table's heading for what the standings rank by."""
    if scoring is None or scoring.plain:
        return "Net"
    return {"average": "Avg", "best": "Best"}.get(scoring.rule, "Pts")


def _number(value: float) -> str:
    """A standings figure, signed: whole numbers as such, an average to one decimal."""
    if float(value).is_integer():
        return f"{int(value):+d}"
    return f"{value:+.1f}"


def standings_table(rows: Sequence[Standing], limit: int = TABLE_ROWS, scoring: LeagueScoring | None = None) -> str:
    """The compact text table: rank, player, net chips (or the league's score), games, wins; under an average's
    minimum a player is listed unranked, marked with a star."""
    if not rows:
        return "No games."
    lines = [f"{'#':>2}  {'Player':<{NAME_WIDTH}} {_column(scoring):>6} {'Games':>5} {'Wins':>4}"]
    rank = 0
    for row in rows[:limit]:
        rank += row.ranked
        place = f"{rank:>2}" if row.ranked else " *"
        lines.append(f"{place}  {plain(row.name, NAME_WIDTH):<{NAME_WIDTH}} {_number(row.value):>6} {row.games:>5} "
                     f"{row.wins:>4}")
    if len(rows) > limit:
        lines.append(f"… and {len(rows) - limit} more")
    if scoring is not None and not all(row.ranked for row in rows):
        lines.append(f" * fewer than {plural(scoring.minimum, 'game')}: not ranked yet")
    return "```\n" + "\n".join(lines) + "\n```"


MAX_CORRECTIONS = 5  # lines of corrections under the standings (the ledger's export lists every one)


def corrections_text(corrections: Sequence[CorrectionRow], league: LeagueRow) -> str:
    """The standings' detail: each game voided or recorded at a physical table, by whom, when and why."""
    if not corrections:
        return ""
    lines = ["Corrections:"]
    for fix in corrections[:MAX_CORRECTIONS]:
        when = _day(datetime.fromisoformat(fix.made_at), league, year=False)
        what = "voided" if fix.kind == "void" else "recorded at a physical table"
        why = f": {plain(fix.reason)[:80]}" if fix.kind == "void" else ""
        lines.append(f"- Game {fix.game_id} {what} by {plain(fix.made_by_name, 40)}, {when}{why}")
    if len(corrections) > MAX_CORRECTIONS:
        lines.append(f"- … and {len(corrections) - MAX_CORRECTIONS} more (`/ledger export:True` lists them all)")
    return "\n".join(lines)


def charted(rows: Sequence[Standing], scoring: LeagueScoring, *, season: bool = False) -> list[Standing]:
    """The rows as the charts draw them: the league's score in ``net`` (the charts draw ``net``), rounded; a
    season chart of an average draws each week's points, which add up (averages do not)."""
    if scoring.plain:
        return list(rows)
    if season and scoring.rule == "average":
        return [replace(row, net=round(row.value * row.games)) for row in rows]
    return [replace(row, net=round(row.value)) for row in rows]


def chart_unit(scoring: LeagueScoring, *, season: bool = False) -> str:
    """What a chart's numbers are."""
    if season and scoring.rule == "average":
        return "points"
    return scoring.what()


def _day(moment: datetime, league: LeagueRow, *, year: bool = True) -> str:
    local = moment.astimezone(league.weeks.zone)
    return f"{DAYS[local.weekday()][:3]} {local.day} {local:%b}" + (f" {local:%Y}" if year else "")


def week_headline(week: WeekStandings) -> str:
    """The first line of a week's standings; the weekly poster also finds its own posts by it."""
    last = week.end - timedelta(seconds=1)
    return (f"**{week.league.name}** · standings for the {week.name} ({_day(week.start, week.league, year=False)} "
            f"to {_day(last, week.league, year=False)}, {week.league.timezone})")


def _filename(name: str) -> str:
    """``standings-week-of-23-nov-2026.png`` for ``week of 23 Nov 2026``."""
    return "standings-" + "-".join(name.lower().split()) + ".png"


async def week_message(week: WeekStandings) -> Shown:
    """A week's standings: headline, text table and the chart."""
    title = f"{week.league.name} standings"
    scoring = week.league.scoring
    image = await asyncio.to_thread(render_weekly, week.name, charted(week.rows, scoring), title=title,
                                    unit=scoring.what())
    content = "\n".join(part for part in (week_headline(week), standings_table(week.rows, scoring=scoring),
                                           corrections_text(week.corrections, week.league)) if part)
    return Shown(fit_lines(content, CHARTED), image, _filename(week.name))


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
    scoring = league.scoring
    weeks = [(name, charted(rows, scoring, season=True)) for name, rows in season.named_weeks]
    image = await asyncio.to_thread(render_season, label, weeks, title=f"{league.name} season",
                                    unit=chart_unit(scoring, season=True))
    content = "\n".join(part for part in (f"**{league.name}** · {what}", standings_table(season.totals,
                                                                                        scoring=scoring),
                                           corrections_text(season.corrections, league)) if part)
    return Shown(fit_lines(content, CHARTED), image, "season.png")


async def server_message(figures: ServerStandings, server: str, leagues: Sequence[str]) -> Shown | str:
    """A server's standings over every table, league or not (a week, or every game so far): the text table and,
    when there is something to draw, the chart. ``leagues`` are the server's leagues, to say how to see one."""
    whole = figures.label is None
    what = "every game so far" if whole else f"the {figures.name}"
    lines = [f"**{plain(server)}** · standings for {what}, every table here"]
    if leagues:
        lines.append("Leagues here: " + ", ".join(f"**{name}**" for name in leagues) + ". "
                     "`/standings league:` shows one.")
    content = fit_lines("\n".join([*lines, standings_table(figures.rows)]), CHARTED)
    if whole and not figures.rows:
        return content
    title = f"{plain(server)} standings"
    image = await asyncio.to_thread(render_weekly, figures.name, figures.rows, title=title)
    return Shown(content, image, _filename(figures.name))


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def place_line(what: str, rows: Sequence[Standing], player_id: int) -> str:
    """One period of a player's standing as the standings show it: ``Week of 23 Nov 2026: 2nd of 4, +12 chips in
    3 games.`` (places as the standings table numbers them)."""
    found = next(((n, row) for n, row in enumerate(rows, start=1) if row.player_id == player_id), None)
    if found is None:
        return f"{what}: no games."
    place, row = found
    return (f"{what}: {_ordinal(place)} of {len(rows)}, **{_signed(row.net)}** {noun(row.net, 'chip')} in "
            f"{plural(row.games, 'game')}.")


def standing_text(name: str, where: str, periods: Sequence[tuple[str, Sequence[Standing]]], player_id: int) -> str:
    """A player's place and net chips in each period, and nothing more: what anyone may see of another player."""
    lines = [f"**{plain(name)}** in {where}, as the standings show:"]
    lines += [place_line(what[:1].upper() + what[1:], rows, player_id) for what, rows in periods]
    return fit_lines("\n".join(lines), "… and {more}, too long for one message: `/standings` shows each period.")


def _signed(amount: int) -> str:
    return f"+{amount}" if amount > 0 else str(amount)


def statement_text(statement: Statement, name: str, where: str) -> str:
    """A player's balance and latest postings: the table, the day, the chips and why."""
    count = statement.transactions
    lines = [f"**{plain(name)}** in {where}: **{_signed(statement.balance)}** {noun(statement.balance, 'chip')} "
             f"({plural(count, 'game')} settled or corrected)."]
    if statement.latest:
        lines.append("Latest:")
    for entry in statement.latest:
        when = datetime.fromisoformat(str(entry["created_at"]))
        at = f"table {entry['table_id']}" if entry["table_id"] else "a game"
        kind = "" if entry["kind"] == "settlement" else f" ({entry['kind']})"
        reasons = "; ".join(dict.fromkeys(str(entry["reason"] or "").split("; ")))
        lines.append(f"- <t:{int(when.timestamp())}:d> {at}{kind}: **{_signed(int(str(entry['amount'])))}**"
                     + (f" ({plain(reasons)})" if reasons else ""))
    return fit_lines("\n".join(lines), "… and {more}: `/ledger export:True` lists every posting.")


def info_text(info: LeagueInfo) -> str:
    """A league's settings, members, season, and any weekly post that could not be made."""
    league = info.league
    channel = f"<#{league.channel_id}>" if league.channel_id else "none yet (/league-admin channel)"
    lines = [f"**{league.name}**",
             f"Channel: {channel} · time zone {league.timezone} · weeks start on {DAYS[league.week_start]}",
             plural(info.members, "member")
             + (" · players join with their first game at its tables" if league.auto_join else ""),
             f"Season: **{info.season.name}**" if info.season else f"No season running ({info.seasons} so far).",
             league.scoring.describe()]
    for post in info.problems:
        tries = plural(post.attempts, "try", "tries")
        week = week_name(post.week, league.week_start)
        lines.append(f"⚠ The standings of the {week} could not be posted ({tries}): "
                     f"{post.last_error}. Next try <t:{int(datetime.fromisoformat(post.next_try_at).timestamp())}:R>."
                     if post.next_try_at else f"⚠ The {week}: {post.last_error}")
    return fit_lines("\n".join(lines), "… and {more}: too long for one message.")


def game_choice(game: GameRow) -> str:
    """A game as a suggestion: its number, table, day and how it ended (at most 100 characters)."""
    when = datetime.fromisoformat(game.ended_at).strftime("%d %b") if game.ended_at else "unfinished"
    how = f"{plain(game.winner or '?', 30)} won {game.value}" if game.winner else (game.how or "").replace("_", " ")
    where = "physical table" if game.recorded else f"table {game.table_id}"
    return f"Game {game.game_id} · {where} · {when} · {how}"[:100]


def recorded_text(number: int, league: LeagueRow, seated: Sequence[discord.abc.User], game: PhysicalGame) -> str:
    """The answer to a recorded physical game: its number, its players by seat and how it ended."""
    names = {user.id: plain(user.display_name, 40) for user in seated}
    winds = ("East", "South", "West", "North")
    lines = [f"Game {number} is recorded for **{league.name}** (played at a physical table):",
             " · ".join(f"{winds[n]} {names[user.id]}" for n, user in enumerate(seated))]
    if game.winner is None:
        lines.append("A wall game" + (f"; {names[game.dead]}'s hand was dead." if game.dead in names else "."))
    else:
        how = f"on {names[game.thrower]}'s discard" if game.thrower in names else "self-picked"
        extra = ", jokerless" if game.jokerless else ""
        lines.append(f"{names[game.winner]} won with {game.line} {how}{extra}, "
                     f"{plural(game.exposures, 'exposure')}.")
    lines.append("It counts in the standings now; `/league-admin game void` takes it back out.")
    return "\n".join(lines)


# -- /card-admin: an import's warnings before storing, a stored card, a replaced line (issue 29) ------------------
MESSAGE_LIMIT = 2000


def import_preview_text(preview: ImportPreview) -> str:
    """What an organiser reads before an import is stored: what was read, every warning (as many as a message
    holds), and that nothing is stored until she presses the button."""
    escape = discord.utils.escape_markdown
    left = f", {preview.left_out} left out (see the warnings)" if preview.left_out else ""
    head = [f"**{escape(preview.title)}** from `{escape(preview.filename)}`, read as {preview.source_format}: "
            f"{plural(preview.lines, 'line')}{left}. **Nothing is stored yet.**"]
    tail = ("Check the warnings (the converted card is attached), then press **Store this card** to keep it as "
            f"`{preview.name}`; the button works for {PENDING_MINUTES} minutes. To fix something first, edit the "
            "attached file and import it instead.")
    if not preview.warnings:
        return "\n".join([*head, "No warnings.", tail])
    lines = [*head, f"{plural(len(preview.warnings), 'warning')}:"]
    for n, warning in enumerate(preview.warnings):
        line = f"- {escape(warning)}"
        if sum(len(x) + 1 for x in lines) + len(line) + len(tail) + 120 > MESSAGE_LIMIT:
            lines.append(f"- … and {len(preview.warnings) - n} more: each is also a `# warning` comment in the "
                         "attached file, beside its line.")
            break
        lines.append(line)
    return "\n".join([*lines, tail])


def import_file(preview: ImportPreview) -> discord.File:
    """The converted card as a TOML file: what will be stored, to read or to fix and import again."""
    return discord.File(io.BytesIO(preview.toml.encode("utf-8")), filename=f"{preview.name}.toml",
                        description=f"The card {preview.title} as Charleston will store it"[:1000])


def stored_text(title: str, name: str, lines: int, variants: int, ruleset: str) -> str:
    """A card just stored."""
    return (f"Imported **{discord.utils.escape_markdown(title)}** as `{name}`: {plural(lines, 'line')}, "
            f"{plural(variants, 'variant')}, {ruleset} rules. It belongs to this server: `/table new card:` "
            "plays it, `/card-admin default` makes it the default. Check it against the printed card line by line "
            "on its proof sheet; `/card-admin line` fixes one line.")


def proof_files(pages: Sequence[Rendered], name: str, first: int = 1) -> list[discord.File]:
    """A proof sheet's pages as attachments (numbered from ``first``), each with its alt text."""
    return [discord.File(io.BytesIO(page.png), filename=f"{name}-proof-{n:02d}.png", description=page.alt)
            for n, page in enumerate(pages, first)]


def import_components(token: str) -> Components:
    """Under an import's warnings: the button that stores it."""
    components = Components()
    components.add_item(CardButton(ids.STORE_IMPORT, token).draw("Store this card", discord.ButtonStyle.success))
    return components


def proof_components(name: str) -> Components:
    """Under a stored or changed card: the button that sends its proof sheet."""
    components = Components()
    components.add_item(CardButton(ids.SEND_PROOF, name).draw("Show its proof sheet", discord.ButtonStyle.primary))
    return components
