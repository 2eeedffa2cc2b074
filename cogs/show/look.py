"""What players see: the text, images and components of the table message, a player's DM and the results, built
from the service's updates. Nothing here sends anything; :mod:`cogs.show.presenter`, :mod:`cogs.show.dms` and the
press handlers (:mod:`cogs.press.controls`) do."""

from __future__ import annotations

import asyncio
import io

import discord

from bot.engine import payloads
from bot.engine.tiles import name
from bot.engine.views import PublicView
from bot.engine.wording import chips, line_called, plural
from bot.service.cards import card_label, load_card
from bot.service.choices import SeatChoices
from bot.service.fairness import DealSeal
from bot.service.hints import Hint
from bot.service.narration import NOTABLE, describe, how_won
from bot.service.updates import SeatUpdate, TablePhase, TableUpdate, TableView
from renderers import render_card

from ..payload import Payload, digest
from . import components as c
from .drawing import Drawing

LOG_LINES = 8  # recent events shown in the table message
RULES = {"nmjl": "NMJL rules", "nmjl-1946": "1946 rules", "classical": "classical game"}


def seat_label(table: TableView, seat: int) -> str:
    """How the table names a seat: "Ruth (East)", "East (computer)"; in the lobby "Ruth", "Computer (normal)"."""
    return table.seat_label(seat)


def player_name(table: TableView, seat: int) -> str:
    """Who sits in a seat, without the wind (the table image adds it): "Ruth", "Computer"."""
    info = table.seats[seat]
    if info.player_id is None:
        return "Computer" if info.computer_level else ""
    return info.name or "Someone"


def rules_label(preset: str) -> str:
    """The rules a table plays, as players say it."""
    return RULES.get(preset, preset)


def event_lines(update: TableUpdate) -> list[str]:
    """The notable events of an update, one line each, as the channel is told them (public events only)."""
    return [describe(e, lambda s: seat_label(update.view, s)) for e in update.events if e.type in NOTABLE]


def countdown(update: TableUpdate) -> str:
    """A live "in 8 seconds" for the deadline, if there is one."""
    return f" · time's up <t:{int(update.deadline.timestamp())}:R>" if update.deadline is not None else ""


def status_line(update: TableUpdate) -> str:
    """Whose decision the table waits on, in a line."""
    table = update.view
    game = table.game
    if table.closed:
        return closed_line(table)
    if game is None:
        filled = sum(1 for s in table.seats if not s.empty)
        return f"Waiting for players: {filled} of {table.rules.players} seated. Join, or add a computer, then Start."
    waiting = ", ".join(seat_label(table, s) for s in update.awaiting)
    match update.phase:
        case TablePhase.CHARLESTON:
            return f"Charleston, {game.charleston_step} pass: waiting for {waiting}{countdown(update)}"
        case TablePhase.CHARLESTON_VOTE:
            return f"Stop the Charleston or go on? Waiting for {waiting}{countdown(update)}"
        case TablePhase.COURTESY:
            return f"Courtesy pass across: waiting for {waiting}{countdown(update)}"
        case TablePhase.PLAY:
            return f"{seat_label(table, game.turn)}'s turn · {plural(game.wall, 'tile')} in the wall{countdown(update)}"
        case TablePhase.CALL_WINDOW:
            tile = name(game.window_tile) if game.window_tile is not None else "The discard"
            only = " (Mah Jongg only)" if game.mahjong_only else ""
            return f"**{tile}** may be called{only}{countdown(update)}"
    return result_line(table, game)


def closed_line(table: TableView) -> str:
    """What a closed table says."""
    if table.abandoned:
        return "**This table is closed.** The game in progress was abandoned: no chips changed hands."
    return "**This table is closed.** Its games are in the chip ledger; /table new opens a new one."


def result_line(table: TableView, game: PublicView) -> str:
    """How the game ended, in a line."""
    result = game.result
    if result is None or result.winner is None:
        return "Wall game: nobody pays." if result is not None and result.how == "wall" else "Game over: no payments."
    winner = seat_label(table, result.winner)
    line = line_called(load_card(table.rules.card), result.line)
    jokerless = ", jokerless" if result.jokerless else ""
    return (f"**Mah Jongg!** {winner} wins {how_won(result.how, result.discarder)} with {line}{jokerless}: "
            f"{chips(result.value)}.")


def _title(table: TableView) -> str:
    game = f" · game {table.game.game_no}" if table.game is not None else ""
    card = "" if table.rules.preset == "classical" else f" · {card_label(table.rules.card)} card"
    return f"**Table {table.table_id}**{game}{card} · {rules_label(table.rules.preset)}"


async def table_payload(update: TableUpdate, log: list[str], drawing: Drawing,
                        unreachable: frozenset[int] = frozenset()) -> Payload:
    """The table message: the image of the table, whose turn, the countdown, the latest events, the buttons
    (``unreachable``: seats whose DMs Discord is failing to deliver just now)."""
    table = update.view
    lines = [_title(table), status_line(update)]
    game = table.game
    if game is None or table.closed:
        lines += [_seating(table)]
    playing = game is not None and not table.closed
    closed = [seat_label(table, s) for s in sorted(table.display.dms_closed) if playing]
    if closed:
        lines.append(f"{', '.join(closed)}: your DMs are closed, so press **My rack** to see your tiles and play.")
    failing = [seat_label(table, s) for s in sorted(unreachable - table.display.dms_closed) if playing]
    if failing:
        lines.append(f"{', '.join(failing)}: Discord isn't delivering your DMs just now, so press **My rack** to "
                     "see your tiles and play.")
    if log:
        lines.append("\n".join(f"> {line}" for line in log[-LOG_LINES:]))
    if game is not None and table.seal is not None:
        lines.append(sealed_line(table.seal))
    files = []
    picture = b""
    if game is not None:
        labels = [player_name(table, s) for s in range(4)]  # the image adds each seat's wind itself
        image = await drawing.table(table.table_id, game, labels, table.wild)
        files.append(discord.File(io.BytesIO(image.png), filename="table.png", description=image.alt))
        picture = digest(image.png)
    return Payload(_fit("\n".join(lines)), files, c.table_components(update), picture=picture)


def sealed_line(seal: DealSeal) -> str:
    """The deal's commitment, in small print under the table (docs/rules.md, *Provable deals*)."""
    return f"-# Deal sealed: `{seal.commitment}` (the results reveal its seed)"


def opened_line(seal: DealSeal) -> str:
    """The seed and salt that open the deal's commitment, in small print under the results."""
    return (f"-# The deal: seed `{seal.seed}`, salt `{seal.salt}`, sealed as `{seal.commitment}` "
            "(`charleston fairness verify` checks it)")


def _seating(table: TableView) -> str:
    seats = [f"Seat {info.seat}: {table.seat_label(info.seat) if not info.empty else 'free'}"
             for info in table.chairs()]
    rules = table.rules
    players = f"{rules.players} players · " if rules.players != 4 else ""
    declarations = "a wrong Mah Jongg kills the hand" if rules.declarations == "strict" else \
        "a wrong Mah Jongg is refused"
    options = (f"{players}{rules.call_window_seconds} s to call · {declarations} · computers move after "
               f"{table.options.computer_delay:g} s")
    return "\n".join(seats) + "\n" + options


async def seat_payload(update: SeatUpdate, notes: list[str], drawing: Drawing) -> Payload:
    """A player's private message: their rack (drawn tile apart), what they may do now, and the buttons."""
    table = update.table.view
    lines = [_title(table), _my_status(update), *notes[-4:]]
    files = []
    picture = b""
    if update.view is not None:
        image = await drawing.rack(update.view)
        files.append(discord.File(io.BytesIO(image.png), filename="rack.png", description=image.alt))
        picture = digest(image.png)
    return Payload(_fit("\n".join(lines)), files, c.rack_components(update), picture=picture)


def _my_status(update: SeatUpdate) -> str:
    choices = update.choices
    table = update.table
    if table.view.closed:
        return closed_line(table.view)
    if table.view.game is None:
        return "Waiting for the game to start."
    if table.phase is TablePhase.FINISHED:
        return result_line(table.view, table.view.game)
    if update.seat in table.view.game.waiting_for and table.view.seats[update.seat].away:
        return "A computer is playing for you: press **I'm back** or use /back."
    if not actionable(update):
        thread = table.view.display.thread
        return "Not your move right now" + (f": follow the table in <#{thread}>." if thread else ".")
    return _what_to_do(update, choices) + countdown(table)


def actionable(update: SeatUpdate) -> bool:
    """Whether the player has something to decide now that their own message should offer: their turn, their
    pass or vote, or a discard they can actually call (a plain "pass" on every discard is left to the table)."""
    choices = update.choices
    if choices.calls or choices.call_mahjong:
        return True  # a discard she can call (a live window, or under the 1946 rules until the next discard)
    if update.table.phase is TablePhase.CALL_WINDOW:
        return False
    return update.awaited and not (choices.empty and choices.pick is None)


def _what_to_do(update: SeatUpdate, choices: SeatChoices) -> str:
    game = update.table.view.game
    assert game is not None
    if choices.pick is not None and choices.pick.kind == "charleston":
        blind = " (pick fewer and the rest go blind)" if len(choices.pick.blind) > 1 else ""
        return f"**Your pass: {choices.pick.step}.** Pick 3 tiles{blind}."
    if choices.pick is not None:
        return "**Courtesy pass:** offer 0 to 3 tiles across."
    if choices.vote:
        return "**Stop the Charleston here, or go on to the second one?**"
    claimable = update.table.claimable
    if (choices.calls or choices.call_mahjong) and claimable is not None:
        discarder = seat_label(update.table.view, claimable[2])
        if choices.call_mahjong is not None:
            return f"**{discarder} discarded {name(claimable[1])}: it gives you Mah Jongg!** Press Mah Jongg! to win."
        return f"**{discarder} discarded {name(claimable[1])}.** Call it?"
    if choices.declare is not None:
        return "**Your tiles are a Mah Jongg!** Press Mah Jongg! to win."
    if choices.discard:
        drawn = update.view.drawn if update.view is not None else None
        took = f" You drew **{name(drawn)}**." if drawn is not None else ""
        return f"**Your turn: discard a tile.**{took}"
    return "Your move."


async def result_payload(update: TableUpdate) -> Payload:
    """The end of a game: who won with which line, the winning hand, the payouts in chips."""
    table = update.view
    game = table.game
    assert game is not None
    result = game.result
    lines = [_title(table), result_line(table, game)]
    for p in game.payouts:
        lines.append(f"{seat_label(table, p.payer)} pays {seat_label(table, p.payee)} {chips(p.amount)}: {p.reason}.")
    if not game.payouts:
        lines.append("No chips change hands.")
    lines.append("Settled in the chip ledger." + ("" if table.closed else
                                                  " **Deal again** starts the next game, East moving on."))
    if table.seal is not None and table.seal.revealed:
        lines.append(opened_line(table.seal))
    files = []
    if result is not None and result.line and result.tiles:
        card = load_card(table.rules.card)
        tiles = [list(group) for group in result.tiles]
        image = await asyncio.to_thread(render_card, card, line_id=result.line, tiles=tiles)
        files.append(discord.File(io.BytesIO(image.png), filename="winning-hand.png", description=image.alt))
    return Payload(_fit("\n".join(lines)), files, None)


def _fit(text: str, limit: int = 2000) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def hint_text(hints: list[Hint]) -> str:
    """The closest card lines for ``/hint``, in short sentences for a phone."""
    if not hints:
        return "No line of the card can still be made with your tiles and what is out."
    head = "**Your closest hand**" if hints[0].away is not None else "**Your closest lines**"
    return _fit("\n".join([head, *(f"- {hint.text}" for hint in hints)]))


def confirmation(update: SeatUpdate) -> str:
    """What the mover is told after a move by command."""
    for event in update.table.events:
        if event.seat != update.seat:
            continue
        match event.payload:
            case payloads.Discard(tile=tile):
                return f"You discarded {name(tile)}."
            case payloads.Call(mahjong=mahjong):
                return "You called it for Mah Jongg!" if mahjong else "You called it."
            case payloads.Pass():
                return "You passed."
            case payloads.Hold():
                return "The table waits a little longer for you."
            case payloads.CharlestonPassed(blind=blind):
                return "Passed." if not blind else f"Passed, {blind} blind."
            case payloads.CharlestonVoted(stop=stop):
                return "You voted to stop." if stop else "You voted to go on."
            case payloads.CourtesyOffered(count=count):
                return f"You offered {count} across."
            case payloads.JokerExchange(tile=tile):
                return f"You gave {name(tile)} for a joker."
            case payloads.BlankSwap(tile=tile):
                return f"You swapped a blank for {name(tile)}."
            case payloads.Mahjong():
                return "Mah Jongg!"
    return "Done."
