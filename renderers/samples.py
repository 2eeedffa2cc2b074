"""Fixed example positions for the documentation images, the golden-image tests and the benchmark.

They are written out here instead of replayed, so that the pictures stay the same when the engine's play changes.
The table is a real position: game 1 of seed 36 on the practice card, 401 actions in (computer players).
"""

from __future__ import annotations

from typing import Any

from bot.engine.notation import parse_groups, parse_tile, parse_tiles
from bot.engine.state import Phase
from bot.engine.tiles import Tile
from bot.engine.views import PublicSeat, PublicView

RACK_CONCEALED = "J F N N RD RD 2B 4B 6B 8B"
RACK_EXPOSED = "GD GD J"
RACK_DRAWN = "5D"
FULL_RACK = "J J F N E RD 2B 3B 4C 5C 6C 7D 9D"  # 13 concealed tiles and a drawn one: the most a rack shows
FULL_RACK_DRAWN = "5D"
NAMES = ("Ruth", "Sadie", "Ida", "Dorothy")

_DISCARDS = ("0 3C, 1 4C, 2 7C, 3 5B, 0 9B, 1 2D, 2 8D, 3 4C, 0 S, 1 6D, 2 9D, 3 9B, 0 8C, 1 7B, 2 2C, 3 9D, 0 1B, "
             "1 6B, 2 W, 2 GD, 3 E, 0 6C, 1 N, 2 4B, 3 1C, 0 3B, 1 9C, 2 7B, 3 1D, 0 5B, 1 7B, 3 7C, 0 RD, 2 4D, 3 F, "
             "0 5D, 1 4C, 2 F, 3 E, 0 E, 1 9B, 2 F, 3 1B, 0 6B, 1 5D, 2 RD, 3 5D, 0 1B, 1 1D, 2 N, 3 5C, 1 1D, 2 E, "
             "3 6B, 0 5D, 1 2B, 2 4C, 3 4B, 0 S, 1 N, 2 5B, 0 4B, 0 W, 0 W, 1 2B, 2 2B, 0 J, 1 S")
_SEATS = (("East", 6, "8B 8B 8B 8B; F F F", False), ("South", 6, "WD WD WD WD; 1C 1C J", False),
          ("West", 6, "6C 6C 6C; 7D 7D 7D J", False), ("North", 8, "3B 3B 3B; 5C 5C 5C", True))


def rack() -> tuple[list[Tile], list[list[Tile]], Tile]:
    """Concealed tiles, exposures and the drawn tile of the example rack."""
    return parse_tiles(RACK_CONCEALED), parse_groups(RACK_EXPOSED), parse_tile(RACK_DRAWN)


def full_rack() -> tuple[list[Tile], list[list[Tile]], Tile]:
    """The example rack: 13 tiles, no exposures, and the drawn tile."""
    return parse_tiles(FULL_RACK), [], parse_tile(FULL_RACK_DRAWN)


def table(**changes: Any) -> PublicView:
    """The example table (West to draw, North's hand dead, 68 discards); ``changes`` override fields."""
    discards = tuple((int(seat), parse_tile(tile)) for seat, tile in
                     (item.split() for item in _DISCARDS.split(", ")))
    seats = tuple(PublicSeat(k, wind, count, tuple(tuple(g) for g in parse_groups(exposed)), dead, False)
                  for k, (wind, count, exposed, dead) in enumerate(_SEATS))
    fields: dict[str, Any] = dict(
        phase=Phase.PLAY, east=0, turn=2, needs_draw=True, wall=31, seats=seats, discards=discards,
        window_tile=None, window_discarder=None, mahjong_only=False, charleston_step=None, blind_allowed=False,
        waiting_for=(2,), card_id="practice", game_no=1, result=None)
    fields.update(changes)
    return PublicView(**fields)


def write_examples(folder: str) -> list[str]:
    """Write the README's example images (rack.png, table.png) into ``folder``; returns the paths."""
    from pathlib import Path

    from .rack import render_rack
    from .table import render_table

    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for file_name, image in (("rack.png", render_rack(*rack())), ("table.png", render_table(table(), NAMES))):
        (out / file_name).write_bytes(image.png)
        written.append(str(out / file_name))
    return written


if __name__ == "__main__":  # python -m renderers.samples docs/images
    import sys

    for path in write_examples(sys.argv[1] if len(sys.argv) > 1 else "docs/images"):
        print(path)
