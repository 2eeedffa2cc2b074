"""What happened, as told to the table. An event with ``private=True`` is for ``seat`` alone (it names
concealed tiles); every other event may be shown to everyone."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .tiles import code


@dataclass(frozen=True, slots=True)
class Event:
    type: str
    seat: int | None = None
    data: dict[str, Any] = field(default_factory=dict)
    private: bool = False

    def visible_to(self, seat: int | None) -> bool:
        """Whether a player in ``seat`` (None: a spectator) may see this event."""
        return not self.private or seat == self.seat

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "seat": self.seat, "private": self.private, **_encode(self.data)}


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


def public(type_: str, seat: int | None = None, **data: Any) -> Event:
    return Event(type_, seat, data, False)


def private(type_: str, seat: int, **data: Any) -> Event:
    return Event(type_, seat, data, True)
