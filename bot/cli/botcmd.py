"""``charleston bot``: run the Discord bot, check its settings, or print its invite link."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from typing import Any

from bot.cli.common import UsageProblem, plural
from bot.settings import Settings, SettingsError, application_id_from_token, load_settings

# What the bot needs in a server: see the channel, post and read back its messages, start and post in threads,
# attach images, embed, and manage its table threads (archive a closed table).
PERMISSIONS = {
    "View Channels": 1 << 10,
    "Send Messages": 1 << 11,
    "Embed Links": 1 << 14,
    "Attach Files": 1 << 15,
    "Read Message History": 1 << 16,
    "Manage Threads": 1 << 34,
    "Create Public Threads": 1 << 35,
    "Send Messages in Threads": 1 << 38,
}
SCOPES = ("bot", "applications.commands")


def register(commands: Any) -> None:
    """Add the ``bot`` command."""
    p = commands.add_parser("bot", help="run the Discord bot (settings from the environment and .env)")
    p.add_argument("--check", action="store_true", help="check the settings and the database, then exit")
    p.add_argument("--invite", action="store_true", help="print the link that adds the bot to a server, then exit")
    p.set_defaults(run=run_bot_command)


def invite_url(application_id: int) -> str:
    """The OAuth2 link that adds the bot to a server with the scopes and permissions it needs."""
    permissions = sum(PERMISSIONS.values())
    return (f"https://discord.com/oauth2/authorize?client_id={application_id}&scope={'+'.join(SCOPES)}"
            f"&permissions={permissions}")


def run_bot_command(args: argparse.Namespace) -> int:
    """Run the bot, or check its settings, or print the invite link."""
    try:
        settings = load_settings()
        if args.invite:
            print(invite_url(application_id_from_token(settings.token)))
            print("Permissions: " + ", ".join(PERMISSIONS) + ".")
            return 0
    except SettingsError as exc:
        raise UsageProblem(str(exc)) from None
    status = asyncio.run(_check(settings, report=args.check))  # a bad database stops us before Discord is called
    if args.check:
        return status
    logging.basicConfig(level=settings.log_level, stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    import discord

    from cogs.app import run_bot

    try:
        return asyncio.run(run_bot(settings))
    except discord.LoginFailure:
        raise UsageProblem("Discord refused DISCORD_TOKEN: copy it again from the Developer Portal (Bot page, "
                           "Reset Token).") from None
    except discord.PrivilegedIntentsRequired:
        raise UsageProblem("Discord refused the connection: the bot asked for an intent not enabled in the "
                           "Developer Portal.") from None
    except (OSError, discord.GatewayNotFound) as exc:
        raise UsageProblem(f"can't reach Discord at {settings.api_base}: {exc}") from None


async def _check(settings: Settings, *, report: bool) -> int:
    """Open (and migrate) the database, so that a database the bot cannot use stops it before Discord is called;
    with ``report``, say what the bot would start with. Tables are not restored here: the bot restores them once,
    when it starts."""
    from bot.store.db import Database, DatabaseProblem, shown

    try:
        db = await Database.open(settings.db_path)
    except DatabaseProblem as exc:
        raise UsageProblem(str(exc)) from None
    try:
        tables = int(await db.fetchval("SELECT COUNT(*) FROM tables WHERE status != 'closed'"))
    finally:
        await db.close()
    if not report:
        return 0
    where = f"guild {settings.guild_id}" if settings.guild_id else "every server (global sync)"
    shards = ""
    if settings.shard_count is not None:
        mine = ",".join(map(str, settings.shard_ids)) if settings.shard_ids is not None else "all"
        shards = f"; shards {mine} of {settings.shard_count}"
    print(f"ok: settings are valid; database {shown(settings.db_path)} ({plural(tables, 'open table')}); "
          f"commands go to {where}{shards}; application {settings.application_id}")
    return 0
