"""Answering the person who used a command or pressed a button, and the cogs' one error path.

The answers go through the door (:mod:`cogs.door`), which knows Discord's expected errors: an interaction
answered too late (10062) or already answered (40060) is handled there. :func:`report_error` turns whatever a
command or a press raised into a sentence for the person: a :class:`TableError`'s own message, a clear word for
a Discord failure (logged as one line by the door), and for anything else a reference to quote, logged with its
traceback.
"""

from __future__ import annotations

import contextlib
import logging
import secrets
from typing import TYPE_CHECKING

import discord

from bot.service.errors import TableError

from .door import DiscordFailure, Failure

if TYPE_CHECKING:
    from .app import CharlestonBot

    Interaction = discord.Interaction[CharlestonBot]

log = logging.getLogger("charleston.discord")


async def reply(interaction: Interaction, content: str | None = None, *, ephemeral: bool = True,
                file: discord.File | None = None, files: list[discord.File] | None = None,
                view: discord.ui.View | None = None, allowed_mentions: discord.AllowedMentions | None = None) -> bool:
    """Answer an interaction (its first response, else a followup); False when it can no longer be answered."""
    return await interaction.client.door.reply(interaction, content, ephemeral=ephemeral,
                                               files=[*(files or []), *([file] if file else [])], view=view,
                                               mentions=allowed_mentions)


async def defer(interaction: Interaction, *, ephemeral: bool = True, thinking: bool = False) -> bool:
    """Acknowledge an interaction now (work may take longer than Discord's 3 s); False if it had expired."""
    return await interaction.client.door.defer(interaction, ephemeral=ephemeral, thinking=thinking)


async def report_error(interaction: Interaction, error: BaseException) -> None:
    """Tell the user what went wrong (privately) and log what they can't see: the one error path of the cogs."""
    error = _unwrap(error)
    if isinstance(error, TableError):
        await _safe_reply(interaction, error.message)
        return
    if isinstance(error, discord.app_commands.MissingPermissions):
        await _safe_reply(interaction, "Only server managers (Manage Server) may do that.")
        return
    if isinstance(error, discord.app_commands.CheckFailure):
        await _safe_reply(interaction, str(error) or "You can't use that here.")
        return
    if isinstance(error, DiscordFailure):  # logged by the door
        if error.kind is not Failure.EXPIRED:
            await _safe_reply(interaction, "Discord didn't take that just now. Try again in a moment.")
        return
    reference = secrets.token_hex(3)
    log.error("unexpected error [%s] in %s", reference, _what(interaction), exc_info=error)
    await _safe_reply(interaction, f"Something went wrong on our side (reference `{reference}`). Try again; if it "
                      "keeps happening, tell the server's organiser this reference.")


async def _safe_reply(interaction: Interaction, content: str) -> None:
    with contextlib.suppress(DiscordFailure):  # logged by the door: there is no one else to tell
        await reply(interaction, content)


def _unwrap(error: BaseException) -> BaseException:
    while isinstance(error, discord.app_commands.CommandInvokeError | discord.app_commands.TransformerError) \
            and error.__cause__ is not None:
        error = error.__cause__
    original = getattr(error, "original", None)
    return original if isinstance(error, discord.app_commands.AppCommandError) and \
        isinstance(original, BaseException) else error


def _what(interaction: Interaction) -> str:
    command = interaction.command.qualified_name if interaction.command else None
    custom_id = interaction.data.get("custom_id") if interaction.data else None
    return f"/{command}" if command else f"component {custom_id!r}"
