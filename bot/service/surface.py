"""The service's surface to the Discord layer: the calls the cogs make, as :class:`typing.Protocol`\\ s.

The cogs are handed a :class:`TableCalls`, a :class:`LeagueCalls` and a :class:`CardCalls` (the bot's wiring gives
them the real :class:`~bot.service.tables.TableService`, :class:`~bot.service.leagues.LeagueService` and its
:class:`~bot.service.guild_cards.GuildCards`), so mypy refuses a call the surface does not list, and a test holds the
real services to these signatures (tests/house/test_seam.py). A call the Discord layer needs is added here first.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from bot.engine.actions import Action
from bot.engine.card import Card
from bot.engine.rules import TableRules

from .card_admin import ImportPreview
from .corrections import GameRow, PhysicalGame
from .display import Display
from .guild_cards import CardInfo
from .hints import Hint
from .hub import SeatListener, TableListener
from .leagues import (
    LeagueInfo,
    LeagueRow,
    SeasonRow,
    SeasonStandings,
    ServerStandings,
    Statement,
    WeekStandings,
)
from .nights import NightJob, NightView
from .stats import StatsReport
from .updates import SeatUpdate, TableOptions, TableUpdate, TableView


class TableCalls(Protocol):
    """What the Discord layer asks of the table service."""

    async def create_table(self, guild_id: int, channel_id: int, *, created_by: int | None = None,
                           rules: TableRules | None = None, options: TableOptions | None = None,
                           seed: int | None = None, east: int = 0) -> TableUpdate:
        """A new table."""

    def make_rules(self, preset: str, *, card: str | None = None, **options: int | float | str | bool) -> TableRules:
        """Table rules from a preset and options, checked."""

    async def join(self, table_id: int, player_id: int, name: str, seat: int | None = None) -> TableUpdate:
        """Seat a player."""

    async def add_computer(self, table_id: int, level: str = "normal", seat: int | None = None) -> TableUpdate:
        """Seat a computer player."""

    async def leave(self, table_id: int, player_id: int) -> TableUpdate:
        """Give up a seat (mid-game a computer plays on)."""

    async def start(self, table_id: int, by: int | None = None) -> TableUpdate:
        """Deal the next game."""

    async def act(self, table_id: int, player_id: int, action: Action | str, *, token: str | None = None,
                  confirm: bool = False) -> SeatUpdate:
        """A player's move."""

    async def come_back(self, table_id: int, player_id: int) -> TableUpdate:
        """A player takes her seat back from the computer."""

    async def close_table(self, table_id: int, by: int | None = None, *, manager: bool = False) -> TableUpdate:
        """Close a table."""

    def seat_update(self, table_id: int, player_id: int) -> SeatUpdate:
        """The caller's own seat as it is now."""

    def snapshot(self, table_id: int) -> TableUpdate:
        """The table as it is now, as everyone may see it."""

    def view(self, table_id: int) -> TableView:
        """The public view of a table now."""

    def hint(self, table_id: int, player_id: int, top: int = 3) -> list[Hint]:
        """The caller's closest card lines."""

    def decision_open(self, table_id: int, token: str) -> bool:
        """Whether the decision ``token`` names is still open."""

    def table_for(self, guild_id: int, channel_id: int, player_id: int) -> int:
        """The table a command means."""

    def table_ids(self) -> list[int]:
        """Every open table."""

    def is_open(self, table_id: int) -> bool:
        """Whether ``table_id`` is an open table of this service."""

    def display(self, table_id: int) -> Display:
        """Where an open table is shown."""

    async def update_display(self, table_id: int, change: Callable[[Display], Display]) -> Display:
        """Change where the table is shown."""

    async def relocate(self, table_id: int, channel_id: int) -> None:
        """Move a table to another channel of its guild."""

    def subscribe(self, listener: TableListener, table_id: int | None = None) -> Callable[[], None]:
        """Public updates of one table, or of every table."""

    def subscribe_seat(self, listener: SeatListener, table_id: int | None = None,
                       seat: int | None = None) -> Callable[[], None]:
        """One seat's private updates (every seat a person holds, with ``seat`` None)."""

    async def drain(self) -> None:
        """Wait until every update has reached its listeners, those published meanwhile included."""

    async def catch_up(self) -> None:
        """Wait until every update published before this call has reached its listeners (later ones not)."""


class CardCalls(Protocol):
    """What the Discord layer asks about a server's cards."""

    def names(self, guild_id: int) -> list[str]:
        """Every card name the guild may use."""

    def card(self, guild_id: int, name: str) -> Card:
        """A card by the name the guild knows it by."""

    async def infos(self, guild_id: int) -> list[CardInfo]:
        """Every card the guild may use, its default marked."""

    async def for_table(self, guild_id: int, name: str | None, preset: str | None) -> tuple[str | None, str]:
        """The card and rules preset for a new table."""

    async def import_card(self, guild_id: int, name: str, data: bytes, filename: str, by: int | None,
                          now: str) -> Card:
        """Check and store a card file for this guild alone."""

    async def set_default(self, guild_id: int, name: str, now: str) -> Card:
        """Make a card the guild's default for new tables."""

    async def default_name(self, guild_id: int) -> str:
        """The guild's default card's name."""

    # -- issue 29: importing with a confirmation, replacing a line (bot/service/card_admin.py) --
    async def preview_import(self, guild_id: int, name: str, data: bytes, filename: str, fmt: str, by: int | None,
                             now: str) -> ImportPreview:
        """Read and check a card file (TOML, .jq or mpmahj JSON) and hold it, unstored, until confirmed."""

    async def confirm_import(self, guild_id: int, token: str, by: int | None, now: str) -> Card:
        """Store the import a confirm button names, for this guild alone."""

    def line_names(self, guild_id: int, name: str) -> list[str]:
        """A card's lines as players name them ("2468 #1")."""

    async def replace_line(self, guild_id: int, name: str, line: str, text: str, note: str | None, by: int | None,
                           now: str) -> tuple[Card, str]:
        """Replace one line of a card imported here by a line typed as printed; the card and the line's id."""


class CorrectionCalls(Protocol):
    """What the Discord layer asks of a league's corrections (issue 31): voids and games recorded at a physical
    table."""

    async def void(self, guild_id: int, game_id: int, reason: str, by: int, by_name: str) -> GameRow:
        """Void a finished game of the guild: its chips put back by a correcting transaction."""

    async def recent(self, guild_id: int, league: LeagueRow | None) -> list[GameRow]:
        """The guild's (or league's) latest finished games, for suggestions."""

    async def record(self, league: LeagueRow, game: PhysicalGame, by: int, by_name: str) -> int:
        """Record a game played at a physical table; its game number."""


class NightCalls(Protocol):
    """What the Discord layer asks of the league nights (issue 31)."""

    async def schedule(self, league: LeagueRow, *, when: str, rounds: int, games: int | None, minutes: int | None,
                       remainder: str, absent: str, close_minutes: int, computer_delay: float,
                       by: int) -> NightView:
        """Schedule a night."""

    async def cancel(self, league: LeagueRow) -> NightView:
        """Call off the league's next night that has not begun."""

    async def signup_posted(self, night_id: int, message_id: int) -> None:
        """Where the sign-up message is."""

    async def view(self, night_id: int, guild_id: int | None = None) -> NightView:
        """A night as shown."""

    async def answer(self, guild_id: int, night_id: int, player_id: int, name: str, coming: bool) -> NightView:
        """I'm in / Can't come."""

    async def tick(self) -> list[NightJob]:
        """Take every step that is due; what the Discord layer must do."""

    async def deal(self, night_id: int, round_no: int, table_no: int) -> None:
        """Deal a table's first game, once it is shown."""

    async def results_posted(self, night_id: int, message_id: int) -> None:
        """The results are in the channel."""

    async def results_failed(self, night_id: int, tries: int) -> None:
        """The results could not be posted."""


class LeagueCalls(Protocol):
    """What the Discord layer asks of the league service."""

    @property
    def cards(self) -> CardCalls:
        """The servers' cards."""

    @property
    def corrections(self) -> CorrectionCalls:
        """Voids and recorded games."""

    async def set_scoring(self, league: LeagueRow, *, unit: str | None = None, preset: str | None = None,
                          self_pick: int | None = None, jokerless: int | None = None, wall: int | None = None,
                          throw_penalty: str | None = None, rule: str | None = None, best: int | None = None,
                          minimum: int | None = None) -> LeagueRow:
        """Change what the league's standings count and how they rank."""

    def now_iso(self) -> str:
        """The service clock's time as stored."""

    async def find(self, guild_id: int, name: str | None, channel_ids: list[int] | None = None) -> LeagueRow:
        """The league a command means."""

    async def leagues(self, guild_id: int) -> list[LeagueRow]:
        """The guild's leagues."""

    async def names(self, guild_id: int) -> list[str]:
        """The guild's league names."""

    async def for_new_table(self, guild_id: int, name: str | None, channel_ids: list[int]) -> LeagueRow | None:
        """The league a table opened here counts for."""

    async def attach_table(self, table_id: int, league: LeagueRow) -> None:
        """The table's games count for the league."""

    async def create(self, guild_id: int, name: str, *, timezone: str = "UTC", week_start: int = 0,
                     by: int | None = None) -> LeagueRow:
        """A new league in the guild."""

    async def set_channel(self, league: LeagueRow, channel_id: int) -> LeagueRow:
        """Make a channel the league's."""

    async def set_auto_join(self, league: LeagueRow, auto_join: bool) -> None:
        """Whether players join on their first game at the league's tables."""

    async def start_season(self, league: LeagueRow, name: str) -> SeasonRow:
        """Start a season now."""

    async def end_season(self, league: LeagueRow) -> SeasonRow:
        """End the season running now."""

    async def join(self, league: LeagueRow, player_id: int) -> bool:
        """Join a league."""

    async def leave(self, league: LeagueRow, player_id: int) -> None:
        """Leave a league."""

    async def info(self, league: LeagueRow) -> LeagueInfo:
        """The league's settings, members, seasons and waiting posts."""

    async def saw_manager(self, guild_id: int, user_id: int) -> None:
        """Remember a manager of the guild."""

    async def managers(self, guild_id: int) -> list[int]:
        """The guild's managers seen most recently."""

    def week_of(self, league: LeagueRow, text: str | None) -> str:
        """A week's label from what was typed."""

    def week_choices(self, league: LeagueRow, count: int = 12) -> list[tuple[str, str]]:
        """This week and the ones before it, as (name, label)."""

    async def week(self, league: LeagueRow, label: str) -> WeekStandings:
        """One week's standings of the league."""

    async def season(self, league: LeagueRow, name: str | None, *, all_games: bool = False) -> SeasonStandings:
        """A season's standings."""

    async def season_list(self, league: LeagueRow) -> list[SeasonRow]:
        """The league's seasons, newest first."""

    async def server_week(self, guild_id: int, text: str | None = None) -> ServerStandings:
        """A server's standings for one week over all its tables."""

    async def server_totals(self, guild_id: int) -> ServerStandings:
        """A server's standings over every game so far."""

    async def server_week_choices(self, guild_id: int, count: int = 12) -> list[tuple[str, str]]:
        """The server's weeks, as (name, label)."""

    async def statement(self, guild_id: int, player_id: int, league: LeagueRow | None,
                        limit: int = 10) -> Statement:
        """A player's balance and latest transactions."""

    async def ledger_csv(self, guild_id: int, league: LeagueRow | None) -> tuple[str, int]:
        """The ledger as CSV, and how many postings."""


# -- players' statistics (/stats): a block of its own, over bot/service/stats.py --------------------------------------
class StatsCalls(Protocol):
    """Players' statistics, recomputed from the record at each call (:class:`bot.service.stats.StatsService`)."""

    async def stats(self, guild_id: int | None, league_id: int | None = None,
                    player_id: int | None = None) -> StatsReport:
        """The figures of the games the standings count, for every player or one."""
