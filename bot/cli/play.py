"""``charleston simulate`` and ``charleston demo``: computer players through the real engine."""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path
from typing import Any

from bot.ai.players import LEVELS
from bot.cli.common import UsageProblem, print_json
from bot.cli.demo import run_demo, write_images
from bot.cli.simulate import simulate, simulate_recorded
from bot.engine.errors import CardError
from bot.engine.rules import RulesError, table_rules
from bot.service.cards import UnknownCard, load_card
from bot.store.db import default_db_path


def register(commands: Any) -> None:
    p = commands.add_parser("simulate", help="play many games between computer players")
    p.add_argument("--games", type=int, default=100, metavar="N")
    p.add_argument("--seed", type=int, default=1, metavar="S")
    p.add_argument("--players", default="normal,normal,normal,normal", metavar="L1,L2,L3,L4",
                   help=f"a level per seat: {', '.join(LEVELS)}")
    p.add_argument("--card", default=None, metavar="ID", help="card id (default: practice, or nmjl-1946 with "
                   "--rules nmjl-1946)")
    p.add_argument("--rules", default="nmjl", metavar="PRESET", help="rules preset: nmjl, nmjl-1946 or classical")
    p.add_argument("--log", default=None, metavar="DIR", help="write every game to DIR as a replay file")
    p.add_argument("--db", default=None, metavar="PATH", help="play through the table service and record every game")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=run_simulate)

    p = commands.add_parser("demo", help="watch one game between four computer players")
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--level", default="normal", choices=[lv for lv in LEVELS if lv != "random"])
    p.add_argument("--rules", default="nmjl", metavar="PRESET", help="rules preset: nmjl, nmjl-1946 or classical")
    p.add_argument("--delay", type=float, default=0.0, metavar="SECONDS", help="pause between lines")
    p.add_argument("--db", default=None, metavar="PATH",
                   help="record the game in this database (default: $CHARLESTON_DB or ./charleston.db)")
    p.add_argument("--no-db", action="store_true", help="do not record the game")
    p.add_argument("--images", default="demo-images", metavar="DIR",
                   help="write the final table, each rack and the winning line here (default: demo-images)")
    p.add_argument("--no-images", action="store_true", help="do not write images")
    p.set_defaults(run=run_demo_command)


def _levels(text: str) -> list[str]:
    levels = [part.strip() for part in text.split(",")]
    if len(levels) != 4:
        raise UsageProblem(f"--players needs four levels separated by commas, e.g. normal,random,random,random "
                           f"(got {len(levels)})")
    for level in levels:
        if level not in LEVELS:
            raise UsageProblem(f"unknown level '{level}': choose from {', '.join(LEVELS)}")
    return levels


class ProgressBar:
    """A one-line bar on stderr, redrawn at most ten times a second."""

    def __init__(self) -> None:
        self.last = 0.0

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if done < total and now - self.last < 0.1:
            return
        self.last = now
        width = 30
        filled = width * done // total
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games")
        if done == total:
            sys.stderr.write("\n")
        sys.stderr.flush()


def run_simulate(args: argparse.Namespace) -> int:
    if args.games < 1:
        raise UsageProblem("--games must be at least 1")
    levels = _levels(args.players)
    try:
        card_id = args.card or table_rules(args.rules).card  # the preset's own card
        card = load_card(card_id)
        rules = table_rules(args.rules, card=card.id)
    except (UnknownCard, RulesError) as exc:
        raise UsageProblem(str(exc)) from None
    except CardError as exc:
        raise UsageProblem(f"card '{card_id}' is broken: {exc.problems[0]}") from None
    progress = ProgressBar() if args.games >= 20 else None
    if args.db and args.log:
        raise UsageProblem("--log and --db don't go together: a recorded game's replay is in the database")
    try:
        if args.db:
            result = asyncio.run(simulate_recorded(args.db, args.games, args.seed, levels, card=card, rules=rules,
                                                   progress=progress))
        else:
            result = simulate(args.games, args.seed, levels, card=card, rules=rules,
                              log_dir=Path(args.log) if args.log else None, progress=progress)
    except RulesError as exc:
        raise UsageProblem(str(exc)) from None
    if args.json:
        print_json(result.to_json())
        return 0
    print(f"{result.games} games on {card.id} ({args.rules}), players {', '.join(levels)}")
    print(f"  Mah Jongg {result.mahjong} ({result.mahjong / result.games:.0%}), wall games {result.wall_games}")
    print(f"  wins by seat {result.wins_by_seat}; self-picks {result.self_picks}; jokerless {result.jokerless}")
    print(f"  {result.avg_turns} discards a game; {result.games_per_sec} games/s")
    return 0


def run_demo_command(args: argparse.Namespace) -> int:
    def say(line: str) -> None:
        print(line, flush=True)
        if args.delay > 0:
            time.sleep(args.delay)

    try:
        table_rules(args.rules)
    except RulesError as exc:
        raise UsageProblem(str(exc)) from None
    game = run_demo(args.seed, args.level, say, None if args.no_db else (args.db or default_db_path()), args.rules)
    if not args.no_images:
        paths = write_images(game, Path(args.images))
        say(f"Images: {', '.join(str(p) for p in paths)}")
    return 0
