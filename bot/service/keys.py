"""Action keys: a short, stable text for each action a seat can take, small enough for a Discord custom_id.

The seat is not part of the key (the service knows who pressed), so one key means the same move for everyone:

    d.5D            discard 5 Dot                  m        declare Mah Jongg on your own turn
    c.5D-5D-J       call for an exposure with these rack tiles            cm       call the discard for Mah Jongg
    p               pass on the discard            h        wait (hold the call window)
    cp.5D-N-RD.0    Charleston pass: own tiles, then how many blind        v.1 / v.0  stop / go on (the vote)
    co.5D-N         courtesy offer (may be empty: ``co.``)                 x.2.0.5D   give 5D for the joker in seat 2's
    b.17            swap a blank for discard 17    dr       draw              exposure 0
    k.RD            classical: lay down a kong of Red Dragon (four in the rack, or the fourth on one's pung)
    c.4D-6D         classical: call a 5 Dot for a chow with the 4 and 6 (the call key names the rack tiles)

This module is the one place that knows the grammar: each kind has its builder (``discard_key``, ``call_key``,
...), :func:`action_key` writes any action's key with them, and :func:`parse_action_key` reads every kind back.
Nothing else assembles or splits a key (``tests/house/test_layout.py`` checks the cogs).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.actions import (
    Action,
    Call,
    CharlestonPass,
    CharlestonVote,
    CourtesyOffer,
    DeclareKong,
    DeclareMahJongg,
    Discard,
    Draw,
    ExchangeJoker,
    Hold,
    PassCall,
    SwapBlank,
)
from bot.engine.errors import TileError
from bot.engine.notation import parse_tile
from bot.engine.tiles import Tile, code

from .errors import ErrorKind, TableError

MAX_KEY_LENGTH = 60

# The keys with no parts.
CALL_MAHJONG = "cm"
PASS = "p"
HOLD = "h"
DECLARE = "m"
DRAW = "dr"


def _tiles(tiles: Sequence[Tile]) -> str:
    return "-".join(code(t) for t in tiles)


# -- one builder per kind (the cogs build keys only with these) -----------------------------------------------------
def discard_key(tile: Tile) -> str:
    """Discard ``tile``: ``d.5D``."""
    return f"d.{code(tile)}"


def call_key(tiles: Sequence[Tile]) -> str:
    """Call the discard for an exposure with these rack tiles: ``c.5D-5D-J``."""
    if not tiles:
        raise ValueError("a call names the rack tiles of its exposure")
    return f"c.{_tiles(tiles)}"


def charleston_key(tiles: Sequence[Tile], blind: int = 0) -> str:
    """A Charleston pass of these rack tiles, and how many go blind: ``cp.5D-N-RD.0``, ``cp..3``."""
    return f"cp.{_tiles(tiles)}.{blind}"


def vote_key(stop: bool) -> str:
    """Stop the Charleston after the first left (``v.1``), or go on (``v.0``)."""
    return f"v.{int(stop)}"


def courtesy_key(tiles: Sequence[Tile]) -> str:
    """A courtesy offer of these tiles (none: ``co.``)."""
    return f"co.{_tiles(tiles)}"


def exchange_key(owner: int, exposure: int, tile: Tile) -> str:
    """Give ``tile`` for the joker in exposure ``exposure`` of seat ``owner``: ``x.2.0.5D``."""
    return f"x.{owner}.{exposure}.{code(tile)}"


def swap_key(discard: int) -> str:
    """Swap a blank for discard number ``discard``: ``b.17``."""
    return f"b.{discard}"


def kong_key(tile: Tile) -> str:
    """Classical: lay down a kong of ``tile`` on one's own turn: ``k.RD``."""
    return f"k.{code(tile)}"


def action_key(action: Action) -> str:
    """The key of ``action`` (see the module docstring); parses back with :func:`parse_action_key`."""
    match action:
        case Discard(tile=tile):
            return discard_key(tile)
        case Call(mahjong=True):
            return CALL_MAHJONG
        case Call(tiles=tiles):
            return call_key(tiles)
        case PassCall():
            return PASS
        case Hold():
            return HOLD
        case DeclareMahJongg():
            return DECLARE
        case Draw():
            return DRAW
        case CharlestonPass(tiles=tiles, blind=blind):
            return charleston_key(tiles, blind)
        case CharlestonVote(stop=stop):
            return vote_key(stop)
        case CourtesyOffer(tiles=tiles):
            return courtesy_key(tiles)
        case ExchangeJoker(owner=owner, exposure=exposure, tile=tile):
            return exchange_key(owner, exposure, tile)
        case SwapBlank(discard=discard):
            return swap_key(discard)
        case DeclareKong(tile=tile):
            return kong_key(tile)
    raise ValueError(f"no key for {action!r}")  # the table's own actions (closing a window) have none


# -- the parser: one case per kind ------------------------------------------------------------------------------
def parse_action_key(key: str, seat: int) -> Action:
    """The action ``key`` stands for, taken by ``seat``; a malformed key is a :class:`TableError` (BAD_INPUT)."""
    try:
        return _parse(key, seat)
    except (ValueError, TileError, IndexError):
        raise TableError(ErrorKind.BAD_INPUT, f"'{key[:MAX_KEY_LENGTH]}' is not a move this table knows. Use the "
                         "buttons or the command's suggestions.") from None


def is_key_of(text: str, kind: type[Action]) -> bool:
    """Whether ``text`` is a well-formed key of an action of type ``kind`` (a call, a blank swap, ...)."""
    try:
        return isinstance(_parse(text, 0), kind)
    except (ValueError, TileError, IndexError):
        return False


def _parse_tiles(text: str) -> tuple[Tile, ...]:
    return tuple(parse_tile(t) for t in text.split("-")) if text else ()


def _number(text: str) -> int:
    if not (text.isascii() and text.isdigit()) or len(text) > 4:
        raise ValueError(text)
    return int(text)


def _parse(key: str, seat: int) -> Action:
    if len(key) > MAX_KEY_LENGTH:
        raise ValueError(key)
    head, _, rest = key.partition(".")
    parts = rest.split(".") if rest or key.endswith(".") else []
    simple: dict[str, Action] = {CALL_MAHJONG: Call(seat, (), True), PASS: PassCall(seat), HOLD: Hold(seat),
                                 DECLARE: DeclareMahJongg(seat), DRAW: Draw(seat)}
    if head in simple and not parts:
        return simple[head]
    match head, parts:
        case "d", [tile]:
            return Discard(seat, parse_tile(tile))
        case "c", [tiles] if tiles:
            return Call(seat, _parse_tiles(tiles), False)
        case "cp", [tiles, blind]:
            return CharlestonPass(seat, _parse_tiles(tiles), _number(blind))
        case "v", ["0" | "1" as stop]:
            return CharlestonVote(seat, stop == "1")
        case "co", [tiles]:
            return CourtesyOffer(seat, _parse_tiles(tiles))
        case "x", [owner, exposure, tile]:
            return ExchangeJoker(seat, _number(owner), _number(exposure), parse_tile(tile))
        case "b", [discard]:
            return SwapBlank(seat, _number(discard))
        case "k", [tile]:
            return DeclareKong(seat, parse_tile(tile))
    raise ValueError(key)
