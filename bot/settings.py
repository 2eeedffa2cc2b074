"""The bot's settings, read in one place: the environment, over an optional ``.env`` file (see ``.env.example``).

Every setting is checked here, so a missing or malformed one is one clear sentence naming it, before anything
starts.
"""

from __future__ import annotations

import base64
import binascii
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlparse

from bot.store.db import DEFAULT_PATH, is_postgres_url, target_problem

DISCORD_API = "https://discord.com/api/v10"
DISCORD_GATEWAY = "wss://gateway.discord.gg/"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
# A bot token is three base64url parts: the bot's id, a timestamp, and a signature.
_TOKEN = re.compile(r"^[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{20,}$")
MAX_SHARDS = 10_000
MAX_GLOBAL_LIMIT = 100_000


_DECIMAL = re.compile(r"[0-9]{1,6}(\.[0-9]{1,6})?|\.[0-9]{1,6}")


def whole_number(text: str, digits: int = 20) -> bool:
    """Whether ``text`` is a whole number of at most ``digits`` ASCII digits: ``str.isdigit`` alone also passes "²"
    and other scripts' digits, which ``int`` then refuses or reads as a number nobody typed (and ``int`` refuses
    a number of thousands of digits)."""
    return 0 < len(text) <= digits and text.isascii() and text.isdigit()


class SettingsError(ValueError):
    """A setting that is missing or malformed; the message names it and says what to do."""


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything ``charleston bot`` needs to run."""

    token: str
    db_path: str
    guild_id: int | None  # sync commands to this guild only (instant), else globally
    log_level: str
    api_base: str
    gateway_url: str
    refresh_seconds: float = 1.0  # at most one update of a message per this many seconds
    render_workers: int | None = None  # processes drawing images (None: one per spare core; 0: a thread)
    shard_count: int | None = None  # the bot's shards in all (None: one process, discord.py's choice)
    shard_ids: tuple[int, ...] | None = None  # the shards this process runs (None: all of them)
    think_workers: int | None = None  # processes the computer players think in (None: one per spare core)
    global_limit: int = 50  # requests a second Discord allows the whole bot (cogs/pacer.py); more if it granted more

    @property
    def sharded(self) -> bool:
        """Whether this process runs only some of the bot's shards (other processes run the rest)."""
        return self.shard_ids is not None and self.shard_count is not None and len(self.shard_ids) < self.shard_count

    @property
    def application_id(self) -> int:
        """The bot's application id, which Discord writes into the first part of its token."""
        return application_id_from_token(self.token)


def read_dotenv(path: Path) -> dict[str, str]:
    """``KEY=VALUE`` lines of a ``.env`` file (comments, blank lines, ``export`` and quotes allowed)."""
    values: dict[str, str] = {}
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return values
    except (OSError, UnicodeDecodeError) as exc:
        raise SettingsError(f"{path}: can't be read ({exc.__class__.__name__}); fix or remove it.") from None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        line = line.removeprefix("export ").strip()
        key, sep, value = line.partition("=")
        key = key.strip()
        if not sep or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", key):
            raise SettingsError(f"{path}, line {number}: expected NAME=value, found {raw.strip()[:40]!r}.")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        values[key] = value
    return values


def setting(name: str, dotenv: Path = Path(".env")) -> str:
    """One setting by the rule every command follows: the environment, then ``.env``, else ``""`` (stripped)."""
    return {**read_dotenv(dotenv), **os.environ}.get(name, "").strip()


def database_setting(merged: Mapping[str, str]) -> str:
    """The one rule for the database every command uses: ``CHARLESTON_DB`` (``merged`` holds the environment over
    ``.env``), else ``./charleston.db``; a malformed value is a :class:`SettingsError` naming it."""
    db = merged.get("CHARLESTON_DB", "").strip() or DEFAULT_PATH
    if "\0" in db or len(db) > 4096:  # as the --db option refuses (bot.cli.common.file_path)
        raise SettingsError(f"CHARLESTON_DB: {db[:30]!r}... is not a usable path or URL.")
    if (problem := target_problem(db)) is not None:
        raise SettingsError(f"CHARLESTON_DB: {problem}.")
    return db


def default_database(dotenv: Path = Path(".env")) -> str:
    """The database a command opens when not given ``--db``: ``CHARLESTON_DB`` from the environment, then from
    ``.env``, then ``./charleston.db``."""
    return database_setting({**read_dotenv(dotenv), **os.environ})


def load_settings(env: Mapping[str, str] | None = None, dotenv: Path | None = Path(".env")) -> Settings:
    """The settings from ``env`` (default: the process environment) over the ``.env`` file."""
    merged = {**(read_dotenv(dotenv) if dotenv is not None else {}), **(os.environ if env is None else env)}

    def get(name: str) -> str:
        return merged.get(name, "").strip()

    token = get("DISCORD_TOKEN")
    if not token:
        raise SettingsError("DISCORD_TOKEN is not set: put the bot's token in .env (see .env.example and the "
                            "README's 'Running the bot').")
    if not _TOKEN.match(token):
        raise SettingsError("DISCORD_TOKEN doesn't look like a bot token (three parts separated by dots): copy it "
                            "again from the Developer Portal, Bot page, Reset Token.")
    guild = get("CHARLESTON_GUILD")
    if guild and not (whole_number(guild) and 15 <= len(guild) <= 20):
        raise SettingsError(f"CHARLESTON_GUILD must be a server id (a number of 15 to 20 digits), not {guild[:30]!r}: "
                            "in Discord, right-click the server and Copy Server ID.")
    level = (get("CHARLESTON_LOG_LEVEL") or "INFO").upper()
    if level not in LOG_LEVELS:
        raise SettingsError(f"CHARLESTON_LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {level[:20]!r}.")
    api = get("DISCORD_API_BASE") or DISCORD_API
    _check_url("DISCORD_API_BASE", api, ("http", "https"))
    gateway = get("DISCORD_GATEWAY_URL") or DISCORD_GATEWAY
    _check_url("DISCORD_GATEWAY_URL", gateway, ("ws", "wss"))
    refresh = get("CHARLESTON_REFRESH_SECONDS") or "1"
    # float() would also take "1_0", "inf" and other scripts' digits: only a plain decimal number is a setting
    refresh_seconds = float(refresh) if _DECIMAL.fullmatch(refresh) else -1.0
    if not 0.05 <= refresh_seconds <= 10:
        raise SettingsError(f"CHARLESTON_REFRESH_SECONDS must be a number from 0.05 to 10, not {refresh[:20]!r}.")
    workers = get("CHARLESTON_RENDER_WORKERS")
    if workers and not (whole_number(workers) and int(workers) <= 8):
        raise SettingsError(f"CHARLESTON_RENDER_WORKERS must be a whole number from 0 to 8, not {workers[:20]!r}.")
    thinkers = get("CHARLESTON_THINK_WORKERS")
    if thinkers and not (whole_number(thinkers) and int(thinkers) <= 16):
        raise SettingsError(f"CHARLESTON_THINK_WORKERS must be a whole number from 0 to 16, not {thinkers[:20]!r}.")
    db = database_setting(merged)
    count, ids = _shards(get("CHARLESTON_SHARD_COUNT"), get("CHARLESTON_SHARD_IDS"))
    limit = get("CHARLESTON_GLOBAL_LIMIT") or "50"
    if not (whole_number(limit) and 1 <= int(limit) <= MAX_GLOBAL_LIMIT):
        raise SettingsError(f"CHARLESTON_GLOBAL_LIMIT must be a whole number of requests a second from 1 to "
                            f"{MAX_GLOBAL_LIMIT:,}, not {limit[:20]!r} (leave it unset for Discord's usual 50).")
    settings = Settings(token, db, int(guild) if guild else None, level, api.rstrip("/"), gateway, refresh_seconds,
                        int(workers) if workers else None, count, ids, int(thinkers) if thinkers else None,
                        int(limit))
    if settings.sharded and not is_postgres_url(db):
        shown = ",".join(map(str, ids or ()))
        raise SettingsError(f"CHARLESTON_SHARD_IDS={shown} runs only some of the {count} shards, so other processes "
                            f"run the rest, and they cannot share the SQLite file {db}: set CHARLESTON_DB to a "
                            "postgresql:// URL (see the README's 'Running at scale').")
    return settings


def _shards(count_text: str, ids_text: str) -> tuple[int | None, tuple[int, ...] | None]:
    """CHARLESTON_SHARD_COUNT and CHARLESTON_SHARD_IDS, checked: a count, and the distinct shards this process
    runs (``0,1``, or ranges like ``0-3``), each below the count."""
    if not count_text:
        if ids_text:
            raise SettingsError("CHARLESTON_SHARD_IDS needs CHARLESTON_SHARD_COUNT, the bot's shards in all (e.g. "
                                "CHARLESTON_SHARD_COUNT=4 with CHARLESTON_SHARD_IDS=0,1).")
        return None, None
    if not (whole_number(count_text) and 1 <= int(count_text) <= MAX_SHARDS):
        raise SettingsError(f"CHARLESTON_SHARD_COUNT must be a whole number from 1 to {MAX_SHARDS:,}, not "
                            f"{count_text[:20]!r}.")
    count = int(count_text)
    if not ids_text:
        return count, None
    ids: list[int] = []
    for part in ids_text.split(","):
        low, dash, high = part.strip().partition("-")
        if not whole_number(low) or (dash and not whole_number(high)):
            raise SettingsError(f"CHARLESTON_SHARD_IDS must be shard numbers separated by commas, like 0,1 or 0-3, "
                                f"not {ids_text[:40]!r}.")
        first, last = int(low), int(high) if dash else int(low)
        if first > last or last >= count:
            raise SettingsError(f"CHARLESTON_SHARD_IDS: {part.strip()[:20]!r} is not among the shards 0 to "
                                f"{count - 1} of CHARLESTON_SHARD_COUNT={count}.")
        ids.extend(range(first, last + 1))
    if len(set(ids)) != len(ids):
        raise SettingsError(f"CHARLESTON_SHARD_IDS names a shard twice: {ids_text[:40]!r}.")
    return count, tuple(sorted(ids))


def _check_url(name: str, value: str, schemes: tuple[str, ...]) -> None:
    parsed = urlparse(value)
    if parsed.scheme not in schemes or not parsed.netloc:
        raise SettingsError(f"{name} must be a {' or '.join(s + '://' for s in schemes)} address, not {value[:60]!r}.")


def application_id_from_token(token: str) -> int:
    """The application id encoded in a bot token's first part."""
    head = token.split(".", 1)[0]
    try:
        decoded = base64.urlsafe_b64decode(head + "=" * (-len(head) % 4)).decode("ascii")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        decoded = ""
    if not whole_number(decoded):
        raise SettingsError("DISCORD_TOKEN's first part does not hold an application id: copy the token again.")
    return int(decoded)
