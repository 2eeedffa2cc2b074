"""Finding a table whose first game a person wins by M3 (docs/rules.md §6: a Mah Jongg called on a discard and
finished by redeeming a joker from an exposure), for the end-to-end test ``tests/e2e/test_m3.py``.

Nothing is set up by hand: the seed is the table's, as ``/table new`` deals it, and every move is a normal computer
player's choice. A quick pass plays each seed's game with four normal computers in the engine and keeps those won
by M3; each is then played again through the table service exactly as the offline Discord plays it in the test:
the person in the winner's seat moving as a normal computer player would (through ``act`` with the decision's
token, as a button carries it), three normal computers, no computer delay, the table option ``auto_pass`` on, the
computers owing a move making it first and the person answering after them, as a person pressing a button does.

Run ``python -m support.m3_seeds [FIRST] [COUNT]`` from ``tests/`` to list the seeds that reach it (an engine or
computer-player change may move the test's seed: pick another from this list).
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from bot.ai.selfplay import computer_move, play_game
from bot.engine.events import Event
from bot.engine.game import Game
from bot.engine.rules import TableRules
from bot.service.cards import load_card
from bot.service.clock import ManualClock
from bot.service.errors import TableError
from bot.service.keys import action_key
from bot.service.tables import TableService
from bot.service.updates import TableOptions, TableUpdate
from bot.store.db import Database

PERSON = 4242  # the person's player id in the search (any id: the game does not depend on it)


@dataclass(frozen=True, slots=True)
class M3Game:
    """A game won by M3: the table's seed, the winner's seat, the line, and the redemptions (``joker_exchange``
    events) her claim made."""

    seed: int
    seat: int
    line: str
    redemptions: tuple[Event, ...]


def m3_win(events: list[Event], log: list[dict[str, object]]) -> tuple[int, tuple[Event, ...]] | None:
    """The winner's seat and her redemptions, when the game ended in an M3 win: her Mah Jongg claim on a discard
    won the window, and the joker exchanges she made in that same step finished the hand (a self-pick, SC2)."""
    ends = [a for a in log if a.get("type") in ("call", "declare_mahjong")]
    kinds = [e.type for e in events]
    if not ends or ends[-1].get("type") != "call" or not ends[-1].get("mahjong") or "mahjong" not in kinds:
        return None
    mahjong = events[kinds.index("mahjong")]
    step: list[Event] = []
    for event in reversed(events[:kinds.index("mahjong")]):
        if event.type != "joker_exchange":
            break
        step.insert(0, event)
    seat = ends[-1].get("seat")
    if not step or mahjong.seat != seat or any(e.seat != seat for e in step) or mahjong.payload.how != "self_pick":
        return None
    assert isinstance(seat, int)
    return seat, tuple(step)


def engine_candidates(first: int, count: int) -> Iterator[tuple[int, int]]:
    """(table seed, seat) of each game four normal computers end in an M3 win, played in the engine alone: the
    service's first game at a table of seed ``s`` is dealt from ``s + 1`` with East in seat 0."""
    card, rules = load_card("practice"), TableRules()
    for seed in range(first, first + count):
        game, events = Game.new(card, rules, seed + 1, east=0, game_no=1)
        play_game(game, ["hard"] * 4, on_events=events.extend)
        found = m3_win(events, list(game.state.log))
        if found is not None:
            yield seed, found[0]


async def play_seed(service: TableService, clock: ManualClock, seed: int, seat: int) -> M3Game | None:
    """Play one table's first game from ``seed``, a person in ``seat``, with Discord's pacing; the M3 win, if the
    person makes one (None otherwise, or if a move of hers is refused)."""
    table_id = (await service.create_table(5, 50, seed=seed, options=TableOptions(0.0))).table_id
    await service.join(table_id, PERSON, "Alice", seat=seat)
    for other in range(4):
        if other != seat:
            await service.add_computer(table_id, "hard", other)
    events: list[Event] = []

    async def note(update: TableUpdate) -> None:
        events.extend(update.events)

    service.subscribe(note, table_id)
    await service.start(table_id)
    table = service.tables[table_id]
    try:
        for _ in range(5000):
            await service.drain()
            if not table.playing:
                break
            if await service.tick():  # the computers first, as in Discord
                continue
            if table.people_awaited():
                game = table.game
                assert game is not None
                token = service.seat_update(table_id, PERSON).table.token
                await service.act(table_id, PERSON, action_key(computer_move("hard", game, seat)), token=token)
                continue
            wake = service.next_wakeup()
            assert wake is not None, "the table waits for nobody"
            clock.advance(max(0.0, (wake - clock.now()).total_seconds()) + 0.001)
    except TableError:
        return None  # a move the table refused (a Mah Jongg at stake): not a game a button would play the same way
    finally:
        await service.drain()
        await service.close_table(table_id)
    game = table.game
    assert game is not None and game.state.result is not None
    found = m3_win(events, list(game.state.log))
    if found is None or found[0] != seat:
        return None
    return M3Game(seed, seat, game.state.result.line or "", found[1])


async def search(first: int, count: int, db_path: Path) -> list[M3Game]:
    """Every seed in ``first .. first + count - 1`` whose game a person wins by M3 as the e2e test plays it."""
    clock = ManualClock()
    service = TableService(await Database.open(db_path), clock=clock, computer_delay=0)
    found = []
    try:
        for seed, seat in engine_candidates(first, count):
            game = await play_seed(service, clock, seed, seat)
            print(f"seed {seed}, seat {seat}: " + (f"M3 on {game.line}, {len(game.redemptions)} redemption(s)"
                                                   if game else "not through the service"), flush=True)
            if game is not None:
                found.append(game)
    finally:
        await service.close()
    return found


def main(argv: list[str]) -> int:
    """``python -m support.m3_seeds [FIRST] [COUNT]``: print the seeds that reach M3."""
    first = int(argv[0]) if argv else 1
    count = int(argv[1]) if len(argv) > 1 else 1000
    with tempfile.TemporaryDirectory() as folder:
        found = asyncio.run(search(first, count, Path(folder) / "m3.db"))
    print(f"{len(found)} of {count} seeds from {first}: {[(g.seed, g.seat) for g in found]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
