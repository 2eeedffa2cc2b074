"""Computer players in the classical game (docs/rules.md §9): every level plays only legal moves from its own
view to the end of the game, and the choices rest on the distance to Mah Jongg."""

from __future__ import annotations

import random

import pytest
from support.ai_play import play_checking
from support.game_tables import Table
from support.tiles import tile, tiles

from bot.ai.classical import ClassicalStrategy
from bot.ai.players import LEVELS
from bot.cli.simulate import simulate
from bot.engine.actions import Call, DeclareKong, Discard, PassCall
from bot.engine.game import Game
from bot.engine.rules import table_rules
from bot.engine.state import Phase
from bot.engine.views import seat_view
from bot.service.cards import load_card

CARD = load_card("classical")


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("options", [{}, {"players": 2}, {"declarations": "strict"}])
def test_CL_every_level_plays_a_classical_game_to_the_end(level: str, options: dict[str, object]) -> None:
    for seed in range(2):
        game, _ = Game.new(CARD, table_rules("classical", **options), seed)
        assert play_checking(game, [level] * 4, seed) > 10
        assert game.state.phase == Phase.FINISHED


@pytest.mark.slow
def test_CL_hard_players_go_out() -> None:
    """A small sample of the README's figure (hard x4 goes out in nearly every game; goal 70%)."""
    result = simulate(12, 5, ["hard"] * 4, card=CARD, rules=table_rules("classical"))
    assert result.mahjong >= 9


def _strategy() -> ClassicalStrategy:
    return ClassicalStrategy("normal", random.Random(1))


def test_CL_the_player_throws_the_loose_tile_and_calls_what_brings_it_closer() -> None:
    east = "1B 2B 3B 4C 5C 6C 7D 8D 9D N N RD 5D 9B"
    table = Table({0: east, 1: "4D 6D 2B 5B 8B 2C 5C 8C E S W RD GD", 2: "5D 5D 2B 3B 9B 3C 6C 9C N N E S W",
                   3: "2D 3D 7D 8D 2B 6B 2C 6C E S W 4B GD"}, preset="classical")
    choice = _strategy().decide(seat_view(table.game, 0))
    assert isinstance(choice, Discard) and choice.tile in (tile("RD"), tile("9B"), tile("5D"))
    table.discard(0, "5D")
    south = _strategy().decide(seat_view(table.game, 1))
    assert south == Call(1, tuple(tiles("4D 6D")), False)  # a chow from nothing: a set closer
    west = _strategy().decide(seat_view(table.game, 2))
    assert west == Call(2, tuple(tiles("5D 5D")), False)  # a pung from a pair, with another pair for the head
    north = _strategy().decide(seat_view(table.game, 3))
    assert isinstance(north, PassCall)


def test_CL_a_free_kong_is_laid_down() -> None:
    table = Table({0: "WD WD WD WD 1B 2B 3B 4C 5C 6C 7D 8D 9D N", 1: "4D 6D 2B 5B 8B 2C 5C 8C E S W RD GD",
                   2: "5D 5D 3B 6B 9B 3C 6C 9C 3D 7D N E S", 3: "2D 3D 7D 8D 2B 6B 2C 6C E S W N GD"},
                  preset="classical")
    assert _strategy().decide(seat_view(table.game, 0)) == DeclareKong(0, tile("WD"))
