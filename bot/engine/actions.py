"""The closed set of things a player (or the table's clock) can do, as small immutable values.

Every action serialises to a flat JSON object with a ``type`` and tile codes, the form used in replays and
in the action log: ``{"type": "discard", "seat": 2, "tile": "5D"}``.
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, fields
from typing import Any, ClassVar

from .errors import EngineError
from .notation import parse_tile
from .tiles import Tile, code

TABLE = -1  # the seat of actions taken by the table itself (a call window's timer running out)


class ActionFormatError(EngineError, ValueError):
    """A malformed action in a replay or log."""


@dataclass(frozen=True, slots=True)
class Action:
    """Something a seat (or the table's clock) does; ``type`` names the kind in JSON."""

    type: ClassVar[str] = ""
    seat: int

    def to_json(self) -> dict[str, Any]:
        """The action in replay form: ``type``, ``seat`` and its fields, tiles as codes."""
        data: dict[str, Any] = {"type": self.type}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in _TILE_FIELDS:
                value = code(value)
            elif f.name in _TILES_FIELDS:
                value = [code(t) for t in value]
            data[f.name] = value
        return data


@dataclass(frozen=True, slots=True)
class CharlestonPass(Action):
    """Pass tiles face down (CH2); ``blind`` more are forwarded unseen from those received (CH5)."""

    type: ClassVar[str] = "charleston_pass"
    tiles: tuple[Tile, ...]
    blind: int = 0


@dataclass(frozen=True, slots=True)
class CharlestonVote(Action):
    """After the first Left: stop (True) or go on to the second Charleston (CH3)."""

    type: ClassVar[str] = "charleston_vote"
    stop: bool


@dataclass(frozen=True, slots=True)
class CourtesyOffer(Action):
    """0-3 tiles offered across, most wanted-gone first; the pair swaps the smaller count (CH4)."""

    type: ClassVar[str] = "courtesy_offer"
    tiles: tuple[Tile, ...]


@dataclass(frozen=True, slots=True)
class Draw(Action):
    """Take the next tile of the wall (the seat on turn, before anything else)."""

    type: ClassVar[str] = "draw"


@dataclass(frozen=True, slots=True)
class Discard(Action):
    """Throw ``tile`` from the rack, ending the turn."""

    type: ClassVar[str] = "discard"
    tile: Tile


@dataclass(frozen=True, slots=True)
class Call(Action):
    """Claim the latest discard. For an exposure, ``tiles`` are the rack tiles that complete the group with it
    (naturals and jokers, P7); for Mah Jongg, ``tiles`` is empty and ``mahjong`` is True."""

    type: ClassVar[str] = "call"
    tiles: tuple[Tile, ...] = ()
    mahjong: bool = False


@dataclass(frozen=True, slots=True)
class PassCall(Action):
    """Decline the latest discard."""

    type: ClassVar[str] = "pass"


@dataclass(frozen=True, slots=True)
class Hold(Action):
    """"Wait": keep the call window open a while longer, once per player per discard (P11)."""

    type: ClassVar[str] = "hold"


@dataclass(frozen=True, slots=True)
class CloseWindow(Action):
    """The call window's time is up (sent by the table's clock, seat TABLE)."""

    type: ClassVar[str] = "close_window"


@dataclass(frozen=True, slots=True)
class ExchangeJoker(Action):
    """Give ``tile`` for a joker in exposure ``exposure`` of seat ``owner`` (J4)."""

    type: ClassVar[str] = "exchange_joker"
    owner: int
    exposure: int
    tile: Tile


@dataclass(frozen=True, slots=True)
class SwapBlank(Action):
    """Give a blank for the discard at ``discard`` in the discard pool (TR2)."""

    type: ClassVar[str] = "swap_blank"
    discard: int


@dataclass(frozen=True, slots=True)
class DeclareMahJongg(Action):
    """Declare Mah Jongg on one's own tiles (after a draw, a call or an exchange; East's heavenly hand)."""

    type: ClassVar[str] = "declare_mahjong"


@dataclass(frozen=True, slots=True)
class DeclareKong(Action):
    """Classical game (docs/rules.md §9): on one's own turn, lay down a kong of ``tile``: four from the rack (a
    concealed kong), or the fourth added to one's own exposed pung. A replacement tile is drawn at once."""

    type: ClassVar[str] = "kong"
    tile: Tile


ACTION_TYPES: dict[str, type[Action]] = {
    cls.type: cls
    for cls in (CharlestonPass, CharlestonVote, CourtesyOffer, Draw, Discard, Call, PassCall, Hold, CloseWindow,
                ExchangeJoker, SwapBlank, DeclareMahJongg, DeclareKong)
}
_TILE_FIELDS = {"tile"}
_TILES_FIELDS = {"tiles"}


def action_from_json(data: Any) -> Action:
    """Parse one action object; raises :class:`ActionFormatError` saying what is wrong."""
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise ActionFormatError('An action must be an object with a "type", e.g. {"type": "draw", "seat": 1}.')
    cls = ACTION_TYPES.get(data["type"])
    if cls is None:
        raise ActionFormatError(f"Unknown action type {data['type']!r:.40}. Known: {', '.join(ACTION_TYPES)}.")
    values: dict[str, Any] = {}
    names = {f.name: f for f in fields(cls)}
    for key in data:
        if key != "type" and key not in names:
            raise ActionFormatError(f"Action {cls.type} has no field {key!r:.40}.")
    for name in names:
        if name not in data:
            if name == "seat" and cls is CloseWindow:
                values[name] = TABLE
                continue
            if names[name].default is not MISSING:
                continue
            raise ActionFormatError(f"Action {cls.type} needs a {name!r} field.")
        value = data[name]
        try:
            if name in _TILE_FIELDS:
                value = parse_tile(value)
            elif name in _TILES_FIELDS:
                if not isinstance(value, list):
                    raise ActionFormatError(f"{cls.type}: 'tiles' must be a list of tile codes.")
                value = tuple(parse_tile(t) for t in value)
            elif name in ("mahjong", "stop"):
                if not isinstance(value, bool):
                    raise ActionFormatError(f"{cls.type}: {name!r} must be true or false.")
            elif not isinstance(value, int) or isinstance(value, bool):
                raise ActionFormatError(f"{cls.type}: {name!r} must be a whole number.")
        except EngineError as exc:
            if isinstance(exc, ActionFormatError):
                raise
            raise ActionFormatError(f"{cls.type}: {exc}") from None
        values[name] = value
    return cls(**values)
