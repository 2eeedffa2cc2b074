"""Whole games through the table service with a person in every seat, collecting every text below the Discord layer
that a player reads: narration (told to the table and to each seat), private notes, choice labels, hints, error
messages, payout reasons and the alt text of the table, rack and card images. Used by tests/service/test_wording.py."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from bot.ai.selfplay import computer_move
from bot.engine.actions import Discard, PassCall
from bot.engine.card import Card
from bot.engine.payouts import payouts
from bot.engine.tiles import Tile
from bot.engine.views import seat_view
from bot.service.cards import load_card
from bot.service.clock import ManualClock
from bot.service.errors import NeedsConfirmation, TableError
from bot.service.keys import action_key
from bot.service.narration import describe
from bot.service.tables import TableService
from bot.service.updates import SeatUpdate, TableUpdate
from bot.store.db import Database
from renderers import render_card, render_seat_view, render_table


@dataclass
class Said:
    """Every text of one game, by where it is shown."""

    card: Card | None = None
    told: list[str] = field(default_factory=list)  # narration and notes
    labels: list[str] = field(default_factory=list)  # buttons and menu options
    hints: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    alt: list[str] = field(default_factory=list)
    ended: bool = False

    def everything(self) -> Iterator[tuple[str, str]]:
        """(where, text) for every text."""
        for where in ("told", "labels", "hints", "errors", "alt"):
            for text in getattr(self, where):
                yield where, text


async def play_and_collect(path: Path, *, seed: int, seats: tuple[int, ...], **rules: object) -> Said:
    """One game at a table with people in ``seats``, each moving as a normal computer player would, every text
    collected on the way."""
    db = await Database.open(path)
    said = Said()
    service = TableService(db, clock=ManualClock(), computer_delay=0)
    try:
        updates: list[TableUpdate] = []
        mine: list[SeatUpdate] = []
        service.subscribe(updates.append)
        service.subscribe_seat(mine.append)
        table_id = (await service.create_table(5, 50, seed=seed, rules=service.make_rules(**rules))).table_id  # type: ignore[arg-type]
        for n, seat in enumerate(seats):
            await service.join(table_id, 9000 + seat, ("Ruth", "Sadie", "Ida", "Dorothy")[n], seat=seat)
        await service.start(table_id)
        table = service.tables[table_id]
        assert table.game is not None
        said.card = table.game.card
        for step in range(3000):
            if not table.playing:
                said.ended = True
                break
            game = table.game
            awaited = table.people_awaited()
            if not awaited:
                break
            seat = awaited[0]
            player = 9000 + seat
            before = service.seat_update(table_id, player)
            if step % 9 == 0:
                await _errors(service, table_id, player, before, said)
                said.hints += [h.text for h in service.hint(table_id, player)]
            action = computer_move("hard", game, seat)
            try:
                await service.act(table_id, player, action_key(action), token=before.table.token)
            except NeedsConfirmation as refused:
                said.errors.append(str(refused))
                await service.act(table_id, player, action_key(action), token=before.table.token, confirm=True)
        await service.drain()
        _tell(said, updates, mine)
        game = table.game
        assert game is not None
        view = service.view(table_id)
        names = [view.seats[s].name for s in range(4)]
        for n, update in enumerate(updates):
            if update.view.game is not None and (n % 25 == 0 or update is updates[-1]):
                said.alt.append(render_table(update.view.game, names, wild=view.wild, card=said.card).alt)
        for seat in seats:
            said.alt.append(render_seat_view(seat_view(game, seat)).alt)
        result = game.state.result
        if result is not None and result.line and result.tiles:
            said.alt.append(render_card(game.card, line_id=result.line, tiles=result.tiles).alt)
        said.told += [p.reason for p in payouts(game.state)]
    finally:
        await service.close()
    return said


def _tell(said: Said, updates: list[TableUpdate], mine: list[SeatUpdate]) -> None:
    for update in updates:
        namer = update.view.seat_label
        said.told += [describe(e, namer, card=said.card) for e in update.events]
    for seat_update in mine:
        namer = seat_update.table.view.seat_label
        said.told += [describe(e, namer, you=seat_update.seat, card=said.card) for e in seat_update.events]
        said.told += list(seat_update.notes)
        choices = seat_update.choices
        singles = [choices.declare, choices.call_mahjong, choices.pass_call, choices.hold]
        said.labels += [c.label for c in singles if c is not None]
        said.labels += [c.label for c in (*choices.discard, *choices.calls, *choices.exchanges, *choices.vote,
                                          *choices.kongs)]
        said.labels += [group for group, _ in choices.blank_swaps]
        said.labels += [c.label for _, swaps in choices.blank_swaps for c in swaps]


async def _errors(service: TableService, table_id: int, player: int, mine: SeatUpdate, said: Said) -> None:
    """Moves a player gets wrong, and the sentences they get: a tile she lacks, a pass out of a window, a
    malformed key, a button of a decision that is over."""
    rack = mine.view.rack if mine.view is not None else ()
    missing = next((t for t in range(Tile.J) if t not in rack), None)
    attempts: list[object] = ["xyz", "d.ZZ"] + ([PassCall(mine.seat)] if mine.choices.pass_call is None else [])
    if missing is not None:
        attempts.append(Discard(mine.seat, missing))
    for attempt in attempts:
        try:
            await service.act(table_id, player, attempt)  # type: ignore[arg-type]
        except TableError as refused:
            said.errors.append(str(refused))
    if mine.table.token is not None:
        stale = "1w0" if mine.table.token != "1w0" else "1t0"
        try:
            await service.act(table_id, player, "p", token=stale)
        except TableError as refused:
            said.errors.append(str(refused))


# -- the scan ---------------------------------------------------------------------------------------------
LINE_IDS = sorted({line.id for card in ("practice", "nmjl-1946") for line in load_card(card).lines}, key=len,
                  reverse=True)
LINE_ID = re.compile(r"(?<![\w#-])(?:" + "|".join(map(re.escape, LINE_IDS)) + r")(?![\w-])")
WRONG_PERSON = re.compile(r"\bYou (?:is|was|has|receives|passes|discards|calls|draws|gives|offers|votes|stops|swaps|"
                          r"exposes|lays|adds|asks|takes|wins|goes|declares)\b")
FAULTS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("a card line's id", LINE_ID),
    ("a named group called 'group of N'", re.compile(r"\bgroup of \d")),
    ("points where the unit is chips", re.compile(r"\bpoints?\b", re.IGNORECASE)),
    ("a counter of discards or games", re.compile(r"\b(?:discard|turn) \d+ of game|\bof game \d+")),
    ("a verb for someone else after 'You'", WRONG_PERSON),
    ("a snake_case name", re.compile(r"\b[a-z]+_[a-z_]+\b")),
    ("an empty list shown as 'none' in brackets", re.compile(r"\([^()]*: none\)")),
    ("shouted Mah Jongg", re.compile(r"MAH JONGG!")),
    ("brackets side by side", re.compile(r"\)\s*\(")),
    ("empty brackets", re.compile(r"\(\s*\)")),
)
CODE = re.compile(r"(?<![\w\"'])[1-9][BCD](?![\w\"'])")  # a tile code where a player reads names
LIMITS = {"told": 160, "labels": 80, "hints": 300, "alt": 1000, "errors": 200}


def nested(text: str) -> bool:
    """A bracket opened inside another: "South (Computer (normal))"."""
    depth = 0
    for char in text:
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth > 1:
            return True
    return False


def faults(said: Said, *, flowers_wild: bool, limits: dict[str, int] | None = None) -> list[str]:
    """Every fault found, as "where: what: text" (``limits``: other lengths allowed, by where)."""
    allowed = {**LIMITS, **(limits or {})}
    found = []
    for where, text in said.everything():
        for what, pattern in FAULTS:
            if pattern.search(text):
                found.append(f"{where}: {what}: {text}")
        if nested(text):
            found.append(f"{where}: a bracket in a bracket: {text}")
        if len(text) > allowed[where]:
            found.append(f"{where}: longer than {allowed[where]} characters: {text}")
        if flowers_wild and re.search(r"\bjokers?\b", text, re.IGNORECASE):
            found.append(f"{where}: a joker under the 1946 rules: {text}")
        if where in ("told", "labels", "hints") and CODE.search(text):
            found.append(f"{where}: a tile code in a sentence: {text}")
    return found
