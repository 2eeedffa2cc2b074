"""``charleston card import FILE --format ra|mpmahj|toml|auto --out OUT.toml``: another tool's card file (or a
Charleston TOML card) written as a Charleston card whose id is OUT's name (docs/card-format.md, "Importing a
card")."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from bot.cli.card_proof import proof_hint
from bot.cli.common import UsageProblem, file_path, plural, same_file
from bot.engine.cardimport import FORMAT_NAMES
from bot.service.card_import import FORMATS, ImportProblem, import_card_path

_ID_RULE = "letters, digits, '-' and '_', starting with a letter or digit, at most 40"


def register(sub: Any) -> None:
    """Add ``card import`` to ``charleston card``."""
    p = sub.add_parser("import", help="write another tool's card file (riichi_advanced .jq, mpmahj .json) as a "
                       "Charleston card", description="Read a card file and write it as a Charleston card; OUT's "
                       "name is the card's id. Every line that could not be carried exactly, or looks wrong, is one "
                       "warning naming the source line; a line that cannot be made valid is left out (kept in OUT "
                       "as a comment).")
    p.add_argument("file", type=file_path, metavar="FILE",
                   help="the other program's card file (.jq, .json) or a Charleston card (.toml)")
    p.add_argument("--format", default="auto", choices=[*FORMATS, "auto"],
                   help="ra: riichi_advanced's American notation (.jq); mpmahj: mpmahj's card JSON; toml: a "
                   "Charleston card; auto (the default): by FILE's ending, else by its content")
    p.add_argument("--out", required=True, type=file_path, metavar="OUT.toml",
                   help="the card file to write; its name is the card's id (spring-2026.toml: spring-2026)")
    p.set_defaults(run=run_import)


def _card_id(out: Path) -> str:
    if out.suffix != ".toml":
        raise UsageProblem(f"--out {out}: give a file name ending in .toml (the card's id, e.g. spring-2026.toml)")
    card_id = out.stem
    if not (card_id[:1].isascii() and card_id[:1].isalnum() and len(card_id) <= 40
            and all(c.isascii() and (c.isalnum() or c in "-_") for c in card_id)):
        raise UsageProblem(f"--out {out}: the file's name is the card's id, so it may hold only {_ID_RULE} "
                           "characters (e.g. spring-2026.toml)")
    return card_id


def _write(out: Path, text: str) -> None:
    """Write the card whole or not at all: a reader never sees half a card."""
    try:
        if out.is_dir():
            raise UsageProblem(f"--out {out}: that is a folder; give a file name ending in .toml")
        with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=out.parent, prefix=f".{out.name}.",
                                         suffix=".tmp", delete=False) as handle:
            handle.write(text)
        os.replace(handle.name, out)
    except OSError as exc:
        raise UsageProblem(f"--out {out}: cannot write it: {exc.strerror or exc}") from None


def run_import(args: argparse.Namespace) -> int:
    """``card import``: 0 with the card written (warnings on stderr), 2 if the file cannot be imported."""
    out = Path(args.out)
    card_id = _card_id(out)
    if same_file(args.file, out):
        raise UsageProblem(f"--out {out} is the file being imported; give another name")
    try:
        imported = import_card_path(args.file, args.format, card_id)
    except ImportProblem as exc:
        raise UsageProblem(str(exc)) from None
    _write(out, imported.toml)
    for warning in imported.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    left = f", {imported.left_out} left out (see the warnings)" if imported.left_out else ""
    print(f"Wrote {out}: card '{card_id}' from {FORMAT_NAMES[imported.fmt]}, {plural(imported.lines, 'line')}{left}, "
          f"{plural(len(imported.warnings), 'warning')}.")
    print(proof_hint(out))
    return 0
