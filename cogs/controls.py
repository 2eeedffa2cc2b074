"""What a press of a button or a select does: one service call, and an answer to the presser.

A move made from a player's own message (their DM, or the private "My rack" answer) updates that message in
place; a move made from the table message is confirmed privately. Every error is answered by
:func:`cogs.replies.report_error`: the player reads what was wrong, never a traceback.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.service.decisions import gone_message
from bot.service.errors import ErrorKind, TableError
from bot.service.updates import SeatUpdate

from . import components as c
from . import look
from .replies import defer, reply, report_error

if TYPE_CHECKING:
    from .app import CharlestonBot


class Controls:
    """The handlers behind every component."""

    def __init__(self, bot: CharlestonBot) -> None:
        self.bot = bot

    @property
    def service(self) -> Any:
        """The bot's table service."""
        return self.bot.service

    async def act(self, interaction: discord.Interaction, table: int, token: str, key: str) -> None:
        """Make a move for the presser."""
        try:
            # Acknowledged before anything else: the table may be busy (computer moves hold its lock).
            await defer(interaction)
            mine = await self.service.act(table, interaction.user.id, key, token=token)
            await self.answer_move(interaction, mine)
        except Exception as exc:
            await report_error(interaction, exc)

    def _own_message(self, interaction: discord.Interaction) -> bool:
        """Whether the component sits on the presser's own message (their DM, or a private answer)."""
        message = interaction.message
        return message is not None and (interaction.guild_id is None or message.flags.ephemeral)

    async def answer_move(self, interaction: discord.Interaction, mine: SeatUpdate) -> None:
        """Show the mover the result: their own message brought up to date, or a private line for a move made
        from the table message or by command."""
        if self._own_message(interaction):
            await self.bot.presenter.refresh_seat(mine)  # the DM is the presenter's to keep
            message = interaction.message
            if message is not None and message.flags.ephemeral:  # a private answer (My rack, a joker offer)
                payload = await look.seat_payload(mine, look.private_notes(mine), self.bot.drawing)
                await interaction.edit_original_response(content=payload.content, attachments=payload.files,
                                                         view=payload.view)
            return
        if interaction.type != discord.InteractionType.component:
            await reply(interaction, look.confirmation(mine))
        # else: pressed under the table message, which shows the move itself (already acknowledged)

    async def pick(self, interaction: discord.Interaction, table: int, token: str, mode: str,
                   values: list[str]) -> None:
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

    async def call_options(self, interaction: discord.Interaction, table: int, token: str) -> None:
        """Answer "Call" with the exposures (and Mah Jongg) the presser can make with this discard."""
        try:
            mine = self.service.seat_update(table, interaction.user.id)
            if not self.service.decision_open(table, token):
                raise TableError(ErrorKind.GONE, gone_message(token))
            choices = mine.choices
            if not choices.calls and choices.call_mahjong is None:
                raise TableError(ErrorKind.ILLEGAL, "You can't call this tile: an exposure needs the matching tiles "
                                 "(or jokers) in your rack, and the group must fit a line of the card.")
            await reply(interaction, "Call it as:", view=c.call_options_view(table, token, choices))
        except Exception as exc:
            await report_error(interaction, exc)

    async def table_button(self, interaction: discord.Interaction, table: int, what: str) -> None:
        """A lobby button, or one of the private helpers."""
        try:
            await getattr(self, f"_{what}")(interaction, table)
        except Exception as exc:
            await report_error(interaction, exc)

    async def _join(self, interaction: discord.Interaction, table: int) -> None:
        update = await self.service.join(table, interaction.user.id, interaction.user.display_name)
        seat = update.view.seat_of(interaction.user.id)
        await reply(interaction, f"You're in seat {seat}. Your rack comes by DM when the game starts (if your DMs "
                    "are closed, press **My rack** under the table).")

    async def _computer(self, interaction: discord.Interaction, table: int) -> None:
        await self.service.add_computer(table, "normal")
        await defer(interaction)

    async def _start(self, interaction: discord.Interaction, table: int) -> None:
        self._require_seated_or_creator(table, interaction.user.id)
        await defer(interaction)
        await self.service.start(table)

    async def _leave(self, interaction: discord.Interaction, table: int) -> None:
        update = await self.service.leave(table, interaction.user.id)
        if update.view.game is not None and update.view.game.phase.value != "finished":
            await reply(interaction, "A computer plays the rest of this game for you; /back takes your seat again.")
        else:
            await reply(interaction, "You left the table.")

    async def _rack(self, interaction: discord.Interaction, table: int) -> None:
        mine = self.service.seat_update(table, interaction.user.id)
        payload = await look.seat_payload(mine, [], self.bot.drawing)
        await reply(interaction, payload.content, files=payload.files, view=payload.view or discord.utils.MISSING)

    async def _hint(self, interaction: discord.Interaction, table: int) -> None:
        await reply(interaction, look.hint_text(self.service.hint(table, interaction.user.id)))

    async def _jokers(self, interaction: discord.Interaction, table: int) -> None:
        mine = self.service.seat_update(table, interaction.user.id)
        if not mine.choices.exchanges or mine.table.token is None:
            raise TableError(ErrorKind.ILLEGAL, "No joker can be exchanged now: it must be your turn, after your "
                             "draw, with the tile a joker stands for.")
        await reply(interaction, "Exchange which joker?",
                    view=c.choice_buttons(table, mine.table.token, mine.choices.exchanges))

    async def _blanks(self, interaction: discord.Interaction, table: int) -> None:
        mine = self.service.seat_update(table, interaction.user.id)
        if not mine.choices.blank_swaps or mine.table.token is None:
            raise TableError(ErrorKind.ILLEGAL, "No blank can be swapped now.")
        await reply(interaction, "Swap your blank for which discard?",
                    view=c.choice_selects(table, mine.table.token, mine.choices.blank_swaps))

    async def _back(self, interaction: discord.Interaction, table: int) -> None:
        await self.service.come_back(table, interaction.user.id)
        await reply(interaction, "Welcome back: your seat is yours again.")

    def _require_seated_or_creator(self, table: int, player_id: int) -> None:
        live = self.service.table(table)
        if live.seat_of(player_id) is None and live.row.created_by != player_id:
            raise TableError(ErrorKind.NOT_SEATED, "Only a player at this table can start the game.")
