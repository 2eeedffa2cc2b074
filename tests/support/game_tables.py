"""Scenario kit shared by the game-engine tests (tests/engine/test_game_*.py, test_payouts.py, test_replay.py...).

This module holds no tests. It builds fully controlled games from an explicit deal (S3 abstracted, see
``Game.new(deal=...)``): racks are written in tile notation, shorter racks are padded with unrelated "junk" tiles,
and the wall starts with the given tiles. Every refused action is checked to leave the state untouched.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pytest

from bot.engine.actions import (
    TABLE,
    Action,
    Call,
    CloseWindow,
    DeclareMahJongg,
    Discard,
    Draw,
    PassCall,
)
from bot.engine.card import Card
from bot.engine.deal import empty_chairs
from bot.engine.events import Event
from bot.engine.game import Game, IllegalAction, tile_set_for
from bot.engine.notation import parse_tiles
from bot.engine.rules import table_rules
from bot.engine.state import GameState, Phase
from bot.engine.tiles import Tile, TileSet
from bot.service.cards import load_card

from .tiles import tile, tiles

PRACTICE = load_card("practice")
CARD_1946 = load_card("nmjl-1946")

# Padding tiles, spread over suits and numbers so that padding never builds a group by accident.
JUNK = parse_tiles("1D 4C 7B 2C 5D 8B 3D 6C 9B 1C 4D 7C 2B 5C 8D 3C 6D 9D 2D 5B 8C 1B 4B 7D "
                   "3B 6B 9C N S W E RD GD WD")


def tiles_in_game(state: GameState) -> Counter[int]:
    """Every tile the game holds: racks, exposures, wall, discards, and the Bob dummy's piles (CH8)."""
    total: Counter[int] = Counter()
    for seat in state.seats:
        total.update(seat.rack)
        for exposure in seat.exposures:
            total.update(exposure.tiles)
    total.update(state.wall)
    total.update(t for _, t in state.discards)
    if state.charleston is not None:
        total.update(state.charleston.bob_in)
        # Bob's rows not yet passed: the current stage's row is still his while the pass is being collected;
        # once it is resolved (vote, courtesy) only later rows remain.
        first_unpassed = state.charleston.stage + (0 if state.phase == Phase.CHARLESTON else 1)
        for row in state.charleston.bob_out[first_unpassed:]:
            total.update(row)
    return total


def tiles_in_set(tile_set: TileSet) -> Counter[int]:
    """Every tile of the set, counted by kind."""
    return Counter({k: n for k, n in enumerate(tile_set.counts) if n})


def fill_hands(hands: Mapping[int, str] | Sequence[str], wall: str, *, east: int, tile_set: TileSet,
               players: int = 4) -> list[list[int]]:
    """Racks by seat: the given tiles, padded with junk to 14 (East) or 13 (others); an empty chair gets none."""
    given = dict(enumerate(hands)) if not isinstance(hands, Mapping) else dict(hands)
    racks = [tiles(given.get(s, "")) for s in range(4)]
    left = tiles_in_set(tile_set)
    left.subtract(t for rack in racks for t in rack)
    left.subtract(tiles(wall))
    assert all(n >= 0 for n in left.values()), "the scenario uses more tiles than the set holds"
    empty = empty_chairs(east, players)
    for s in range(4):
        want = 0 if s in empty else (14 if s == east else 13)
        assert len(racks[s]) <= want, f"seat {s} given {len(racks[s])} tiles"
        for limit in (1, 2, 3, 4):
            for junk in JUNK:
                if len(racks[s]) == want:
                    break
                if left[junk] > 0 and racks[s].count(junk) < limit:
                    racks[s].append(junk)
                    left[junk] -= 1
        assert len(racks[s]) == want
    return racks


class Table:
    """One game from an explicit deal, with short-hand moves. The Charleston is off unless asked for."""

    def __init__(self, hands: Mapping[int, str] | Sequence[str] = (), wall: str = "", *, east: int = 0,
                 seed: int = 11, preset: str = "nmjl", full_wall: str | None = None, card: Card | None = None,
                 **options: Any) -> None:
        options.setdefault("charleston", False)
        if card is not None:
            options.setdefault("card", card.id)
        self.rules = table_rules(preset, **options)
        self.card: Card = card if card is not None else load_card(self.rules.card)
        self.tile_set = tile_set_for(self.rules)
        racks = fill_hands(hands, wall if full_wall is None else full_wall, east=east, tile_set=self.tile_set,
                           players=self.rules.players)
        prefix = tiles(wall)
        if full_wall is not None:
            # The whole wall in order, ending with ``full_wall``: the rest of the set comes first, in kind order.
            rest = tiles_in_set(self.tile_set)
            rest.subtract(t for rack in racks for t in rack)
            rest.subtract(tiles(full_wall))
            prefix = sorted(rest.elements()) + tiles(full_wall)
        self.racks = racks
        self.game, self.opening = Game.new(self.card, self.rules, seed, east=east, deal=(racks, prefix))

    # -- looking ---------------------------------------------------------------------------------------
    @property
    def state(self) -> GameState:
        return self.game.state

    def rack(self, seat: int) -> Counter[int]:
        return Counter(self.state.seats[seat].rack)

    def snapshot(self) -> str:
        return json.dumps(self.state.to_json(), sort_keys=True)

    # -- acting ----------------------------------------------------------------------------------------
    def act(self, action: Action) -> list[Event]:
        return self.game.apply(action)

    def refuse(self, action: Action, *fragments: str) -> str:
        """The action is refused with a message containing every fragment, and nothing changes."""
        before = self.snapshot()
        with pytest.raises(IllegalAction) as info:
            self.game.apply(action)
        message = str(info.value)
        for fragment in fragments:
            assert fragment in message, f"{fragment!r} not in {message!r}"
        assert self.snapshot() == before, "a refused action changed the state"
        return message

    def draw(self, seat: int) -> int:
        self.act(Draw(seat))
        drawn = self.state.turn_state.drawn
        assert drawn is not None
        return drawn

    def discard(self, seat: int, thrown: str | int) -> list[Event]:
        return self.act(Discard(seat, tile(thrown) if isinstance(thrown, str) else thrown))

    def call(self, seat: int, shown: str) -> list[Event]:
        return self.act(Call(seat, tuple(tiles(shown)), False))

    def call_mahjong(self, seat: int) -> list[Event]:
        return self.act(Call(seat, (), True))

    def declare(self, seat: int) -> list[Event]:
        return self.act(DeclareMahJongg(seat))

    def close(self) -> list[Event]:
        return self.act(CloseWindow(TABLE))

    def pass_all(self) -> list[Event]:
        """Every seat still to answer the window passes."""
        events: list[Event] = []
        window = self.state.window
        assert window is not None
        for seat in list(self.state.live_seats):
            if self.state.phase != Phase.CALL_WINDOW:
                break
            if seat != window.discarder and seat not in window.passed and \
                    all(c.seat != seat for c in window.claims):
                events += self.act(PassCall(seat))
        return events

    def quiet_turn(self, seat: int) -> int:
        """``seat`` draws, throws the drawn tile back out (a flower stays under rules that forbid discarding
        one), and the window closes unclaimed."""
        thrown = self.draw(seat)
        if thrown == Tile.F and not self.rules.discard_flowers:
            thrown = next(t for t in reversed(self.state.seats[seat].rack) if t != Tile.F)
        self.act(Discard(seat, thrown))
        if self.state.phase == Phase.CALL_WINDOW:
            self.close()
        return thrown

    def discard_and_close(self, seat: int, thrown: str) -> None:
        self.discard(seat, thrown)
        if self.state.phase == Phase.CALL_WINDOW:
            self.close()


# Racks that keep a line open whatever is thrown from the wall, so that a played-out game ends in a wall game
# and not in dead hands (§11.6): all jokers and flowers, and every East and West stay concealed, so the
# practice line wd-3 (EEE WWW FFFFF DDDx) and the 1946 line septet-2 (EEEEEEE WWWWWWW) stay possible.
KEEP_ALIVE = {s: "J J F F E W" for s in range(4)}
KEEP_ALIVE_1946 = {s: "F F F E W" for s in range(4)}


def event_types(events: Iterable[Event]) -> list[str]:
    """The events' types, in order: ``["discard", "window"]``."""
    return [e.type for e in events]


def one_event(events: Iterable[Event], type_: str) -> Event:
    """The one event of ``type_`` among ``events`` (there must be exactly one)."""
    found = [e for e in events if e.type == type_]
    assert len(found) == 1, f"expected one {type_} event, got {event_types(events)}"
    return found[0]


def payments(state: GameState) -> dict[tuple[int, int], int]:
    """(payer, payee) -> total amount, from :func:`bot.engine.payouts.payouts`."""
    from bot.engine.payouts import payouts

    out: dict[tuple[int, int], int] = {}
    for p in payouts(state):
        out[(p.payer, p.payee)] = out.get((p.payer, p.payee), 0) + p.amount
    return out


def play_to_wall_game(table: Table) -> None:
    """Every player throws back what she draws until the wall is empty and the game ends (P14, M10)."""
    state = table.state
    if state.phase == Phase.PLAY and not state.turn_state.needs_draw:
        seat = state.turn
        thrown = next(t for t in reversed(state.seats[seat].rack) if t != Tile.F or table.rules.discard_flowers)
        table.act(Discard(seat, thrown))
        if state.phase == Phase.CALL_WINDOW:
            table.close()
    while state.phase != Phase.FINISHED:
        assert state.phase == Phase.PLAY and state.turn_state.needs_draw
        table.quiet_turn(state.turn)
