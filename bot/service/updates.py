"""What the service tells its callers after every change to a table.

Every change (a seat taken or left, a computer added, a game started, an action, a deadline passing, a computer
move) yields one :class:`TableUpdate`: public, safe to show the whole channel. A seat's private part (its
rack, its own private events, its choices) is a :class:`SeatUpdate`, made only for that seat and handed only to
whoever asked for that seat.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum

from bot.engine.events import Event
from bot.engine.rules import TableRules
from bot.engine.state import Phase
from bot.engine.tiles import Tile
from bot.engine.views import PublicView, SeatView

from .choices import SeatChoices
from .display import Display
from .fairness import DealSeal
from .narration import private_notes, seat_name

DEFAULT_COMPUTER_DELAY = 1.5  # seconds


class TablePhase(StrEnum):
    """Where a table stands: between games (``LOBBY``), or in its game's phase (the engine's :class:`Phase`, with
    the same values)."""

    LOBBY = "lobby"
    CHARLESTON = Phase.CHARLESTON.value
    CHARLESTON_VOTE = Phase.CHARLESTON_VOTE.value
    COURTESY = Phase.COURTESY.value
    PLAY = Phase.PLAY.value
    CALL_WINDOW = Phase.CALL_WINDOW.value
    FINISHED = Phase.FINISHED.value

    @staticmethod
    def of(phase: Phase | None) -> TablePhase:
        """The table's phase for its game's ``phase`` (None: no game dealt yet)."""
        return TablePhase.LOBBY if phase is None else TablePhase(phase.value)


LOBBY = TablePhase.LOBBY  # the phase of a table between games


class Cause(StrEnum):
    """What made a :class:`TableUpdate`."""

    CREATE = "create"  # the table was opened
    JOIN = "join"  # a person took a seat
    LEAVE = "leave"  # a person left (mid-game: a computer plays on for her), or a computer was removed
    COMPUTER = "computer"  # a computer player was seated
    START = "start"  # a game was dealt
    ACT = "act"  # a person moved
    AUTO = "auto"  # a draw, or a computer's move
    DEADLINE = "deadline"  # a call window ran out, or late players' seats went to computers
    BACK = "back"  # a person took her seat back from the computer
    CLOSE = "close"  # the table was closed (a game in progress is abandoned)
    SHOW = "show"  # a look at the table, not a change


class TableStatus(StrEnum):
    """A table's status, as stored."""

    OPEN = "open"  # seating players, or between games
    PLAYING = "playing"  # a game is in progress
    CLOSED = "closed"  # closed for good


@dataclass(frozen=True, slots=True)
class TableOptions:
    """How the service runs a table (the rules are in :class:`TableRules`)."""

    computer_delay: float = DEFAULT_COMPUTER_DELAY  # seconds before each computer move: players can follow, and call
    # Pass at once for a seat with no legal call on a discard (:mod:`bot.service.answers`); a window that closes at
    # once then says that nobody could call.
    auto_pass: bool = True

    def to_dict(self) -> dict[str, float | bool]:
        """The stored form."""
        return {"computer_delay": self.computer_delay, "auto_pass": self.auto_pass}

    @staticmethod
    def from_dict(data: Mapping[str, object]) -> TableOptions:
        """Read the stored form (missing keys take their defaults)."""
        delay = data.get("computer_delay", DEFAULT_COMPUTER_DELAY)
        if not isinstance(delay, int | float | str):
            raise ValueError(f"computer_delay must be a number of seconds, not {delay!r}")
        return TableOptions(float(delay), bool(data.get("auto_pass", True)))


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """Who sits in a seat, as everyone may know it."""

    seat: int
    player_id: int | None  # None: a computer player, or nobody
    name: str | None  # display name; None for an empty seat
    computer_level: str | None  # the computer's level, or the level standing in for an away player
    away: bool  # a human whose seat a computer is playing for now

    @property
    def empty(self) -> bool:
        """Nobody sits here."""
        return self.player_id is None and self.computer_level is None

    @property
    def human(self) -> bool:
        """A person sits here (away or not)."""
        return self.player_id is not None


@dataclass(frozen=True, slots=True)
class TableView:
    """Everything the table image and the lobby message need; nothing concealed."""

    table_id: int
    guild_id: int
    channel_id: int
    status: TableStatus
    created_by: int | None
    rules: TableRules
    options: TableOptions
    seats: tuple[SeatInfo, ...]
    wild: Tile  # the wild tile of this table's set: the joker, or the flower under the 1946 rules
    games_played: int
    game: PublicView | None  # the game in progress or just finished
    display: Display = field(default_factory=Display)  # where the table is shown (kept for the Discord layer)
    # The game's deal commitment (docs/rules.md, *Provable deals*); its seed and salt once the game is over
    seal: DealSeal | None = None

    def seat_of(self, player_id: int) -> int | None:
        """The seat ``player_id`` holds here, if any."""
        return next((s.seat for s in self.seats if s.player_id == player_id), None)

    @property
    def closed(self) -> bool:
        """Whether the table is closed."""
        return self.status is TableStatus.CLOSED

    @property
    def abandoned(self) -> bool:
        """Whether the table closed with its game unfinished: that game was abandoned (no chips changed hands)."""
        return self.closed and self.game is not None and self.game.phase != Phase.FINISHED

    @property
    def people(self) -> tuple[int, ...]:
        """The players seated here (away or not)."""
        return tuple(s.player_id for s in self.seats if s.player_id is not None)

    def chairs(self) -> tuple[SeatInfo, ...]:
        """The seats the lobby shows: as many as the table's players, taken ones first filled in; two players sit
        opposite, so at two the free chair shown is the one across from whoever sat first (seats 0 and 2 when
        nobody has)."""
        taken = [s for s in self.seats if not s.empty]
        free = [s for s in self.seats if s.empty]
        if self.rules.players == 2:
            across = {(s.seat + 2) % 4 for s in taken} or {0, 2}
            free = [s for s in free if s.seat in across]
        shown = taken + free[: max(0, self.rules.players - len(taken))]
        return tuple(sorted(shown, key=lambda s: s.seat))

    def seat_label(self, seat: int) -> str:
        """How the table names a seat, never a bracket inside a bracket: "Ruth (East)", "East (computer)"; in
        the lobby "Ruth", "Computer (normal)", "Seat 2" when empty."""
        info = self.seats[seat]
        wind = self.game.seats[seat].wind if self.game is not None else None
        if info.empty:
            return wind or f"Seat {seat}"
        return seat_name(info.name, wind, computer=info.player_id is None, level=info.computer_level)


@dataclass(frozen=True, slots=True)
class TableUpdate:
    """One change to a table, as everyone may see it.

    ``version`` increases by one with every update of this table in this process (order updates by it; after a
    restart the service starts again from the stored game). ``awaiting`` are the seats the table waits for and
    ``deadline`` the moment the table's clock acts if they don't (the same moment the clock uses). ``token`` is
    the current decision (:mod:`bot.service.decisions`); ``cause`` says what made the change (:class:`Cause`).
    ``claimable`` is the discard that may be
    called now, with its window's token (a live call window, or under the 1946 rules the last discard until the
    next one).
    """

    table_id: int
    version: int
    cause: Cause
    phase: TablePhase
    awaiting: tuple[int, ...]
    deadline: datetime | None
    token: str | None
    events: tuple[Event, ...]  # public events only
    view: TableView
    claimable: tuple[str, Tile, int] | None = None  # the discard that may be called: (token, tile, discarder)


@dataclass(frozen=True, slots=True)
class SeatUpdate:
    """One change as one seat sees it: the public update, plus this seat's own rack, events and choices."""

    table: TableUpdate
    seat: int
    player_id: int | None
    events: tuple[Event, ...]  # the public events and this seat's private ones, in order
    view: SeatView | None  # None between games
    choices: SeatChoices

    @property
    def awaited(self) -> bool:
        """Whether the table is waiting for this seat."""
        return self.seat in self.table.awaiting

    @property
    def notes(self) -> tuple[str, ...]:
        """What this seat is told privately by this update, in words for her: the tiles she was dealt and what
        she received in each Charleston pass and in the courtesy pass ("First right: you receive 5 Dot, North
        and Red Dragon."). Every pass gives every seat one such note."""
        return tuple(private_notes(self.events, self.seat, self.table.view.seat_label))

    @property
    def win_chance(self) -> str | None:
        """The decision token of a Mah Jongg this seat can claim now, else None: a discard she can call for Mah
        Jongg (that discard's window token), or her own tiles on her turn (the turn's token). Tell her once per
        token, by a message that notifies."""
        if self.choices.call_mahjong is not None and self.table.claimable is not None:
            return self.table.claimable[0]
        if self.choices.declare is not None:
            return self.table.token
        return None
