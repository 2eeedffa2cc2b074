"""Properties of whole classical games (docs/rules.md §9) under random legal play, checked after every action:
every tile of the 136 is somewhere; a player holds 13 tiles plus one per kong (14 plus one per kong on her own
turn); the state survives JSON; a seat's view never shows another's concealed tiles; the listed legal actions
are exactly those the referee accepts; and at the end the replay gives the same game and the payments follow the
classical scoring (base from each, double from the discarder, double from everyone on a self-draw)."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from support.game_tables import tiles_in_game, tiles_in_set

from bot.engine.actions import (
    TABLE,
    Action,
    Call,
    CloseWindow,
    DeclareKong,
    DeclareMahJongg,
    Discard,
    Draw,
    Hold,
    PassCall,
)
from bot.engine.game import Game, IllegalAction
from bot.engine.legal import legal_actions
from bot.engine.payouts import payouts
from bot.engine.replay import export_replay, replay
from bot.engine.rules import table_rules
from bot.engine.sets import arrange
from bot.engine.state import GameState, Phase
from bot.engine.tiles import CLASSICAL, Tile, display_sorted
from bot.engine.views import public_view, seat_view
from bot.service.cards import load_card

pytestmark = pytest.mark.slow

CARD = load_card("classical")
CONFIGS = {"default": {}, "strict": {"declarations": "strict"}, "two-players": {"players": 2},
           "three-players": {"players": 3}, "first-exposed": {"first_exposed_wins": True}}


def _game(name: str, seed: int) -> Game:
    game, _ = Game.new(CARD, table_rules("classical", **CONFIGS[name]), seed, east=seed % 4 if name != "two-players"
                       else 0)
    return game


def _choose(game: Game, rng: random.Random) -> Action:
    state = game.state
    options = [a for s in range(4) for a in legal_actions(game, s)]
    wins = [a for a in options if isinstance(a, DeclareMahJongg) or (isinstance(a, Call) and a.mahjong)]
    if wins and rng.random() < 0.9:
        return rng.choice(wins)
    if state.phase == Phase.CALL_WINDOW:
        if state.rules.declarations == "strict" and rng.random() < 0.03:
            window = state.window
            assert window is not None
            callers = [s for s in state.live_seats if s != window.discarder and not window.answered(s)]
            if callers:
                return Call(rng.choice(callers), (), True)  # perhaps a false Mah Jongg (CL6)
        calls = [a for a in options if isinstance(a, Call)]
        if calls and rng.random() < 0.5:
            return rng.choice(calls)
        if rng.random() < 0.3:
            return CloseWindow(TABLE)
    if state.phase == Phase.PLAY and state.rules.declarations == "strict" and rng.random() < 0.01 \
            and not state.turn_state.needs_draw and not state.seats[state.turn].dead:
        return DeclareMahJongg(state.turn)
    kongs = [a for a in options if isinstance(a, DeclareKong)]
    if kongs and rng.random() < 0.7:
        return rng.choice(kongs)
    return rng.choice(options) if options else CloseWindow(TABLE)


def _check_counts(game: Game) -> None:
    state = game.state
    for s in state.players:
        seat = state.seats[s]
        kongs = sum(len(e.tiles) == 4 for e in seat.exposures)
        holding = seat.tile_count - kongs
        if seat.dead and state.phase != Phase.FINISHED:
            assert holding in (13, 14)  # a hand found dead on its own turn may keep its 14th until it draws
            continue
        if state.phase == Phase.FINISHED:
            expected = 14 if state.result is not None and state.result.winner == s else 13
        elif state.phase == Phase.PLAY:
            expected = 14 if s == state.turn and not state.turn_state.needs_draw else 13
        else:
            expected = 13
        assert holding == expected, f"seat {s} holds {seat.tile_count} with {kongs} kongs in {state.phase}"


def _check_hidden(game: Game, rng: random.Random) -> None:
    state = game.state
    candidates = [s for s in state.players if state.seats[s].rack]
    if not state.wall or not candidates:
        return
    other = rng.choice(candidates)
    rack = state.seats[other].rack
    pairs = [(i, j) for i in range(len(rack)) for j in range(min(len(state.wall), 10)) if rack[i] != state.wall[j]]
    if not pairs:
        return
    i, j = rng.choice(pairs)
    data = state.to_json()
    data["seats"][other]["rack"][i], data["wall"][j] = data["wall"][j], data["seats"][other]["rack"][i]
    if data["turn"]["drawn"] is not None and state.turn == other:
        data["turn"]["drawn"] = None if i == len(rack) - 1 else data["turn"]["drawn"]
    twin = Game(GameState.from_json(data), game.card)
    if data["turn"]["drawn"] is None and state.turn_state.drawn is not None and state.turn == other:
        return  # the drawn tile itself was swapped: only its owner's view names it
    assert public_view(twin).to_json() == public_view(game).to_json()
    for s in state.players:
        if s != other:
            assert seat_view(twin, s).to_json() == seat_view(game, s).to_json()


def _check_result(game: Game) -> None:
    state = game.state
    result = state.result
    assert result is not None
    paid = payouts(state)
    if result.winner is None:
        assert paid == []
        return
    seat = state.seats[result.winner]
    assert arrange(seat.rack, [e.tiles for e in seat.exposures]) is not None
    assert Counter(t for g in result.tiles for t in g) == Counter(seat.rack) + Counter(
        t for e in seat.exposures for t in e.tiles)
    base = state.rules.base
    assert sorted(p.payer for p in paid) == sorted(s for s in state.players if s != result.winner)
    for p in paid:
        double = result.self_pick or p.payer == result.discarder
        assert p.payee == result.winner and p.amount == base * (2 if double else 1)


GAMES = [(name, seed) for name in CONFIGS for seed in range(3)]


@pytest.mark.parametrize(("name", "seed"), GAMES, ids=[f"{n}-{s}" for n, s in GAMES])
def test_CL_random_classical_games_keep_every_invariant(name: str, seed: int) -> None:
    game = _game(name, seed)
    rng = random.Random(f"{name}:{seed}")
    state = game.state
    steps = 0
    while state.phase != Phase.FINISHED:
        game.apply(_choose(game, rng))
        steps += 1
        assert steps < 3000
        assert tiles_in_game(state) == tiles_in_set(CLASSICAL)
        _check_counts(game)
        data = state.to_json()
        assert GameState.from_json(json.loads(json.dumps(data))).to_json() == data
        if steps % 5 == 0:
            _check_hidden(game, rng)
            for s in state.players:
                assert seat_view(game, s).rack == tuple(display_sorted(state.seats[s].rack))
    assert all(legal_actions(game, s) == [] for s in range(4))
    _check_result(game)
    again = replay(json.loads(json.dumps(export_replay(game))), CARD)
    assert again.game.state.to_json() == state.to_json()


def _candidates(game: Game, seat: int) -> list[Action]:
    """Actions a player might try now, legal or not: every chow, pung, kong and discard shape there is."""
    state = game.state
    me = state.seats[seat]
    found: list[Action] = [Draw(seat), PassCall(seat), Hold(seat), DeclareMahJongg(seat), Call(seat, (), True)]
    found += [Discard(seat, t) for t in sorted(set(me.rack))]
    found += [DeclareKong(seat, t) for t in sorted(set(me.rack))]
    window = state.window or state.late_window
    if window is not None:
        tile = window.tile
        for a, b in ((tile - 2, tile - 1), (tile - 1, tile + 1), (tile + 1, tile + 2)):
            if a >= 0 and b <= Tile.WD:
                found.append(Call(seat, (a, b), False))
        found += [Call(seat, (tile,) * n, False) for n in (1, 2, 3)]
    return found


@pytest.mark.parametrize("name", ["default", "two-players", "three-players"])  # strict accepts false declarations
def test_CL_apply_accepts_exactly_the_legal_actions(name: str) -> None:
    game = _game(name, 5)
    rng = random.Random(name)
    for step in range(500):
        if game.state.phase == Phase.FINISHED:
            break
        if step % 3 == 0:
            data = game.state.to_json()
            for seat in game.state.players:
                legal = legal_actions(game, seat)
                for action in _candidates(game, seat):
                    trial = Game(GameState.from_json(data), game.card)
                    try:
                        trial.apply(action)
                        accepted = True
                    except IllegalAction:
                        accepted = False
                    assert accepted == (action in legal), (action, accepted, game.state.phase, game.state.turn)
        game.apply(_choose(game, rng))
