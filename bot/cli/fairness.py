"""``charleston fairness verify``: every recorded game's deal checked against its published commitment
(docs/rules.md, *Provable deals*)."""

from __future__ import annotations

import argparse
from typing import Any

from bot.cli.common import UsageProblem, add_db_option, count, with_database
from bot.service.fairness import verify_deals
from bot.store.db import Database

MAX_GAME = 2**63 - 1


def register(commands: Any) -> None:
    """Add `charleston fairness verify` to the command line."""
    p = commands.add_parser("fairness", help="check that the deals were not changed after they were dealt")
    sub = p.add_subparsers(dest="fairness_command", required=True, metavar="ACTION")
    v = sub.add_parser("verify", help="deal every recorded game again from its seed and compare its commitment")
    add_db_option(v)
    v.add_argument("--game", type=count(1, MAX_GAME), default=None, metavar="N",
                   help="one game (its number in the database, as the results and /ledger name it); default: every one")
    v.set_defaults(run=run_verify)


def run_verify(args: argparse.Namespace) -> int:
    """`fairness verify`: 0 when every deal matches its commitment, 1 naming each game that does not."""
    async def work(db: Database) -> int:
        report = await verify_deals(db, args.game)
        if args.game is not None and not report.shown:
            raise UsageProblem(f"{db.path} has no game {args.game} dealt by the bot")
        for line in report.shown:
            print(line)
        for line in report.not_replayed:
            print(f"note: {line}")
        games = f"{report.checked} game{'s' if report.checked != 1 else ''}"
        unsealed = (f"; {report.unsealed} dealt before deals were sealed, with no commitment to check"
                    if report.unsealed else "")
        if report.ok:
            print(f"ok: {games} checked, each deal matches its published commitment and its recorded play "
                  f"follows from it{unsealed}")
            return 0
        for mismatch in report.mismatches:
            print(f"MISMATCH {mismatch.line()}")
        print(f"{len(report.mismatches)} of {games} checked do not match{unsealed}")
        return 1

    # a seed typed over is that game's MISMATCH in the report (bot/service/fairness.py), the others still checked
    return with_database(args.db, work, readonly=True, numbers_checked=True, judged_elsewhere=frozenset({"games.seed"}))
