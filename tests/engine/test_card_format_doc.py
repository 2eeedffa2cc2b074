"""docs/card-format.md holds what it teaches: every example line in it is a valid line, and every section a
validator message points at exists there."""

from __future__ import annotations

import re

import pytest
from support.paths import DOCS, ROOT

from bot.engine.cardfile import check_card_text

DOC = (DOCS / "card-format.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"```toml\n(.*?)```", DOC, flags=re.S)
DEFAULTS = {"id": '"example"', "section": '"S"', "exposed": "true", "value": "25"}


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it: small letters, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^a-z0-9 _-]", "", heading.strip().lower()).replace(" ", "-")


def as_card(block: str) -> str:
    """A block of the doc as a whole card file: a lone [[hand]] or bare keys get a [card] and the keys they omit."""
    if "[card]" in block and "[[hand]]" in block:
        return block
    body = block if "[[hand]]" in block else "[[hand]]\n" + block
    keys = set(re.findall(r"^(\w+) =", body, flags=re.M))
    body += "".join(f"{key} = {value}\n" for key, value in DEFAULTS.items() if key not in keys)
    wild = 'wild = "flower"\n' if "1946" in block else ""
    return f'[card]\nid = "doc"\nname = "Doc"\n{wild}\n{body}'


@pytest.mark.parametrize("block", [b for b in BLOCKS if "pattern" in b], ids=lambda b: b.split("\n")[0][:40])
def test_every_example_line_in_the_card_format_doc_is_a_valid_line(block: str) -> None:
    report = check_card_text(as_card(block), "docs/card-format.md")
    assert report.problems == [], block


def test_every_section_a_validator_message_points_at_is_a_heading_of_the_doc() -> None:
    anchors = {slug(h) for h in re.findall(r"^#+ (.+)$", DOC, flags=re.M)}
    engine = ROOT / "bot" / "engine"
    text = "\n".join(p.read_text(encoding="utf-8") for p in [*engine.glob("card*.py"), engine / "pattern.py"])
    pattern = (engine / "pattern.py").read_text(encoding="utf-8")
    topics = (set(re.findall(r'see\("([a-z0-9-]+)"\)', text))  # the card's and the lines' problems
              | set(re.findall(r'"([a-z0-9]+(?:-[a-z0-9]+)+)"', pattern))  # a pattern's problems
              | set(re.findall(r'return "([a-z0-9-]+)"', pattern))
              | set(re.findall(r"docs/card-format\.md#([a-z0-9-]+)", text)))  # TOML's
    assert {"typing-toml", "years", "counting-to-14", "colours-and-suit-letters", "patterns"} <= topics
    assert topics - anchors == set()
