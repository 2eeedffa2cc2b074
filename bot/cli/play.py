"""``charleston simulate`` and ``charleston demo``: computer players through the real engine."""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys
import time
from pathlib import Path
from typing import Any

from bot.ai.players import EXPERIMENTAL_LEVELS, LEVELS, SLIP, parse_level
from bot.cli import paired
from bot.cli.common import (
    WRITE_HELP,
    UsageProblem,
    card_or_explain,
    count,
    database_errors,
    database_to_write,
    db_target,
    file_path,
    folder_path,
    output_file,
    output_folder,
    plural,
    print_json,
    seconds,
    seed,
)
from bot.cli.demo import run_demo, write_images
from bot.cli.simulate import simulate, simulate_recorded
from bot.engine.card import Card
from bot.engine.rules import RulesError, TableRules, table_rules

PAIRED_LEVELS = (*LEVELS, *EXPERIMENTAL_LEVELS)


def register(commands: Any) -> None:
    """Add `charleston simulate` and `demo` to the command line."""
    p = commands.add_parser("simulate", help="play many games between computer players")
    p.add_argument("--games", type=count(1, 10_000_000), default=100, metavar="N", help="games to play (default 100)")
    p.add_argument("--seed", type=seed, default=1, metavar="S",
                   help="the run's seed (default 1): the same seed, levels and card play the same games")
    p.add_argument("--players", default="normal,normal,normal,normal", metavar="L1,L2,L3,L4",
                   help=f"a level per seat: {', '.join(LEVELS)}")
    p.add_argument("--card", default=None, metavar="ID|FILE", help="card id or card file (default: practice, "
                   "or nmjl-1946 with --rules nmjl-1946)")
    p.add_argument("--rules", default="nmjl", metavar="PRESET", help="rules preset: nmjl, nmjl-1946 or classical")
    p.add_argument("--log", type=folder_path, default=None, metavar="DIR",
                   help=f"write every game to the folder DIR as a replay file ({WRITE_HELP})")
    p.add_argument("--db", type=db_target, default=None, metavar="DB",
                   help="play through the table service and record every game in this database (made if new; "
                   f"{WRITE_HELP}); computers only, so the standings stay empty")
    p.add_argument("--json", action="store_true",
                   help="one line of JSON: games, Mah Jongg, wall games, wins and chips by seat, self-picks...")
    p.set_defaults(run=run_simulate)

    p = commands.add_parser("paired", help="compare two computer levels on the same deals (candidate against "
                            "baseline)", description="Play every deal twice, once with the candidate in a seat and "
                            "once with the baseline, the other seats the baseline both times, and report the "
                            "differences with 95% confidence intervals.")
    p.add_argument("--candidate", default="hard", metavar="LEVEL", help=f"one of {', '.join(PAIRED_LEVELS)}")
    p.add_argument("--baseline", default="normal", metavar="LEVEL", help="the level in the other seats too")
    p.add_argument("--seeds", type=seed_list, default=[1], metavar="S[-T][,...]",
                   help="seeds to pool, e.g. 101-110 or 1,5,9")
    p.add_argument("--games", type=count(1, 1_000_000), default=100, metavar="N", help="deals per seed")
    p.add_argument("--card", default=None, metavar="ID|FILE", help="card id or card file (default: the preset's)")
    p.add_argument("--rules", default="nmjl", metavar="PRESET",
                   help="rules preset: nmjl, nmjl-1946 or classical")
    p.add_argument("--jsonl", type=file_path, default=None, metavar="FILE",
                   help=f"append every deal to FILE as it is played (one JSON object a line; {WRITE_HELP})")
    p.add_argument("--summary", type=file_path, nargs="+", default=None, metavar="FILE",
                   help="play nothing: summarise deals recorded with --jsonl (several files pool)")
    p.add_argument("--versus", type=file_path, nargs="+", default=None, metavar="FILE",
                   help="with --summary: compare its candidate with the candidate recorded in these files, on the "
                   "deals both played")
    p.add_argument("--json", action="store_true", help="the summary (or the --versus comparison) as one line "
                   "of JSON")
    p.set_defaults(run=run_paired)

    p = commands.add_parser("demo", help="watch one game between four computer players (writes no file unless "
                            "asked)")
    p.add_argument("--seed", type=seed, default=2026, help="the deal's seed (default 2026): another number "
                   "deals another game")
    p.add_argument("--level", default="hard", choices=LEVELS,
                   help="the computer players' level: hard (the default, the strongest), normal, easy or random")
    p.add_argument("--rules", default="nmjl", metavar="PRESET", help="rules preset: nmjl, nmjl-1946 or classical")
    p.add_argument("--delay", type=seconds(10), default=0.0, metavar="SECONDS", help="pause between lines")
    p.add_argument("--db", type=db_target, default=None, metavar="DB",
                   help=f"play through the table service and record the game in this database ({WRITE_HELP})")
    p.add_argument("--images", type=folder_path, default=None, metavar="DIR",
                   help=f"write the final table, each rack and the winning line to this folder ({WRITE_HELP})")
    # Recording and images used to be on by default; these stay accepted so old scripts keep working.
    p.add_argument("--no-db", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--no-images", action="store_true", help=argparse.SUPPRESS)
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
    """A one-line bar on stderr, redrawn at most ten times a second; only on a terminal (redrawing writes carriage
    returns, which would fill a log)."""

    def __init__(self) -> None:
        self.last = 0.0

    @staticmethod
    def wanted(games: int) -> bool:
        """Whether a run of ``games`` gets a bar: long enough to wait for, and stderr is a terminal."""
        return games >= 20 and sys.stderr.isatty()

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


def _card_and_rules(args: argparse.Namespace) -> tuple[Card, TableRules]:
    """The card (--card, an id or a file, else the preset's own) and the rules (--rules) a command asked for, or
    a refusal."""
    try:
        card = card_or_explain(args.card or table_rules(args.rules).card)
        return card, table_rules(args.rules, card=card.id)
    except RulesError as exc:
        raise UsageProblem(str(exc)) from None


def run_simulate(args: argparse.Namespace) -> int:
    """`simulate`: many games between computer players, summarised."""
    levels = _levels(args.players)
    card, rules = _card_and_rules(args)
    progress = ProgressBar() if ProgressBar.wanted(args.games) else None
    if args.db and args.log:
        raise UsageProblem("--log and --db don't go together: a recorded game's replay is in the database")
    log_dir = output_folder(args.log, "--log") if args.log else None
    if args.db:
        database_to_write(args.db)
    try:
        if args.db:
            with database_errors(args.db):
                result = asyncio.run(simulate_recorded(args.db, args.games, args.seed, levels, card=card,
                                                       rules=rules, progress=progress))
        else:
            result = simulate(args.games, args.seed, levels, card=card, rules=rules, log_dir=log_dir,
                              progress=progress)
    except RulesError as exc:
        raise UsageProblem(str(exc)) from None
    except OSError as exc:  # a replay file that cannot be written into --log
        raise UsageProblem(f"cannot write into {args.log}: {exc.strerror or exc}") from None
    if args.json:
        print_json(result.to_json())
        return 0
    print(f"{plural(result.games, 'game')} on {card.id} ({args.rules}), players {', '.join(levels)}")
    print(f"  Mah Jongg {result.mahjong} ({result.mahjong / result.games:.0%}), wall games {result.wall_games}")
    print(f"  wins by seat {result.wins_by_seat}; chips by seat {result.chips_by_seat}")
    print(f"  self-picks {result.self_picks}; jokerless {result.jokerless}")
    print(f"  {result.avg_turns} discards a game; {result.games_per_sec} games/s")
    if args.db:
        print(f"  recorded in {args.db}; computer players are not in the standings ('charleston sample-week' "
              "records a week of named players)")
    return 0


def seed_list(text: str) -> list[int]:
    """An argparse type: seeds as ``101-110`` or ``1,5,9`` (or both, comma-separated)."""
    seeds: list[int] = []
    try:
        for part in text.split(","):
            low, dash, high = part.strip().partition("-")
            if dash and not high.strip():
                raise ValueError  # "9201-" is a range missing its end, not one seed
            if not all(re.fullmatch(r"[0-9]{1,10}", n.strip()) for n in (low, high or low)):
                raise ValueError  # ASCII digits: int() would also read "١٢" or "1_0"
            first, last = int(low), int(high or low)
            if not 0 <= first <= last <= 2**31 or last - first > 100_000:
                raise ValueError
            seeds.extend(range(first, last + 1))
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text[:40]}' is not a list of seeds: give e.g. 101-110 or 1,5,9") from None
    return sorted(set(seeds))


def _recorded(files: list[str], option: str) -> list[paired.PairedDeal]:
    """Deals recorded with --jsonl, or a one-line refusal."""
    try:
        deals = paired.read_deals([Path(f) for f in files])
    except OSError as exc:
        raise UsageProblem(f"{option}: cannot read {exc.filename}: {exc.strerror or exc}") from None
    except (ValueError, KeyError, TypeError):
        raise UsageProblem(f"{option}: a file is not a record written by 'charleston paired --jsonl'") from None
    if not deals:
        raise UsageProblem(f"{option}: the files hold no deals")
    if len({d.levels for d in deals}) > 1:
        raise UsageProblem(f"{option}: the files record different levels; give one comparison at a time")
    return deals


def run_paired(args: argparse.Namespace) -> int:
    """`paired`: the candidate against the baseline, deal by deal, with 95% confidence intervals."""
    for option, level in (("--candidate", args.candidate), ("--baseline", args.baseline)):
        try:
            parse_level(level)
        except ValueError:
            raise UsageProblem(f"{option}: unknown level '{level}': choose from {', '.join(PAIRED_LEVELS)}, or "
                               f"one of them with a slip (e.g. normal{SLIP}0.2)") from None
    if args.versus and not args.summary:
        raise UsageProblem("--versus goes with --summary: it compares two recorded runs")
    if args.summary and args.versus:
        return _paired_versus(args)
    if args.summary:
        deals = _recorded(args.summary, "--summary")
        args.candidate, args.baseline = deals[0].levels
    else:
        deals = _play_paired(args)
    summary = paired.summarise(deals, args.candidate, args.baseline)
    if args.json:
        print_json(summary)
    else:
        print("\n".join(paired.report_lines(summary)))
    return 0


def _paired_versus(args: argparse.Namespace) -> int:
    """`paired --summary A --versus B`: two recorded candidates on the deals both played."""
    try:
        compared = paired.versus(_recorded(args.summary, "--summary"), _recorded(args.versus, "--versus"))
    except ValueError as exc:
        raise UsageProblem(f"--versus: {exc}") from None
    if args.json:
        print_json(compared)
        return 0
    chips, wins = compared["chips_per_game"], compared["wins"]
    assert isinstance(chips, dict) and isinstance(wins, dict)
    print(f"{compared['first']} minus {compared['second']} over {compared['deals']} shared deals: chips a game "
          f"{paired.Estimate(**chips).text()}; wins {paired.Estimate(**wins).text(100, 1, ' pts')}")
    return 0


def _check_record_file(path: Path) -> None:
    """--jsonl appends: refuse a file that holds something else (a database given by mistake must stay whole)."""
    if not path.exists() or path.is_dir():
        return  # a new file; a folder is refused when it is opened
    try:
        with path.open("rb") as f:
            first = f.readline(4096)
        if first.strip():
            paired.PairedDeal.from_json(json.loads(first))
    except OSError:
        return  # unreadable: opening it to append says why
    except (ValueError, KeyError, TypeError):
        raise UsageProblem(f"--jsonl: {path} holds something other than paired deals; give a new file or one "
                           "written by --jsonl (it is appended to)") from None


def _play_paired(args: argparse.Namespace) -> list[paired.PairedDeal]:
    """Play the paired deals the options ask for, recording each with --jsonl as it is played."""
    card, rules = _card_and_rules(args)
    if rules.players != 4:
        raise UsageProblem("paired runs compare computer players at four-player tables")
    total = len(args.seeds) * args.games
    progress = ProgressBar() if ProgressBar.wanted(total) else None
    if args.jsonl:
        _check_record_file(Path(args.jsonl))
        output_file(args.jsonl, "--jsonl")
    try:
        sink = open(args.jsonl, "a", encoding="utf-8") if args.jsonl else None  # noqa: SIM115
    except OSError as exc:
        raise UsageProblem(f"cannot write {args.jsonl}: {exc.strerror or exc}") from None
    deals = []
    try:
        for deal in paired.play_deals(card, rules, args.seeds, args.games, args.candidate, args.baseline,
                                      progress=progress):
            deals.append(deal)
            if sink is not None:
                sink.write(json.dumps(deal.to_json()) + "\n")
                sink.flush()
    finally:
        if sink is not None:
            sink.close()
    return deals


def run_demo_command(args: argparse.Namespace) -> int:
    """`demo`: one narrated game between four computer players."""
    def say(line: str) -> None:
        print(line, flush=True)
        if args.delay > 0:
            time.sleep(args.delay)

    db_path = None if args.no_db else args.db
    if db_path:
        database_to_write(db_path)
    folder = output_folder(args.images, "--images") if args.images and not args.no_images else None
    try:
        card_id = table_rules(args.rules).card
    except RulesError as exc:
        raise UsageProblem(str(exc)) from None
    card_or_explain(card_id)  # the demo's card: a cards folder of a league's own may not hold it
    with database_errors(db_path or ":memory:"):
        game = run_demo(args.seed, args.level, say, db_path, args.rules)
    if folder is not None:
        try:
            paths = write_images(game, folder)
        except OSError as exc:
            raise UsageProblem(f"cannot write images into {folder}: {exc.strerror or exc}") from None
        say(f"Wrote {len(paths)} images to {folder}: {', '.join(p.name for p in paths)}")
    return 0
