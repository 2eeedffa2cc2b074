"""The classical chow/pung game (docs/rules.md §9, CL1-CL8): its built-in "card", kongs declared on one's own
turn with their replacement draws, declaring Mah Jongg, and the win. Calls on a discard are checked in
:mod:`.classical_calls`; the window and its priority race are :mod:`.calls`' (CL4 in ``winning_claim``).

There is no card: a hand is Mah Jongg when its tiles are four sets (chows, pungs, kongs) and a pair
(:mod:`.sets`). The game still names a card, ``classical``, so that tables, replays and the store, which all
record one, need nothing new; that card has no lines and is never matched against.
"""

from __future__ import annotations

from collections.abc import Sequence

from . import payloads
from .actions import Action, DeclareKong, DeclareMahJongg, Discard
from .card import Card
from .ending import end, false_mahjong
from .errors import IllegalAction
from .events import Event, private, public
from .referee import Referee
from .rules import CLASSICAL_CARD
from .sets import arrange, is_complete
from .state import Exposure, GameState, Phase, Result, Seat, Turn, TurnStage
from .tiles import CLASSICAL, Tile, is_number, name, suit_of
from .turns import discard, next_turn

CARD = Card(id=CLASSICAL_CARD, name="Classical game (four sets and a pair)", year=None, ruleset="classical",
            tile_set=CLASSICAL, lines=())
LINE = "classical"  # the "line" a classical win is recorded under (results, the ledger's reasons)
SECTION = "four sets and a pair"


def is_chow(tile: Tile, tiles: Sequence[Tile]) -> bool:
    """Whether ``tile`` with the two ``tiles`` makes three in a row of one suit."""
    if len(tiles) != 2 or not is_number(tile):
        return False
    run = sorted([tile, *tiles])
    suit = suit_of(tile)
    return all(suit_of(t) == suit for t in run) and run[1] == run[0] + 1 and run[2] == run[1] + 1


def complete(seat: Seat, extra: Tile | None = None) -> bool:
    """Whether the seat's tiles (with ``extra``, a discard it would take) are four sets and a pair (CL1)."""
    rack = seat.rack if extra is None else [*seat.rack, extra]
    return is_complete(rack, len(seat.exposures))


def win(ref: Referee, seat: int, how: str, discarder: int | None = None, tile: Tile | None = None) -> list[Event]:
    """``seat`` goes out (CL1); ``how`` is self_pick, discard or heavenly; ``tile`` the tile that won it. A win is
    worth the table's base."""
    state = ref.state
    chair = state.seats[seat]
    groups = arrange(chair.rack, [e.tiles for e in chair.exposures])
    assert groups is not None, "a classical win is checked before it is declared"
    value = state.rules.base
    outcome = Result(how, seat, LINE, value, None, discarder, False, False, groups, tile)
    hand = tuple(tuple(g) for g in groups)
    return [public(payloads.Mahjong(LINE, SECTION, value, how, discarder, jokerless=False, tiles=hand), seat),
            *end(ref, outcome)]


def replacement_draw(ref: Referee, seat: int) -> list[Event]:
    """After a kong the seat draws a replacement tile from the end of the wall, and plays on as after a draw."""
    state = ref.state
    tile = state.wall.pop()
    state.seats[seat].rack.append(tile)
    state.phase = Phase.PLAY
    state.turn_state = Turn.after_draw(seat, tile)
    return [public(payloads.Replacement(wall=len(state.wall)), seat), private(payloads.Drew(tile=tile), seat)]


def kong_refusal(state: GameState, seat: int, tile: Tile) -> str | None:
    """Why ``seat`` may not declare a kong of ``tile`` now (the turn itself already checked), or None."""
    if state.turn_state.stage not in (TurnStage.DREW, TurnStage.DEALT):
        return "A kong is declared after drawing, before you discard (a called pung must be followed by a discard)."
    if not state.wall:
        return "The wall is empty: there is no replacement tile, so no kong can be declared."
    chair = state.seats[seat]
    held = chair.rack.count(tile)
    if held == 4 or (held and _pung_of(chair, tile) is not None):
        return None
    return (f"For a kong of {name(tile)} you need all four in your rack, or an exposed pung of {name(tile)} and "
            "the fourth in your rack.")


def _pung_of(chair: Seat, tile: Tile) -> Exposure | None:
    return next((e for e in chair.exposures if len(e.tiles) == 3 and all(t == tile for t in e.tiles)), None)


def declare_kong(ref: Referee, action: DeclareKong) -> list[Event]:
    """A concealed kong from the rack, or the fourth tile added to one's exposed pung; then a replacement."""
    state = ref.state
    ref.require_turn(action.seat, drawn=True)
    why = kong_refusal(state, action.seat, action.tile)
    if why:
        raise IllegalAction(why)
    chair = state.seats[action.seat]
    pung = _pung_of(chair, action.tile)
    concealed = chair.rack.count(action.tile) == 4
    if concealed:
        for _ in range(4):
            chair.rack.remove(action.tile)
        exposure = Exposure(action.tile, [action.tile] * 4, action.seat, concealed=True)
        chair.exposures.append(exposure)
    else:
        assert pung is not None
        chair.rack.remove(action.tile)
        pung.tiles.append(action.tile)
        exposure = pung
    events = [public(payloads.Kong(action.tile, tuple(exposure.tiles), concealed=concealed, added=not concealed),
                     action.seat)]
    return events + replacement_draw(ref, action.seat)


def declare(ref: Referee, action: DeclareMahJongg) -> list[Event]:
    """Mah Jongg on one's own tiles (CL1): after a draw or a replacement (self-drawn), after a call (won on that
    discard), or East's dealt hand."""
    state = ref.state
    if state.phase == Phase.CALL_WINDOW:
        raise IllegalAction("To win with this discard, call it for Mah Jongg.")
    ref.require_turn(action.seat, drawn=True)
    chair = state.seats[action.seat]
    turn = state.turn_state
    if not complete(chair):
        if state.rules.declarations == "friendly":
            raise IllegalAction("That is not Mah Jongg yet: you need four sets (chows, pungs or kongs) and a pair.")
        events = false_mahjong(ref, action.seat)  # CL6: the hand is dead; its owner still draws and discards
        if state.rules.dead_hand_draws and chair.rack:
            throw = turn.drawn if turn.drawn is not None and turn.drawn in chair.rack else chair.rack[-1]
            return events + discard(ref, Discard(action.seat, throw))
        state.turn_state = Turn.over(action.seat)
        return events + next_turn(ref, action.seat)
    if turn.stage == TurnStage.DEALT:
        return win(ref, action.seat, "heavenly")
    if turn.stage == TurnStage.CALLED:
        called = chair.exposures[-1].tile if chair.exposures else None
        return win(ref, action.seat, "discard", discarder=turn.called_from, tile=called)
    return win(ref, action.seat, "self_pick", tile=turn.drawn)


def no_jokers(ref: Referee, action: Action) -> list[Event]:
    """The classical set has no jokers and no blanks: nothing to exchange or swap."""
    raise IllegalAction("The classical game has no jokers or blanks to exchange.")


def kongs_are_classical(ref: Referee, action: Action) -> list[Event]:
    """Under the card rules kongs are made only by calling (P8), never declared from the rack."""
    raise IllegalAction("Kongs are declared from the rack only in the classical game; here a kong is made by "
                        "calling a discard.")
