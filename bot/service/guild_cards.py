"""The cards a guild can play: the shipped ones, and the ones it imported (which belong to that guild alone), and
the guild's default card for new tables."""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, replace

from bot.engine.card import Card
from bot.engine.cardfile import HELP, check_card_text, load_card_text, validate_card_text
from bot.engine.errors import CardError
from bot.engine.rules import CLASSICAL_CARD
from bot.engine.wording import line_name
from bot.store import guilds
from bot.store.db import Database
from bot.store.guilds import GuildCard

from .card_admin import (
    CardProblems,
    ImportPreview,
    PendingImports,
    clean_problem,
    find_line,
    parse_line_text,
    read_import,
    replace_hand,
)
from .cards import IMPORTED, UnknownCard, card_files, card_label, imported_id, load_card, register_imported, registered
from .errors import ErrorKind, TableError
from .files import FileProblem, decode_text

log = logging.getLogger("charleston.service")

MAX_CARD_BYTES = 256 * 1024  # an imported card file; a printed card takes about 10 KB
FALLBACK_CARD = "practice"
_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,31}$")
_SAFE_FILENAME = re.compile(r"[^A-Za-z0-9._-]+")


@dataclass(frozen=True, slots=True)
class CardInfo:
    """A card as a guild sees it: its name there, its title and size, and whether the guild imported it."""

    name: str
    card_id: str  # the id tables are played with
    title: str
    lines: int
    ruleset: str
    imported: bool
    default: bool


def card_name(text: str) -> str:
    """A card name as typed, checked: 1-32 lowercase letters, digits, '-' and '_' (a TableError otherwise)."""
    name = text.strip().lower()
    if not _NAME.match(name):
        raise TableError(ErrorKind.BAD_INPUT, f"'{text[:40]}' can't be a card name: use 1 to 32 letters, digits, "
                         "'-' or '_', starting with a letter or digit (like spring-2026).")
    return name


class GuildCards:
    """Imported cards (compiled and registered once, at start-up or on import) and each guild's default card."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._by_guild: dict[int, dict[str, Card]] = {}
        self._pending = PendingImports()

    async def load_all(self) -> int:
        """Compile and register every guild's imported cards (before tables are restored; those this process
        registered already are reused); returns how many."""
        for stored in await guilds.all_cards(self.db):
            known = registered(imported_id(stored.guild_id, stored.name))
            if known is not None:
                self._by_guild.setdefault(stored.guild_id, {})[stored.name] = known
                continue
            try:
                card = load_card_text(stored.source, source=stored.name)
            except CardError as exc:  # a stricter compiler than the one that took it: skip, with the reason
                log.warning("imported card %s of guild %s no longer compiles: %s", stored.name, stored.guild_id,
                            exc.problems[0])
                continue
            self._register(stored.guild_id, stored.name, card)
        return sum(len(cards) for cards in self._by_guild.values())

    def _register(self, guild_id: int, name: str, card: Card) -> Card:
        card = register_imported(imported_id(guild_id, name), card)
        self._by_guild.setdefault(guild_id, {})[name] = card
        return card

    # -- looking cards up ------------------------------------------------------------------------------------

    def _shipped(self) -> list[str]:
        return sorted(card_files())

    def names(self, guild_id: int) -> list[str]:
        """Every card name the guild may use: shipped cards, then its own."""
        return self._shipped() + sorted(self._by_guild.get(guild_id, {}))

    def card(self, guild_id: int, name: str) -> Card:
        """A card by the name the guild knows it by; TableError (BAD_INPUT) naming the choices otherwise."""
        key = name.strip().lower()
        own = self._by_guild.get(guild_id, {})
        if key in own:
            return own[key]
        if IMPORTED not in key:
            try:
                return load_card(key)  # a shipped card, or a built-in one (the classical game's)
            except UnknownCard:
                pass
            except CardError as exc:
                raise TableError(ErrorKind.BAD_INPUT, f"The card '{key}' can't be used: {exc.problems[0]}") from None
        raise TableError(ErrorKind.BAD_INPUT, f"There is no card '{name[:40]}' here. Cards: "
                         f"{', '.join(self.names(guild_id))} (see /card list).")

    async def default_name(self, guild_id: int) -> str:
        """The guild's default card name (the practice card unless a manager chose another)."""
        chosen = await guilds.default_card(self.db, guild_id)
        if chosen and (chosen in self._by_guild.get(guild_id, {}) or chosen in self._shipped()):
            return chosen
        return FALLBACK_CARD

    async def for_table(self, guild_id: int, name: str | None, preset: str | None) -> tuple[str | None, str]:
        """The card and rules preset for a new table: the named card (default: the guild's default card) played by
        the preset asked for (default: the card's own). Rules asked for without a card, that the default card is
        not played with (the 1946 rules, the classical game), come with no card: the rules' own is played."""
        card = self.card(guild_id, name or await self.default_name(guild_id))
        if name is None and preset is not None and card.ruleset != preset:
            return None, preset
        return card.id, preset or card.ruleset

    async def infos(self, guild_id: int) -> list[CardInfo]:
        """Every card the guild may use, shipped first, with its default marked."""
        default = await self.default_name(guild_id)
        found = []
        for name in self.names(guild_id):
            try:
                card = self.card(guild_id, name)
            except TableError:
                continue  # a broken file in the cards folder: `charleston card list` names it
            imported = card.id != name
            found.append(CardInfo(name, card.id, card.name, len(card.lines), card.ruleset, imported, name == default))
        return found

    # -- managing ----------------------------------------------------------------------------------------------

    async def set_default(self, guild_id: int, name: str, now: str) -> Card:
        """Make a card the guild's default for new tables."""
        card = self.card(guild_id, name)
        await guilds.set_default_card(self.db, guild_id, card_label(card.id), now)
        return card

    async def import_card(self, guild_id: int, name: str, data: bytes, filename: str, by: int | None,
                          now: str) -> Card:
        """Check and store a card file for this guild alone. Raises TableError: a bad name, a name taken, a file
        too big or not UTF-8 text, or a card with problems (every problem, one per line); nothing is stored
        then."""
        name = card_name(name)
        if name in self._shipped() or name == CLASSICAL_CARD or name in self._by_guild.get(guild_id, {}):
            raise TableError(ErrorKind.EXISTS, f"A card named '{name}' already exists here: choose another name "
                             "(see /card list).")
        source = _SAFE_FILENAME.sub("_", filename)[:60] or "card.toml"
        try:
            text = decode_text(data, name=source, what="card file", max_bytes=MAX_CARD_BYTES)
        except FileProblem as exc:
            raise TableError(ErrorKind.BAD_INPUT, f"{exc}.") from None
        problems = validate_card_text(text, source=source)
        if problems:
            raise CardProblems(source, problems)
        return await self._store(guild_id, name, text, source, by, now)

    async def _store(self, guild_id: int, name: str, text: str, source: str, by: int | None, now: str) -> Card:
        card = load_card_text(text, source=source)
        stored = GuildCard(guild_id, name, card.name, card.ruleset, text, by, now)
        if not await guilds.insert_card(self.db, stored):
            raise TableError(ErrorKind.EXISTS, f"A card named '{name}' already exists here: choose another name.")
        return self._register(guild_id, name, card)

    # -- importing with a confirmation, replacing a line (bot/service/card_admin.py) ----------------------------

    def _free_name(self, guild_id: int, name: str) -> str:
        name = card_name(name)
        if name in self._shipped() or name == CLASSICAL_CARD or name in self._by_guild.get(guild_id, {}):
            raise TableError(ErrorKind.EXISTS, f"A card named '{name}' already exists here: choose another name "
                             "(see /card list).")
        return name

    async def preview_import(self, guild_id: int, name: str, data: bytes, filename: str, fmt: str, by: int | None,
                             now: str) -> ImportPreview:
        """Read and check a card file (TOML, riichi_advanced .jq or mpmahj JSON; ``fmt`` "auto" tells them apart)
        and hold it, unstored, for :meth:`confirm_import`; its warnings are for the organiser to read first.
        Raises TableError: a bad or taken name, a file that cannot be read, a TOML card with problems."""
        name = self._free_name(guild_id, name)
        source = _SAFE_FILENAME.sub("_", filename)[:60] or "card.toml"
        preview = read_import(data, source, fmt, name)
        return self._pending.hold(replace(preview, guild_id=guild_id, by=by), now)

    async def confirm_import(self, guild_id: int, token: str, by: int | None, now: str) -> Card:
        """Store the import a confirm button names (see :meth:`preview_import`) for this guild alone."""
        preview = self._pending.take(guild_id, token, now)
        name = self._free_name(guild_id, preview.name)
        return await self._store(guild_id, name, preview.toml, preview.filename, by, now)

    def line_names(self, guild_id: int, name: str) -> list[str]:
        """A card's lines as players name them ("2468 #1"), in the card's order."""
        card = self.card(guild_id, name)
        return [line_name(card, line) for line in card.lines]

    async def replace_line(self, guild_id: int, name: str, line: str, text: str, note: str | None, by: int | None,
                           now: str) -> tuple[Card, str]:
        """Replace one line of a card this guild imported by a line typed as printed (``FF 2468a 2468b 2468c X
        25``), checked by the card compiler and stored only if the whole card is then valid; returns the card and
        the line's id. Raises TableError saying what is wrong (nothing is stored then)."""
        key = card_name(name)
        card = self._by_guild.get(guild_id, {}).get(key)
        if card is None:
            self.card(guild_id, name)  # an unknown name: the error lists the cards
            raise TableError(ErrorKind.FORBIDDEN, f"'{key}' is a card that comes with the bot: only a card imported "
                             "here can be changed. Import a copy of it with `/card-admin import`.")
        wanted = find_line(card, line)
        edit = parse_line_text(text)
        stored = await guilds.card_source(self.db, guild_id, key)
        if stored is None:
            raise TableError(ErrorKind.BAD_INPUT, f"The card '{key}' is no longer stored here.")
        changed = replace_hand(stored, wanted.index, edit, note)
        report = check_card_text(changed, source=f"{key}.toml")
        if report.problems or report.card is None:
            shown = "; ".join(clean_problem(p).rstrip(".") for p in report.problems[:5]) + "."
            pointer = "" if HELP in shown else f" How to write a line: {HELP}."
            raise TableError(ErrorKind.BAD_INPUT, f"{line_name(card, wanted)} was not changed: {shown}{pointer}")
        await guilds.replace_card_source(self.db, guild_id, key, report.card.name, changed, by, now)
        # Tables already playing keep the card they were dealt with; new tables play the new line.
        load_card.cache_clear()
        return self._register(guild_id, key, report.card), wanted.id
