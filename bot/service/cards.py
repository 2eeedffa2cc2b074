"""Finding and loading card files: the I/O edge in front of :mod:`bot.engine.cardfile`."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

from bot.engine import classical
from bot.engine.card import Card
from bot.engine.cardfile import MAX_CHARS, load_card_text
from bot.engine.errors import CardError
from bot.settings import setting

from .files import FileProblem, read_text

DEFAULT_CARDS_DIR = Path(__file__).resolve().parents[2] / "data" / "cards"
IMPORTED = "@"  # an imported card's id is "<its name in the guild>@<guild id>": unique across guilds
_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$")  # the card id rule of docs/card-format.md
_imported: dict[str, Card] = {}  # imported cards of every guild, by id (see bot.service.guild_cards)


class UnknownCard(LookupError):
    """A card id that no installed or imported card has; the message lists the known ones."""
    def __init__(self, card_id: str, known: list[str]) -> None:
        super().__init__(f"Unknown card '{card_id[:40]}'. Known cards: {', '.join(known) or 'none'} "
                         "(see 'charleston card list').")


def cards_dir() -> Path:
    """The folder of one's own cards: ``CHARLESTON_CARDS_DIR`` from the environment, then ``.env``, else the
    shipped ``data/cards``; a malformed ``.env`` is a :class:`~bot.settings.SettingsError`."""
    # read at each call, as CHARLESTON_DB is: a card list run in another folder finds that folder's .env
    own = setting("CHARLESTON_CARDS_DIR")
    return Path(own).expanduser() if own else DEFAULT_CARDS_DIR


def card_folders() -> tuple[Path, ...]:
    """The folders cards are found in: the shipped one, then ``CHARLESTON_CARDS_DIR`` (which adds to it)."""
    own = cards_dir()
    same = own.resolve() == DEFAULT_CARDS_DIR.resolve() if own.is_dir() else own == DEFAULT_CARDS_DIR
    return (DEFAULT_CARDS_DIR,) if same else (DEFAULT_CARDS_DIR, own)


def is_card_path(ref: str) -> bool:
    """Whether ``--card`` was given a file rather than an id (an id never holds a '/' or a '.')."""
    return ref.endswith(".toml") or "/" in ref or "\\" in ref


_ids_seen: dict[Path, tuple[tuple[int, int], str]] = {}  # file -> (its mtime and size, its [card] id)


def file_card_id(path: Path) -> str:
    """A card file's id: its ``[card] id`` (the one rule, docs/card-format.md); the file's name when the file
    cannot be read that far (it is then reported as broken under that name)."""
    try:
        stat = path.stat()
        stamp = (stat.st_mtime_ns, stat.st_size)
        if path in _ids_seen and _ids_seen[path][0] == stamp:
            return _ids_seen[path][1]
        table = tomllib.loads(read_card_file(path)).get("card")
        found = table.get("id") if isinstance(table, dict) else None
    except (OSError, FileProblem, tomllib.TOMLDecodeError, RecursionError):
        return path.stem
    card_id = found if isinstance(found, str) and _ID.match(found) else path.stem
    _ids_seen[path] = (stamp, card_id)
    return card_id


@dataclass(frozen=True, slots=True)
class CardFile:
    """A card file found in a cards folder, and what ``card list`` says of it."""

    card_id: str
    path: Path
    replaces: Path | None = None  # the shipped file a card of one's own with the same id stands in for
    hidden_by: Path | None = None  # another file in the same folder that already has this id


def scan_card_files() -> list[CardFile]:
    """Every card file of the cards folders, by its ``[card] id``: one's own after the shipped ones (one with a
    shipped card's id replaces it); of two files of one folder with the same id, the first by name is used."""
    found: dict[str, CardFile] = {}
    out: list[CardFile] = []
    for folder in card_folders():
        in_folder: dict[str, Path] = {}
        paths = sorted(folder.glob("*.toml")) if folder.is_dir() else []
        for path in sorted(paths, key=lambda x: (file_card_id(x) != x.stem, x.name)):
            card_id = file_card_id(path)
            if card_id in in_folder:
                out.append(CardFile(card_id, path, hidden_by=in_folder[card_id]))
                continue
            in_folder[card_id] = path
            earlier = found.get(card_id)
            found[card_id] = CardFile(card_id, path, replaces=earlier.path if earlier else None)
    return sorted(found.values(), key=lambda x: x.card_id) + out


def card_files() -> dict[str, Path]:
    """Card id -> file, for every card of the cards folders (see :func:`scan_card_files`)."""
    return {x.card_id: x.path for x in scan_card_files() if x.hidden_by is None}


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


_from_paths: dict[str, Card] = {}  # cards given as a file with --card, by their id, for this process


@cache
def load_card(card_id: str) -> Card:
    """A card by id (shipped, in ``CHARLESTON_CARDS_DIR``, imported in a guild, or given as a file earlier in
    this process), or by a file's path (``my-card.toml``): compiled once per process; ``classical`` is the
    classical game's built-in card (four sets and a pair, no lines)."""
    if card_id == classical.CARD.id:
        return classical.CARD
    if is_card_path(card_id):
        card = load_card_file(card_id)
        _from_paths[card.id] = card
        # A file may bring a card under the id of an installed one: from now on, that id means the file's.
        load_card.cache_clear()
        return card
    if card_id in _from_paths:
        return _from_paths[card_id]
    if IMPORTED in card_id:
        if card_id in _imported:
            return _imported[card_id]
        raise UnknownCard(card_id, sorted(card_files()))
    files = card_files()
    if card_id not in files:
        raise UnknownCard(card_id, sorted(files))
    card = load_card_file(files[card_id])
    if card.id != card_id:  # the file changed since the folder was read
        raise CardError([f"{files[card_id]}: its [card] id is now '{card.id}', not '{card_id}'"])
    return card
