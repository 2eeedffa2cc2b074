"""Small card files in other tools' formats for the /card-admin import tests: lines of Charleston's own practice
card (data/cards/practice.toml, not derived from any published card), and in each file one line broken on purpose
(13 tiles), which the import must leave out with a warning. Never a line of a published card."""

from __future__ import annotations

import json

# riichi_advanced's American notation: no .yaku, so no values (a warning); practice card lines, one cut to 13 tiles.
GARDEN_JQ = """# Lines of Charleston's practice card for the Discord import tests (no published card's lines).
.win_definition = [
    # Garden
    "EEEE 444a 66a 888a WW",
    "WWW 44a 888a 22b 666b",
    "2468a FFFF 2222b 88b", # concealed
    # Breeze
    "FFF 22a 000 6666a 22b"
  ]
"""
GARDEN_JQ_LINES = 3  # written; the 13-tile line is left out
# A practice card line to type over a Garden line, and the same cut to 13 tiles.
PRACTICE_LINE = "WWW 44a 888a 22b 6666b"
PRACTICE_LINE_TILES = "W W W 4B 4B 8B 8B 8B 2C 2C 6C 6C 6C 6C"
SHORT_LINE = "WWW 44a 888a 22b 666b"


def _hand(description: str, concealed: bool, components: list[tuple[str, int, int]], suits: int) -> dict[str, object]:
    return {"description": description, "vsuit_count": suits, "concealed": concealed, "odd": False, "even": False,
            "components": [{"suit": s, "number": n, "count": c} for s, n, c in components]}


# mpmahj's symbolic card JSON: it gives no values (a warning); practice card lines, the second cut to 13 tiles.
ORCHARD_JSON = json.dumps({"year": 2026, "sections": [
    {"group_description": "Orchard", "hands": [
        _hand("EEEE 444 66 888 WW (any 1 suit)", False,
              [("Wind", 2, 4), ("VSUIT1", 4, 3), ("VSUIT1", 6, 2), ("VSUIT1", 8, 3), ("Wind", 4, 2)], 1),
        _hand("WWW 44 888 22 666 (any 2 suits)", False,
              [("Wind", 4, 3), ("VSUIT1", 4, 2), ("VSUIT1", 8, 3), ("VSUIT2", 2, 2), ("VSUIT2", 6, 3)], 2),
        _hand("FFF 22 000 6666 22 (any 2 suits)", True,
              [("Flower", 0, 3), ("VSUIT1", 2, 2), ("Dragon", 0, 3), ("VSUIT1", 6, 4), ("VSUIT2", 2, 2)], 2),
    ]},
]}, indent=2)
ORCHARD_JSON_LINES = 2
