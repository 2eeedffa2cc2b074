"""Self-play: complete games between computer players through the real engine.

Each player is asked only for its own seat's view (``seat_view``), exactly as at a Discord table.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from bot.ai.selfplay import play_game
from bot.engine.card import Card
from bot.engine.game import Game
from bot.engine.payouts import net_chips
from bot.engine.replay import export_replay
from bot.engine.rules import TableRules, rules_for_card
from bot.service.cards import load_card


def game_seed_for(seed: int, n: int) -> int:
    """The deal's seed for game ``n`` of a run started with ``seed``."""
    return seed * 1_000_003 + n


@dataclass
class SimulationResult:
    """What a simulation run counted: games, wins by seat, wall games, self-picks and more."""
    games: int = 0
    mahjong: int = 0
    wall_games: int = 0
    wins_by_seat: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    chips_by_seat: list[int] = field(default_factory=lambda: [0, 0, 0, 0])  # each seat's net chips over the run
    self_picks: int = 0
    jokerless: int = 0
    avg_turns: float = 0.0
    games_per_sec: float = 0.0

    def to_json(self) -> dict[str, object]:
        """The counts as a JSON-ready dict."""
        return asdict(self)


def simulate(games: int, seed: int, levels: Sequence[str], *, card: Card | None = None,
             rules: TableRules | None = None, log_dir: Path | None = None,
             progress: Callable[[int, int], None] | None = None,
             decision_times: list[float] | None = None,
             on_game: Callable[[Game], None] | None = None) -> SimulationResult:
    """``games`` seeded games; East moves round the table (game n is dealt by seat n mod 4) so no seat is
    favoured. ``log_dir`` receives each game as a replay file; ``on_game`` is shown each finished game."""
    card = card or load_card("practice")
    rules = rules or rules_for_card(card)
    if log_dir is not None:
        log_dir.mkdir(parents=True, exist_ok=True)
    result = SimulationResult()
    turns = 0
    started = time.perf_counter()
    for n in range(games):
        game_seed = game_seed_for(seed, n)
        game, _ = Game.new(card, rules, game_seed, east=n % 4)
        play_game(game, levels, decision_times=decision_times)
        _count(result, game)
        turns += game.state.turns
        if on_game is not None:
            on_game(game)
        if log_dir is not None:
            path = log_dir / f"game-{n:05d}.json"
            path.write_text(json.dumps(export_replay(game)), encoding="utf-8")
        if progress is not None:
            progress(n + 1, games)
    return _rates(result, turns, time.perf_counter() - started)


async def simulate_recorded(db_path: str, games: int, seed: int, levels: Sequence[str], *, card: Card,
                            rules: TableRules, progress: Callable[[int, int], None] | None = None,
                            guild_id: int = 0) -> SimulationResult:
    """The same games as :func:`simulate`, played through the table service and recorded in the database: one
    table per game, so an interrupted run leaves each game resumable on its own."""
    from bot.service.tables import TableService
    from bot.store.db import Database

    db = await Database.open(db_path)
    try:
        service = TableService(db, cards=lambda card_id: card, computer_delay=0)
        result = SimulationResult()
        turns = 0
        started = time.perf_counter()
        for n in range(games):
            # The service deals game 1 of a table from seed + 1.
            opened = await service.create_table(guild_id, n, rules=rules, seed=game_seed_for(seed, n) - 1, east=n % 4)
            table_id = opened.table_id
            for seat, level in enumerate(levels):
                await service.add_computer(table_id, level, seat)
            await service.start(table_id)
            table = service.tables[table_id]
            await service.close_table(table_id)
            assert table.game is not None
            _count(result, table.game)
            turns += table.game.state.turns
            if progress is not None:
                progress(n + 1, games)
        return _rates(result, turns, time.perf_counter() - started)
    finally:
        await db.close()


def _rates(result: SimulationResult, turns: int, elapsed: float) -> SimulationResult:
    result.avg_turns = round(turns / result.games, 2) if result.games else 0.0
    result.games_per_sec = round(result.games / elapsed, 2) if elapsed else 0.0
    return result


def _count(result: SimulationResult, game: Game) -> None:
    outcome = game.state.result
    assert outcome is not None
    result.games += 1
    for seat, chips in enumerate(net_chips(game.state)):
        result.chips_by_seat[seat] += chips
    if outcome.winner is not None:
        result.mahjong += 1
        result.wins_by_seat[outcome.winner] += 1
        result.self_picks += outcome.self_pick
        result.jokerless += outcome.jokerless
    else:
        result.wall_games += 1
