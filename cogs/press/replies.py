"""The Discord layer's one error path: :func:`report_error` turns whatever a command or a press raised into a
sentence for the person: a :class:`TableError`'s own message, a clear word for a Discord failure (logged as one line
by the door), and for anything else a reference to quote, logged with its traceback. Answers go through the door
(:mod:`cogs.door`), which knows Discord's expected errors (an interaction answered too late, or already answered).
"""

from __future__ import annotations

import contextlib
import logging
import secrets

import discord

from bot.service.errors import TableError

from ..door import Door, Interaction
from ..failures import DiscordFailure, Failure

log = logging.getLogger("charleston.discord")


async def report_error(door: Door, interaction: Interaction, error: BaseException) -> None:
    """Tell the user what went wrong (privately) and log what they can't see: the one error path of the cogs."""
    error = _unwrap(error)
    if isinstance(error, TableError):
        await _safe_reply(door, interaction, error.message)
        return
    if isinstance(error, discord.app_commands.MissingPermissions):
        await _safe_reply(door, interaction, "Only server managers (Manage Server) may do that.")
        return
    if isinstance(error, discord.app_commands.CheckFailure):
        await _safe_reply(door, interaction, str(error) or "You can't use that here.")
        return
    if isinstance(error, DiscordFailure):  # logged by the door
        if error.kind is not Failure.EXPIRED:
            await _safe_reply(door, interaction, "Discord didn't take that just now. Try again in a moment.")
        return
    reference = secrets.token_hex(3)
    log.error("unexpected error [%s] in %s", reference, _what(interaction), exc_info=error)
    await _safe_reply(door, interaction, f"Something went wrong on our side (reference `{reference}`). Try again; "
                      "if it keeps happening, tell the server's organiser this reference.")


async def _safe_reply(door: Door, interaction: Interaction, content: str) -> None:
    with contextlib.suppress(DiscordFailure):  # logged by the door: there is no one else to tell
        await door.reply(interaction, content)


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
