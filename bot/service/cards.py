"""Finding and loading card files: the I/O edge in front of :mod:`bot.engine.cardfile`."""

from __future__ import annotations

import os
from dataclasses import replace
from functools import cache
from pathlib import Path

from bot.engine import classical
from bot.engine.card import Card
from bot.engine.cardfile import MAX_CHARS, load_card_text
from bot.engine.errors import CardError

from .files import FileProblem, read_text

DEFAULT_CARDS_DIR = Path(__file__).resolve().parents[2] / "data" / "cards"
IMPORTED = "@"  # an imported card's id is "<its name in the guild>@<guild id>": unique across guilds
_imported: dict[str, Card] = {}  # imported cards of every guild, by id (see bot.service.guild_cards)


class UnknownCard(LookupError):
    """A card id that no installed or imported card has; the message lists the known ones."""
    def __init__(self, card_id: str, known: list[str]) -> None:
        super().__init__(f"Unknown card '{card_id[:40]}'. Known cards: {', '.join(known) or 'none'} "
                         "(see 'charleston card list').")


def cards_dir() -> Path:
    """The cards folder: ``CHARLESTON_CARDS_DIR`` if set, else the shipped ``data/cards``."""
    return Path(os.environ.get("CHARLESTON_CARDS_DIR") or DEFAULT_CARDS_DIR)


def card_files() -> dict[str, Path]:
    """Card id -> file, for every ``*.toml`` in the cards folder (a file is named after its card's id)."""
    folder = cards_dir()
    return {path.stem: path for path in sorted(folder.glob("*.toml"))} if folder.is_dir() else {}


def read_card_file(path: Path | str) -> str:
    """The text of a card file; raises :class:`~bot.service.files.FileProblem` if it cannot be read (missing, a
    folder, too big, not UTF-8)."""
    return read_text(path, what="card file", max_bytes=MAX_CHARS)


def load_card_file(path: Path | str) -> Card:
    """Read and compile one card file; raises ``CardError`` listing every problem, including a file that cannot
    be read, so one bad file in the cards folder never stops the others."""
    try:
        text = read_card_file(path)
    except FileProblem as exc:
        raise CardError([str(exc)]) from None
    return load_card_text(text, source=str(path))


def imported_id(guild_id: int, name: str) -> str:
    """The id under which a guild's imported card is played (its name alone is unique only in its guild)."""
    return f"{name}{IMPORTED}{guild_id}"


def card_label(card_id: str) -> str:
    """How a card id is shown to players: an imported card by its name in the guild."""
    return card_id.split(IMPORTED, 1)[0]


def registered(card_id: str) -> Card | None:
    """The imported card registered under ``card_id``, if any."""
    return _imported.get(card_id)


def register_imported(card_id: str, card: Card) -> Card:
    """Make an imported card loadable by :func:`load_card` under ``card_id`` (see :func:`imported_id`)."""
    card = replace(card, id=card_id)
    _imported[card_id] = card
    return card


@cache
def load_card(card_id: str) -> Card:
    """A shipped card (or one in ``CHARLESTON_CARDS_DIR``), a registered imported card, by id, compiled once per
    process; ``classical`` is the classical game's built-in card (four sets and a pair, no lines)."""
    if card_id == classical.CARD.id:
        return classical.CARD
    if IMPORTED in card_id:
        if card_id in _imported:
            return _imported[card_id]
        raise UnknownCard(card_id, sorted(card_files()))
    files = card_files()
    if card_id not in files:
        raise UnknownCard(card_id, sorted(files))
    card = load_card_file(files[card_id])
    if card.id != card_id:
        raise CardError([f"{files[card_id]}: the file is named {card_id}.toml but its [card] id is "
                         f"'{card.id}'; rename the file or change the id so they agree"])
    return card
