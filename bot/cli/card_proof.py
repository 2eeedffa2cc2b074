"""``charleston card proof --card ID|FILE --out DIR``: a card's proof sheet, one PNG per section, each line as
printed with one winning hand beneath it, to check against the printed card (README, "Running a league"). """

from __future__ import annotations

import argparse
import re
from pathlib import Path
from typing import Any

from bot.cli.common import WRITE_HELP, UsageProblem, card_or_explain, file_path, output_folder
from bot.engine.card import Card

_NOT_IN_NAME = re.compile(r"[^A-Za-z0-9]+")


def register(sub: Any) -> None:
    """Add ``card proof`` to ``charleston card``."""
    p = sub.add_parser("proof", help="draw a card's proof sheet: every line as printed, with a winning hand",
                       description="Draw the card a page per section (PNG), every line as the card prints it with "
                       "one winning hand beneath it, to check line by line against the printed card.")
    p.add_argument("--card", required=True, metavar="ID|FILE", help="an installed card's id, or a card file")
    p.add_argument("--out", required=True, type=file_path, metavar="DIR",
                   help=f"the folder to write the pages into ({WRITE_HELP})")
    p.set_defaults(run=run_proof)


def proof_hint(card_file: Path) -> str:
    """The command that draws a card file's proof sheet (printed after ``card import``)."""
    return (f"Its proof sheet, to hold next to the printed card: charleston card proof --card {card_file} "
            f"--out {card_file.with_suffix('')}-proof")


def page_name(card: Card, number: int, section: str) -> str:
    """``practice-proof-03-consecutive-run.png``: sorted as the card is, named for the section."""
    slug = _NOT_IN_NAME.sub("-", section).strip("-").lower()[:40] or "section"
    return f"{card.id}-proof-{number:02d}-{slug}.png"


def run_proof(args: argparse.Namespace) -> int:
    """``card proof``: one PNG per section of the card in DIR."""
    from renderers import render_proof_pages  # Pillow only when drawing

    card = card_or_explain(args.card)
    if not card.lines:
        raise UsageProblem(f"card '{card.id}' has no lines to proof (the classical game: four sets and a pair)")
    out = output_folder(args.out, "--out")
    pages = render_proof_pages(card)
    sections = [s for s in card.sections if any(x.section == s for x in card.lines)]
    written = []
    for number, (section, page) in enumerate(zip(sections, pages, strict=True), 1):
        target = out / page_name(card, number, section)
        try:
            target.write_bytes(page.png)
        except OSError as exc:
            raise UsageProblem(f"--out {out}: cannot write {target.name}: {exc.strerror or exc}") from None
        written.append(target)
    print(f"Wrote the proof sheet of {card.name} ({len(card.lines)} lines) to {out}/, a page per section:")
    for target in written:
        print(f"  {target.name}")
    print("Check each line against the printed card: the tiles, the colours, the note, X or C and the value.")
    return 0
