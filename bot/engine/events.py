"""What happened, as told to the table: the kinds of event, each with its data fields, and the event itself.

An event of a private kind is for ``seat`` alone (it names concealed tiles); every other event may be shown to
everyone. :class:`EventKind` is the whole vocabulary; it is a ``StrEnum``, so ``event.type == "discard"`` holds.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from .tiles import code


class EventKind(StrEnum):
    """Every kind of event, with the data fields it carries and whether it is private to its seat.

    ``seat`` is the seat the event is about (None when it is about the table). Tile fields hold tile kinds
    and become codes in :meth:`Event.to_json`.
    """

    fields: tuple[str, ...]  # the keys of ``Event.data`` (some only when they apply, see ``about``)
    about: str  # what the event says
    private: bool  # for ``seat`` alone
    by_service: bool  # raised by the table service, never by the engine

    def __new__(cls, value: str, fields: tuple[str, ...], about: str, private: bool = False,
                by_service: bool = False) -> EventKind:
        member = str.__new__(cls, value)
        member._value_ = value
        member.fields = fields
        member.about = about
        member.private = private
        member.by_service = by_service
        return member

    # -- raised by the engine: the deal and the Charleston ------------------------------------------------
    DEAL = "deal", ("east", "wall", "game_no"), "A game is dealt: East's seat, the tiles left in the wall."
    RACK = "rack", ("tiles",), "The seat's dealt rack.", True
    CHARLESTON = "charleston", ("step", "blind_allowed"), "A Charleston pass begins: its name, whether blind."
    CHARLESTON_PASSED = "charleston_passed", ("blind",), "The seat has passed (how many tiles blind)."
    CHARLESTON_RECEIVED = "charleston_received", ("tiles", "step"), "The tiles the seat received.", True
    CHARLESTON_STEP_DONE = "charleston_step_done", ("step",), "Every seat has passed; the tiles have moved."
    CHARLESTON_VOTE = "charleston_vote", (), "After the first left: each seat votes to stop or go on."
    CHARLESTON_VOTED = "charleston_voted", ("stop",), "The seat voted (stop: True to stop)."
    CHARLESTON_STOPPED = "charleston_stopped", (), "The seat stopped the Charleston."
    COURTESY = "courtesy", (), "The courtesy pass across begins."
    COURTESY_OFFERED = "courtesy_offered", ("count",), "The seat offered this many tiles."
    COURTESY_EXCHANGED = "courtesy_exchanged", ("partner", "count"), \
        "The seat and its partner (None: the dummy Bob) swapped this many tiles."
    COURTESY_RECEIVED = "courtesy_received", ("tiles",), "The tiles the seat received across.", True
    CHARLESTON_DONE = "charleston_done", (), "The Charleston is over."

    # -- raised by the engine: turns, calls, the end --------------------------------------------------------
    PLAY = "play", ("turn", "wall"), "Play begins: the seat to move first, the tiles left in the wall."
    DRAW = "draw", ("wall",), "The seat drew from the wall (tiles left)."
    DREW = "drew", ("tile",), "The tile the seat drew.", True
    DISCARD = "discard", ("tile",), "The seat discarded this tile."
    CALL_WINDOW = "call_window", ("tile", "mahjong_only"), \
        "The seat's discard may be called (mahjong_only: for Mah Jongg alone)."
    TURN = "turn", (), "It is the seat's turn; it must draw."
    DEAD_HAND = "dead_hand", ("reason",), "The seat's hand is dead, and why."
    PASS = "pass", (), "The seat passed on the discard."
    HOLD = "hold", ("seconds",), "The seat asked the table to wait this many seconds."
    CALL = "call", ("mahjong", "size", "chow"), \
        "The seat called the discard: for Mah Jongg, or for a group of size (chow: a classical chow)."
    WINDOW_CLOSED = "window_closed", ("claimed", "winner"), \
        "The call window on the seat's discard closed; winner is the seat that took it (when claimed)."
    EXPOSURE = "exposure", ("tile", "tiles", "called_from"), \
        "The seat exposed a group of tile, as tiles, calling the discard of called_from."
    DRAW_RETURNED = "draw_returned", ("wall",), \
        "A late (1946) claim took the discard: the seat's drawn tile went back on the wall."
    KONG = "kong", ("tile", "tiles", "concealed", "added"), \
        "Classical: the seat laid down a kong of tile on its turn (concealed: four from the rack; added: the " \
        "fourth on its own exposed pung)."
    REPLACEMENT = "replacement", ("wall",), \
        "Classical: after a kong the seat drew a replacement tile from the end of the wall (tiles left)."
    JOKER_EXCHANGE = "joker_exchange", ("owner", "exposure", "tile"), \
        "The seat gave tile for a joker in exposure number exposure of seat owner."
    BLANK_SWAP = "blank_swap", ("discard", "tile"), "The seat swapped a blank for the discard at that index."
    FALSE_MAHJONG = "false_mahjong", (), "The seat declared a Mah Jongg it does not have (strict tables)."
    MAHJONG = "mahjong", ("line", "section", "value", "how", "discarder", "jokerless", "tiles"), \
        "The seat won: the line, how (self_pick, discard, heavenly), who threw the tile, the hand by group."
    GAME_OVER = "game_over", ("how", "payouts"), \
        "The game ended (seat: the winner, or None); how it ended and every transfer."

    # -- raised by the table service, never by the engine (the table and its lobby; all public) -----------
    TABLE_OPENED = "table_opened", ("table_id",), "A table was opened (no seat).", False, True
    JOINED = "joined", ("name",), "A player, by display name, took the seat.", False, True
    LEFT = "left", ("name",), "The seat's player (or computer: name None) left the table.", False, True
    COMPUTER_ADDED = "computer_added", ("level",), "A computer player of this level took the seat.", False, True
    TABLE_CLOSED = "table_closed", (), "The table was closed.", False, True
    AWAY = "computer_takes_over", (), \
        "The seat's player is away (her time ran out, or she left mid-game): a computer plays for her until she " \
        "is back.", False, True
    BACK = "back", (), "The seat's player is back and plays her own seat again.", False, True


ENGINE_KINDS = frozenset(k for k in EventKind if not k.by_service)


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened: its kind, the seat it is about, its data, and whether only that seat sees it."""

    type: EventKind
    seat: int | None = None
    data: dict[str, Any] = field(default_factory=dict)
    private: bool = False

    def visible_to(self, seat: int | None) -> bool:
        """Whether a player in ``seat`` (None: a spectator) may see this event."""
        return not self.private or seat == self.seat

    def to_json(self) -> dict[str, Any]:
        """The event as plain JSON, tiles as codes."""
        return {"type": str(self.type), "seat": self.seat, "private": self.private, **_encode(self.data)}


def _encode(data: dict[str, Any]) -> dict[str, Any]:
    """Tile-valued entries (keys ``tile``/``tiles``, or ending in ``_tile``/``_tiles``) become codes."""
    out: dict[str, Any] = {}
    for key, value in data.items():
        if key == "tile" or key.endswith("_tile"):
            out[key] = code(value) if value is not None else None
        elif key == "tiles" or key.endswith("_tiles"):
            out[key] = [[code(t) for t in g] if isinstance(g, (list, tuple)) else code(g) for g in value]
        else:
            out[key] = value
    return out


def public(kind: EventKind, seat: int | None = None, **data: Any) -> Event:
    """An event everyone may see."""
    assert not kind.private, f"{kind} is a private kind"
    return Event(kind, seat, data, False)


def private(kind: EventKind, seat: int, **data: Any) -> Event:
    """An event for ``seat`` alone."""
    assert kind.private, f"{kind} is a public kind"
    return Event(kind, seat, data, True)
