"""The referee's common ground: the game being refereed and the checks every kind of action starts with.

:class:`Referee` holds the state, the card and the tile set; the modules that apply actions (the Charleston,
turns, calls, jokers and Mah Jongg) take one and change its state. :class:`bot.engine.game.Game` is the
referee players and callers use.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from .card import Card
from .errors import IllegalAction
from .line import Variant
from .pattern import Group
from .queries import PHASE_HINT, seat_wind, tile_set_for, tiles_in_sight
from .rules import RulesError
from .state import GameState, Phase
from .tiles import Tile, name


class Referee:
    """A game in progress: its state, its card and its tile set, with the checks shared by every action."""

    def __init__(self, state: GameState, card: Card) -> None:
        if card.id != state.card_id:
            raise RulesError(f"This game is played with card '{state.card_id}', not '{card.id}'.")
        self.state = state
        self.card = card
        self.tile_set = tile_set_for(state.rules)
        # seat -> (its exposures as (tile, size), a variant it can still make, that variant's tile kinds): see
        # :mod:`bot.engine.liveness`.
        self.witnesses: dict[int, tuple[tuple[Group, ...], Variant, tuple[Tile, ...]]] = {}

    def require_phase(self, *phases: Phase) -> None:
        """Refuse the action unless the game is in one of ``phases``."""
        if self.state.phase not in phases:
            raise IllegalAction(PHASE_HINT[self.state.phase])

    def require_turn(self, seat: int, *, drawn: bool) -> None:
        """Refuse the action unless it is ``seat``'s turn in play, after drawing (``drawn``) or before."""
        state = self.state
        self.require_phase(Phase.PLAY)
        if seat != state.turn:
            raise IllegalAction(f"It is {seat_wind(state, state.turn)}'s turn, not yours.")
        needs_draw = state.turn_state.needs_draw
        if drawn and needs_draw:
            raise IllegalAction("Draw a tile first.")
        if not drawn and not needs_draw:
            raise IllegalAction("You already have your tile this turn: discard (or declare Mah Jongg).")

    def require_in_rack(self, seat: int, tiles: Sequence[Tile]) -> None:
        """Refuse the action unless ``seat``'s concealed rack holds all of ``tiles``."""
        have = Counter(self.state.seats[seat].rack)
        for tile, count in Counter(tiles).items():
            if have[tile] < count:
                held = "none" if not have[tile] else str(have[tile])
                raise IllegalAction(f"You don't have {count} x {name(tile)} (you hold {held}).")

    def visible_tiles(self, exclude: int | None = None) -> list[Tile]:
        """Tiles out of reach for seat ``exclude``: every discard, and the naturals of other seats' exposures."""
        state = self.state
        exposures = [[e.tiles for e in seat.exposures] for seat in state.seats]
        return tiles_in_sight(state.discards, exposures, exclude=exclude, wild=self.card.wild)
