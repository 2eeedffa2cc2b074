"""What happened, as told to the table: the kinds of event, the payload each kind carries, and the event itself.

Every :class:`EventKind` has a payload class of its own, a frozen dataclass named after the kind (``DISCARD``:
:class:`Discard`) whose fields are the kind's data, tiles typed as :class:`~bot.engine.tiles.Tile`. The one link
between the two is :data:`PAYLOADS`; ``tests/test_game_events.py`` checks it pairs every kind with exactly one
class and every class with exactly one kind.

Consumers match on the payload classes, never on the kinds: ``match event.payload: case Discard(tile=tile):``.
We chose the classes over the enum members because mypy narrows ``event.payload`` to the class in each case, so
reading a field that the kind does not carry, or one of the wrong type, is a type error, and a removed or renamed
class is an error at every match that names it; matching ``event.type`` against ``EventKind.DISCARD`` would leave
the payload the whole union in every case, each read unchecked or cast. A match that must cover every kind ends
in ``case _: assert_never(event.payload)``, which mypy refuses while a class is left out. Modules that also name
the actions or the state (``Discard``, ``Call``, ``Turn``, ``Exposure``...) import this one as ``ev``.

An event of a private kind is for ``seat`` alone (it names concealed tiles); every other event may be shown to
everyone. :meth:`Event.to_json` is the replay form (docs/replay-format.md): the kind, seat and privacy, then the
payload's fields in order, tiles as codes; a field marked :data:`ABSENT_IF_NONE` is left out when None, as these
fields were only written when they applied.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Any

from .state import Payout
from .tiles import Tile, code

ABSENT_IF_NONE = {"absent_if_none": True}  # dataclass field metadata: the key is left out of the JSON when None


class EventKind(StrEnum):
    """Every kind of event, whether it is private to its seat, and whether the service raises it.

    ``seat`` is the seat the event is about (None when it is about the table). What the kind says and the data it
    carries are its payload class's (:attr:`about`, :attr:`fields`).
    """

    private: bool  # for ``seat`` alone
    by_service: bool  # raised by the table service, never by the engine

    def __new__(cls, value: str, private: bool = False, by_service: bool = False) -> EventKind:
        member = str.__new__(cls, value)
        member._value_ = value
        member.private = private
        member.by_service = by_service
        return member

    @property
    def payload(self) -> type[Payload]:
        """The payload class of this kind."""
        return PAYLOADS[self]

    @property
    def fields(self) -> tuple[str, ...]:
        """The kind's data fields, in order (some only when they apply: see the payload class)."""
        return tuple(f.name for f in fields(PAYLOADS[self]))

    @property
    def about(self) -> str:
        """What an event of this kind says."""
        return PAYLOADS[self].__doc__ or ""

    # -- raised by the engine: the deal and the Charleston ------------------------------------------------
    DEAL = "deal"
    RACK = "rack", True
    CHARLESTON = "charleston"
    CHARLESTON_PASSED = "charleston_passed"
    CHARLESTON_RECEIVED = "charleston_received", True
    CHARLESTON_STEP_DONE = "charleston_step_done"
    CHARLESTON_VOTE = "charleston_vote"
    CHARLESTON_VOTED = "charleston_voted"
    CHARLESTON_STOPPED = "charleston_stopped"
    COURTESY = "courtesy"
    COURTESY_OFFERED = "courtesy_offered"
    COURTESY_EXCHANGED = "courtesy_exchanged"
    COURTESY_RECEIVED = "courtesy_received", True
    CHARLESTON_DONE = "charleston_done"

    # -- raised by the engine: turns, calls, the end --------------------------------------------------------
    PLAY = "play"
    DRAW = "draw"
    DREW = "drew", True
    DISCARD = "discard"
    CALL_WINDOW = "call_window"
    TURN = "turn"
    DEAD_HAND = "dead_hand"
    PASS = "pass"
    HOLD = "hold"
    CALL = "call"
    WINDOW_CLOSED = "window_closed"
    EXPOSURE = "exposure"
    DRAW_RETURNED = "draw_returned"
    KONG = "kong"
    REPLACEMENT = "replacement"
    JOKER_EXCHANGE = "joker_exchange"
    BLANK_SWAP = "blank_swap"
    FALSE_MAHJONG = "false_mahjong"
    MAHJONG = "mahjong"
    GAME_OVER = "game_over"

    # -- raised by the table service, never by the engine (the table and its lobby; all public) -----------
    TABLE_OPENED = "table_opened", False, True
    JOINED = "joined", False, True
    LEFT = "left", False, True
    COMPUTER_ADDED = "computer_added", False, True
    TABLE_CLOSED = "table_closed", False, True
    AWAY = "computer_takes_over", False, True
    BACK = "back", False, True


ENGINE_KINDS = frozenset(k for k in EventKind if not k.by_service)


# -- the payloads: the deal and the Charleston ------------------------------------------------------------------

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


Payload = (Deal | Rack | Charleston | CharlestonPassed | CharlestonReceived | CharlestonStepDone | CharlestonVote
           | CharlestonVoted | CharlestonStopped | Courtesy | CourtesyOffered | CourtesyExchanged | CourtesyReceived
           | CharlestonDone | Play | Draw | Drew | Discard | CallWindow | Turn | DeadHand | Pass | Hold | Call
           | WindowClosed | Exposure | DrawReturned | Kong | Replacement | JokerExchange | BlankSwap | FalseMahjong
           | Mahjong | GameOver | TableOpened | Joined | Left | ComputerAdded | TableClosed | Away | Back)

# The one link between kinds and payloads.
PAYLOADS: dict[EventKind, type[Payload]] = {
    EventKind.DEAL: Deal, EventKind.RACK: Rack, EventKind.CHARLESTON: Charleston,
    EventKind.CHARLESTON_PASSED: CharlestonPassed, EventKind.CHARLESTON_RECEIVED: CharlestonReceived,
    EventKind.CHARLESTON_STEP_DONE: CharlestonStepDone, EventKind.CHARLESTON_VOTE: CharlestonVote,
    EventKind.CHARLESTON_VOTED: CharlestonVoted, EventKind.CHARLESTON_STOPPED: CharlestonStopped,
    EventKind.COURTESY: Courtesy, EventKind.COURTESY_OFFERED: CourtesyOffered,
    EventKind.COURTESY_EXCHANGED: CourtesyExchanged, EventKind.COURTESY_RECEIVED: CourtesyReceived,
    EventKind.CHARLESTON_DONE: CharlestonDone,
    EventKind.PLAY: Play, EventKind.DRAW: Draw, EventKind.DREW: Drew, EventKind.DISCARD: Discard,
    EventKind.CALL_WINDOW: CallWindow, EventKind.TURN: Turn, EventKind.DEAD_HAND: DeadHand, EventKind.PASS: Pass,
    EventKind.HOLD: Hold, EventKind.CALL: Call, EventKind.WINDOW_CLOSED: WindowClosed,
    EventKind.EXPOSURE: Exposure, EventKind.DRAW_RETURNED: DrawReturned, EventKind.KONG: Kong,
    EventKind.REPLACEMENT: Replacement, EventKind.JOKER_EXCHANGE: JokerExchange,
    EventKind.BLANK_SWAP: BlankSwap, EventKind.FALSE_MAHJONG: FalseMahjong, EventKind.MAHJONG: Mahjong,
    EventKind.GAME_OVER: GameOver,
    EventKind.TABLE_OPENED: TableOpened, EventKind.JOINED: Joined, EventKind.LEFT: Left,
    EventKind.COMPUTER_ADDED: ComputerAdded, EventKind.TABLE_CLOSED: TableClosed, EventKind.AWAY: Away,
    EventKind.BACK: Back,
}
KIND_OF: dict[type[Payload], EventKind] = {cls: kind for kind, cls in PAYLOADS.items()}


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened: its payload (which names its kind), the seat it is about, and whether only that
    seat sees it."""

    payload: Payload
    seat: int | None = None
    private: bool = False

    @property
    def type(self) -> EventKind:
        """The event's kind."""
        return KIND_OF[type(self.payload)]

    def visible_to(self, seat: int | None) -> bool:
        """Whether a player in ``seat`` (None: a spectator) may see this event."""
        return not self.private or seat == self.seat

    def to_json(self) -> dict[str, Any]:
        """The event as plain JSON, tiles as codes."""
        out: dict[str, Any] = {"type": str(self.type), "seat": self.seat, "private": self.private}
        for f in fields(self.payload):
            value = getattr(self.payload, f.name)
            if value is None and f.metadata.get("absent_if_none"):
                continue
            out[f.name] = _encode(f.name, value)
        return out


def _encode(key: str, value: Any) -> Any:
    """Tile-valued fields (``tile``/``tiles``, a group or a hand by group) become codes, transfers their JSON."""
    if key == "tile":
        return code(value) if value is not None else None
    if key == "tiles":
        return [[code(t) for t in g] if isinstance(g, (list, tuple)) else code(g) for g in value]
    if key == "payouts":
        return [p.to_json() for p in value]
    return value


def public(payload: Payload, seat: int | None = None) -> Event:
    """An event everyone may see."""
    kind = KIND_OF[type(payload)]
    assert not kind.private, f"{kind} is a private kind"
    return Event(payload, seat, False)


def private(payload: Payload, seat: int) -> Event:
    """An event for ``seat`` alone."""
    kind = KIND_OF[type(payload)]
    assert kind.private, f"{kind} is a public kind"
    return Event(payload, seat, True)
