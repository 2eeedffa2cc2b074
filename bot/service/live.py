"""A table held in memory by the service, and the updates built from it."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from datetime import datetime

from bot.engine.actions import Action
from bot.engine.events import Event
from bot.engine.game import Game
from bot.engine.rules import TableRules
from bot.engine.state import Phase
from bot.engine.tiles import Tile
from bot.engine.views import public_view, seat_view, waiting_for
from bot.store.fairness import SealRow
from bot.store.records import TableRow

from .choices import SeatChoices, choices_for
from .decisions import claimable, current_token
from .display import Display
from .fairness import shown_seal
from .timetable import Timetable
from .updates import Cause, SeatInfo, SeatUpdate, TableOptions, TablePhase, TableStatus, TableUpdate, TableView

DEFAULT_LEVEL = "hard"  # the computer that stands in for an away player: the strongest, as it plays her chips


@dataclass
class LiveTable:
    """One open table: its stored row, the game in progress, its clock and its lock."""

    row: TableRow
    rules: TableRules
    options: TableOptions
    names: dict[int, str] = field(default_factory=dict)  # seat -> display name
    game: Game | None = None
    game_id: int | None = None
    version: int = 0  # actions applied to the game (the stored snapshot's version)
    saved_state: int = 0  # the version at which the game's full state was last stored
    updates: int = 0  # updates published in this process
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    timetable: Timetable | None = None  # the service's: told whenever the deadline or the next move changes
    # Computers' calls decided the moment their window opened, made when their delay is up (bot.service.play); the
    # decision token they were made for, so that a call never outlives its window.
    held: dict[int, Action] = field(default_factory=dict)
    held_for: str | None = None
    seal: SealRow | None = None  # the game's deal commitment, with its salt: secret until the game is over
    _deadline: datetime | None = None
    _auto_at: datetime | None = None

    @property
    def deadline(self) -> datetime | None:
        """When the clock acts for the people the table waits for."""
        return self._deadline

    @deadline.setter
    def deadline(self, moment: datetime | None) -> None:
        """Set the deadline (and the table's place in the timetable)."""
        self._deadline = moment
        self.reschedule()

    @property
    def auto_at(self) -> datetime | None:
        """When the next computer move is due."""
        return self._auto_at

    @auto_at.setter
    def auto_at(self, moment: datetime | None) -> None:
        """Set when the next computer move is due (and the table's place in the timetable)."""
        self._auto_at = moment
        self.reschedule()

    def reschedule(self) -> None:
        """Put the table's next moment (the earlier of the two) in the service's timetable."""
        if self.timetable is not None:
            moments = [m for m in (self._deadline, self._auto_at) if m is not None]
            self.timetable.set(self.row.table_id, min(moments) if moments else None)

    @property
    def table_id(self) -> int:
        """The table's id."""
        return self.row.table_id

    @property
    def playing(self) -> bool:
        """Whether a game is in progress (dealt and not finished)."""
        return self.game is not None and self.game.state.phase != Phase.FINISHED

    @property
    def away(self) -> set[int]:
        """Seats of people a computer is playing for."""
        return {s.seat for s in self.row.seats if s.away and s.player_id is not None}

    @property
    def display(self) -> Display:
        """Where the table is shown (the Discord layer's record, stored with the table)."""
        return Display.from_json(self.row.display)

    def seat_of(self, player_id: int) -> int | None:
        """The seat ``player_id`` holds here, if any."""
        return next((s.seat for s in self.row.seats if s.player_id == player_id), None)

    def computer_level(self, seat: int) -> str | None:
        """The level playing this seat if a computer is playing it now (a computer seat, or an away human)."""
        row = self.row.seats[seat]
        if row.player_id is None:
            return row.computer_level
        return (row.computer_level or DEFAULT_LEVEL) if row.away else None

    def awaiting(self) -> tuple[int, ...]:
        """The seats the game waits for now."""
        return tuple(waiting_for(self.game)) if self.playing and self.game is not None else ()

    def people_awaited(self) -> list[int]:
        """Awaited seats that a person (not a computer) must answer."""
        return [s for s in self.awaiting() if not self.computer_level(s)]

    def computers_awaited(self) -> list[int]:
        """Awaited seats a computer answers (computer seats and away players)."""
        return [s for s in self.awaiting() if self.computer_level(s)]

    def view(self) -> TableView:
        """The public picture of the table now."""
        seats = tuple(SeatInfo(s.seat, s.player_id, self.names.get(s.seat), self.computer_level(s.seat),
                               s.away and s.player_id is not None) for s in self.row.seats)
        wild = Tile.F if self.rules.flowers_wild else Tile.J
        game = self.game
        seal = shown_seal(self.seal, game.state.seed, over=game.state.phase == Phase.FINISHED) \
            if game is not None else None
        return TableView(self.table_id, self.row.guild_id, self.row.channel_id, TableStatus(self.row.status),
                         self.row.created_by, self.rules, self.options, seats, wild, self.row.games_played,
                         public_view(game) if game is not None else None, self.display, seal)

    def table_update(self, cause: Cause, events: list[Event], *, change: bool = True) -> TableUpdate:
        """The next public update, for a change just made; with ``change`` False, the table as it is (for a look,
        not a change: its version is the last update's)."""
        if change:
            self.updates += 1
        game = self.game
        phase = TablePhase.of(game.state.phase if game is not None else None)
        token = current_token(game) if game is not None else None
        return TableUpdate(self.table_id, self.updates, cause, phase, self.awaiting(), self.deadline, token,
                           tuple(e for e in events if not e.private), self.view(),
                           claimable(game) if game is not None else None)

    def seat_update(self, update: TableUpdate, seat: int, events: list[Event]) -> SeatUpdate:
        """``update`` as ``seat`` sees it: with its rack, its own private events and its choices."""
        game = self.game
        view = seat_view(game, seat) if game is not None else None
        choices = choices_for(view, update.token) if view is not None else SeatChoices(None)
        return SeatUpdate(update, seat, self.row.seats[seat].player_id,
                          tuple(e for e in events if e.visible_to(seat)), view, choices)
