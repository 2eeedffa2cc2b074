"""``charleston card ...``: list, show, validate, check and analyze hands against a card."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from bot.cli import card_import, card_proof, classical_card
from bot.cli.common import CARD_HELP, UsageProblem, card_or_explain, count, file_path, plural, print_json
from bot.engine.analysis import LineAnalysis, analyze
from bot.engine.card import Card
from bot.engine.cardfile import HELP, check_card_text
from bot.engine.errors import CardError, TileError
from bot.engine.matching import CheckResult, check
from bot.engine.notation import format_tiles, parse_groups, parse_tiles
from bot.engine.tiles import Tile
from bot.engine.wording import line_name, line_number
from bot.service.cards import (
    DEFAULT_CARDS_DIR,
    card_folders,
    cards_dir,
    load_card_file,
    read_card_file,
    scan_card_files,
)


def register(commands: Any) -> None:
    """Add `charleston card ...` to the command line."""
    parser = commands.add_parser("card", help="look at cards and test hands against them")
    sub = parser.add_subparsers(dest="card_command", required=True, metavar="ACTION")

    p = sub.add_parser("list", help="the cards that are installed")
    p.set_defaults(run=run_list)

    p = sub.add_parser("show", help="every line of a card")
    p.add_argument("--card", required=True, metavar="ID|FILE", help=CARD_HELP)
    p.set_defaults(run=run_show)

    p = sub.add_parser("validate", help="check a card file and list every problem")
    p.add_argument("file", type=file_path, metavar="FILE", help="the card file to check (my-league-2026.toml)")
    p.set_defaults(run=run_validate)

    card_import.register(sub)
    card_proof.register(sub)

    for name, helptext, runner in (("check", "is this rack a Mah Jongg, and on which line?", run_check),
                                   ("analyze", "rank the card's lines by tiles still needed", run_analyze)):
        p = sub.add_parser(name, help=helptext)
        p.add_argument("--card", required=True, metavar="ID|FILE", help=CARD_HELP)
        p.add_argument("--exposed", default="", metavar='"G; G"',
                       help='exposures, groups separated by ";", e.g. "5D 5D J; N N N N"')
        p.add_argument("--json", action="store_true", help="machine-readable output")
        if name == "analyze":
            p.add_argument("--visible", default="", metavar="TILES",
                           help="tiles out of reach: discards and other players' exposed naturals")
            p.add_argument("--top", type=count(0, 10_000), default=0, metavar="N",
                           help="show only the best N lines (0, the default: every line)")
            p.add_argument("--repeat", type=count(1, 100_000), default=1, metavar="N",
                           help="run the analysis N times (for timing from outside) and print once")
        p.add_argument("tiles", nargs="+", metavar="TILES", help='concealed tiles, e.g. "1B 1B 2C RD J"')
        p.set_defaults(run=runner)


def _rack(args: argparse.Namespace) -> tuple[list[Tile], list[list[Tile]]]:
    try:
        return parse_tiles(args.tiles), parse_groups(args.exposed)
    except TileError as exc:
        raise UsageProblem(str(exc)) from None


def run_list(args: argparse.Namespace) -> int:
    """`card list`: the shipped cards and those of ``CHARLESTON_CARDS_DIR``, by their ``[card] id``."""
    folder = cards_dir()
    if not folder.is_dir():
        raise UsageProblem(f"the cards folder {folder} does not exist (check CHARLESTON_CARDS_DIR)")
    found = scan_card_files()
    if not found:
        print(f"No cards installed in {folder}.")
        return 0
    if len(card_folders()) > 1 and not any(x.path.parent != DEFAULT_CARDS_DIR for x in found):
        print(f"No cards of your own in {folder} yet (CHARLESTON_CARDS_DIR); the shipped ones:")
    for entry in found:
        if entry.hidden_by is not None:
            print(f"charleston: skipped {entry.path}: its [card] id '{entry.card_id}' is already the id of "
                  f"{entry.hidden_by.name}; give one of them another id", file=sys.stderr)
            continue
        try:
            card = load_card_file(entry.path)
        except CardError as exc:
            # Reported and skipped: one bad file never hides the others.
            print(f"charleston: skipped {entry.path}: {exc.problems[0]} ({plural(len(exc.problems), 'problem')}; run "
                  f"'charleston card validate {entry.path}')", file=sys.stderr)
            continue
        where = "" if entry.path.parent == DEFAULT_CARDS_DIR else f"  [{entry.path}" + (
            ", replaces the shipped card" if entry.replaces is not None else "") + "]"
        print(f"{entry.card_id:<14} {card.name} ({len(card.lines)} lines){where}")
    return 0


def run_show(args: argparse.Namespace) -> int:
    """`card show`: one card's lines, each named as the card prints it (``2468 #1``)."""
    card = card_or_explain(args.card)
    print(f"{card.name} [{card.id}]" + (f", {card.year}" if card.year else ""))
    if card.ruleset == "classical":
        print("No card lines: a hand is four sets (chows, pungs or kongs) and a pair (docs/rules.md §9).")
    for section in card.sections:
        print(f"\n{section}")
        for line in (x for x in card.lines if x.section == section):
            note = f"  ({line.note})" if line.note else ""
            print(f"  #{line_number(card, line):<3} {line.printed()}{note}   [{line.id}]")
    return 0


def run_validate(args: argparse.Namespace) -> int:
    """`card validate`: check a card file; 1 if it has problems (warnings alone leave it usable: 0)."""
    text = read_card_file(args.file)
    report = check_card_text(text, source=args.file)
    for problem in report.problems:
        print(problem, file=sys.stderr)
    for warning in report.warnings:  # the report itself, like "ok": a card with warnings is a usable card
        print(warning)
    warned = f"; {plural(len(report.warnings), 'warning')}" if report.warnings else ""
    if report.problems or report.card is None:
        print(f"{plural(len(report.problems), 'problem')} found{warned}. How to write each kind of line: "
              f"the tutorial at the top of {HELP}.", file=sys.stderr)
        return 1
    card = report.card
    print(f"ok: {card.id}, {plural(len(card.lines), 'line')}, {plural(card.variant_count, 'concrete variant')}{warned}")
    stem = Path(args.file).stem
    if stem != card.id:
        # One id rule: the [card] id is the card's id wherever the file is; a different name only misleads.
        print(f"note: {args.file} is named '{stem}' but its [card] id is '{card.id}': it is card '{card.id}' "
              f"everywhere (card list, --card {card.id}); rename the file {card.id}.toml to avoid confusion",
              file=sys.stderr)
    return 0


def _check_json(card: Card, result: CheckResult) -> dict[str, Any]:
    return {"mahjong": result.mahjong,
            "matches": [{"hand": m.line.id, "name": line_name(card, m.line), "section": m.line.section,
                         "value": m.line.value,
                         "exposed": m.exposed, "jokerless": m.jokerless} for m in result.matches]}


def run_check(args: argparse.Namespace) -> int:
    """`card check`: whether a rack is Mah Jongg on a card, and on which line."""
    card = card_or_explain(args.card)
    concealed, exposures = _rack(args)
    if card.ruleset == "classical":
        return classical_card.run_check(concealed, exposures, args.json)
    try:
        result = check(card, concealed, exposures)
    except TileError as exc:
        raise UsageProblem(str(exc)) from None
    if args.json:
        print_json(_check_json(card, result))
        return 0
    if not result.mahjong:
        print("Not a Mah Jongg on this card. Try 'charleston card analyze' to see the closest lines.")
        return 0
    for match in result.matches:
        bonus = " jokerless" if match.pays_jokerless else ""
        print(f"Mah Jongg: {line_name(card, match.line)} {match.line.mark} {match.line.value}{bonus}")
        print(f"  {match.describe()}")
    return 0


def _analysis_json(card: Card, item: LineAnalysis) -> dict[str, Any]:
    return {"hand": item.line.id, "name": line_name(card, item.line), "section": item.line.section,
            "value": item.line.value, "missing": item.missing, "need": format_tiles(item.need).split(),
            "possible": item.possible}


def run_analyze(args: argparse.Namespace) -> int:
    """`card analyze`: a rack's closest card lines and what each still needs."""
    card = card_or_explain(args.card)
    concealed, exposures = _rack(args)
    if card.ruleset == "classical":
        return classical_card.run_analyze(concealed, exposures, args.json)
    try:
        visible = parse_tiles(args.visible) if args.visible.strip() else []
        for _ in range(args.repeat):
            ranked = analyze(card, concealed, exposures, visible)
    except TileError as exc:
        raise UsageProblem(str(exc)) from None
    shown = ranked[: args.top] if args.top else ranked
    if args.json:
        print_json({"hands": [_analysis_json(card, item) for item in shown]})
        return 0
    width = max([len(line_name(card, item.line)) for item in shown] + [4])
    print(f"{'line':<{width}} {'value':>5} {'missing':>7}  need")
    for item in shown:
        need = format_tiles(item.need) if item.need else "-"
        flag = "" if item.possible else "  (no longer possible)"
        print(f"{line_name(card, item.line):<{width}} {item.line.value:>5} {item.missing:>7}  "
              f"{need}{flag}")
    return 0
