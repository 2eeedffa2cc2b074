"""Drawing the table and rack images off the event loop.

Drawing is the bot's heaviest work (a table image takes about 10 ms, a rack 4 ms) and most of it is Python,
which holds the interpreter lock: in a thread it still slows the event loop that answers Discord. So table images
are drawn in worker processes when the machine has a core to spare (``CHARLESTON_RENDER_WORKERS``, default: one
per spare core, at most 2), else in a thread; a table image is drawn again only when what it shows changed.
Racks are small and a player waits for hers: they are drawn at once in a thread, never queued behind tables.
"""

from __future__ import annotations

import asyncio
import functools
import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import ParamSpec, TypeVar

from bot.engine.tiles import Tile
from bot.engine.views import PublicView, SeatView
from renderers import Rendered, render_rack, render_table, warm_up

T = TypeVar("T")
P = ParamSpec("P")
TableKey = tuple[PublicView, tuple[str, ...], int]  # what a table image shows


def _start_worker(parent: int) -> None:
    """In a new drawing process: load the fonts and palette now, and leave as soon as the bot is gone (a bot
    killed outright can't stop its workers, and an orphan would keep its files and pipes open)."""
    warm_up()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, name="parent watch", daemon=True).start()


def default_workers() -> int:
    """Worker processes for drawing: the cores beyond the one the bot's event loop uses (at most 2)."""
    return max(0, min(2, (os.cpu_count() or 1) - 1))


class Drawing:
    """Draws images for the bot, in worker processes or a thread."""

    def __init__(self, workers: int | None = None) -> None:
        workers = default_workers() if workers is None else workers
        self._pool: Executor | None = None
        if workers > 0:
            # spawn: a fresh interpreter, never a fork of one running an event loop and threads
            self._pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"),
                                             initializer=_start_worker, initargs=(os.getpid(),))
        self._tables: dict[int, tuple[TableKey, Rendered]] = {}

    @property
    def workers(self) -> int:
        """How many worker processes draw (0: a thread of the bot's process)."""
        return self._pool._max_workers if isinstance(self._pool, ProcessPoolExecutor) else 0  # type: ignore[attr-defined]

    async def table(self, table_id: int, view: PublicView, names: Sequence[str], wild: Tile) -> Rendered:
        """The table image (the last one again if nothing it shows has changed)."""
        key: TableKey = (view, tuple(names), wild)
        cached = self._tables.get(table_id)
        if cached is not None and cached[0] == key:
            return cached[1]
        image = await self._run(render_table, view, list(names), wild=wild)
        self._tables[table_id] = (key, image)
        return image

    async def rack(self, view: SeatView) -> Rendered:
        """A seat's rack, the tile just drawn set apart."""
        rack = list(view.rack)
        if view.drawn is not None and view.drawn in rack:
            rack.remove(view.drawn)
        drawing = functools.partial(render_rack, rack, list(view.exposures), view.drawn, wild=view.card.wild)
        return await asyncio.to_thread(drawing)

    def forget(self, table_id: int) -> None:
        """Drop a closed table's last image."""
        self._tables.pop(table_id, None)

    async def _run(self, draw: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, functools.partial(draw, *args, **kwargs))

    def close(self) -> None:
        """Stop the worker processes."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
