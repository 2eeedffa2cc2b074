"""Players' statistics without Discord, on both backends: the figures of games written straight into the store,
counted here by hand; only the games the standings count (finished, not voided, of the guild, of the league's
tables), people only, chips from closed ledger transactions (corrections included), wall games whether the wall ran
out or every hand was dead, wins as East and not, the lines won most."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.service.stats import StatsService, tally
from bot.store import leagues as store
from bot.store.db import Database
from bot.store.stats import CountedGame

GUILD, OTHER = 5, 6
RUTH, SADIE = 21, 22
STAMP = "2026-11-18T12:00:00.000+00:00"


@dataclass
class Played:
    """A game as the test writes it: East, how it ended, the winner's seat and line, and each seat's player
    (None: a computer) with the chips that seat's account received."""

    east: int
    how: str
    winner: int | None = None
    line: str | None = None
    jokerless: bool = False
    seats: dict[int, int | None] = field(default_factory=lambda: {0: RUTH, 1: SADIE, 2: None, 3: None})
    chips: dict[int, int] = field(default_factory=dict)  # seat -> chips
    guild: int = GUILD
    league: int | None = None
    ended: bool = True


async def _write(db: Database, game: Played) -> int:
    async with db.transaction() as conn:
        for player, name in ((RUTH, "Ruth"), (SADIE, "Sadie")):
            await conn.execute("INSERT INTO players VALUES (?, ?, ?) ON CONFLICT DO NOTHING", (player, name, STAMP))
        table = await conn.fetchval("INSERT INTO tables (guild_id, channel_id, status, rules, created_at, seed, "
                                    "league_id) VALUES (?, 1, 'open', '{}', ?, 0, ?) RETURNING table_id",
                                    (game.guild, STAMP, game.league))
        how = game.how if game.ended else "abandoned"
        game_id = int(await conn.fetchval(
            "INSERT INTO games (table_id, guild_id, game_no, card_id, rules, seed, east, started_at, ended_at, how, "
            "winner_seat, line_id, value, jokerless, self_pick) VALUES (?, ?, 1, 'practice', '{}', 1, ?, ?, ?, ?, ?, "
            "?, 25, ?, ?) RETURNING game_id",
            (table, game.guild, game.east, STAMP, STAMP if game.ended else None, how, game.winner, game.line,
             int(game.jokerless), int(game.how in ("self_pick", "heavenly")))))
        await conn.executemany("INSERT INTO game_seats (game_id, seat, player_id) VALUES (?, ?, ?)",
                               [(game_id, seat, player) for seat, player in game.seats.items()])
        if game.chips:
            txn = await conn.fetchval("INSERT INTO ledger_transactions (game_id, guild_id, kind, created_at) "
                                      "VALUES (?, ?, 'settlement', ?) RETURNING txn_id", (game_id, game.guild, STAMP))
            await conn.executemany(
                "INSERT INTO ledger_postings (txn_id, account, player_id, seat, amount) VALUES (?, ?, ?, ?, ?)",
                [(txn, f"seat:{game_id}:{seat}", game.seats[seat], seat, amount)
                 for seat, amount in game.chips.items()])
            await conn.execute("UPDATE ledger_transactions SET closed = 1 WHERE txn_id = ?", (txn,))
    return game_id


async def test_stats_count_each_figure_from_the_record(db: Database) -> None:
    league = await store.insert_league(db, GUILD, "Tuesday", "UTC", 0, None, STAMP)
    assert league is not None
    tuesday = league.league_id
    await _write(db, Played(0, "discard", 0, "run-3", chips={0: 50, 1: -25, 2: -25}, league=tuesday))
    await _write(db, Played(1, "self_pick", 1, "run-3", jokerless=True, chips={0: -40, 1: 120, 2: -40, 3: -40}))
    await _write(db, Played(2, "wall"))
    await _write(db, Played(3, "no_live_players", league=tuesday))  # every hand dead: nobody won
    await _write(db, Played(0, "discard", 2, "run-1", chips={0: -20, 2: 20}, league=tuesday))  # a computer won
    await _write(db, Played(1, "heavenly", 1, "quint-1", chips={0: -60, 1: 60}))
    await _write(db, Played(0, "discard", 0, "run-3", chips={0: 99, 1: -99}, ended=False))  # abandoned
    await _write(db, Played(0, "discard", 0, "run-3", chips={0: 77, 1: -77}, guild=OTHER))  # another server
    voided = await _write(db, Played(0, "discard", 0, "run-3", chips={0: 66, 1: -66}))
    async with db.transaction() as conn:  # an organiser voided it (bot/store/corrections.py): it no longer counts
        await conn.execute("INSERT INTO game_corrections (game_id, guild_id, kind, reason, made_by, made_at) "
                           "VALUES (?, ?, 'void', 'misdeal', ?, ?)", (voided, GUILD, RUTH, STAMP))
    stats = StatsService(db)

    report = await stats.stats(GUILD)
    # counted by hand from the six games of GUILD above
    assert report.totals.to_json() == {"games": 6, "mahjong": 4, "wall_games": 2, "self_picks": 2, "jokerless": 1}
    ruth, sadie = report.of(RUTH), report.of(SADIE)
    assert ruth is not None and sadie is not None
    assert [p.player_id for p in report.players] == [SADIE, RUTH]  # people only, most games then most wins first
    assert (ruth.games, ruth.mahjong, ruth.self_picks, ruth.jokerless, ruth.wall_games) == (6, 1, 0, 0, 2)
    assert (ruth.chips, ruth.chips_per_game) == (50 - 40 - 20 - 60, -11.7)
    assert (ruth.games_as_east, ruth.wins_as_east, ruth.games_not_east, ruth.wins_not_east) == (2, 1, 4, 0)
    assert (sadie.games, sadie.mahjong, sadie.self_picks, sadie.jokerless, sadie.wall_games) == (6, 2, 2, 1, 2)
    assert (sadie.chips, sadie.games_as_east, sadie.wins_as_east, sadie.wins_not_east) == (-25 + 120 + 60, 2, 2, 0)
    assert [(w.line_id, w.wins) for w in ruth.lines] == [("run-3", 1)]
    assert [(w.line_id, w.wins) for w in sadie.lines] == [("run-3", 1), ("quint-1", 1)]
    assert all(w.name and w.name != w.line_id for w in sadie.lines)  # named as the card prints them

    in_league = await stats.stats(GUILD, tuesday)
    assert in_league.totals.to_json() == {"games": 3, "mahjong": 2, "wall_games": 1, "self_picks": 0, "jokerless": 0}
    only_sadie = await stats.stats(GUILD, player_id=SADIE)
    assert [p.player_id for p in only_sadie.players] == [SADIE] and only_sadie.totals.games == 6
    everywhere = await stats.stats(None)
    assert everywhere.totals.games == 7 and everywhere.of(RUTH) is not None and everywhere.of(RUTH).games == 7


async def test_a_correction_counts_with_its_game_and_an_open_transaction_does_not(db: Database) -> None:
    game_id = await _write(db, Played(0, "discard", 0, "run-3", chips={0: 50, 1: -50}))
    async with db.transaction() as conn:
        correction = await conn.fetchval(
            "INSERT INTO ledger_transactions (game_id, guild_id, kind, created_at) VALUES (?, ?, 'correction', ?) "
            "RETURNING txn_id", (game_id, GUILD, STAMP))
        await conn.executemany("INSERT INTO ledger_postings (txn_id, account, player_id, seat, amount) "
                               "VALUES (?, ?, ?, ?, ?)",
                               [(correction, "a", RUTH, 0, -10), (correction, "b", SADIE, 1, 10)])
        await conn.execute("UPDATE ledger_transactions SET closed = 1 WHERE txn_id = ?", (correction,))
        pending = await conn.fetchval(
            "INSERT INTO ledger_transactions (game_id, guild_id, kind, created_at) VALUES (?, ?, 'correction', ?) "
            "RETURNING txn_id", (game_id, GUILD, STAMP))
        await conn.execute("INSERT INTO ledger_postings (txn_id, account, player_id, seat, amount) "
                           "VALUES (?, 'a', ?, 0, 500)", (pending, RUTH))  # never closed: not in the ledger
    report = await StatsService(db).stats(GUILD)
    assert (report.of(RUTH).chips, report.of(SADIE).chips) == (40, -40)  # type: ignore[union-attr]


def test_the_lines_won_most_are_the_three_most_won_in_order() -> None:
    games = [CountedGame(n, GUILD, "practice", 0, "discard", 0, line, False, False, {0: RUTH})
             for n, line in enumerate(["run-1", "run-2", "run-2", "run-3", "run-3", "run-3", "run-4"])]
    (ruth,) = tally(games, {RUTH: "Ruth"}).players
    assert [(w.line_id, w.wins) for w in ruth.lines] == [("run-3", 3), ("run-2", 2), ("run-1", 1)]
    assert ruth.chips_per_game == 0.0 and ruth.name == "Ruth"
