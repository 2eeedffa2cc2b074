"""Where the computer players think: in the event loop, or in worker processes that keep a copy of each game.

A decision shipped to a worker costs the loop about 0.1-0.15 ms (the hand-off and the answer); a Charleston pass
costs ~1 ms to think, a turn ~0.2 ms, a call window or the vote ~0.13 ms. So the pool takes the Charleston, the
courtesy pass and the turns, and the loop keeps the rest. What is shipped is slim: each worker keeps a replica of
the games of the tables it serves (a table always goes to the same worker) and receives only the actions applied
since it last thought for that table, a few small dicts; the first decision of a game sends its state once. The
card is loaded by id in the worker, never pickled. The worker calls the same :func:`computer_move` on its replica,
so a move is the one the loop would have made (``tests/service/test_thinking.py`` plays whole games both ways). A worker
that is lost, or a replica that disagrees with the game, costs nothing but the loop thinking that move itself.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import threading
import time
from collections import OrderedDict
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Protocol

from bot.ai.selfplay import computer_move
from bot.engine.actions import Action, action_from_json
from bot.engine.game import Game
from bot.engine.state import GameState, Phase

from .cards import IMPORTED, card_files, load_card

log = logging.getLogger("charleston.service")

SHIPPED_PHASES = frozenset({Phase.CHARLESTON, Phase.COURTESY, Phase.PLAY})
MAX_FAILURES = 3  # workers lost in a row before the loop thinks every move itself
MAX_REPLICAS = 4000  # games a worker keeps (the least recently used goes first)
Key = tuple[int, int, int]  # a game at a table: (table id, the game's seed, its number)


class Thinking(Protocol):
    """Where a computer player's move is worked out."""

    async def move(self, table_id: int, level: str, game: Game, seat: int) -> Action:
        """The move of the computer of ``level`` in ``seat``."""

    def forget(self, table_id: int) -> None:
        """The table's game was reloaded from the database: send it whole next time."""

    async def close(self) -> None:
        """Stop any workers."""


class InLoop:
    """Every move worked out in the event loop (tests, simulations, small bots)."""

    async def move(self, table_id: int, level: str, game: Game, seat: int) -> Action:
        """:func:`computer_move`, here and now."""
        return computer_move(level, game, seat)

    def forget(self, table_id: int) -> None:
        """Nothing is kept."""

    async def close(self) -> None:
        """Nothing to stop."""


def default_workers() -> int:
    """One worker per spare core, at most 4 (none on a single core)."""
    return max(0, min(4, (os.cpu_count() or 1) - 1))


class ThinkingPool:
    """Worker processes, each serving a fixed share of the tables (see the module's doc)."""

    def __init__(self, workers: int) -> None:
        context = multiprocessing.get_context("spawn")  # no fork of a process with an event loop and threads
        self._workers = [self._worker(context) for _ in range(workers)]
        self._sent: dict[int, tuple[Key, int]] = {}  # table -> the game and how many of its actions its worker has
        self._failures = 0  # workers lost in a row
        self.shipped = 0  # decisions made by a worker
        self.kept = 0  # decisions the loop made itself (not worth shipping, or a worker failed)

    async def move(self, table_id: int, level: str, game: Game, seat: int) -> Action:
        """The move, from the table's worker when the decision is worth shipping."""
        state = game.state
        if level == "random" or state.phase not in SHIPPED_PHASES or IMPORTED in state.card_id \
                or self._failures >= MAX_FAILURES:
            self.kept += 1
            return computer_move(level, game, seat)
        key: Key = (table_id, state.seed, state.game_no)
        check = (len(state.log), len(state.wall), state.turn)
        worker = self._workers[table_id % len(self._workers)]
        sent = self._sent.get(table_id)
        answer: tuple[Any, ...] | None = None
        try:
            if sent is not None and sent[0] == key and sent[1] <= len(state.log):
                answer = await asyncio.wrap_future(worker.submit(
                    _step, key, sent[1], state.log[sent[1]:], level, seat, check))
            if answer is None or answer[0] != "move":
                answer = await asyncio.wrap_future(worker.submit(
                    _load, key, state.to_json(), level, seat, check))
        except BrokenProcessPool:
            self._failures += 1
            if self._failures < MAX_FAILURES:
                self._replace(worker)
            else:
                log.error("the thinking workers keep failing; the computers think in the event loop from now on")
        except Exception as exc:  # the worker's copy failed to follow the game: the loop decides, then resends
            answer = (f"{type(exc).__name__}: {exc}",)
        self._sent.pop(table_id, None)
        if answer is None or answer[0] != "move":
            log.warning("the thinking worker could not decide for table %s (%s); deciding in the loop", table_id,
                        answer[0] if answer else "worker lost")
            self.kept += 1
            return computer_move(level, game, seat)
        self._sent[table_id] = (key, len(state.log))
        self._failures = 0
        self.shipped += 1
        return action_from_json(answer[1])

    def forget(self, table_id: int) -> None:
        """The table's game was reloaded from the database: send it whole next time."""
        self._sent.pop(table_id, None)

    @staticmethod
    def _worker(context: Any) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(1, mp_context=context, initializer=_start_worker, initargs=(os.getpid(),))

    def _replace(self, worker: ProcessPoolExecutor) -> None:
        index = self._workers.index(worker)
        worker.shutdown(wait=False, cancel_futures=True)
        self._workers[index] = self._worker(multiprocessing.get_context("spawn"))
        self._sent = {t: s for t, s in self._sent.items() if t % len(self._workers) != index}

    async def close(self) -> None:
        """Stop the workers (what they were thinking about is no longer needed)."""
        for worker in self._workers:
            worker.shutdown(wait=False, cancel_futures=True)


# -- in the worker ---------------------------------------------------------------------------------------------

_replicas: OrderedDict[int, tuple[Key, Game]] = OrderedDict()


def _start_worker(parent: int) -> None:
    """In a new worker: load the shipped cards once, before the first decision needs them, and leave as soon as
    the bot is gone (a bot killed outright cannot stop its workers; an orphan would keep its pipes open)."""
    for card_id in card_files():
        try:
            load_card(card_id)
        except Exception:  # a broken card file: the loop reports it when a table wants it
            continue

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, name="parent watch", daemon=True).start()


def _decide(key: Key, game: Game, level: str, seat: int, check: tuple[int, int, int]) -> tuple[Any, ...]:
    state = game.state
    if (len(state.log), len(state.wall), state.turn) != check:
        _replicas.pop(key[0], None)
        return ("disagrees",)
    _replicas[key[0]] = (key, game)
    _replicas.move_to_end(key[0])
    while len(_replicas) > MAX_REPLICAS:
        _replicas.popitem(last=False)
    return ("move", computer_move(level, game, seat).to_json())


def _load(key: Key, state: dict[str, Any], level: str, seat: int, check: tuple[int, int, int]) -> tuple[Any, ...]:
    """A game's whole state (the first decision of a game, or after a miss), then the move."""
    loaded = GameState.from_json(state)
    game = Game(loaded, load_card(loaded.card_id))
    return _decide(key, game, level, seat, check)


def _step(key: Key, known: int, actions: list[dict[str, Any]], level: str, seat: int,
          check: tuple[int, int, int]) -> tuple[Any, ...]:
    """The actions applied since the worker last saw the game, then the move; ``("unknown",)`` if the worker does
    not have the game as the loop thinks it does (it was restarted, or let the game go)."""
    held = _replicas.get(key[0])
    if held is None or held[0] != key or len(held[1].state.log) != known:
        return ("unknown",)
    game = held[1]
    for action in actions:
        game.apply(action_from_json(action))
    return _decide(key, game, level, seat, check)
