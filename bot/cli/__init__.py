"""The ``charleston`` command line. Each command group lives in its own module and registers itself here.

Every error a user can cause ends the same way: one line on stderr naming the file or option and what is wrong,
and exit status 2. Anything else is a bug: a short message, the traceback only with ``--debug``, status 70.
"""

from __future__ import annotations

import argparse
import os
import sys
import traceback
from collections.abc import Sequence
from typing import NoReturn

from bot.cli import botcmd, card, dbcmd, fairness, league, play, render, replay, sample, stats, train
from bot.cli.common import UsageProblem, fill_defaults
from bot.service.files import FileProblem
from bot.settings import SettingsError
from bot.store.db import DatabaseProblem
from bot.store.integrity import BrokenNumber

BAD_INPUT = 2
PROBLEMS_FOUND = 1  # as `ledger verify` and `card validate` report what they found
INTERNAL_ERROR = 70  # EX_SOFTWARE
MESSAGE_LIMIT = 400


class Parser(argparse.ArgumentParser):
    """argparse, but a mistake on the command line is one line (what is wrong, and where to read more) instead of
    the usage block."""

    def error(self, message: str) -> NoReturn:
        """A usage mistake as one line (UsageProblem), never argparse's own exit."""
        raise UsageProblem(f"{message} (see '{self.prog} --help')")


def build_parser() -> argparse.ArgumentParser:
    """The whole command line: every command group's sub-commands and options."""
    parser = Parser(prog="charleston", description="American Mah Jongg (NMJL style) tools.")
    parser.add_argument("--debug", action="store_true",
                        help="on an unexpected error, print the traceback (may also follow the command)")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    card.register(commands)
    replay.register(commands)
    play.register(commands)
    league.register(commands)
    fairness.register(commands)
    stats.register(commands)
    dbcmd.register(commands)
    render.register(commands)
    botcmd.register(commands)
    train.register(commands)
    sample.register(commands)
    return parser


def one_line(text: str) -> str:
    """A message as one line of bounded length."""
    flat = " ".join(text.split())
    return flat if len(flat) <= MESSAGE_LIMIT else flat[:MESSAGE_LIMIT - 3] + "..."


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; returns the exit status (0 done, 1 problems found, 2 bad input, 70 a bug)."""
    words = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in words
    words = [w for w in words if w != "--debug"]
    try:
        args = build_parser().parse_args(words)
    except UsageProblem as problem:
        return _refuse(str(problem))
    except SystemExit as done:  # --help
        return done.code if isinstance(done.code, int) else 0
    try:
        fill_defaults(args)
        result: int = args.run(args)
    except (UsageProblem, FileProblem, DatabaseProblem, SettingsError) as problem:  # SettingsError: a broken .env
        return _refuse(str(problem))
    except BrokenNumber as problem:  # the record itself is damaged, not the command line
        print(one_line(f"charleston: {problem}"), file=sys.stderr)
        return PROBLEMS_FOUND
    except KeyboardInterrupt:
        print("charleston: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. piped into head: the reader has all it wanted
        _silence_stdout()
        return 0
    except Exception as exc:
        if debug:
            traceback.print_exc()
        hint = "" if debug else "; run it again with --debug to see where"
        print(one_line(f"charleston: unexpected error ({type(exc).__name__}: {exc}). This is a bug in Charleston, "
                       f"not in your input{hint}."), file=sys.stderr)
        return INTERNAL_ERROR
    return result


def _refuse(message: str) -> int:
    print(one_line(f"charleston: {message}"), file=sys.stderr)
    return BAD_INPUT


def _silence_stdout() -> None:
    # Python flushes stdout again at exit; pointing it at /dev/null keeps that from raising a second time.
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass
