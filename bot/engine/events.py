"""What happened, as told to the table: the kinds of event, the link to the payload each carries, and the event.

Every :class:`EventKind` has a payload class of its own in :mod:`bot.engine.payloads`, a frozen dataclass named
after the kind (``DISCARD``: ``payloads.Discard``) whose fields are the kind's data, tiles typed as
:class:`~bot.engine.tiles.Tile`. The one link between the two is :data:`PAYLOADS`; ``tests/engine/test_game_events.py``
checks it pairs every kind with exactly one class and every class with exactly one kind.

Code that reads events matches on the payload classes, never on the kinds nor their strings:
``match event.payload: case payloads.Discard(tile=tile): ...``. We chose the classes over the enum members because
mypy narrows ``event.payload`` to the class in each case, so reading a field the kind does not carry, or using
one as the wrong type, is a type error, and a removed or renamed class is an error at every match that names it;
matching ``event.type`` against ``EventKind.DISCARD`` would leave the payload the whole union in every case, each
read unchecked or cast. A match that must cover every kind ends in ``case _: assert_never(event.payload)``, which
mypy refuses while a class is left out. Where the payloads' names would clash with the actions' or the state's
(``Discard``, ``Call``, ``Turn``, ``Exposure``...), the module is imported whole (``payloads.Discard``).

An event of a private kind is for ``seat`` alone (it names concealed tiles); every other event may be shown to
everyone. :meth:`Event.to_json` is the replay form (docs/replay-format.md): the kind, seat and privacy, then the
payload's fields in order, tiles as codes, a field that applies only sometimes left out when it does not.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any

from . import payloads
from .tiles import code


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
    def payload(self) -> type[payloads.Payload]:
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

    # Each member is its value, then (when set) private, then by_service.
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


# The one link between kinds and payloads.
PAYLOADS: dict[EventKind, type[payloads.Payload]] = {
    EventKind.DEAL: payloads.Deal,
    EventKind.RACK: payloads.Rack,
    EventKind.CHARLESTON: payloads.Charleston,
    EventKind.CHARLESTON_PASSED: payloads.CharlestonPassed,
    EventKind.CHARLESTON_RECEIVED: payloads.CharlestonReceived,
    EventKind.CHARLESTON_STEP_DONE: payloads.CharlestonStepDone,
    EventKind.CHARLESTON_VOTE: payloads.CharlestonVote,
    EventKind.CHARLESTON_VOTED: payloads.CharlestonVoted,
    EventKind.CHARLESTON_STOPPED: payloads.CharlestonStopped,
    EventKind.COURTESY: payloads.Courtesy,
    EventKind.COURTESY_OFFERED: payloads.CourtesyOffered,
    EventKind.COURTESY_EXCHANGED: payloads.CourtesyExchanged,
    EventKind.COURTESY_RECEIVED: payloads.CourtesyReceived,
    EventKind.CHARLESTON_DONE: payloads.CharlestonDone,
    EventKind.PLAY: payloads.Play,
    EventKind.DRAW: payloads.Draw,
    EventKind.DREW: payloads.Drew,
    EventKind.DISCARD: payloads.Discard,
    EventKind.CALL_WINDOW: payloads.CallWindow,
    EventKind.TURN: payloads.Turn,
    EventKind.DEAD_HAND: payloads.DeadHand,
    EventKind.PASS: payloads.Pass,
    EventKind.HOLD: payloads.Hold,
    EventKind.CALL: payloads.Call,
    EventKind.WINDOW_CLOSED: payloads.WindowClosed,
    EventKind.EXPOSURE: payloads.Exposure,
    EventKind.DRAW_RETURNED: payloads.DrawReturned,
    EventKind.KONG: payloads.Kong,
    EventKind.REPLACEMENT: payloads.Replacement,
    EventKind.JOKER_EXCHANGE: payloads.JokerExchange,
    EventKind.BLANK_SWAP: payloads.BlankSwap,
    EventKind.FALSE_MAHJONG: payloads.FalseMahjong,
    EventKind.MAHJONG: payloads.Mahjong,
    EventKind.GAME_OVER: payloads.GameOver,
    EventKind.TABLE_OPENED: payloads.TableOpened,
    EventKind.JOINED: payloads.Joined,
    EventKind.LEFT: payloads.Left,
    EventKind.COMPUTER_ADDED: payloads.ComputerAdded,
    EventKind.TABLE_CLOSED: payloads.TableClosed,
    EventKind.AWAY: payloads.Away,
    EventKind.BACK: payloads.Back,
}
KIND_OF: dict[type[payloads.Payload], EventKind] = {cls: kind for kind, cls in PAYLOADS.items()}


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened: its payload (which names its kind), the seat it is about, and whether only that
    seat sees it."""

    payload: payloads.Payload
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
            if value is None and f.metadata.get(payloads.ABSENT):
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


def public(payload: payloads.Payload, seat: int | None = None) -> Event:
    """An event everyone may see."""
    kind = KIND_OF[type(payload)]
    assert not kind.private, f"{kind} is a private kind"
    return Event(payload, seat, False)


def private(payload: payloads.Payload, seat: int) -> Event:
    """An event for ``seat`` alone."""
    kind = KIND_OF[type(payload)]
    assert kind.private, f"{kind} is a public kind"
    return Event(payload, seat, True)
