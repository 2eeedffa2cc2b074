"""The one place that talks back to Discord for the cogs, and knows which of Discord's errors are expected.

Expected, and handled here: 10062 (the interaction was answered too late: nothing more can be said on it), 40060
(it was already answered: follow up instead), 50007 (the member's DMs are closed: the caller falls back), 429
(discord.py waits and retries: nothing is lost). 50035 means we sent a payload Discord refuses: a bug, logged
loudly, with a reference the player can quote.
"""

from __future__ import annotations

import logging
import secrets
from typing import Any

import discord

from bot.service.errors import TableError

log = logging.getLogger("charleston.discord")

UNKNOWN_INTERACTION = 10062
ALREADY_ACKNOWLEDGED = 40060
CANNOT_DM = 50007
INVALID_FORM_BODY = 50035


async def reply(interaction: discord.Interaction, content: str | None = None, *, ephemeral: bool = True,
                **kwargs: Any) -> discord.WebhookMessage | None:
    """Answer an interaction: its first response if it has none yet, else a followup. Returns the followup
    message when one was sent."""
    try:
        if not interaction.response.is_done():
            await interaction.response.send_message(content, ephemeral=ephemeral, **kwargs)
            return None
        return await interaction.followup.send(content or discord.utils.MISSING, ephemeral=ephemeral,
                                               wait=True, **kwargs)
    except discord.NotFound as exc:
        if exc.code == UNKNOWN_INTERACTION:
            log.warning("interaction %s expired before we answered (10062)", interaction.id)
            return None
        raise
    except discord.HTTPException as exc:
        if exc.code == ALREADY_ACKNOWLEDGED:
            return await interaction.followup.send(content or discord.utils.MISSING, ephemeral=ephemeral,
                                                   wait=True, **kwargs)
        raise


async def defer(interaction: discord.Interaction, *, ephemeral: bool = True, thinking: bool = False) -> bool:
    """Acknowledge an interaction now (work may take longer than Discord's 3 s); False if it had expired."""
    if interaction.response.is_done():
        return True
    try:
        await interaction.response.defer(ephemeral=ephemeral, thinking=thinking)
        return True
    except discord.NotFound as exc:
        if exc.code == UNKNOWN_INTERACTION:
            log.warning("interaction %s expired before we acknowledged it (10062)", interaction.id)
            return False
        raise
    except discord.HTTPException as exc:
        if exc.code == ALREADY_ACKNOWLEDGED:
            return True
        raise


async def send_dm(user: discord.User | discord.Member, **kwargs: Any) -> discord.Message | None:
    """Send a DM; None (and no error) when the member's DMs are closed (50007)."""
    try:
        return await user.send(**kwargs)
    except discord.Forbidden as exc:
        if exc.code == CANNOT_DM:
            log.info("DMs closed for user %s", user.id)
            return None
        raise


async def report_error(interaction: discord.Interaction, error: BaseException) -> None:
    """Tell the user what went wrong (ephemeral) and log what they can't see: the one error path of the cogs."""
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
    if isinstance(error, discord.NotFound) and error.code == UNKNOWN_INTERACTION:
        log.warning("interaction %s expired (10062)", interaction.id)
        return
    reference = secrets.token_hex(3)
    if isinstance(error, discord.HTTPException) and error.code == INVALID_FORM_BODY:
        log.error("BUG [%s]: Discord refused a payload we sent (50035): %s", reference, error.text, exc_info=error)
    else:
        log.error("unexpected error [%s] in %s", reference, _what(interaction), exc_info=error)
    await _safe_reply(interaction, f"Something went wrong on our side (reference `{reference}`). Try again; if it "
                      "keeps happening, tell the server's organiser this reference.")


async def _safe_reply(interaction: discord.Interaction, content: str) -> None:
    try:
        await reply(interaction, content)
    except discord.HTTPException:
        log.exception("could not tell user %s about an error", interaction.user.id)


def _unwrap(error: BaseException) -> BaseException:
    while isinstance(error, (discord.app_commands.CommandInvokeError, discord.app_commands.TransformerError)) \
            and error.__cause__ is not None:
        error = error.__cause__
    return getattr(error, "original", error) if isinstance(error, discord.app_commands.AppCommandError) \
        and hasattr(error, "original") else error


def _what(interaction: discord.Interaction) -> str:
    command = interaction.command.qualified_name if interaction.command else None
    custom_id = (interaction.data or {}).get("custom_id") if interaction.data else None
    return f"/{command}" if command else f"component {custom_id!r}"
