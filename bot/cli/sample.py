"""``charleston sample-week``: a week of games between named players, recorded in a database, so that the
standings, their chart and the ledger can be tried before a league exists (computer players are never in the
standings, so ``simulate --db`` and ``demo --db`` leave them empty)."""

from __future__ import annotations

import argparse
import asyncio
from typing import Any

from bot.cli.common import (
    WRITE_HELP,
    UsageProblem,
    count,
    database_errors,
    database_to_write,
    db_target,
    guild_id,
    plural,
    seed,
)

# Made-up people (ids far below any Discord id, so they never meet a real player's); computers play their seats
# at `hard`, as for a player who stepped away, and the chips are theirs.
PEOPLE = ((1, "Ruth"), (2, "Sadie"), (3, "Ida"), (4, "Dorothy"), (5, "Bea"), (6, "Miriam"))
SAMPLE_GUILD = 1
SAMPLE_CHANNEL = 1


def register(commands: Any) -> None:
    """Add ``charleston sample-week``."""
    p = commands.add_parser("sample-week", help="record a week of games between six named players, to try the "
                            "standings, their chart and the ledger before a league exists",
                            description="Six made-up people (Ruth, Sadie, Ida, Dorothy, Bea, Miriam) play this "
                            "week's games, four at a time, computers making their moves at 'hard' as for a player "
                            "who stepped away; every game is recorded and settled as at a Discord table, so "
                            "'charleston standings' and 'charleston render standings' show them.")
    p.add_argument("--db", type=db_target, required=True, metavar="DB",
                   help=f"the database to record into (a new file name starts one; {WRITE_HELP}); keep it apart "
                   "from the bot's own")
    p.add_argument("--games", type=count(1, 200), default=6, metavar="N", help="games to play (default 6)")
    p.add_argument("--seed", type=seed, default=1, metavar="S",
                   help="the week's seed (default 1): another number plays other games")
    p.add_argument("--guild", type=guild_id, default=SAMPLE_GUILD, metavar="ID",
                   help=f"the server id the games are recorded under (default {SAMPLE_GUILD})")
    p.set_defaults(run=run_sample_week)


def seating(game: int) -> list[tuple[int, str]]:
    """The four of the six people at game ``game``: everyone sits out in turn, so all play about as often."""
    return [PEOPLE[(game + k) % len(PEOPLE)] for k in range(4)]


def run_sample_week(args: argparse.Namespace) -> int:
    """`sample-week`: play and record the games, then say how to look at them."""
    database_to_write(args.db)
    with database_errors(args.db):
        played = asyncio.run(_play(args.db, args.games, args.seed, args.guild))
    print(f"Recorded {plural(played, 'game')} between {', '.join(n for _, n in PEOPLE[:-1])} and {PEOPLE[-1][1]} "
          f"in {args.db} (guild {args.guild}). Try:")
    print(f"  charleston standings --db {args.db}")
    print(f"  charleston render standings --db {args.db} -o standings.png")
    print(f"  charleston standings --db {args.db} --csv > standings.csv")
    return 0


async def _play(path: str, games: int, first_seed: int, guild: int) -> int:
    from bot.service.tables import TableService
    from bot.store.db import Database

    db = await Database.open(path)
    try:
        if await db.fetchval("SELECT COUNT(*) FROM games WHERE guild_id = ?", (guild,)):
            raise UsageProblem(f"{path} already holds games of guild {guild}: give a new file, or another --guild")
        service = TableService(db, computer_delay=0)
        for n in range(games):
            table_id = (await service.create_table(guild, SAMPLE_CHANNEL, seed=first_seed * 1_000 + n,
                                                   east=n % 4)).table_id
            people = seating(n)
            for seat, (player, name) in enumerate(people):
                await service.join(table_id, player, name, seat=seat)
            await service.start(table_id, by=people[0][0])
            for player, _ in people:  # away at once: a computer plays each seat to the end, the chips stay theirs
                await service.leave(table_id, player)
            await service.close_table(table_id)
        return games
    finally:
        await db.close()
