"""``charleston render rack|table|card|standings|tiles``: draw the players' images to PNG files.

Each command writes the PNG named by ``-o`` and prints the image's alt text (what a screen reader says) on
standard output; a one-line summary of the file goes to standard error.
"""

from __future__ import annotations

import argparse
import sys
from datetime import date, datetime, timedelta, tzinfo
from pathlib import Path
from typing import Any

from bot.cli.common import (
    CARD_HELP,
    WRITE_HELP,
    UsageProblem,
    add_db_option,
    card_or_explain,
    count,
    file_path,
    guild_id,
    output_file,
    plural,
    same_file,
    with_database,
)
from bot.engine.errors import TileError
from bot.engine.notation import check_available, parse_groups, parse_tile, parse_tiles
from bot.engine.replay import ReplayError, replay, replay_header
from bot.engine.tiles import standard_set
from bot.engine.views import public_view
from bot.store.db import Database
from renderers import (
    NotOnCard,
    Rendered,
    render_card,
    render_rack,
    render_season,
    render_table,
    render_tile_sheet,
    render_weekly,
)

RACK_LIMIT = 14
MAX_SEASON_WEEKS = 260  # five years of weekly charts is more than any season
MAX_NAME = 32  # Discord display names have at most 32 characters


def register(commands: Any) -> None:
    """Add `charleston render ...` to the command line."""
    parser = commands.add_parser("render", help="draw racks, the table, card sheets and standings as PNG images")
    sub = parser.add_subparsers(dest="render_command", required=True, metavar="IMAGE")

    p = sub.add_parser("rack", help="a player's rack")
    p.add_argument("--tiles", required=True, metavar="TILES", help='concealed tiles, e.g. "J N N 2B 3C RD"')
    p.add_argument("--exposed", default="", metavar='"G; G"', help='exposures, e.g. "5D 5D J; N N N N"')
    p.add_argument("--drawn", default=None, metavar="TILE", help="the tile just drawn, shown apart")
    p.add_argument("--repeat", type=count(1, 10_000), default=1, metavar="N",
                   help="render N times (for timing), write once")
    _output(p)
    p.set_defaults(run=run_rack)

    p = sub.add_parser("table", help="the table at some point of a replay (docs/replay-format.md)")
    p.add_argument("--replay", type=file_path, required=True, metavar="FILE",
                   help="a replay file (charleston simulate --log, docs/replay-format.md)")
    p.add_argument("--step", type=count(0, 1_000_000), default=None, metavar="N",
                   help="after the first N actions (default: all)")
    p.add_argument("--names", default="", metavar='"A, B, C, D"', help="players' names by seat, comma-separated")
    _output(p)
    p.set_defaults(run=run_table)

    p = sub.add_parser("card", help="a card, one section or one line, drawn like a printed card")
    p.add_argument("--card", required=True, metavar="ID|FILE", help=CARD_HELP)
    p.add_argument("--section", default=None, metavar="NAME",
                   help="one section only, named as the card prints it ('2468'); default: the whole card")
    p.add_argument("--hand", default=None, metavar="LINE",
                   help="one line, named as the card prints it ('2468 #1') or by its id")
    p.add_argument("--winning", default="", metavar='"G; G"', help="with --hand: the winning tiles, group by group")
    _output(p)
    p.set_defaults(run=run_card)

    p = sub.add_parser("standings", help="a league week's standings chart (or the season's)")
    add_db_option(p)
    p.add_argument("--guild", type=guild_id, default=None, metavar="ID", help="default: the database's only guild")
    p.add_argument("--week", default=None, metavar="DAY",
                   help="a day of the week (23 Nov 2026, 2026-11-23) or its ISO label 2026-W48; default: this week")
    p.add_argument("--season", action="store_true", help="cumulative net chips over every week with games")
    _output(p)
    p.set_defaults(run=run_standings)

    p = sub.add_parser("tiles", help="every tile face with its code")
    p.add_argument("--width", type=count(24, 256), default=64, metavar="PX", help="tile width in pixels (24-256)")
    _output(p)
    p.set_defaults(run=run_tiles)


def _output(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-o", "--output", type=png_name, required=True, metavar="FILE.png",
                        help=f"the PNG file to write (its name ends in .png; an existing file is replaced; "
                        f"{WRITE_HELP})")


def png_name(text: str) -> str:
    """An argparse type: the image file to write, whose name says it is a PNG (the only format drawn)."""
    path = file_path(text)
    if Path(path).suffix.lower() != ".png":
        raise argparse.ArgumentTypeError(f"{text[:60]!r}: the image is drawn as a PNG; give a name ending in .png")
    return path


def _write(image: Rendered, path: str, *inputs: str) -> int:
    if any(same_file(path, source) for source in inputs):
        raise UsageProblem(f"-o {path} is one of this command's input files; choose another output file")
    try:
        output_file(path, "-o").write_bytes(image.png)
    except OSError as exc:
        raise UsageProblem(f"cannot write {path}: {exc.strerror}") from None
    print(image.alt)
    print(f"wrote {path}: {image.width}x{image.height} px, {len(image.png) / 1024:.1f} KB", file=sys.stderr)
    return 0


def run_rack(args: argparse.Namespace) -> int:
    """`render rack`: a rack image from tiles typed on the command line."""
    try:
        concealed = parse_tiles(args.tiles)
        exposures = parse_groups(args.exposed)
        drawn = parse_tile(args.drawn) if args.drawn is not None else None
        everything = concealed + [t for g in exposures for t in g] + ([drawn] if drawn is not None else [])
        check_available(everything, standard_set(blanks=8))
    except TileError as exc:
        raise UsageProblem(str(exc)) from None
    if len(everything) > RACK_LIMIT:
        raise UsageProblem(f"a rack holds at most {RACK_LIMIT} tiles, exposures and the drawn tile included; "
                           f"these are {len(everything)}")
    if any(len(g) < 3 for g in exposures):
        raise UsageProblem("an exposure has at least 3 tiles (pung, kong, quint or sextet)")
    for _ in range(args.repeat):
        image = render_rack(concealed, exposures, drawn)
    return _write(image, args.output)


def _load_json(path: str) -> dict[str, Any]:
    from bot.cli.replay import load_replay_file

    return load_replay_file(path)


def run_table(args: argparse.Namespace) -> int:
    """`render table`: the table image at a step of a replay."""
    data = _load_json(args.replay)
    actions = data.get("actions", [])
    if args.step is not None and isinstance(actions, list) and args.step > len(actions):
        raise UsageProblem(f"--step {args.step}: the replay has only {plural(len(actions), 'action')}")
    try:
        card_id, _ = replay_header(data)
        game = replay(data, card_or_explain(card_id), stop_at=args.step).game
    except ReplayError as exc:
        raise UsageProblem(f"{args.replay}: {exc}") from None
    names = [n.strip() or None for n in args.names.split(",")] if args.names.strip() else None
    if names is not None and len(names) > 4:
        raise UsageProblem(f"--names takes at most 4 names, one per seat; got {len(names)}")
    if names is not None and any(n is not None and len(n) > MAX_NAME for n in names):
        raise UsageProblem(f"--names: a name has at most {MAX_NAME} characters")
    return _write(render_table(public_view(game), names, wild=game.card.wild, card=game.card), args.output,
                  args.replay)


def run_card(args: argparse.Namespace) -> int:
    """`render card`: a card sheet, one section of it, or one line."""
    if args.section is not None and args.hand is not None:
        raise UsageProblem("give --section or --hand, not both")
    if args.winning and args.hand is None:
        raise UsageProblem("--winning shows the tiles under one line: add --hand LINE (e.g. '2468 #1')")
    card = card_or_explain(args.card)
    try:
        winning = parse_groups(args.winning) if args.winning else None
    except TileError as exc:
        raise UsageProblem(str(exc)) from None
    try:
        image = render_card(card, section=args.section, line_id=args.hand, tiles=winning)
    except NotOnCard as exc:
        raise UsageProblem(str(exc)) from None
    return _write(image, args.output)


def run_tiles(args: argparse.Namespace) -> int:
    """`render tiles`: every tile face on one sheet."""
    if not 24 <= args.width <= 256:
        raise UsageProblem("--width must be between 24 and 256 pixels")
    return _write(render_tile_sheet(args.width), args.output)


def run_standings(args: argparse.Namespace) -> int:
    """`render standings`: a week's or a season's standings chart."""
    from bot.service.weeks import read_week

    if args.week and args.season:
        raise UsageProblem("give --week or --season, not both")
    if args.week:
        try:
            read_week(args.week, 0)
        except ValueError as exc:
            raise UsageProblem(str(exc)) from None
    if same_file(args.db, args.output):
        raise UsageProblem(f"-o {args.output} is the database; choose another output file")
    image = with_database(args.db, lambda db: _standings_image(db, args), readonly=True, numbers_checked=True)
    return _write(image, args.output)


async def _standings_image(db: Database, args: argparse.Namespace) -> Rendered:
    from bot.service.weeks import day_text, read_week, week_name
    from bot.store.standings import get_league, week_label, week_start_date, weekly_standings

    guild = args.guild if args.guild is not None else await _only_guild(db)
    league = await get_league(db, guild)
    if not args.season:
        label, rows = await weekly_standings(db, guild, read_week(args.week, league.week_start) if args.week else None)
        return render_weekly(week_name(label, league.week_start), rows)
    row = await db.fetchone("SELECT MIN(ended_at), MAX(ended_at) FROM games WHERE guild_id = ? "
                            "AND ended_at IS NOT NULL", (guild,))
    if row is None or row[0] is None:
        return render_season("no games yet", [])
    day, last = _local_day(row[0], league.zone), _local_day(row[1], league.zone)
    last_label = week_label(last, league.week_start)
    weeks = []
    for _ in range(MAX_SEASON_WEEKS):
        weeks.append(await weekly_standings(db, guild, week_label(day, league.week_start)))
        if weeks[-1][0] == last_label:
            break
        day += timedelta(days=7)
    first, final = (week_start_date(weeks[i][0], league.week_start) for i in (0, -1))
    named = [(week_name(label, league.week_start), rows) for label, rows in weeks]
    return render_season(f"{day_text(first)} to {day_text(final + timedelta(days=6))}", named)


async def _only_guild(db: Database) -> int:
    guilds = [row[0] for row in await db.fetchall("SELECT DISTINCT guild_id FROM games ORDER BY guild_id")]
    if len(guilds) > 1:
        raise UsageProblem(f"the database holds several guilds ({', '.join(map(str, guilds))}); choose one with "
                           "--guild")
    return guilds[0] if guilds else 0


def _local_day(iso: str, zone: tzinfo) -> date:
    return datetime.fromisoformat(iso).astimezone(zone).date()
