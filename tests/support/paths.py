"""Where things are in the checkout, for tests in any folder: the root, the tests folder, the docs."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests"
DOCS = ROOT / "docs"
