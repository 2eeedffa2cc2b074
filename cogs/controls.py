"""What a press of a button or a select does: one service call, and an answer to the presser.

A move made from a player's own message (their DM, or the private "My rack" answer) updates that message in
place; a move made from the table message is confirmed privately. Every error is answered by
:func:`cogs.replies.report_error`: the player reads what was wrong, never a traceback.

A press Discord could not acknowledge in time (10062: the player saw "This interaction failed") still counts:
the press reached the bot and its decision is checked like any other, so the move is made if it is still open;
the player's DM is then sent afresh with a line saying what became of it (docs/architecture.md).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import discord

from bot.engine.state import Phase
from bot.service.decisions import gone_message
from bot.service.errors import ErrorKind, TableError
from bot.service.tables import TableService
from bot.service.updates import SeatUpdate

from . import components as c
from . import look
from .door import Door
from .ids import Helper
from .replies import report_error

if TYPE_CHECKING:
    from .app import CharlestonBot

    Interaction = discord.Interaction[CharlestonBot]
    Handler = Callable[["Controls", Interaction, int], Awaitable[None]]


class Controls:
    """The handlers behind every component."""

    def __init__(self, bot: CharlestonBot) -> None:
        self.bot = bot

    @property
    def service(self) -> TableService:
        """The bot's table service."""
        return self.bot.service

    @property
    def door(self) -> Door:
        """The bot's door to Discord."""
        return self.bot.door

    async def act(self, interaction: Interaction, table: int, token: str, key: str) -> None:
        """Make a move for the presser."""
        try:
            # Acknowledged before anything else: the table may be busy (computer moves hold its lock).
            answered = await self.door.defer(interaction)
            try:
                mine = await self.service.act(table, interaction.user.id, key, token=token)
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
            await report_error(interaction, exc)

    async def _tell_truth(self, table: int, player: int, note: str, mine: SeatUpdate | None = None) -> None:
        """After a press Discord said failed: the player's DM, sent afresh, says what became of it."""
        try:
            now = mine or self.service.seat_update(table, player)
        except TableError:
            return  # no longer seated, or the table closed: nothing of hers to show
        self.bot.presenter.renew(now, note)

    def _own_message(self, interaction: Interaction) -> bool:
        """Whether the component sits on the presser's own message (their DM, or a private answer)."""
        message = interaction.message
        return message is not None and (interaction.guild_id is None or message.flags.ephemeral)

    async def answer_move(self, interaction: Interaction, mine: SeatUpdate) -> None:
        """Show the mover the result: their own message brought up to date, or a private line for a move made
        from the table message or by command."""
        if self._own_message(interaction):
            await self.bot.presenter.refresh_seat(mine)  # the DM is the presenter's to keep
            message = interaction.message
            if message is not None and message.flags.ephemeral:  # a private answer (My rack, a joker offer)
                await self.door.edit_response(interaction, await look.seat_payload(mine, look.private_notes(mine),
                                                                                   self.bot.drawing))
            return
        if interaction.type != discord.InteractionType.component:
            await self.door.reply(interaction, look.confirmation(mine))
        # else: pressed under the table message, which shows the move itself (already acknowledged)

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
            await report_error(interaction, exc)
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
            await self.door.reply(interaction, "Call it as:", view=c.call_options_view(table, token, choices))
        except Exception as exc:
            await report_error(interaction, exc)

    async def helper(self, interaction: Interaction, table: int, helper: Helper) -> None:
        """A lobby button, or one of the private helpers."""
        try:
            await HANDLERS[helper](self, interaction, table)
        except Exception as exc:
            await report_error(interaction, exc)

    async def join(self, interaction: Interaction, table: int) -> None:
        """Take a seat."""
        update = await self.service.join(table, interaction.user.id, interaction.user.display_name)
        seat = update.view.seat_of(interaction.user.id)
        await self.door.reply(interaction, f"You're in seat {seat}. Your rack comes by DM when the game starts (if "
                              "your DMs are closed, press **My rack** under the table).")

    async def computer(self, interaction: Interaction, table: int) -> None:
        """Seat a normal computer player."""
        await self.service.add_computer(table, "normal")
        await self.door.defer(interaction)

    async def start(self, interaction: Interaction, table: int) -> None:
        """Deal (a seated player or the opener)."""
        await self.door.defer(interaction)
        await self.service.start(table, by=interaction.user.id)

    async def leave(self, interaction: Interaction, table: int) -> None:
        """Leave the table (mid-game a computer plays on)."""
        update = await self.service.leave(table, interaction.user.id)
        if update.view.game is not None and update.view.game.phase != Phase.FINISHED:
            await self.door.reply(interaction, "A computer plays the rest of this game for you; /back takes your "
                                  "seat again.")
        else:
            await self.door.reply(interaction, "You left the table.")

    async def rack(self, interaction: Interaction, table: int) -> None:
        """The presser's rack, privately."""
        mine = self.service.seat_update(table, interaction.user.id)
        payload = await look.seat_payload(mine, [], self.bot.drawing)
        await self.door.reply(interaction, payload.content, files=payload.files, view=payload.view)

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
                              view=c.choice_buttons(table, mine.table.token, mine.choices.exchanges))

    async def blanks(self, interaction: Interaction, table: int) -> None:
        """The discards the presser may swap a blank for now."""
        mine = self.service.seat_update(table, interaction.user.id)
        if not mine.choices.blank_swaps or mine.table.token is None:
            raise TableError(ErrorKind.ILLEGAL, "No blank can be swapped now.")
        await self.door.reply(interaction, "Swap your blank for which discard?",
                              view=c.choice_selects(table, mine.table.token, mine.choices.blank_swaps))

    async def back(self, interaction: Interaction, table: int) -> None:
        """Take the seat back from the computer."""
        await self.service.come_back(table, interaction.user.id)
        await self.door.reply(interaction, "Welcome back: your seat is yours again.")


# One handler per helper button (cogs.ids.HELPERS has their looks); checked complete when the module loads.
HANDLERS: dict[Helper, Handler] = {
    Helper.JOIN: Controls.join, Helper.COMPUTER: Controls.computer, Helper.START: Controls.start,
    Helper.LEAVE: Controls.leave, Helper.RACK: Controls.rack, Helper.HINT: Controls.hint,
    Helper.JOKERS: Controls.jokers, Helper.BLANKS: Controls.blanks, Helper.BACK: Controls.back,
}
if set(HANDLERS) != set(Helper):
    raise RuntimeError(f"helpers without a handler: {set(Helper) - set(HANDLERS)}")
