"""``charleston card proof --card ID|FILE --out DIR``: a card's proof sheet, one PNG per section, each line as
printed with one winning hand beneath it, to check against the printed card (README, "Running a league"). Also
the hint printed after ``charleston card import``: the command that makes the imported card's sheet."""

from __future__ import annotations

import argparse
import re
from pathlib import Path
from typing import Any

from bot.cli.common import UsageProblem, card_or_explain, file_path
from bot.engine.card import Card
from bot.engine.errors import CardError
from bot.service.cards import load_card_file

_NOT_IN_NAME = re.compile(r"[^A-Za-z0-9]+")


def register(sub: Any) -> None:
    """Add ``card proof`` to ``charleston card``, and the proof hint to ``card import``."""
    p = sub.add_parser("proof", help="draw a card's proof sheet: every line as printed, with a winning hand",
                       description="Draw the card a page per section (PNG), every line as the card prints it with "
                       "one winning hand beneath it, to check line by line against the printed card.")
    p.add_argument("--card", required=True, metavar="ID|FILE", help="an installed card's id, or a card file")
    p.add_argument("--out", required=True, type=file_path, metavar="DIR",
                   help="the folder to write the pages into (made if missing)")
    p.set_defaults(run=run_proof)
    imports = sub.choices.get("import")
    if imports is not None:  # wrap its runner: the hint is printed only after a successful import
        plain = imports.get_default("run")
        imports.set_defaults(run=lambda args: _import_then_hint(plain, args))


def _import_then_hint(plain: Any, args: argparse.Namespace) -> int:
    status: int = plain(args)
    if status == 0:
        out = Path(args.out)
        print(f"Its proof sheet, to hold next to the printed card: charleston card proof --card {out} "
              f"--out {out.with_suffix('')}-proof")
    return status


def card_from(text: str) -> Card:
    """A card named by id, or by the path of a card file (anything with a ``.toml`` ending or a path that
    exists)."""
    path = Path(text)
    if text.endswith(".toml") and not path.exists():
        raise UsageProblem(f"--card {text}: no such file; give a card file, or an installed card's id (see "
                           "'charleston card list')")
    if text.endswith(".toml") or path.is_file():
        try:
            return load_card_file(path)
        except CardError as exc:
            raise UsageProblem(f"{text}: {exc.problems[0]} ({len(exc.problems)} problem(s); run "
                               f"'charleston card validate {text}')") from None
    return card_or_explain(text)


def page_name(card: Card, number: int, section: str) -> str:
    """``practice-proof-03-consecutive-run.png``: sorted as the card is, named for the section."""
    slug = _NOT_IN_NAME.sub("-", section).strip("-").lower()[:40] or "section"
    return f"{card.id}-proof-{number:02d}-{slug}.png"


def run_proof(args: argparse.Namespace) -> int:
    """``card proof``: one PNG per section of the card in DIR."""
    from renderers import render_proof_pages  # Pillow only when drawing

    card = card_from(args.card)
    if not card.lines:
        raise UsageProblem(f"card '{card.id}' has no lines to proof (the classical game: four sets and a pair)")
    out = Path(args.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageProblem(f"--out {out}: cannot make that folder: {exc.strerror or exc}") from None
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
