"""Provable deals (docs/rules.md, *Provable deals*): sealing each deal as it is made, what a table shows of the
seal, and checking every recorded game's deal against its commitment (``charleston fairness verify``).

At the deal the service draws a secret salt (and, at a table without a seed of its own, a fresh secret seed for
the game), records the commitment with the game in the same transaction and shows it in the table's view; the
seed and the salt join the view once the game is over. :func:`verify_deals` deals each recorded game again from its
stored seed, compares the commitment, and replays the game's action log from that deal to check that the game
recorded is the one that deal gives.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot.engine import fairness
from bot.engine.actions import action_from_json
from bot.engine.card import Card
from bot.engine.errors import CardError, EngineError
from bot.engine.fairness import DealTerms
from bot.engine.game import Game
from bot.engine.rules import rules_from_dict
from bot.store import fairness as rows
from bot.store.db import Database
from bot.store.fairness import DealtGame, SealRow

from .cards import UnknownCard, load_card
from .guild_cards import GuildCards

SEED_BITS = 63  # a fresh game's seed: as large as the database's signed 64-bit integers hold


@dataclass(frozen=True, slots=True)
class DealSeal:
    """What a table shows of its game's deal: the commitment from the deal on, and the seed and salt that open it
    once the game is over (None until then: they would give the wall away)."""

    commitment: str
    seed: int | None = None
    salt: str | None = None

    @property
    def revealed(self) -> bool:
        """Whether the seed and salt are shown (the game is over)."""
        return self.seed is not None and self.salt is not None


def fresh_seed() -> int:
    """A new secret seed for one game."""
    return secrets.randbits(SEED_BITS)


def seal_deal(rules: dict[str, Any], card_id: str, seed: int, *, game_no: int, east: int) -> SealRow:
    """A new seal for the deal these terms make, with a fresh secret salt (``rules`` as stored with the game)."""
    salt = secrets.token_hex(16)
    terms = DealTerms(seed, game_no, east, card_id, rules)
    return SealRow(fairness.SCHEME, fairness.seal(terms, salt), salt)


def shown_seal(seal: SealRow | None, seed: int, *, over: bool) -> DealSeal | None:
    """What a table may show of a game's seal: the commitment, and the seed and salt only when the game is over.
    None for a game dealt before deals were sealed."""
    if seal is None or seal.scheme == rows.NO_SCHEME:
        return None
    return DealSeal(seal.commitment, seed, seal.salt) if over else DealSeal(seal.commitment)


@dataclass(frozen=True, slots=True)
class Mismatch:
    """A recorded game that fails the check, and why, in a sentence."""

    game_id: int
    table_id: int
    game_no: int
    problem: str

    def line(self) -> str:
        """One line naming the game and what is wrong."""
        return f"game {self.game_id} (table {self.table_id}, its game {self.game_no}): {self.problem}"


@dataclass
class FairnessReport:
    """What :func:`verify_deals` found: games checked, those that do not match, and those it could not check."""

    checked: int = 0
    mismatches: list[Mismatch] = field(default_factory=list)
    unsealed: int = 0  # dealt before deals were sealed: nothing to check them against
    not_replayed: list[str] = field(default_factory=list)  # deal checked; play not replayed (why, per game)
    shown: list[str] = field(default_factory=list)  # with one game asked for: its seal, and what opens it if over

    @property
    def ok(self) -> bool:
        """Whether every game checked matched."""
        return not self.mismatches


async def verify_deals(db: Database, game_id: int | None = None) -> FairnessReport:
    """Check every game the bot dealt (or the one numbered ``game_id``) against its commitment, and replay its log
    from that deal. Imported cards are loaded from the database first, so games played with them replay too."""
    await GuildCards(db).load_all()
    report = FairnessReport()
    for game in await rows.dealt_games(db, game_id):
        if game_id is not None:
            report.shown.extend(_shown(game))
        if game.seal is not None and game.seal.scheme == rows.NO_SCHEME:
            report.unsealed += 1
            continue
        report.checked += 1
        problem = _deal_problem(game)
        if problem is None:
            problem = _play_problem(game, await rows.game_log(db, game.game_id), load_card, report.not_replayed)
        if problem is not None:
            report.mismatches.append(Mismatch(game.game_id, game.table_id, game.game_no, problem))
    return report


def _shown(game: DealtGame) -> list[str]:
    seal = game.seal
    if seal is None or seal.scheme == rows.NO_SCHEME:
        return [f"game {game.game_id} (table {game.table_id}): no commitment recorded"]
    lines = [f"game {game.game_id} (table {game.table_id}, its game {game.game_no}): commitment {seal.commitment}"]
    if game.over:
        lines.append(f"  seed {game.seed}, salt {seal.salt}")
    else:
        lines.append("  in progress: its seed and salt are shown when it is over")
    return lines


def _deal_problem(game: DealtGame) -> str | None:
    seal = game.seal
    if seal is None:
        return "no commitment is recorded for its deal (its seal was removed)"
    if seal.scheme != fairness.SCHEME:
        return f"its commitment is of an unknown scheme '{seal.scheme[:40]}'"
    if game.seed is None:
        return "its stored seed is not a whole number, so no deal can be made from it"
    terms = DealTerms(game.seed, game.game_no, game.east, game.card_id, game.rules)
    if not fairness.matches(terms, seal.salt, seal.commitment):
        return ("its deal does not match its published commitment: the seed, the salt or what fixes the deal "
                "(game number, East, card, rules) is not what was committed")
    return None


def _play_problem(game: DealtGame, log: list[dict[str, Any]], cards: Callable[[str], Card],
                  skipped: list[str]) -> str | None:
    """Why the recorded play does not follow from the deal, or None (also when it cannot be replayed here: the
    card is missing, noted in ``skipped``)."""
    assert game.seed is not None  # checked with the deal
    try:
        card = cards(game.card_id)
    except (UnknownCard, CardError):
        skipped.append(f"game {game.game_id}: card '{game.card_id}' is not installed here, so its deal was checked "
                       "and its play was not replayed")
        return None
    try:
        replayed, _ = Game.new(card, rules_from_dict(game.rules), game.seed, east=game.east, game_no=game.game_no)
    except EngineError as exc:
        return f"no game can be dealt from what is recorded for it ({exc})"
    for number, action in enumerate(log):
        try:
            replayed.apply(action_from_json(action))
        except (EngineError, ValueError, KeyError, TypeError) as exc:
            return f"its recorded play does not follow from its deal: action {number} is refused ({exc})"
    result = replayed.state.result
    if game.ended and (result is None or (result.how, result.winner, result.line) !=
                       (game.how, game.winner_seat, game.line_id)):
        return "its recorded result is not what its deal and its recorded play give"
    return None
