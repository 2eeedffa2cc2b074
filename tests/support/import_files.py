"""Small card files in other tools' formats, made up for the /card-admin import tests (Charleston's own lines, no
published card's): a riichi_advanced .jq and an mpmahj JSON, each with one line the import must leave out."""

from __future__ import annotations

import json

# riichi_advanced's American notation: no .yaku, so no values (a warning), and a 13-tile line (left out, a warning).
GARDEN_JQ = """# Made-up lines for the Discord import tests (Charleston's own; no published card's lines).
.win_definition = [
    # Garden
    "FF 2222a 4444b 6666c",
    "FF 1111a 3333b 555c",
    "NNNN 2468a SSSS FF", # concealed
    # Breeze
    "NNN EEE WWW SSS 11a"
  ]
"""
GARDEN_JQ_LINES = 3  # written; the 13-tile line is left out


def _hand(description: str, concealed: bool, components: list[tuple[str, int, int]], suits: int) -> dict[str, object]:
    return {"description": description, "vsuit_count": suits, "concealed": concealed, "odd": False, "even": False,
            "components": [{"suit": s, "number": n, "count": c} for s, n, c in components]}


# mpmahj's symbolic card JSON: it gives no values (a warning); the second line has 13 tiles (left out, a warning).
ORCHARD_JSON = json.dumps({"year": 2026, "sections": [
    {"group_description": "Orchard", "hands": [
        _hand("FF 1111 3333 5555 (any 3 suits)", False,
              [("Flower", 0, 2), ("VSUIT1", 1, 4), ("VSUIT2", 3, 4), ("VSUIT3", 5, 4)], 3),
        _hand("FF 7777 9999 999 (any 2 suits)", False,
              [("Flower", 0, 2), ("VSUIT1", 7, 4), ("VSUIT2", 9, 4), ("VSUIT2", 9, 3)], 2),
        _hand("NN EE WW SS 1111 22 (any 1 suit)", True,
              [("Wind", 1, 2), ("Wind", 2, 2), ("Wind", 4, 2), ("Wind", 3, 2), ("VSUIT1", 1, 4),
               ("VSUIT1", 2, 2)], 1),
    ]},
]}, indent=2)
ORCHARD_JSON_LINES = 2
