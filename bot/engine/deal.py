"""Dealing a game and rotating the deal (docs/rules.md §2: S1, S3, S5; §11.4 three and two players, §11.7 the
1946 deal). The walls and dice are abstracted into one wall shuffled from the seed and drawn from the front."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from . import payloads
from .card import Card
from .errors import TileError
from .events import Event, private, public
from .notation import check_available
from .queries import seat_wind, tile_set_for
from .rules import RulesError, TableRules
from .state import GameState, Phase, Seat, Turn
from .tiles import Tile, TileSet, code, display_sorted

Deal = tuple[Sequence[Sequence[Tile]], Sequence[Tile]]  # hands by seat, then the first tiles of the wall


def deal_game(card: Card, rules: TableRules, seed: int, *, east: int, game_no: int,
              deal: Deal | None) -> tuple[GameState, list[Event]]:
    """A freshly dealt state and the events telling it (each rack to its own seat); ``deal`` replaces the
    shuffle for scenarios, the rest of the wall being shuffled from the seed."""
    if (card.wild == Tile.F) != rules.flowers_wild:
        need = "the nmjl-1946 rules" if card.wild == Tile.F else "rules with jokers (not the 1946 set)"
        raise RulesError(f"The card '{card.id}' needs {need}.")
    if rules.card != card.id:
        raise RulesError(f"The rules name card '{rules.card}' but the game was given '{card.id}'.")
    if (card.ruleset == "classical") != rules.classical:
        raise RulesError("The classical game is played with its own rules preset, 'classical', and no card.")
    if not 0 <= east <= 3:
        raise RulesError("East must be seat 0, 1, 2 or 3.")
    if deal is None:
        state = shuffled_deal(rules, card.id, seed, east=east, game_no=game_no)
    else:
        state = _empty_table(rules, card.id, seed, east, game_no)
        _deal_given(state, tile_set_for(rules), random.Random(f"{seed}:{game_no}:deal"), deal)
        state.deal = {"hands": [[code(t) for t in h] for h in deal[0]], "wall": [code(t) for t in deal[1]]}
    events = [public(payloads.Deal(east=east, wall=len(state.wall), game_no=game_no))]
    events += [private(payloads.Rack(tiles=tuple(display_sorted(state.seats[s].rack))), s) for s in state.players]
    return state, events


def shuffled_deal(rules: TableRules, card_id: str, seed: int, *, east: int, game_no: int) -> GameState:
    """The state as dealt from ``seed`` (the racks and the wall, nothing played yet): the same for the same seed,
    game number, East and rules, which is what lets a deal be checked against its commitment (:mod:`.fairness`)."""
    state = _empty_table(rules, card_id, seed, east, game_no)
    _deal_shuffled(state, tile_set_for(rules), random.Random(f"{seed}:{game_no}:deal"))
    return state


def _empty_table(rules: TableRules, card_id: str, seed: int, east: int, game_no: int) -> GameState:
    seats = [Seat() for _ in range(4)]
    for chair in empty_chairs(east, rules.players):
        seats[chair].empty = True
    return GameState(rules, card_id, seed, east, seats, [], Phase.PLAY, Turn.dealt(east), game_no=game_no)


def empty_chairs(east: int, players: int) -> tuple[int, ...]:
    """The chairs nobody sits in: North's with three players (CH8); with two, who sit opposite (CH9), South's
    and North's."""
    if players == 3:
        return ((east + 3) % 4,)
    if players == 2:
        return ((east + 1) % 4, (east + 3) % 4)
    return ()


def _deal_shuffled(state: GameState, tile_set: TileSet, rng: random.Random) -> None:
    tiles = tile_set.tiles()
    players = state.players
    order = [(state.east + i) % 4 for i in range(4) if (state.east + i) % 4 in players]
    if state.rules.flowers_wild:
        # §11.7: each player takes one flower before the wall is built, then 12 tiles; East one more.
        for s in order:
            tiles.remove(Tile.F)
            state.seats[s].rack.append(Tile.F)
        rng.shuffle(tiles)
        for s in order:
            state.seats[s].rack.extend(tiles[:12])
            del tiles[:12]
    else:
        rng.shuffle(tiles)
        for s in order:
            state.seats[s].rack.extend(tiles[:13])
            del tiles[:13]
    state.seats[state.east].rack.append(tiles.pop(0))
    state.wall = tiles


def _deal_given(state: GameState, tile_set: TileSet, rng: random.Random, deal: Deal) -> None:
    hands, prefix = deal
    if len(hands) != 4:
        raise RulesError("An explicit deal lists four hands, one per seat (an empty list for an empty seat).")
    for s, hand in enumerate(hands):
        want = 0 if state.seats[s].empty else (14 if s == state.east else 13)
        if len(hand) != want:
            raise RulesError(f"Seat {s} ({seat_wind(state, s)}) must be dealt {want} tiles, not {len(hand)}.")
    used = [t for hand in hands for t in hand] + list(prefix)
    try:
        check_available(used, tile_set)
    except TileError as exc:
        raise RulesError(f"The deal uses more tiles than the set holds: {exc}") from None
    rest = Counter(tile_set.tiles())
    rest.subtract(used)
    remaining = sorted(rest.elements())
    rng.shuffle(remaining)
    for s, hand in enumerate(hands):
        state.seats[s].rack = list(hand)
    state.wall = list(prefix) + remaining


def next_east(state: GameState) -> int:
    """Who deals the next game (S5): the seat to East's right, except that under the 1946 rules East keeps the
    deal after a wall game."""
    result = state.result
    if state.rules.east_keeps_deal_on_wall_game and result is not None and result.winner is None:
        return state.east
    for step in range(1, 5):
        seat = (state.east + step) % 4
        if not state.seats[seat].empty:
            return seat
    return state.east
