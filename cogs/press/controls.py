"""What a press of a button or a select does: one service call, and an answer to the presser.

A move made from a player's own message (their DM, or the private "My rack" answer) updates that message in
place; a move made from the table message is confirmed privately. Every error is answered by
:func:`cogs.press.replies.report_error`: the player reads what was wrong, never a traceback. A slash command that
does what a button does (``/rack``, ``/hint``, ``/back``, ``/table join|leave``) calls the same handler here.

A press Discord could not acknowledge in time (10062: the player saw "This interaction failed") still counts:
the press reached the bot and its decision is checked like any other, so the move is made if it is still open;
the player's DM is then sent afresh with a line saying what became of it (docs/architecture.md).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import discord

from bot.service.decisions import gone_message
from bot.service.errors import ErrorKind, NeedsConfirmation, TableError
from bot.service.surface import NightCalls, TableCalls
from bot.service.updates import SeatUpdate, TablePhase

from ..door import Door, Interaction
from ..payload import Payload
from ..show import components as c
from ..show import look, night_look
from ..show.dms import Dms
from ..show.drawing import Drawing
from ..show.ids import Helper
from ..show.presenter import Presenter
from .replies import report_error

Handler = Callable[["Controls", Interaction, int], Awaitable[None]]


class Controls:
    """The handlers behind every component (:class:`cogs.show.components.Handlers`), and behind the slash commands
    that do what a button does."""

    def __init__(self, service: TableCalls, door: Door, presenter: Presenter, dms: Dms, drawing: Drawing,
                 nights: NightCalls | None = None) -> None:
        self.service = service
        self.door = door
        self.presenter = presenter
        self.dms = dms
        self.drawing = drawing
        self.nights = nights

    async def act(self, interaction: Interaction, table: int, token: str, key: str, *, confirm: bool = False) -> None:
        """Make a move for the presser (``confirm``: one she was asked about and chose anyway)."""
        try:
            # Acknowledged before anything else: the table may be busy (computer moves hold its lock).
            answered = await self.door.defer(interaction)
            try:
                mine = await self.service.act(table, interaction.user.id, key, token=token, confirm=confirm)
            except NeedsConfirmation as asked:
                if not answered:
                    await self._tell_truth(table, interaction.user.id, f"Your last press did not count: "
                                           f"{asked.message}")
                    return
                await self.door.reply(interaction, f"**{asked.message}**",
                                      components=c.confirm_components(table, token, key, asked.anyway, asked.instead))
                return
            except TableError as refused:
                if not answered:
                    await self._tell_truth(table, interaction.user.id, f"Your last press did not count: "
                                           f"{refused.message}")
                raise
            if not answered:
                await self._tell_truth(table, interaction.user.id, f"Your last press counted: {look.confirmation(mine)}"
                                       " (Discord may have said it failed: it reached us late.)", mine)
                return
            await self.answer_move(interaction, mine)
        except Exception as exc:
            await report_error(self.door, interaction, exc)

    async def _tell_truth(self, table: int, player: int, note: str, mine: SeatUpdate | None = None) -> None:
        """After a press Discord said failed: the player's DM, sent afresh, says what became of it."""
        try:
            now = mine or self.service.seat_update(table, player)
        except TableError:
            return  # no longer seated, or the table closed: nothing of hers to show
        self.dms.renew(now, note)

    async def answer_move(self, interaction: Interaction, mine: SeatUpdate) -> None:
        """Show the mover the result, through her press wherever it changes what she sees (an interaction's
        answers are exempt from Discord's global limit): her DM or the table message brought up to date in place,
        a private answer edited into the result, or a private line for a move made by command."""
        message = interaction.message
        if interaction.type != discord.InteractionType.component or message is None:
            await self.door.reply(interaction, look.confirmation(mine))
        elif message.flags.ephemeral:  # a private answer: My rack, a joker offer, a question
            if any(a.filename == "rack.png" for a in message.attachments):
                notes = self.dms.notes(mine.table.table_id, mine.seat)
                await self.door.edit_response(interaction, await look.seat_payload(mine, notes, self.drawing))
            else:
                await self.door.edit_response(interaction, Payload(look.confirmation(mine)))
        elif interaction.guild_id is None:  # her DM: the DM is the presenter's to keep
            self.dms.pressed(mine, interaction)
        else:  # the table message: brought up to date through the press
            self.presenter.pressed(mine.table, interaction)

    async def pick(self, interaction: Interaction, table: int, token: str, mode: str, values: list[str]) -> None:
        """Pass (or offer) the tiles picked in a select."""
        try:
            now = self.service.seat_update(table, interaction.user.id)
            pick = now.choices.pick
            if now.table.token != token or pick is None:
                raise TableError(ErrorKind.GONE, gone_message(token))
            blind = 3 - len(values) if mode == "b" else 0
            key = pick.key_for(values, blind)
        except Exception as exc:
            await report_error(self.door, interaction, exc)
            return
        await self.act(interaction, table, token, key)

    async def call_options(self, interaction: Interaction, table: int, token: str) -> None:
        """Answer "Call" with the exposures (and Mah Jongg) the presser can make with this discard."""
        try:
            mine = self.service.seat_update(table, interaction.user.id)
            if not self.service.decision_open(table, token):
                raise TableError(ErrorKind.GONE, gone_message(token))
            choices = mine.choices
            if not choices.calls and choices.call_mahjong is None:
                raise TableError(ErrorKind.ILLEGAL, "You can't call this tile: an exposure needs the matching tiles "
                                 "(or jokers) in your rack, and the group must fit a line of the card.")
            await self.door.reply(interaction, "Call it as:", components=c.call_components(table, token, choices))
        except Exception as exc:
            await report_error(self.door, interaction, exc)

    async def night_answer(self, interaction: Interaction, night: int, coming: bool) -> None:
        """I'm in / Can't come: the sign-up message brought up to date through the press, and a private line."""
        try:
            if self.nights is None or interaction.guild_id is None:
                raise TableError(ErrorKind.GONE, "That night is no longer here.")
            await self.door.defer(interaction)
            view = await self.nights.answer(interaction.guild_id, night, interaction.user.id,
                                            interaction.user.display_name, coming)
            await self.door.edit_response(interaction, night_look.signup_payload(view))
            await self.door.reply(interaction, night_look.answer_text(view, interaction.user.id, coming))
        except Exception as exc:
            await report_error(self.door, interaction, exc)

    async def unknown(self, interaction: Interaction) -> None:
        """A press of a component that is none of the bot's (an older version's, or mangled)."""
        try:
            await self.door.reply(interaction, "That button no longer works. Use the newest table message in the "
                                  "table's thread, or `/rack` for your tiles.")
        except Exception as exc:
            await report_error(self.door, interaction, exc)

    async def helper(self, interaction: Interaction, table: int, helper: Helper) -> None:
        """A lobby button, or one of the private helpers."""
        try:
            await HANDLERS[helper](self, interaction, table)
        except Exception as exc:
            await report_error(self.door, interaction, exc)

    async def join(self, interaction: Interaction, table: int, seat: int | None = None) -> None:
        """Take a seat (``seat``: that one, else the first free one)."""
        update = await self.service.join(table, interaction.user.id, interaction.user.display_name, seat)
        taken = update.view.seat_of(interaction.user.id)
        await self.door.reply(interaction, f"You're in seat {taken}. Your rack comes by DM when the game starts (if "
                              "your DMs are closed, press **My rack** under the table).")

    async def computer(self, interaction: Interaction, table: int) -> None:
        """Seat a normal computer player (answered first: a busy bot must not let the press expire; a refusal,
        such as a full table, follows privately)."""
        await self.door.defer(interaction)
        await self.service.add_computer(table, "normal")

    async def start(self, interaction: Interaction, table: int) -> None:
        """Deal (a seated player or the opener)."""
        await self.door.defer(interaction)
        await self.service.start(table, by=interaction.user.id)

    async def leave(self, interaction: Interaction, table: int) -> None:
        """Leave the table (mid-game a computer plays on)."""
        update = await self.service.leave(table, interaction.user.id)
        if update.phase not in (TablePhase.LOBBY, TablePhase.FINISHED):
            await self.door.reply(interaction, "A computer plays the rest of this game for you; /back takes your "
                                  "seat again.")
        else:
            await self.door.reply(interaction, "You left the table.")

    async def rack(self, interaction: Interaction, table: int) -> None:
        """The presser's rack, privately."""
        await self._rack_here(interaction, self.service.seat_update(table, interaction.user.id))

    async def rack_by_dm(self, interaction: Interaction, table: int) -> None:
        """The caller's rack as a new DM (``/rack``), or privately here when her DMs are closed."""
        mine = self.service.seat_update(table, interaction.user.id)
        await self.door.defer(interaction)  # a DM waits its turn behind the others (at most 5 in 5 s)
        if await self.dms.resend(mine):
            await self.door.reply(interaction, "Your rack is in your DMs.")
            return
        await self._rack_here(interaction, mine)

    async def _rack_here(self, interaction: Interaction, mine: SeatUpdate) -> None:
        notes = self.dms.notes(mine.table.table_id, mine.seat)  # what she was told lately: passes received
        payload = await look.seat_payload(mine, notes, self.drawing)
        await self.door.reply(interaction, payload.content, files=payload.files, components=payload.components)

    async def hint(self, interaction: Interaction, table: int) -> None:
        """The presser's closest lines, privately."""
        await self.door.reply(interaction, look.hint_text(self.service.hint(table, interaction.user.id)))

    async def jokers(self, interaction: Interaction, table: int) -> None:
        """The jokers the presser may exchange now."""
        mine = self.service.seat_update(table, interaction.user.id)
        if not mine.choices.exchanges or mine.table.token is None:
            raise TableError(ErrorKind.ILLEGAL, "No joker can be exchanged now: it must be your turn, after your "
                             "draw, with the tile a joker stands for.")
        await self.door.reply(interaction, "Exchange which joker?",
                              components=c.choice_buttons(table, mine.table.token, mine.choices.exchanges))

    async def blanks(self, interaction: Interaction, table: int) -> None:
        """The discards the presser may swap a blank for now."""
        mine = self.service.seat_update(table, interaction.user.id)
        if not mine.choices.blank_swaps or mine.table.token is None:
            raise TableError(ErrorKind.ILLEGAL, "No blank can be swapped now.")
        await self.door.reply(interaction, "Swap your blank for which discard?",
                              components=c.choice_selects(table, mine.table.token, mine.choices.blank_swaps))

    async def back(self, interaction: Interaction, table: int) -> None:
        """Take the seat back from the computer."""
        await self.service.come_back(table, interaction.user.id)
        await self.door.reply(interaction, "Welcome back: your seat is yours again.")


# One handler per helper button (cogs.show.ids.HELPERS has their looks); checked complete when the module loads.
HANDLERS: dict[Helper, Handler] = {
    Helper.JOIN: Controls.join, Helper.COMPUTER: Controls.computer, Helper.START: Controls.start,
    Helper.LEAVE: Controls.leave, Helper.RACK: Controls.rack, Helper.HINT: Controls.hint,
    Helper.JOKERS: Controls.jokers, Helper.BLANKS: Controls.blanks, Helper.BACK: Controls.back,
}
if set(HANDLERS) != set(Helper):
    raise RuntimeError(f"helpers without a handler: {set(Helper) - set(HANDLERS)}")
