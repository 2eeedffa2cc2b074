"""``charleston stats``: every player's figures over the games the standings count, recomputed from the record
(:mod:`bot.service.stats`)."""

from __future__ import annotations

import argparse
from typing import Any

from bot.cli.common import MAX_ID, UsageProblem, add_db_option, count, guild_id, plural, print_json, with_database
from bot.service.guild_cards import GuildCards
from bot.service.stats import PlayerStats, StatsService
from bot.store.db import Database
from bot.store.stats import leagues_named


def register(commands: Any) -> None:
    """Add `charleston stats` to the command line."""
    p = commands.add_parser("stats", help="players' statistics: games, wins, self-picks, chips a game, lines won")
    add_db_option(p)
    p.add_argument("--guild", type=guild_id, default=None, metavar="ID", help="default: every guild in the database")
    p.add_argument("--league", default=None, metavar="NAME", help="one league's tables only (as /standings counts)")
    p.add_argument("--player", type=count(1, MAX_ID), default=None, metavar="ID", help="one player (a Discord id)")
    p.add_argument("--json", action="store_true", help="one line of JSON: 'players' and 'totals'")
    p.set_defaults(run=run_stats)


def run_stats(args: argparse.Namespace) -> int:
    """`stats`: the figures per player and the totals, as text or JSON."""
    if args.league is not None and not args.league.strip():
        raise UsageProblem("--league needs a league's name")

    async def work(db: Database) -> int:
        await GuildCards(db).load_all()  # imported cards name the lines won with them
        guild, league_id = args.guild, None
        if args.league is not None:
            found = await leagues_named(db, args.league, guild)
            if not found:
                where = f"guild {guild}" if guild is not None else "any guild"
                raise UsageProblem(f"{db.path} has no league named '{args.league[:60]}' in {where}")
            if len({g for _, g, _ in found}) > 1:
                raise UsageProblem(f"leagues named '{args.league[:60]}' are in guilds "
                                   f"{', '.join(str(g) for _, g, _ in found)}: add --guild ID")
            league_id, guild, _ = found[0]
        report = await StatsService(db).stats(guild, league_id, args.player)
        if args.json:
            print_json(report.to_json())
            return 0
        if not report.players:
            print("No games counted" + (f" for player {args.player}" if args.player is not None else "") + ".")
        for figures in report.players:
            print(_text(figures))
        t = report.totals
        print(f"Totals: {plural(t.games, 'game')}, {t.mahjong} Mah Jongg, {plural(t.wall_games, 'wall game')}, "
              f"{t.self_picks} self-picked, {t.jokerless} jokerless")
        return 0

    return with_database(args.db, work, readonly=True, numbers_checked=True)


def _text(p: PlayerStats) -> str:
    lines = "; ".join(f"{w.name} x{w.wins}" for w in p.lines) or "none yet"
    return (f"{p.name} ({p.player_id}): {plural(p.games, 'game')}, {p.mahjong} won ({p.self_picks} self-picked, "
            f"{p.jokerless} jokerless), {plural(p.wall_games, 'wall game')}, {p.chips:+} chips "
            f"({p.chips_per_game:+.1f} a game); as East {p.wins_as_east} won of {p.games_as_east}, "
            f"otherwise {p.wins_not_east} of {p.games_not_east}; lines won most: {lines}")
