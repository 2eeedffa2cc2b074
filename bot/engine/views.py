"""What each seat may know (hidden information: concealed tiles reach only their owner): a seat's own view
and the public view.

These are the only shapes in which game information leaves the engine towards a player, a computer player or
the channel. A :class:`SeatView` holds the seat's own concealed tiles and nobody else's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import charleston as ch
from .actions import Action
from .card import Card
from .game import Game
from .legal import legal_actions
from .payouts import payouts
from .queries import seat_wind, tiles_in_sight, unanswered
from .rules import TableRules
from .state import Payout, Phase, Result
from .tiles import Tile, TileSet, code, display_sorted


@dataclass(frozen=True, slots=True)
class PublicSeat:
    """What everyone sees of one seat: its wind, how many tiles it hides, its exposures."""

    seat: int
    wind: str
    tiles: int  # concealed tile count
    exposures: tuple[tuple[Tile, ...], ...]
    dead: bool
    empty: bool


@dataclass(frozen=True, slots=True)
class PublicView:
    """What everyone at the table (and any spectator) may see."""

    phase: Phase
    east: int
    turn: int
    needs_draw: bool
    wall: int  # tiles left to draw
    seats: tuple[PublicSeat, ...]
    discards: tuple[tuple[int, Tile], ...]  # (seat, tile), oldest first
    window_tile: Tile | None  # the discard that may be claimed now (a call window's, or a 1946 late claim's)
    window_discarder: int | None
    mahjong_only: bool
    charleston_step: str | None
    blind_allowed: bool
    waiting_for: tuple[int, ...]  # seats whose answer the table is waiting for
    card_id: str
    game_no: int
    result: Result | None  # how the game ended, once it has
    payouts: tuple[Payout, ...] = ()  # who paid whom, once it has ended (penalties first)

    def to_json(self) -> dict[str, Any]:
        """The public view as plain JSON."""
        return {
            "phase": self.phase.value, "east": self.east, "turn": self.turn, "needs_draw": self.needs_draw,
            "wall": self.wall, "card": self.card_id, "game_no": self.game_no,
            "seats": [{"seat": s.seat, "wind": s.wind, "tiles": s.tiles, "dead": s.dead, "empty": s.empty,
                       "exposures": [[code(t) for t in e] for e in s.exposures]} for s in self.seats],
            "discards": [[s, code(t)] for s, t in self.discards],
            "window_tile": code(self.window_tile) if self.window_tile is not None else None,
            "window_discarder": self.window_discarder, "mahjong_only": self.mahjong_only,
            "charleston_step": self.charleston_step, "blind_allowed": self.blind_allowed,
            "waiting_for": list(self.waiting_for),
            "result": None if self.result is None else {**self.result.to_json(),
                                                         "payouts": [p.to_json() for p in self.payouts]},
        }


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat's knowledge: the public view plus its own rack and the actions open to it."""

    seat: int
    public: PublicView
    rack: tuple[Tile, ...]  # concealed tiles, display order
    drawn: Tile | None  # the tile just drawn, if it is this seat's turn
    legal: tuple[Action, ...]
    card: Card
    tile_set: TileSet  # the table's set (the card's, plus any blanks)
    rules: TableRules  # the table's options: public, as everyone at the table agreed to them

    @property
    def exposures(self) -> tuple[tuple[Tile, ...], ...]:
        """This seat's own exposures."""
        return self.public.seats[self.seat].exposures

    def visible_elsewhere(self) -> list[Tile]:
        """Tiles this seat can never get: every discard and the naturals of other seats' exposures."""
        exposures = [other.exposures for other in self.public.seats]
        return tiles_in_sight(self.public.discards, exposures, exclude=self.seat, wild=self.card.wild)

    def to_json(self) -> dict[str, Any]:
        """The seat's view as plain JSON (the only form with its concealed tiles that leaves the engine)."""
        return {"seat": self.seat, "rack": [code(t) for t in self.rack],
                "drawn": code(self.drawn) if self.drawn is not None else None,
                "legal": [a.to_json() for a in self.legal], "table": self.public.to_json()}


def public_view(game: Game) -> PublicView:
    """What everyone may see of the game now."""
    state = game.state
    seats = tuple(
        PublicSeat(s, seat_wind(state, s), len(seat.rack), tuple(tuple(e.tiles) for e in seat.exposures),
                   seat.dead, seat.empty)
        for s, seat in enumerate(state.seats)
    )
    # The discard that may be claimed now: a call window's, or under the 1946 rules the last discard, claimable
    # until the next one (docs/rules.md §11.7).
    window = state.window or (state.late_window if state.phase == Phase.PLAY else None)
    step = None
    blind = False
    if state.phase == Phase.CHARLESTON and state.charleston is not None:
        pass_step = ch.PASSES[state.charleston.stage]
        step, blind = pass_step.name, pass_step.blind_allowed
    return PublicView(state.phase, state.east, state.turn, state.turn_state.needs_draw, len(state.wall), seats,
                      tuple(state.discards), window.tile if window else None,
                      window.discarder if window else None, bool(window and window.mahjong_only), step, blind,
                      tuple(waiting_for(game)), state.card_id, state.game_no, state.result, tuple(payouts(state)))


def waiting_for(game: Game) -> list[int]:
    """Seats whose answer the table is waiting for (none while only the call window's clock can act)."""
    state = game.state
    cs = state.charleston
    if state.phase == Phase.CHARLESTON and cs is not None:
        return [s for s in state.players if s not in cs.passes]
    if state.phase == Phase.CHARLESTON_VOTE and cs is not None:
        return [s for s in state.players if s not in cs.votes]
    if state.phase == Phase.COURTESY and cs is not None:
        return [s for s in state.players if s not in cs.offers]
    if state.phase == Phase.CALL_WINDOW and state.window is not None:
        return unanswered(state, state.window)
    if state.phase == Phase.PLAY:
        return [state.turn]
    return []


def seat_view(game: Game, seat: int) -> SeatView:
    """What ``seat`` may know: the public view, its own rack and the actions open to it."""
    state = game.state
    me = state.seats[seat]
    drawn = state.turn_state.drawn if state.phase == Phase.PLAY and state.turn == seat else None
    return SeatView(seat, public_view(game), tuple(display_sorted(me.rack)), drawn,
                    tuple(legal_actions(game, seat)), game.card, game.tile_set, state.rules)
