"""``charleston card ...``: list, show, validate, check and analyze hands against a card."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from bot.cli import classical_card
from bot.cli.common import UsageProblem, card_or_explain, count, file_path, plural, print_json
from bot.engine.analysis import LineAnalysis, analyze
from bot.engine.cardfile import HELP, check_card_text
from bot.engine.errors import CardError, TileError
from bot.engine.matching import CheckResult, check
from bot.engine.notation import format_tiles, parse_groups, parse_tiles
from bot.engine.tiles import Tile
from bot.service.cards import card_files, cards_dir, load_card_file, read_card_file


def register(commands: Any) -> None:
    """Add `charleston card ...` to the command line."""
    parser = commands.add_parser("card", help="look at cards and test hands against them")
    sub = parser.add_subparsers(dest="card_command", required=True, metavar="ACTION")

    p = sub.add_parser("list", help="the cards that are installed")
    p.set_defaults(run=run_list)

    p = sub.add_parser("show", help="every line of a card")
    p.add_argument("--card", required=True, metavar="ID")
    p.set_defaults(run=run_show)

    p = sub.add_parser("validate", help="check a card file and list every problem")
    p.add_argument("file", type=file_path)
    p.set_defaults(run=run_validate)

    for name, helptext, runner in (("check", "is this rack a Mah Jongg, and on which line?", run_check),
                                   ("analyze", "rank the card's lines by tiles still needed", run_analyze)):
        p = sub.add_parser(name, help=helptext)
        p.add_argument("--card", required=True, metavar="ID")
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
    """`card list`: the installed cards."""
    folder = cards_dir()
    if not folder.is_dir():
        raise UsageProblem(f"the cards folder {folder} does not exist (check CHARLESTON_CARDS_DIR)")
    files = card_files()
    if not files:
        print(f"No cards installed in {folder}.")
        return 0
    for card_id, path in files.items():
        try:
            card = load_card_file(path)
        except CardError as exc:
            # Reported and skipped: one bad file never hides the others.
            print(f"charleston: skipped {path}: {exc.problems[0]} ({plural(len(exc.problems), 'problem')}; run "
                  f"'charleston card validate {path}')", file=sys.stderr)
            continue
        print(f"{card_id:<14} {card.name} ({len(card.lines)} lines)")
    return 0


def run_show(args: argparse.Namespace) -> int:
    """`card show`: one card's lines."""
    card = card_or_explain(args.card)
    print(f"{card.name} [{card.id}]" + (f", {card.year}" if card.year else ""))
    if card.ruleset == "classical":
        print("No card lines: a hand is four sets (chows, pungs or kongs) and a pair (docs/rules.md §9).")
    for section in card.sections:
        print(f"\n{section}")
        for line in (x for x in card.lines if x.section == section):
            print(f"  {line.id:<12} {line.printed()}")
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
    return 0


def _check_json(result: CheckResult) -> dict[str, Any]:
    return {"mahjong": result.mahjong,
            "matches": [{"hand": m.line.id, "section": m.line.section, "value": m.line.value,
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
        print_json(_check_json(result))
        return 0
    if not result.mahjong:
        print("Not a Mah Jongg on this card. Try 'charleston card analyze' to see the closest lines.")
        return 0
    for match in result.matches:
        bonus = " jokerless" if match.pays_jokerless else ""
        print(f"Mah Jongg: {match.line.id} ({match.line.section}) {match.line.mark} {match.line.value}{bonus}")
        print(f"  {match.describe()}")
    return 0


def _analysis_json(item: LineAnalysis) -> dict[str, Any]:
    return {"hand": item.line.id, "section": item.line.section, "value": item.line.value,
            "missing": item.missing, "need": format_tiles(item.need).split(), "possible": item.possible}


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
        print_json({"hands": [_analysis_json(item) for item in shown]})
        return 0
    print(f"{'hand':<12} {'section':<18} {'value':>5} {'missing':>7}  need")
    for item in shown:
        need = format_tiles(item.need) if item.need else "-"
        flag = "" if item.possible else "  (no longer possible)"
        print(f"{item.line.id:<12} {item.line.section[:18]:<18} {item.line.value:>5} {item.missing:>7}  "
              f"{need}{flag}")
    return 0
