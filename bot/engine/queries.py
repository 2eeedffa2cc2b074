"""Questions about a game state that the referee, the legal-action list and the views all ask, answered once:
whose wind a seat is, which tiles are out of a seat's reach, who has yet to answer a discard, whether a flower
may be discarded, and whether a blank may be swapped now.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .rules import TableRules
from .state import CallWindow, GameState, Phase
from .tiles import CLASSICAL, SET_1946, Tile, TileSet, standard_set

WIND_NAMES = ("East", "South", "West", "North")

PHASE_HINT = {
    Phase.CHARLESTON: "The Charleston is under way: pass your tiles first.",
    Phase.CHARLESTON_VOTE: "Vote to stop the Charleston or go on first.",
    Phase.COURTESY: "Make your courtesy offer (0 to 3 tiles) first.",
    Phase.PLAY: "That can't be done now: it isn't a call window or the Charleston.",
    Phase.CALL_WINDOW: "Wait for the call window on the last discard to close.",
    Phase.FINISHED: "The game is over.",
}


def tile_set_for(rules: TableRules) -> TileSet:
    """The set a table plays with: the classical or the 1946 set, or the standard set with the table's blanks."""
    if rules.classical:
        return CLASSICAL
    return SET_1946 if rules.flowers_wild else standard_set(rules.blanks)


def seat_wind(state: GameState, seat: int) -> str:
    """The seat's wind this game: East is the dealer, then South, West, North in turn order."""
    return WIND_NAMES[(seat - state.east) % 4]


def tiles_in_sight(discards: Iterable[tuple[int, Tile]], exposures: Sequence[Iterable[Iterable[Tile]]], *,
                   exclude: int | None = None, wild: Tile | None = None) -> list[Tile]:
    """Tiles face up on the table: every discard, and the exposed tiles of every seat but ``exclude``
    (``exposures`` by seat). With ``wild`` given, wild tiles in exposures are left out: they can still be
    exchanged. With both, these are the tiles seat ``exclude`` can never get (docs/rules.md §11.6)."""
    seen = [t for _, t in discards]
    for seat, groups in enumerate(exposures):
        if seat != exclude:
            seen += [t for group in groups for t in group if t != wild]
    return seen


def unanswered(state: GameState, window: CallWindow) -> list[int]:
    """Live seats, other than the discarder, that have neither passed nor claimed the window's discard."""
    return [s for s in state.live_seats if s != window.discarder and not window.answered(s)]


def may_discard_flower(state: GameState, rack: Sequence[Tile]) -> bool:
    """Whether a flower may be thrown from ``rack``: always where flowers are ordinary tiles (P13 [NMJL]); under the
    1946 rules never, unless every tile in the rack is a flower, when nothing else could be thrown and the game
    could not go on (docs/rules.md §11.7)."""
    return state.rules.discard_flowers or all(tile == Tile.F for tile in rack)


def blank_swap_refusal(state: GameState, seat: int) -> str | None:
    """Why ``seat`` may not swap a blank now (docs/rules.md §5, TR2), or None if she may."""
    rules = state.rules
    if not rules.blanks:
        return "This table plays without blanks."
    if state.phase not in (Phase.PLAY, Phase.CALL_WINDOW):
        return PHASE_HINT[state.phase]
    own_turn = state.phase == Phase.PLAY and state.turn == seat and not state.turn_state.needs_draw
    if rules.blank_timing == "own_turn" and not own_turn:
        return "At this table a blank may be swapped only on your own turn, after drawing."
    if rules.blank_timing == "not_own_turn" and state.turn == seat:
        return "At this table a blank may be swapped only when it is not your turn."
    if Tile.BL not in state.seats[seat].rack:
        return "You have no blank."
    return None


def dead_discard_refusal(state: GameState, index: int) -> str | None:
    """Why the discard at ``index`` can't be taken for a blank, or None if it can: it must be an earlier
    discard, not the one that may still be called, and neither a joker nor a blank."""
    live = len(state.discards) - 1 if state.phase == Phase.CALL_WINDOW else None
    if not 0 <= index < len(state.discards) or index == live:
        return "Pick a dead discard: an earlier one, not the tile that may still be called."
    if state.discards[index][1] in (Tile.J, Tile.BL):
        return "A blank can't be swapped for a joker or another blank."
    return None
