"""The ``charleston`` command line. Each command group lives in its own module and registers itself here."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from bot.cli import botcmd, card, league, play, render, replay
from bot.cli.common import UsageProblem


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="charleston", description="American Mah Jongg (NMJL style) tools.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    card.register(commands)
    replay.register(commands)
    play.register(commands)
    league.register(commands)
    render.register(commands)
    botcmd.register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        result: int = args.run(args)
    except UsageProblem as problem:
        print(f"charleston: {problem}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. piped into head
        return 0
    return result
