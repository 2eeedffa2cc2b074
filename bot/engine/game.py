"""The referee: applies actions to a :class:`GameState` by the rules of RULES §2-§7 and §11.

``Game.apply(action)`` either returns the events the action caused or raises :class:`IllegalAction` with a
reason for the player, leaving the state untouched: every handler checks everything before it changes
anything. Randomness comes only from the state's seeded generator, so the same seed and actions always give
the same game.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from . import charleston as ch
from .actions import (
    TABLE,
    Action,
    Call,
    CharlestonPass,
    CharlestonVote,
    CloseWindow,
    CourtesyOffer,
    DeclareMahJongg,
    Discard,
    Draw,
    ExchangeJoker,
    Hold,
    PassCall,
    SwapBlank,
)
from .analysis import can_still_win
from .card import Card
from .errors import EngineError, TileError
from .events import Event, private, public
from .matching import CheckResult, check, exposure_verdict, group_name
from .notation import check_available
from .rules import RulesError, TableRules
from .state import CallWindow, CharlestonState, Claim, Exposure, GameState, Penalty, Phase, Result, Seat
from .tiles import SET_1946, Tile, TileSet, code, display_sorted, name, standard_set

WIND_NAMES = ("East", "South", "West", "North")


class IllegalAction(EngineError):
    """The action is not allowed now; the message says why, for the player."""


def tile_set_for(rules: TableRules) -> TileSet:
    return SET_1946 if rules.flowers_wild else standard_set(rules.blanks)


def seat_wind(state: GameState, seat: int) -> str:
    return WIND_NAMES[(seat - state.east) % 4]


class Game:
    def __init__(self, state: GameState, card: Card) -> None:
        if card.id != state.card_id:
            raise RulesError(f"This game is played with card '{state.card_id}', not '{card.id}'.")
        self.state = state
        self.card = card
        self.tile_set = tile_set_for(state.rules)

    # -- creating a game -------------------------------------------------------------------------------
    @classmethod
    def new(cls, card: Card, rules: TableRules, seed: int, *, east: int = 0, game_no: int = 1,
            deal: tuple[Sequence[Sequence[int]], Sequence[int]] | None = None) -> tuple[Game, list[Event]]:
        """Deal a new game (RULES S3; §11.7 for 1946). ``deal`` = (hands by seat, wall prefix) replaces the
        shuffle for scenarios; the rest of the wall is shuffled from the seed."""
        if (card.wild == Tile.F) != rules.flowers_wild:
            need = "the nmjl-1946 rules" if card.wild == Tile.F else "rules with jokers (not the 1946 set)"
            raise RulesError(f"The card '{card.id}' needs {need}.")
        if rules.card != card.id:
            raise RulesError(f"The rules name card '{rules.card}' but the game was given '{card.id}'.")
        if not 0 <= east <= 3:
            raise RulesError("East must be seat 0, 1, 2 or 3.")
        tile_set = tile_set_for(rules)
        seats = [Seat() for _ in range(4)]
        if rules.players == 3:
            seats[(east + 3) % 4].empty = True  # North's chair stays empty
        state = GameState(rules, card.id, seed, east, seats, [], Phase.PLAY, east, game_no=game_no)
        rng = random.Random(f"{seed}:{game_no}:deal")
        if deal is None:
            _deal_shuffled(state, tile_set, rng)
        else:
            _deal_given(state, tile_set, rng, deal)
            state.deal = {"hands": [[code(t) for t in h] for h in deal[0]], "wall": [code(t) for t in deal[1]]}
        game = cls(state, card)
        events = [public("deal", east=east, wall=len(state.wall), game_no=game_no)]
        events += [private("rack", s, tiles=display_sorted(state.seats[s].rack)) for s in state.players]
        events += game._begin_charleston()
        return game, events

    def _begin_charleston(self) -> list[Event]:
        state = self.state
        if not state.rules.has_charleston:
            return self._begin_play()
        state.phase = Phase.CHARLESTON
        state.charleston = CharlestonState()
        if state.rules.uses_bob:
            # CH8: the dealer lays six rows of three wall tiles out as Bob's passes.
            state.charleston.bob_out = [state.wall[i * 3:i * 3 + 3] for i in range(6)]
            del state.wall[:18]
        return [self._announce_pass(0)]

    def _begin_play(self) -> list[Event]:
        state = self.state
        state.phase = Phase.PLAY
        state.charleston = None
        state.turn = state.east
        state.needs_draw = False
        state.turn_source = "deal"
        return [public("play", turn=state.east, wall=len(state.wall))]

    # -- applying actions ------------------------------------------------------------------------------
    def apply(self, action: Action) -> list[Event]:
        state = self.state
        if state.phase == Phase.FINISHED:
            raise IllegalAction("The game is over.")
        if isinstance(action, CloseWindow) != (action.seat == TABLE):
            # Only the table's clock closes a call window, and the clock does nothing else.
            raise IllegalAction("Only the table's timer closes a call window." if isinstance(action, CloseWindow)
                                else f"There is no player in seat {action.seat}.")
        if action.seat != TABLE:
            if not 0 <= action.seat <= 3 or state.seats[action.seat].empty:
                raise IllegalAction(f"There is no player in seat {action.seat}.")
            if state.seats[action.seat].dead:
                raise IllegalAction("Your hand is dead: you no longer draw, discard or call this game.")
        handler = self._HANDLERS.get(type(action))
        if handler is None:
            raise IllegalAction(f"Unknown action {action!r}.")
        events = handler(self, action)
        state.log.append(action.to_json())
        return events

    def _require_phase(self, *phases: Phase) -> None:
        if self.state.phase not in phases:
            raise IllegalAction(_PHASE_HINT[self.state.phase])

    def _require_turn(self, seat: int, *, drawn: bool) -> None:
        state = self.state
        self._require_phase(Phase.PLAY)
        if seat != state.turn:
            raise IllegalAction(f"It is {seat_wind(state, state.turn)}'s turn, not yours.")
        if drawn and state.needs_draw:
            raise IllegalAction("Draw a tile first.")
        if not drawn and not state.needs_draw:
            raise IllegalAction("You already have your tile this turn: discard (or declare Mah Jongg).")

    # Charleston ---------------------------------------------------------------------------------------
    def _charleston_pass(self, action: CharlestonPass) -> list[Event]:
        state = self.state
        cs = self._charleston(Phase.CHARLESTON)
        step = ch.PASSES[cs.stage]
        if action.seat in cs.passes:
            raise IllegalAction(f"You have already passed for the {step.name}.")
        if not 0 <= action.blind <= 3:
            raise IllegalAction("A blind pass forwards 1, 2 or 3 of the tiles you receive.")
        if action.blind and not step.blind_allowed:
            raise IllegalAction(f"No blind pass on the {step.name}: only the first left and the last right "
                                "may be blind.")
        if len(action.tiles) + action.blind != 3:
            raise IllegalAction(f"Pass exactly 3 tiles: {len(action.tiles)} of yours plus {action.blind} blind "
                                f"makes {len(action.tiles) + action.blind}.")
        self._check_passable(action.seat, action.tiles)
        cs.passes[action.seat] = (list(action.tiles), action.blind)
        events = [public("charleston_passed", action.seat, blind=action.blind)]
        if all(s in cs.passes for s in state.players):
            events += self._resolve_pass()
        return events

    def _charleston(self, phase: Phase) -> CharlestonState:
        self._require_phase(phase)
        assert self.state.charleston is not None
        return self.state.charleston

    def _announce_pass(self, stage: int) -> Event:
        step = ch.PASSES[stage]
        return public("charleston", step=step.name, blind_allowed=step.blind_allowed)

    def _check_passable(self, seat: int, tiles: Sequence[int]) -> None:
        for tile in tiles:
            if tile == Tile.J:
                raise IllegalAction("Jokers are never passed.")
            if tile == Tile.BL:
                raise IllegalAction("Blanks are never passed.")
        self._require_in_rack(seat, tiles)

    def _require_in_rack(self, seat: int, tiles: Sequence[int]) -> None:
        have = Counter(self.state.seats[seat].rack)
        for tile, count in Counter(tiles).items():
            if have[tile] < count:
                held = "none" if not have[tile] else str(have[tile])
                raise IllegalAction(f"You don't have {count} x {name(tile)} (you hold {held}).")

    def _resolve_pass(self) -> list[Event]:
        state = self.state
        assert state.charleston is not None
        cs = state.charleston
        step = ch.PASSES[cs.stage]
        own = {s: tiles for s, (tiles, _) in cs.passes.items()}
        blind = {s: b for s, (_, b) in cs.passes.items()}
        bob = self._bob_seat()
        if bob is not None:
            own[bob] = cs.bob_out[cs.stage]
            blind[bob] = 0
        for s, (tiles, _) in cs.passes.items():
            for tile in tiles:
                state.seats[s].rack.remove(tile)
        received = ch.resolve_round(own, blind, step.offset, state.rng())
        events: list[Event] = []
        for s, tiles in received.items():
            if s == bob:
                cs.bob_in.extend(tiles)
                continue
            state.seats[s].rack.extend(tiles)
            events.append(private("charleston_received", s, tiles=display_sorted(tiles), step=step.name))
        events.append(public("charleston_step_done", step=step.name))
        cs.passes = {}
        if cs.stage == ch.FIRST_CHARLESTON_END and state.rules.second_charleston:
            state.phase = Phase.CHARLESTON_VOTE
            return [*events, public("charleston_vote")]
        if cs.stage == ch.FIRST_CHARLESTON_END or cs.stage == len(ch.PASSES) - 1:
            return events + self._after_passes()
        cs.stage += 1
        return [*events, self._announce_pass(cs.stage)]

    def _bob_seat(self) -> int | None:
        if not self.state.rules.uses_bob:
            return None
        return next(s for s, seat in enumerate(self.state.seats) if seat.empty)

    def _after_passes(self) -> list[Event]:
        state = self.state
        if state.rules.courtesy_pass:
            state.phase = Phase.COURTESY
            return [public("courtesy")]
        return self._finish_charleston()

    def _finish_charleston(self) -> list[Event]:
        state = self.state
        assert state.charleston is not None
        cs = state.charleston
        if self._bob_seat() is not None:
            # Bob's leftover tiles (those passed to him, and rows he never passed) rebuild the fourth wall.
            leftover = cs.bob_in + [t for row in cs.bob_out[cs.stage + 1:] for t in row]
            rng = state.rng()
            rng.shuffle(leftover)
            state.wall.extend(leftover)
        return [public("charleston_done"), *self._begin_play()]

    def _charleston_vote(self, action: CharlestonVote) -> list[Event]:
        state = self.state
        cs = self._charleston(Phase.CHARLESTON_VOTE)
        if action.seat in cs.votes:
            raise IllegalAction("You have already voted.")
        cs.votes[action.seat] = action.stop
        events = [public("charleston_voted", action.seat, stop=action.stop)]
        if action.stop:
            # CH3: any one player may stop; the courtesy pass still happens.
            cs.votes = {}
            return [*events, public("charleston_stopped", action.seat), *self._after_passes()]
        if all(s in cs.votes for s in state.players):
            cs.votes = {}
            cs.stage += 1
            state.phase = Phase.CHARLESTON
            return [*events, self._announce_pass(cs.stage)]
        return events

    def _courtesy_offer(self, action: CourtesyOffer) -> list[Event]:
        state = self.state
        cs = self._charleston(Phase.COURTESY)
        if action.seat in cs.offers:
            raise IllegalAction("You have already made your courtesy offer.")
        if len(action.tiles) > 3:
            raise IllegalAction("A courtesy pass is 0 to 3 tiles.")
        self._check_passable(action.seat, action.tiles)
        cs.offers[action.seat] = list(action.tiles)
        events = [public("courtesy_offered", action.seat, count=len(action.tiles))]
        if not all(s in cs.offers for s in state.players):
            return events
        bob = self._bob_seat()
        done: set[int] = set()
        for s in state.players:
            partner = (s + 2) % 4
            if s in done:
                continue
            done.update((s, partner))
            if partner == bob:
                events += self._courtesy_with_bob(s)
                continue
            count = min(len(cs.offers[s]), len(cs.offers[partner]))  # CH4: the smaller offer
            give, take = cs.offers[s][:count], cs.offers[partner][:count]
            for tile in give:
                state.seats[s].rack.remove(tile)
            for tile in take:
                state.seats[partner].rack.remove(tile)
            state.seats[s].rack.extend(take)
            state.seats[partner].rack.extend(give)
            events.append(public("courtesy_exchanged", s, partner=partner, count=count))
            events.append(private("courtesy_received", s, tiles=display_sorted(take)))
            events.append(private("courtesy_received", partner, tiles=display_sorted(give)))
        return events + self._finish_charleston()

    def _courtesy_with_bob(self, seat: int) -> list[Event]:
        """CH8: the player across from Bob takes tiles at random from those Bob received."""
        state = self.state
        assert state.charleston is not None
        cs = state.charleston
        count = min(len(cs.offers[seat]), len(cs.bob_in))
        rng = state.rng()
        picks = sorted(rng.sample(range(len(cs.bob_in)), count), reverse=True)
        take = [cs.bob_in.pop(i) for i in picks]
        give = cs.offers[seat][:count]
        for tile in give:
            state.seats[seat].rack.remove(tile)
        state.seats[seat].rack.extend(take)
        cs.bob_in.extend(give)
        return [public("courtesy_exchanged", seat, partner=None, count=count),
                private("courtesy_received", seat, tiles=display_sorted(take))]

    # Turns --------------------------------------------------------------------------------------------
    def _draw(self, action: Draw) -> list[Event]:
        state = self.state
        self._require_turn(action.seat, drawn=False)
        if not state.wall:
            raise IllegalAction("The wall is empty.")
        tile = state.wall.pop(0)
        seat = state.seats[action.seat]
        seat.rack.append(tile)
        state.needs_draw = False
        state.drawn = tile
        state.turn_source = "draw"
        state.called_from = None
        state.exchanged = False
        return [public("draw", action.seat, wall=len(state.wall)), private("drew", action.seat, tile=tile)]

    def _discard(self, action: Discard) -> list[Event]:
        state = self.state
        self._require_turn(action.seat, drawn=True)
        seat = state.seats[action.seat]
        if action.tile not in seat.rack:
            raise IllegalAction(f"You don't have {name(action.tile)} to discard.")
        if action.tile == Tile.F and not state.rules.discard_flowers:
            raise IllegalAction("Flowers may never be discarded under these rules.")
        seat.rack.remove(action.tile)
        state.discards.append((action.seat, action.tile))
        state.drawn = None
        state.turns += 1
        if action.seat == state.east:
            state.east_has_discarded = True
        events = [public("discard", action.seat, tile=action.tile)]
        claimers = [s for s in state.live_seats if s != action.seat]
        if action.tile in (Tile.J, Tile.BL) or not claimers:
            # P12: a discarded joker is dead, and so is a blank (TR2): nobody may claim them.
            return events + self._next_turn(action.seat)
        hot = bool(state.rules.hot_wall) and len(state.wall) <= state.rules.hot_wall
        # P14/§11.5: the last discard may still be called for an exposure; only the caller's own discard after
        # that (the wall being empty) is open to Mah Jongg alone.
        last_call = not state.wall and state.turn_source == "call"
        state.late_window = None
        state.window = CallWindow(action.seat, action.tile, mahjong_only=hot or last_call)
        state.phase = Phase.CALL_WINDOW
        state.turn = action.seat
        return [*events, public("call_window", action.seat, tile=action.tile,
                                mahjong_only=state.window.mahjong_only)]

    def _next_turn(self, after: int) -> list[Event]:
        """Play moves to the next live player after ``after``, who must draw (or the game ends)."""
        state = self.state
        state.window = None
        events: list[Event] = []
        seat: int | None = after
        for _ in range(4):
            assert seat is not None
            seat = self._next_seat(seat)
            if seat is None:
                break
            if not state.wall:
                return events + self._end(Result("wall"))
            events += self._check_dead(seat)
            if not state.seats[seat].dead:
                state.phase = Phase.PLAY
                state.turn = seat
                state.needs_draw = True
                state.exchanged = False
                return [*events, public("turn", seat)]
        return events + self._end(Result("no_live_players"))

    def _next_seat(self, seat: int) -> int | None:
        for step in range(1, 5):
            nxt = (seat + step) % 4
            if not self.state.seats[nxt].empty and not self.state.seats[nxt].dead:
                return nxt
        return None

    def _check_dead(self, seat: int) -> list[Event]:
        """§11.6: a hand is dead once public information shows no line can still be made."""
        state = self.state
        if state.seats[seat].dead:
            return []
        exposures = [e.tiles for e in state.seats[seat].exposures]
        visible = self.visible_tiles(exclude=seat)
        if can_still_win(self.card, exposures, visible):
            return []
        return self._kill(seat, "no line on the card can still be made with these exposures and the tiles "
                                "already out")

    def _kill(self, seat: int, reason: str) -> list[Event]:
        state = self.state
        state.seats[seat].dead = True
        state.seats[seat].dead_reason = reason
        return [public("dead_hand", seat, reason=reason)]

    def visible_tiles(self, exclude: int | None = None) -> list[int]:
        """Tiles out of reach for seat ``exclude``: every discard, and the naturals of other seats' exposures."""
        state = self.state
        seen = [t for _, t in state.discards]
        wild = self.card.wild
        for s, seat in enumerate(state.seats):
            if s != exclude:
                seen += [t for e in seat.exposures for t in e.tiles if t != wild]
        return seen

    # Calls --------------------------------------------------------------------------------------------
    def _window(self, seat: int) -> CallWindow:
        state = self.state
        if state.phase == Phase.PLAY and state.late_window is not None and seat != state.turn:
            window = state.late_window
        elif state.phase == Phase.PLAY:
            raise IllegalAction("There is no discard to call or pass on right now.")
        else:
            self._require_phase(Phase.CALL_WINDOW)
            assert state.window is not None
            window = state.window
        if seat == window.discarder:
            raise IllegalAction("You can't call your own discard.")
        if seat in window.passed or any(c.seat == seat for c in window.claims):
            raise IllegalAction("You have already answered this discard.")
        return window

    def _call(self, action: Call) -> list[Event]:
        state = self.state
        window = self._window(action.seat)
        seat = state.seats[action.seat]
        tile = window.tile
        if action.mahjong:
            if action.tiles:
                raise IllegalAction("A Mah Jongg call names no tiles: the whole hand is shown.")
            result = check(self.card, [*seat.rack, tile], [e.tiles for e in seat.exposures], tile_set=self.tile_set)
            if not result.mahjong:
                if state.rules.declarations == "friendly":
                    raise IllegalAction(f"{name(tile)} doesn't complete a Mah Jongg for you.")
                return self._false_mahjong(action.seat)
            window.claims.append(Claim(action.seat, [], True))
            events = [public("call", action.seat, mahjong=True)]
        else:
            self._check_exposure_call(action.seat, tile, action.tiles, window)
            window.claims.append(Claim(action.seat, list(action.tiles), False))
            events = [public("call", action.seat, mahjong=False, size=len(action.tiles) + 1)]
        if window is state.late_window:
            return events + self._late_claim(window)
        return events + self._maybe_resolve(window)

    def _late_claim(self, window: CallWindow) -> list[Event]:
        """A 1946 claim made during the next player's turn: her drawn tile goes back on the wall."""
        state = self.state
        state.late_window = None
        player = state.turn
        events: list[Event] = []
        if not state.needs_draw and state.drawn is not None:
            state.seats[player].rack.remove(state.drawn)
            state.wall.insert(0, state.drawn)
            events.append(public("draw_returned", player, wall=len(state.wall)))
        state.drawn = None
        state.needs_draw = False
        return events + self._resolve(window)

    def _check_exposure_call(self, seat_no: int, tile: int, tiles: Sequence[int], window: CallWindow) -> None:
        state = self.state
        seat = state.seats[seat_no]
        wild = self.card.wild
        if window.mahjong_only:
            why = "the wall is empty" if not state.wall else "the wall is hot"
            raise IllegalAction(f"Only a Mah Jongg call is allowed now: {why}.")
        if any(t != tile and t != wild for t in tiles):
            bad = next(t for t in tiles if t != tile and t != wild)
            raise IllegalAction(f"You can't expose {name(bad)} with {name(tile)}: an exposure is one tile "
                                "repeated, jokers allowed.")
        size = len(tiles) + 1
        if size < 3:
            raise IllegalAction(f"You can't call {name(tile)} for a {group_name(size)} unless it completes "
                                "Mah Jongg.")
        if size < state.rules.min_call_size:
            raise IllegalAction(f"Under these rules only a kong or larger may be called, not a "
                                f"{group_name(size)} (unless it completes Mah Jongg).")
        self._require_in_rack(seat_no, tiles)  # P7: she must already hold the rest of the group
        verdict = exposure_verdict(self.card, [tile, *tiles], [e.tiles for e in seat.exposures],
                                   min_size=state.rules.min_call_size)
        if not verdict.legal:
            raise IllegalAction(verdict.reason)

    def _pass_call(self, action: PassCall) -> list[Event]:
        window = self._window(action.seat)
        self._require_timed(window)
        window.passed.append(action.seat)
        return [public("pass", action.seat), *self._maybe_resolve(window)]

    def _hold(self, action: Hold) -> list[Event]:
        window = self._window(action.seat)
        self._require_timed(window)
        if action.seat in window.held:
            raise IllegalAction("You can hold only once per discard.")
        window.held.append(action.seat)
        return [public("hold", action.seat, seconds=self.state.rules.hold_seconds)]

    def _require_timed(self, window: CallWindow) -> None:
        if window is self.state.late_window:
            raise IllegalAction("The call window has closed; until the next discard you may still call the tile, "
                                "but there is nothing to pass on or wait for.")

    def _close_window(self, action: CloseWindow) -> list[Event]:
        self._require_phase(Phase.CALL_WINDOW)
        assert self.state.window is not None
        return self._resolve(self.state.window)

    def _maybe_resolve(self, window: CallWindow) -> list[Event]:
        """§11.2: the window closes early once every eligible player has answered."""
        answered = {c.seat for c in window.claims} | set(window.passed)
        if all(s in answered for s in self.state.live_seats if s != window.discarder):
            return self._resolve(window)
        return []

    def _resolve(self, window: CallWindow) -> list[Event]:
        """P10: Mah Jongg beats an exposure; among equals, the next in turn after the discarder wins."""
        state = self.state
        if not window.claims:
            events = [public("window_closed", window.discarder, claimed=False), *self._next_turn(window.discarder)]
            if state.rules.window_until_next_discard and state.phase == Phase.PLAY:
                # §11.7 (1946): the discard stays claimable until the next player discards.
                state.late_window = CallWindow(window.discarder, window.tile, mahjong_only=window.mahjong_only)
            return events
        distance = {s: (s - window.discarder) % 4 for s in range(4)}
        winner = min(window.claims, key=lambda c: (not c.mahjong, distance[c.seat]))
        state.window = None
        state.discards.pop()
        seat = state.seats[winner.seat]
        events = [public("window_closed", window.discarder, claimed=True, winner=winner.seat)]
        if winner.mahjong:
            seat.rack.append(window.tile)
            result = check(self.card, seat.rack, [e.tiles for e in seat.exposures], tile_set=self.tile_set)
            return events + self._win(winner.seat, result, "discard", discarder=window.discarder)
        for tile in winner.tiles:
            seat.rack.remove(tile)
        exposure = Exposure(window.tile, [window.tile, *winner.tiles], window.discarder)
        seat.exposures.append(exposure)
        state.phase = Phase.PLAY
        state.turn = winner.seat
        state.needs_draw = False
        state.drawn = None
        state.turn_source = "call"
        state.called_from = window.discarder
        state.exchanged = False
        events.append(public("exposure", winner.seat, tile=window.tile, tiles=exposure.tiles,
                             called_from=window.discarder))
        dead = self._check_dead(winner.seat)
        if dead:
            return events + dead + self._next_turn(winner.seat)
        return events

    # Jokers, blanks, Mah Jongg --------------------------------------------------------------------------
    def _exchange_joker(self, action: ExchangeJoker) -> list[Event]:
        state = self.state
        self._require_turn(action.seat, drawn=True)
        wild = self.card.wild
        if wild == Tile.F:
            raise IllegalAction("Wild flowers can't be exchanged under the 1946 rules.")
        if not 0 <= action.owner <= 3 or state.seats[action.owner].empty:
            raise IllegalAction(f"There is no player in seat {action.owner}.")
        exposures = state.seats[action.owner].exposures
        if not 0 <= action.exposure < len(exposures):
            raise IllegalAction(f"{seat_wind(state, action.owner)} has no exposure number {action.exposure + 1}.")
        exposure = exposures[action.exposure]
        if Tile.J not in exposure.tiles:
            raise IllegalAction("That exposure has no joker to exchange.")
        if action.tile != exposure.tile:
            raise IllegalAction(f"That joker stands for {name(exposure.tile)}; you offered {name(action.tile)}.")
        self._require_in_rack(action.seat, [action.tile])
        rack = state.seats[action.seat].rack
        rack.remove(action.tile)
        rack.append(Tile.J)
        exposure.tiles[exposure.tiles.index(Tile.J)] = action.tile
        state.exchanged = True
        return [public("joker_exchange", action.seat, owner=action.owner, exposure=action.exposure,
                       tile=action.tile)]

    def _swap_blank(self, action: SwapBlank) -> list[Event]:
        state = self.state
        rules = state.rules
        if not rules.blanks:
            raise IllegalAction("This table plays without blanks.")
        self._require_phase(Phase.PLAY, Phase.CALL_WINDOW)
        own_turn = state.phase == Phase.PLAY and state.turn == action.seat and not state.needs_draw
        if rules.blank_timing == "own_turn" and not own_turn:
            raise IllegalAction("At this table a blank may be swapped only on your own turn, after drawing.")
        if rules.blank_timing == "not_own_turn" and state.turn == action.seat:
            raise IllegalAction("At this table a blank may be swapped only when it is not your turn.")
        if Tile.BL not in state.seats[action.seat].rack:
            raise IllegalAction("You have no blank.")
        live = len(state.discards) - 1 if state.phase == Phase.CALL_WINDOW else None
        if not 0 <= action.discard < len(state.discards) or action.discard == live:
            raise IllegalAction("Pick a dead discard: an earlier one, not the tile that may still be called.")
        owner, tile = state.discards[action.discard]
        if tile in (Tile.J, Tile.BL):
            raise IllegalAction("A blank can't be swapped for a joker or another blank.")
        rack = state.seats[action.seat].rack
        rack.remove(Tile.BL)
        rack.append(tile)
        state.discards[action.discard] = (owner, Tile.BL)
        return [public("blank_swap", action.seat, discard=action.discard, tile=tile)]

    def _declare(self, action: DeclareMahJongg) -> list[Event]:
        state = self.state
        if state.phase == Phase.CHARLESTON:
            assert state.charleston is not None
            heavenly_moment = state.charleston.stage == 0 and action.seat not in state.charleston.passes
            if action.seat != state.east or not heavenly_moment:
                raise IllegalAction("During the Charleston only East may declare, with the hand she was dealt, "
                                    "before passing.")
            result = check(self.card, state.seats[action.seat].rack, tile_set=self.tile_set)
            if not result.mahjong:
                raise IllegalAction("Your dealt hand is not a Mah Jongg: pass your tiles.")
            return self._win(action.seat, result, "heavenly")
        if state.phase == Phase.CALL_WINDOW:
            raise IllegalAction("To win with this discard, call it for Mah Jongg.")
        self._require_turn(action.seat, drawn=True)
        seat = state.seats[action.seat]
        result = check(self.card, seat.rack, [e.tiles for e in seat.exposures], tile_set=self.tile_set)
        if not result.mahjong:
            return self._refuse_declaration(action.seat)
        if state.turn_source == "deal" and action.seat == state.east and not state.east_has_discarded:
            return self._win(action.seat, result, "heavenly")  # §11.3: after the Charleston, before discarding
        if state.turn_source == "call" and not state.exchanged:
            return self._win(action.seat, result, "discard", discarder=state.called_from)
        return self._win(action.seat, result, "self_pick")  # SC2: own draw, or completed by a joker exchange

    def _refuse_declaration(self, seat: int) -> list[Event]:
        if self.state.rules.declarations == "friendly":
            raise IllegalAction("That is not a Mah Jongg on this card yet. Your rack matches no line; "
                                "check the card and keep playing.")
        return self._false_mahjong(seat)

    def _false_mahjong(self, seat: int) -> list[Event]:
        """Strict mode (§11.1, M4b): the hand was exposed, so it is dead; the 1946 rules add a penalty."""
        state = self.state
        events = [public("false_mahjong", seat)]
        penalty = state.rules.false_mahjong_penalty
        if penalty:
            for other in state.live_seats:
                if other != seat:
                    amount = penalty * (2 if state.rules.east_double and state.east in (seat, other) else 1)
                    state.penalties.append(Penalty(seat, other, amount, "false Mah Jongg"))
        events += self._kill(seat, "declared Mah Jongg in error")
        if state.phase == Phase.PLAY and state.turn == seat:
            state.drawn = None
            events += self._next_turn(seat)
        elif state.phase == Phase.CALL_WINDOW and state.window is not None:
            events += self._maybe_resolve(state.window)
        return events

    def _win(self, seat: int, result: CheckResult, how: str, discarder: int | None = None) -> list[Event]:
        match = result.best
        assert match is not None
        line = match.line
        outcome = Result(how, seat, line.id, line.value, line.east_value, discarder, match.jokerless,
                         line.singles_and_pairs, [list(g) for g in match.arrangement])
        return [public("mahjong", seat, line=line.id, section=line.section, value=line.value, how=how,
                       discarder=discarder, jokerless=match.pays_jokerless, tiles=outcome.tiles),
                *self._end(outcome)]

    def _end(self, result: Result) -> list[Event]:
        state = self.state
        state.result = result
        state.phase = Phase.FINISHED
        state.window = None
        from .payouts import payouts

        return [public("game_over", result.winner, how=result.how,
                       payouts=[p.to_json() for p in payouts(state)])]

    _HANDLERS: ClassVar[dict[type[Action], Callable[[Game, Any], list[Event]]]] = {
        CharlestonPass: _charleston_pass,
        CharlestonVote: _charleston_vote,
        CourtesyOffer: _courtesy_offer,
        Draw: _draw,
        Discard: _discard,
        Call: _call,
        PassCall: _pass_call,
        Hold: _hold,
        CloseWindow: _close_window,
        ExchangeJoker: _exchange_joker,
        SwapBlank: _swap_blank,
        DeclareMahJongg: _declare,
    }


_PHASE_HINT = {
    Phase.CHARLESTON: "The Charleston is under way: pass your tiles first.",
    Phase.CHARLESTON_VOTE: "Vote to stop the Charleston or go on first.",
    Phase.COURTESY: "Make your courtesy offer (0 to 3 tiles) first.",
    Phase.PLAY: "That can't be done now: it isn't a call window or the Charleston.",
    Phase.CALL_WINDOW: "Wait for the call window on the last discard to close.",
    Phase.FINISHED: "The game is over.",
}


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


def _deal_given(state: GameState, tile_set: TileSet, rng: random.Random,
                deal: tuple[Sequence[Sequence[int]], Sequence[int]]) -> None:
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
