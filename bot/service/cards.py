"""Finding and loading card files: the I/O edge in front of :mod:`bot.engine.cardfile`."""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

from bot.engine import classical
from bot.engine.card import Card
from bot.engine.cardfile import MAX_CHARS, load_card_text
from bot.engine.errors import CardError

from .files import FileProblem, read_text

DEFAULT_CARDS_DIR = Path(__file__).resolve().parents[2] / "data" / "cards"


class UnknownCard(LookupError):
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


@cache
def load_card(card_id: str) -> Card:
    """A shipped or imported card by id, compiled once per process; ``classical`` is the classical game's built-in
    card (four sets and a pair, no lines)."""
    if card_id == classical.CARD.id:
        return classical.CARD
    files = card_files()
    if card_id not in files:
        raise UnknownCard(card_id, sorted(files))
    card = load_card_file(files[card_id])
    if card.id != card_id:
        raise CardError([f"{files[card_id]}: the file is named {card_id}.toml but its [card] id is "
                         f"'{card.id}'; rename the file or change the id so they agree"])
    return card
