"""Finding and loading card files: the I/O edge in front of :mod:`bot.engine.cardfile`."""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

from bot.engine import classical
from bot.engine.card import Card
from bot.engine.cardfile import load_card_text
from bot.engine.errors import CardError

DEFAULT_CARDS_DIR = Path(__file__).resolve().parents[2] / "data" / "cards"


class UnknownCard(LookupError):
    def __init__(self, card_id: str, known: list[str]) -> None:
        super().__init__(f"Unknown card '{card_id}'. Known cards: {', '.join(known) or 'none'} "
                         "(see 'charleston card list').")


def cards_dir() -> Path:
    return Path(os.environ.get("CHARLESTON_CARDS_DIR", DEFAULT_CARDS_DIR))


def card_files() -> dict[str, Path]:
    """Card id -> file, for every ``*.toml`` in the cards folder (a file is named after its card's id)."""
    folder = cards_dir()
    return {path.stem: path for path in sorted(folder.glob("*.toml"))} if folder.is_dir() else {}


def load_card_file(path: Path | str) -> Card:
    """Read and compile one card file; raises ``CardError`` listing every problem, ``OSError`` if unreadable."""
    path = Path(path)
    return load_card_text(path.read_text(encoding="utf-8"), source=str(path))


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
