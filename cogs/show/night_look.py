"""How a league night looks in Discord: its sign-up message (with I'm in / Can't come while a seat can still be
had), the answer to a press, the reminder DM, a round's tables, and the night's results (scores, each round's
tables, the chart). Messages only, short lines for phones; the figures come from :mod:`bot.service.nights`."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime

from bot.engine.wording import plural
from bot.service.nights import NightResults, NightTable, NightView
from renderers import render_weekly

from ..payload import Payload
from .components import Components, SignupButton
from .fit import fit_lines
from .league_look import Shown, charted, plain, standings_table

WINDS = ("East", "South", "West", "North")
NAMES_ROOM = 1100  # characters for the names of those in (a longer list ends "and N more": the count is shown)
ABSENT_ROOM = 400  # and of those who can't come, so the sign-up stays one message of whole lines


def signup_components(night: int) -> Components:
    """A night's sign-up buttons."""
    view = Components()
    view.add_item(SignupButton(night, True).draw())
    view.add_item(SignupButton(night, False).draw())
    return view


def _at(iso: str, style: str = "F") -> str:
    """A moment as Discord shows it in each reader's own time zone."""
    return f"<t:{int(datetime.fromisoformat(iso).timestamp())}:{style}>"


def _names(people: Sequence[str], room: int) -> str:
    """The names, as many as ``room`` characters hold, then how many more."""
    shown: list[str] = []
    used = 0
    for n, name in enumerate(people):
        name = plain(name, 32)
        if used + len(name) + 2 + len(f" and {len(people) - n} more") > room:
            break
        shown.append(name)
        used += len(name) + 2
    more = f" and {len(people) - len(shown)} more" if len(shown) < len(people) else ""
    return ", ".join(shown) + more if people else "nobody yet"


def _format(view: NightView) -> str:
    night = view.night
    rounds = plural(night.rounds, "round")
    length = plural(night.round_games, "game") if night.round_games else plural(night.round_minutes or 0, "minute")
    remainder = "extra seats played by computers" if night.remainder == "computers" else "tables of three as needed"
    return f"{rounds} of {length} · tables of four, {remainder}"


def headline(view: NightView) -> str:
    """The sign-up message's first line (the night's date in the reader's own time)."""
    return f"**{view.league.name}** · league night {_at(view.night.starts_at)}"


def signup_text(view: NightView) -> str:
    """The sign-up message: when, how, who is in and who can't come, and what pressing does now."""
    night = view.night
    lines = [headline(view), _format(view)]
    status = night.status
    if status == "signup":
        lines.append(f"Press **I'm in** or **Can't come**. Sign-up closes {_at(night.closes_at, 'R')}.")
    elif status == "closed":
        lines.append(f"Sign-up is closed; play starts {_at(night.starts_at, 'R')}. Late? Press **I'm in** to play "
                     "from round 2.")
    elif status == "playing":
        lines.append(f"Round {night.round} of {night.rounds} is on. Late? Press **I'm in** to play from the next "
                     "round." if night.round < night.rounds else f"Round {night.round} of {night.rounds} is on.")
    elif status == "finished":
        lines.append("This night is over: the results are below.")
    elif view.coming:
        lines.append("This night is called off.")
    else:
        lines.append("This night is called off: nobody signed up.")
    coming, not_coming = view.coming, view.not_coming
    lines.append(f"**In ({len(coming)}):** {_names([s.name for s in coming], NAMES_ROOM)}")
    if not_coming:
        lines.append(f"Can't come ({len(not_coming)}): {_names([s.name for s in not_coming], ABSENT_ROOM)}")
    return fit_lines("\n".join(lines), "… and {more}: too long for one message.")


def open_for_answers(view: NightView) -> bool:
    """Whether a press can still change anything (a seat in a round still to come)."""
    night = view.night
    return night.status in ("signup", "closed") or (night.status == "playing" and night.round < night.rounds)


def signup_payload(view: NightView) -> Payload:
    """The sign-up message with its buttons (none once nothing can change)."""
    buttons = signup_components(view.night.night_id) if open_for_answers(view) else None
    return Payload(signup_text(view), components=buttons)


def answer_text(view: NightView, player_id: int, coming: bool) -> str:
    """The private line after a press."""
    if not coming:
        return "Noted: you can't come this time. Press **I'm in** if that changes."
    mine = next((s for s in view.coming if s.player_id == player_id), None)
    later = mine is not None and mine.from_round > 1
    when = f"from round {mine.from_round}" if later and mine else _at(view.night.starts_at)
    return (f"You're in for {view.league.name}'s night ({when}). At the start your table opens in a thread and "
            "your tiles come by DM.")


def reminder_text(view: NightView) -> str:
    """The DM to those signed up when registration closes."""
    night = view.night
    return (f"Reminder: **{view.league.name}**'s league night starts {_at(night.starts_at, 'R')} "
            f"({_at(night.starts_at, 't')}). Your table opens in a thread of <#{night.channel_id}> and your tiles "
            "come by DM. Can't make it? Press **Can't come** on the sign-up.")


def _table_line(view: NightView, table: NightTable, thread: int | None = None) -> str:
    seats = []
    count = len(table.seats)
    for wind in range(count):  # East first, then in turn order
        player = table.seats[(table.east + wind) % count]
        who = plain(view.names.get(player, str(player)), 24) if player is not None else "computer"
        seats.append(f"{WINDS[wind]} {who}")
    where = f" <#{thread}>" if thread else ""
    return f"Table {table.table_no}{where}: " + " · ".join(seats)


def round_text(view: NightView, round_no: int, threads: dict[int, int]) -> str:
    """A round's tables, posted when they open: each table's thread and its players by wind."""
    lines = [f"**{view.league.name}** · round {round_no} of {view.night.rounds}: your tables are open."]
    lines += [_table_line(view, t, threads.get(t.table_no)) for t in view.round_tables(round_no)]
    return fit_lines("\n".join(lines), "… and {more}: each table's thread shows its players.")


def results_headline(view: NightView) -> str:
    """The results message's first words, one night's own (its start to the second): the runner finds a post a
    crash left unrecorded by them."""
    return f"**{view.league.name}** · results of the league night {_at(view.night.starts_at, 'D')} "


async def results_message(results: NightResults) -> Shown:
    """The night's results: its scores as the league scores (a text table and the chart) and each round's tables."""
    view = results.view
    scoring = replace(view.league.scoring, rule="total")  # a night is scored by its totals
    day = datetime.fromisoformat(view.night.starts_at).astimezone(view.league.weeks.zone)
    label = f"night of {day.day} {day:%b %Y}"
    unit = "points" if scoring.points else "net chips"
    image = await asyncio.to_thread(render_weekly, label, charted(results.rows, scoring), unit=unit,
                                    title=f"{view.league.name} results")
    lines = [f"{results_headline(view)}({plural(results.games, 'game')}, {unit})",
             standings_table(results.rows, scoring=scoring)]
    for round_no in range(1, view.night.round + 1):
        lines.append(f"Round {round_no}:")
        lines += [_table_line(view, t) for t in view.round_tables(round_no)]
    return Shown(fit_lines("\n".join(lines), "… and {more}, too long for one message: `/standings` "
                                 "shows the league's standings."), image, f"night-{view.night.night_id}.png")


def results_failed_text(view: NightView, reason: str) -> str:
    """The DM to a night's organiser when its results could not be posted."""
    return (f"The results of **{view.league.name}**'s league night could not be posted: {reason}. I will keep "
            "trying (after a minute, then less often).")


def cancelled_text(view: NightView) -> str:
    """The DM to those who were in when a night is called off."""
    return (f"**{view.league.name}**'s league night {_at(view.night.starts_at)} is called off by the organiser. "
            "See you next time!")
