"""What each kind of event carries: a frozen dataclass per :class:`~bot.engine.events.EventKind`, named after it
(``DISCARD``: :class:`Discard`), whose fields are the kind's data in the order the replay form writes them, tiles
typed as :class:`~bot.engine.tiles.Tile`. :data:`bot.engine.events.PAYLOADS` links each kind to its class.

A field marked :data:`ABSENT_IF_NONE` applies only sometimes (a call's size, a closed window's winner): it is None
when it does not, and the replay form leaves it out then, as it always has.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .state import Payout
from .tiles import Tile

ABSENT = "absent_if_none"
ABSENT_IF_NONE = {ABSENT: True}  # dataclass field metadata: the key is left out of the JSON when None


# -- the deal and the Charleston ------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Deal:
    """A game is dealt: East's seat, the tiles left in the wall, the game's number at the table."""

    east: int
    wall: int
    game_no: int


@dataclass(frozen=True, slots=True)
class Rack:
    """The seat's dealt rack."""

    tiles: tuple[Tile, ...]


@dataclass(frozen=True, slots=True)
class Charleston:
    """A Charleston pass begins: its name, whether blind."""

    step: str
    blind_allowed: bool


@dataclass(frozen=True, slots=True)
class CharlestonPassed:
    """The seat has passed (how many tiles blind)."""

    blind: int


@dataclass(frozen=True, slots=True)
class CharlestonReceived:
    """The tiles the seat received (none: what came went on blind)."""

    tiles: tuple[Tile, ...]
    step: str


@dataclass(frozen=True, slots=True)
class CharlestonStepDone:
    """Every seat has passed; the tiles have moved."""

    step: str


@dataclass(frozen=True, slots=True)
class CharlestonVote:
    """After the first left: each seat votes to stop or go on."""


@dataclass(frozen=True, slots=True)
class CharlestonVoted:
    """The seat voted (stop: True to stop)."""

    stop: bool


@dataclass(frozen=True, slots=True)
class CharlestonStopped:
    """The seat stopped the Charleston."""


@dataclass(frozen=True, slots=True)
class Courtesy:
    """The courtesy pass across begins."""


@dataclass(frozen=True, slots=True)
class CourtesyOffered:
    """The seat offered this many tiles."""

    count: int


@dataclass(frozen=True, slots=True)
class CourtesyExchanged:
    """The seat and its partner (None: the dummy Bob) swapped this many tiles."""

    partner: int | None
    count: int


@dataclass(frozen=True, slots=True)
class CourtesyReceived:
    """The tiles the seat received across."""

    tiles: tuple[Tile, ...]


@dataclass(frozen=True, slots=True)
class CharlestonDone:
    """The Charleston is over."""


# -- turns, calls, the end ---------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Play:
    """Play begins: the seat to move first, the tiles left in the wall."""

    turn: int
    wall: int


@dataclass(frozen=True, slots=True)
class Draw:
    """The seat drew from the wall (tiles left)."""

    wall: int


@dataclass(frozen=True, slots=True)
class Drew:
    """The tile the seat drew."""

    tile: Tile


@dataclass(frozen=True, slots=True)
class Discard:
    """The seat discarded this tile."""

    tile: Tile


@dataclass(frozen=True, slots=True)
class CallWindow:
    """The seat's discard may be called (mahjong_only: for Mah Jongg alone)."""

    tile: Tile
    mahjong_only: bool


@dataclass(frozen=True, slots=True)
class Turn:
    """It is the seat's turn; it must draw."""


@dataclass(frozen=True, slots=True)
class DeadHand:
    """The seat's hand is dead, and why."""

    reason: str


@dataclass(frozen=True, slots=True)
class Pass:
    """The seat passed on the discard."""


@dataclass(frozen=True, slots=True)
class Hold:
    """The seat asked the table to wait this many seconds."""

    seconds: int


@dataclass(frozen=True, slots=True)
class Call:
    """The seat called the discard: for Mah Jongg, or for a group of size (chow: a classical chow; both absent
    for Mah Jongg, chow absent outside the classical game)."""

    mahjong: bool
    size: int | None = field(default=None, metadata=ABSENT_IF_NONE)
    chow: bool | None = field(default=None, metadata=ABSENT_IF_NONE)


@dataclass(frozen=True, slots=True)
class WindowClosed:
    """The call window on the seat's discard closed; winner is the seat that took it (absent unless claimed)."""

    claimed: bool
    winner: int | None = field(default=None, metadata=ABSENT_IF_NONE)


@dataclass(frozen=True, slots=True)
class Exposure:
    """The seat exposed a group of tile, as tiles, calling the discard of called_from."""

    tile: Tile
    tiles: tuple[Tile, ...]
    called_from: int


@dataclass(frozen=True, slots=True)
class DrawReturned:
    """A late (1946) claim took the discard: the seat's drawn tile went back on the wall."""

    wall: int


@dataclass(frozen=True, slots=True)
class Kong:
    """Classical: the seat laid down a kong of tile on its turn (concealed: four from the rack; added: the fourth
    on its own exposed pung)."""

    tile: Tile
    tiles: tuple[Tile, ...]
    concealed: bool
    added: bool


@dataclass(frozen=True, slots=True)
class Replacement:
    """Classical: after a kong the seat drew a replacement tile from the end of the wall (tiles left)."""

    wall: int


@dataclass(frozen=True, slots=True)
class JokerExchange:
    """The seat gave tile for a joker in exposure number exposure of seat owner."""

    owner: int
    exposure: int
    tile: Tile


@dataclass(frozen=True, slots=True)
class BlankSwap:
    """The seat swapped a blank for the discard at that index."""

    discard: int
    tile: Tile


@dataclass(frozen=True, slots=True)
class FalseMahjong:
    """The seat declared a Mah Jongg it does not have (strict tables)."""


@dataclass(frozen=True, slots=True)
class Mahjong:
    """The seat won: the line, how (self_pick, discard, heavenly), who threw the tile, the hand by group."""

    line: str
    section: str
    value: int
    how: str
    discarder: int | None
    jokerless: bool
    tiles: tuple[tuple[Tile, ...], ...]


@dataclass(frozen=True, slots=True)
class GameOver:
    """The game ended (seat: the winner, or None); how it ended and every transfer."""

    how: str
    payouts: tuple[Payout, ...]


# -- raised by the table service ------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class TableOpened:
    """A table was opened (no seat)."""

    table_id: int


@dataclass(frozen=True, slots=True)
class Joined:
    """A player, by display name, took the seat."""

    name: str


@dataclass(frozen=True, slots=True)
class Left:
    """The seat's player (or computer: name None) left the table."""

    name: str | None


@dataclass(frozen=True, slots=True)
class ComputerAdded:
    """A computer player of this level took the seat."""

    level: str


@dataclass(frozen=True, slots=True)
class TableClosed:
    """The table was closed."""


@dataclass(frozen=True, slots=True)
class Away:
    """The seat's player is away (her time ran out, or she left mid-game): a computer plays for her until she is
    back."""


@dataclass(frozen=True, slots=True)
class Back:
    """The seat's player is back and plays her own seat again."""


# Whatever an event carries: a match that ends in ``assert_never(event.payload)`` must name every one.
Payload = (Deal | Rack | Charleston | CharlestonPassed | CharlestonReceived | CharlestonStepDone | CharlestonVote
           | CharlestonVoted | CharlestonStopped | Courtesy | CourtesyOffered | CourtesyExchanged | CourtesyReceived
           | CharlestonDone | Play | Draw | Drew | Discard | CallWindow | Turn | DeadHand | Pass | Hold | Call
           | WindowClosed | Exposure | DrawReturned | Kong | Replacement | JokerExchange | BlankSwap | FalseMahjong
           | Mahjong | GameOver | TableOpened | Joined | Left | ComputerAdded | TableClosed | Away | Back)
