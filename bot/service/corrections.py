"""Corrections of a league's record, as an organiser makes them (docs/rules.md, *Corrections*): a game voided with a
reason, and a game played at a physical table recorded (its players, the winner and her line, a self-pick or the
thrower, jokerless, the winner's exposures, a dead hand). Both are kept with who made them and when, and both show
in the standings' detail and the ledger's export. No discord here; every mistake is one
:class:`~bot.service.errors.TableError` sentence, and nothing is stored.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from bot.engine.card import Card, Line
from bot.engine.rules import table_rules
from bot.engine.tournament import Outcome
from bot.store import corrections as store
from bot.store.corrections import CorrectionRow as CorrectionRow  # re-exported: the cogs see the service's names
from bot.store.corrections import GameRow as GameRow
from bot.store.corrections import Recorded
from bot.store.db import Database
from bot.store.leagues import LeagueRow

from .clock import Clock
from .errors import ErrorKind, TableError
from .guild_cards import GuildCards

MAX_REASON = 200


@dataclass(frozen=True, slots=True)
class PhysicalGame:
    """A game played at a physical table, as typed: the players (3 or 4, by seat: ids and names), the winner (None:
    a wall game), her line, the thrower (None: a self-pick), jokerless, the winner's exposures and a dead hand."""

    players: tuple[tuple[int, str], ...]
    winner: int | None = None
    line: str | None = None
    thrower: int | None = None
    jokerless: bool = False
    exposures: int = 0
    dead: int | None = None
    card: str | None = None


def clean_reason(text: str) -> str:
    """A correction's reason as typed: spacing tidied, 1 to 200 characters."""
    reason = " ".join(text.split())
    if not 1 <= len(reason) <= MAX_REASON:
        raise TableError(ErrorKind.BAD_INPUT, f"Give a reason of 1 to {MAX_REASON} characters (like: dealt with "
                         "152 tiles, or: played at the wrong table).")
    return reason


class Corrections:
    """Voids and recorded games, for every guild."""

    def __init__(self, db: Database, clock: Clock, cards: GuildCards) -> None:
        self.db = db
        self.clock = clock
        self.cards = cards

    def _now(self) -> str:
        return self.clock.now().astimezone(UTC).isoformat(timespec="milliseconds")

    async def void(self, guild_id: int, game_id: int, reason: str, by: int, by_name: str) -> GameRow:
        """Void a finished game of this guild: its chips put back by a correcting transaction, and left out of the
        standings from now on."""
        reason = clean_reason(reason)
        found = await store.game(self.db, game_id)
        if found is None or found.guild_id != guild_id:
            raise TableError(ErrorKind.BAD_INPUT, f"This server has no game {game_id}: the game numbers are in the "
                             "results posts, `/ledger` and the ledger's export.")
        if found.ended_at is None:
            raise TableError(ErrorKind.BAD_INPUT, f"Game {game_id} has not ended (or was abandoned, which counts for "
                             "nothing already): only a finished game can be voided.")
        if found.voided or await store.void(self.db, game_id, guild_id, reason, by, by_name, self._now()) is None:
            raise TableError(ErrorKind.EXISTS, f"Game {game_id} is voided already.")
        return found

    async def recent(self, guild_id: int, league: LeagueRow | None) -> list[GameRow]:
        """The latest finished games of the guild (or league), newest first, for suggestions."""
        return await store.recent_games(self.db, guild_id, league.league_id if league else None)

    async def made(self, league: LeagueRow, start: datetime | None = None,
                   end: datetime | None = None) -> list[CorrectionRow]:
        """The league's corrections of the games that ended in [start, end), oldest first (the standings' detail)."""
        def iso(moment: datetime | None) -> str | None:
            return moment.astimezone(UTC).isoformat(timespec="milliseconds") if moment else None

        return await store.corrections(self.db, league.guild_id, league.league_id, iso(start), iso(end))

    async def record(self, league: LeagueRow, game: PhysicalGame, by: int, by_name: str) -> int:
        """Record a game played at a physical table for the league; returns its game number."""
        card = self.cards.card(league.guild_id, game.card or await self.cards.default_name(league.guild_id))
        outcome, line = outcome_of_physical(game, card)
        if league.channel_id is None:
            raise TableError(ErrorKind.BAD_INPUT, f"{league.name} has no channel yet: set one with "
                             "`/league-admin channel` first, so its games have a place.")
        try:
            rules = table_rules(card.ruleset, card=card.id, players=len(game.players)).to_dict()
        except ValueError as exc:
            raise TableError(ErrorKind.BAD_INPUT, str(exc)) from None
        recorded = Recorded(league.guild_id, league.league_id, league.channel_id, game.players, card.id, rules,
                            line.id if line else None, outcome)
        return await store.record(self.db, recorded, "recorded at a physical table", by, by_name, self._now())


def outcome_of_physical(game: PhysicalGame, card: Card) -> tuple[Outcome, Line | None]:
    """The outcome of a game typed in, checked: a TableError names the first thing that cannot be so."""
    ids = [player for player, _ in game.players]
    if len(ids) not in (3, 4) or len(set(ids)) != len(ids):
        raise TableError(ErrorKind.BAD_INPUT, "A game has 3 or 4 different players.")
    seat = {player: n for n, player in enumerate(ids)}
    for who, what in ((game.winner, "The winner"), (game.thrower, "The thrower"), (game.dead, "The dead hand")):
        if who is not None and who not in seat:
            raise TableError(ErrorKind.BAD_INPUT, f"{what} must be one of the game's players.")
    if not 0 <= game.exposures <= 4:
        raise TableError(ErrorKind.BAD_INPUT, "A winner has 0 to 4 exposures.")
    seats = tuple(range(len(ids)))
    dead = frozenset({seat[game.dead]}) if game.dead is not None else frozenset()
    if game.winner is None:
        if game.line or game.thrower is not None or game.jokerless or game.exposures:
            raise TableError(ErrorKind.BAD_INPUT, "A wall game has no winner, so no line, thrower, jokerless or "
                             "exposures: leave them out, or name the winner.")
        return Outcome(seats, "wall", dead=dead), None
    if game.dead == game.winner:
        raise TableError(ErrorKind.BAD_INPUT, "The winner's hand cannot be dead.")
    if game.thrower == game.winner:
        raise TableError(ErrorKind.BAD_INPUT, "The thrower is the player whose discard the winner took, never the "
                         "winner (leave it out for a self-pick).")
    line = _line(card, game.line)
    if not line.exposed and game.exposures:
        raise TableError(ErrorKind.BAD_INPUT, f"{line.id} is a concealed line (C): a hand on it has no exposures.")
    thrower = seat[game.thrower] if game.thrower is not None else None
    self_pick = thrower is None
    return Outcome(seats, "self_pick" if self_pick else "discard", seat[game.winner], line.value, self_pick,
                   game.jokerless, line.singles_and_pairs, thrower, game.exposures, dead), line


def _line(card: Card, line_id: str | None) -> Line:
    if not line_id:
        raise TableError(ErrorKind.BAD_INPUT, "Name the winning line, as the card prints it (like 2468-1): its "
                         "value is the card's.")
    key = line_id.strip().lower()
    found = next((line for line in card.lines if line.id.lower() == key), None)
    if found is None:
        raise TableError(ErrorKind.BAD_INPUT, f"The card {card.name} has no line '{line_id[:20]}': pick one from "
                         "the suggestions (like 2468-1).")
    return found
