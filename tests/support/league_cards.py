"""An invented card file for league tests (not any published card)."""

from __future__ import annotations

GOOD = b"""# An invented card for tests (not any published card).
[card]
id = "garden"
name = "Garden Club card"
year = 2026

[[hand]]
id = "g-1"
section = "Garden"
pattern = "FFFF 1111a 2222a 33a"
exposed = true
value = 25

[[hand]]
id = "g-2"
section = "Garden"
pattern = "NNN EEE WWW SSSS F"
exposed = false
value = 30
"""


