"""Provable deals (docs/rules.md, *Provable deals*): the deal's statement names what fixes the deal and the deal
itself, its commitment is the statement's SHA-256, and any change to a seed, salt or term changes it."""

from __future__ import annotations

import hashlib
from dataclasses import replace

import pytest

from bot.engine.card import Card
from bot.engine.fairness import SCHEME, DealTerms, commitment, deal_statement, matches, seal
from bot.engine.game import Game
from bot.engine.rules import table_rules
from bot.engine.tiles import code

SALT = "0123456789abcdef0123456789abcdef"
TERMS = DealTerms(seed=41, game_no=2, east=1, card_id="practice", rules=table_rules().to_dict())


def test_the_commitment_is_the_sha256_of_the_statement_text() -> None:
    statement = deal_statement(TERMS, SALT)
    assert seal(TERMS, SALT) == commitment(statement) == hashlib.sha256(statement.encode()).hexdigest()
    assert statement.endswith("\n") and statement.splitlines()[:6] == [
        SCHEME, "seed 41", f"salt {SALT}", "game 2", "east 1", "card practice"]


def test_the_statement_holds_the_racks_and_the_wall_the_game_is_dealt(practice: Card) -> None:
    game, _ = Game.new(practice, table_rules(), TERMS.seed, east=TERMS.east, game_no=TERMS.game_no)
    lines = deal_statement(TERMS, SALT).splitlines()
    for seat in range(4):
        assert f"seat {seat} " + " ".join(code(t) for t in sorted(game.state.seats[seat].rack)) in lines
    assert "wall " + " ".join(code(t) for t in game.state.wall) in lines
    assert len(game.state.seats[TERMS.east].rack) == 14


def test_three_players_leave_the_empty_chair_empty_in_the_statement() -> None:
    three = replace(TERMS, rules=table_rules(players=3).to_dict())
    assert "seat 0 -" in deal_statement(three, SALT).splitlines()  # east 1: North's chair is seat 0


@pytest.mark.parametrize("change", [{"seed": 42}, {"game_no": 3}, {"east": 2}, {"card_id": "other"},
                                    {"rules": table_rules(blanks=4).to_dict()}])
def test_any_change_to_what_fixes_the_deal_changes_the_commitment(change: dict[str, object]) -> None:
    changed = replace(TERMS, **change)  # type: ignore[arg-type]
    assert seal(changed, SALT) != seal(TERMS, SALT)
    assert not matches(changed, SALT, seal(TERMS, SALT)) and matches(TERMS, SALT, seal(TERMS, SALT))


def test_the_salt_changes_the_commitment_so_seeds_cannot_be_tried_one_by_one() -> None:
    assert seal(TERMS, SALT) != seal(TERMS, "f" * 32)


def test_the_rules_are_written_the_same_whatever_the_order_of_their_keys() -> None:
    shuffled = dict(reversed(list(TERMS.rules.items())))
    assert seal(replace(TERMS, rules=shuffled), SALT) == seal(TERMS, SALT)


@pytest.mark.parametrize(("salt", "terms"), [("xyz", TERMS), (SALT.upper(), TERMS), (SALT, replace(TERMS, east=4)),
                                             (SALT, replace(TERMS, rules={"players": 9}))])
def test_terms_no_deal_can_be_made_from_never_match_and_never_raise(salt: str, terms: DealTerms) -> None:
    assert matches(terms, salt, seal(TERMS, SALT)) is False
