"""Properties of whole games under random legal play, for several table options.

Each game is driven by :func:`bot.engine.legal.legal_actions` (plus the table's clock closing call windows, and
in strict mode the odd false declaration) and checked after every action:

* T1/T6/T7 + CH8: every tile of the set is somewhere (racks, exposures, wall, discards, Bob's piles);
* S4: a live player holds 13 tiles counting exposures, 14 on her own turn;
* the state survives ``to_json`` -> JSON text -> ``from_json`` unchanged;
* hidden information: a seat's view never depends on another seat's concealed tiles (§11, views);
* private events (racks, draws, passes received) are addressed to one seat;
* §11.6: a hand is declared dead exactly when, from public information, no line can be completed
  (checked against a brute-force reading of the card);

and at the end: the replay reproduces the final state, and the payouts follow SC1-SC4 / H5.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest
from support.game_tables import CARD_1946, PRACTICE, tiles_in_game, tiles_in_set

from bot.engine.actions import (
    TABLE,
    Action,
    Call,
    CharlestonPass,
    CloseWindow,
    CourtesyOffer,
    DeclareMahJongg,
    Discard,
    Draw,
    ExchangeJoker,
)
from bot.engine.card import Card
from bot.engine.events import Event
from bot.engine.game import Game, IllegalAction, tile_set_for
from bot.engine.legal import legal_actions
from bot.engine.matching import check
from bot.engine.payouts import payouts
from bot.engine.replay import export_replay, replay
from bot.engine.rules import table_rules
from bot.engine.state import GameState, Phase
from bot.engine.tiles import Tile, display_sorted
from bot.engine.views import public_view, seat_view

CONFIGS: dict[str, dict[str, Any]] = {
    "default": {},
    "no-charleston": {"charleston": False},
    "nmjl-1946": {"preset": "nmjl-1946"},
    "blanks-6": {"blanks": 6},
    "blanks-any-time": {"blanks": 6, "blank_timing": "any_time"},
    "hot-wall-12": {"hot_wall": 12},
    "three-players": {"players": 3},
    "three-players-bob": {"players": 3, "three_player_charleston": "bob"},
    "strict": {"declarations": "strict"},
    "two-players": {"players": 2},
    "first-exposed-wins": {"first_exposed_wins": True},
}
GAMES = [(name, seed) for name in CONFIGS for seed in range(3)]
PRIVATE_TYPES = {"rack", "drew", "charleston_received", "courtesy_received"}


def _new_game(name: str, seed: int) -> Game:
    options = dict(CONFIGS[name])
    preset = options.pop("preset", "nmjl")
    rules = table_rules(preset, **options)
    card = CARD_1946 if rules.flowers_wild else PRACTICE
    game, opening = Game.new(card, rules, seed, east=seed % 4)
    _check_events(opening)
    return game


# ------------------------------------------------------------------------------------------------ the driver


def _best_line(game: Game, seat: int) -> Any:
    from bot.engine.analysis import analyze

    me = game.state.seats[seat]
    visible = game.visible_tiles(exclude=seat)
    return analyze(game.card, me.rack, [e.tiles for e in me.exposures], visible, tile_set=game.tile_set)[0]


def _choose(game: Game, rng: random.Random) -> Action:
    """Mostly sensible random play: win when possible, pass and discard what the best line does not use, take
    jokers, call now and then; otherwise any legal action."""
    state = game.state
    options = [a for s in range(4) for a in legal_actions(game, s)]
    wins = [a for a in options if isinstance(a, DeclareMahJongg) or (isinstance(a, Call) and a.mahjong)]
    if wins and rng.random() < 0.9:
        return rng.choice(wins)
    strict = state.rules.declarations == "strict"
    if state.phase == Phase.CALL_WINDOW:
        window = state.window
        assert window is not None
        answered = set(window.passed) | {c.seat for c in window.claims} | {window.discarder}
        callers = [s for s in state.live_seats if s not in answered]
        if strict and callers and rng.random() < 0.02:
            return Call(rng.choice(callers), (), True)  # perhaps a false Mah Jongg (M4b)
        if rng.random() < 0.3 or not options:
            return CloseWindow(TABLE)
        calls = [a for a in options if isinstance(a, Call)]
        if calls and rng.random() < 0.3:
            return rng.choice(calls)
        return rng.choice([a for a in options if not isinstance(a, Call)] or options)
    if state.phase == Phase.PLAY and not state.turn_state.needs_draw:
        seat = state.turn
        if strict and rng.random() < 0.01:
            return DeclareMahJongg(seat)  # perhaps a false declaration
        exchanges = [a for a in options if isinstance(a, ExchangeJoker)]
        if exchanges and rng.random() < 0.8:
            return rng.choice(exchanges)
        if rng.random() < 0.85:
            spare = set(_best_line(game, seat).spare)
            discards = [a for a in options if isinstance(a, Discard) and a.tile in spare]
            if discards:
                return rng.choice(discards)
    if state.phase == Phase.CHARLESTON and rng.random() < 0.85:
        seat = rng.choice([a.seat for a in options])
        spare = Counter(_best_line(game, seat).spare)
        mine = [a for a in options if isinstance(a, CharlestonPass) and a.seat == seat
                and not Counter(a.tiles) - spare]
        if mine:
            return rng.choice(mine)
    if state.phase == Phase.COURTESY and rng.random() < 0.7:
        return rng.choice([a for a in options if isinstance(a, CourtesyOffer) and not a.tiles])
    assert options, f"no legal action in phase {state.phase}"
    return rng.choice(options)


# ------------------------------------------------------------------------------------------------ the checks


def _check_conservation(game: Game) -> None:
    assert tiles_in_game(game.state) == tiles_in_set(tile_set_for(game.state.rules))


def _check_counts(game: Game) -> None:
    """S4 for live players."""
    state = game.state
    for s in state.live_seats:
        count = state.seats[s].tile_count
        if state.phase == Phase.FINISHED:
            expected = 14 if state.result is not None and state.result.winner == s else 13
        elif state.phase in (Phase.CHARLESTON, Phase.CHARLESTON_VOTE, Phase.COURTESY):
            expected = 14 if s == state.east else 13
        elif state.phase == Phase.PLAY:
            expected = 14 if s == state.turn and not state.turn_state.needs_draw else 13
        else:
            expected = 13
        assert count == expected, f"seat {s} holds {count} in {state.phase} (turn {state.turn})"


def _check_round_trip(game: Game) -> None:
    data = game.state.to_json()
    text = json.dumps(data)
    again = GameState.from_json(json.loads(text))
    assert again.to_json() == data
    assert json.dumps(again.to_json()) == text


def _check_hidden(game: Game, rng: random.Random) -> None:
    """Swap one concealed tile of seat ``o`` with a different wall tile: no other seat's view may change."""
    state = game.state
    for s in state.players:
        view = seat_view(game, s)
        assert view.rack == tuple(display_sorted(state.seats[s].rack))
        assert view.drawn is None or (state.turn == s and view.drawn == state.turn_state.drawn)
    candidates = [s for s in state.players if state.seats[s].rack]
    if not state.wall or not candidates:
        return
    other = rng.choice(candidates)
    rack = state.seats[other].rack
    pairs = [(i, j) for i in range(len(rack)) for j in range(min(len(state.wall), 20)) if rack[i] != state.wall[j]]
    if not pairs:
        return
    i, j = rng.choice(pairs)
    data = state.to_json()
    data["seats"][other]["rack"][i], data["wall"][j] = data["wall"][j], data["seats"][other]["rack"][i]
    if data["turn"]["drawn"] is not None and state.turn == other and i == len(rack) - 1:
        data["turn"]["drawn"] = data["seats"][other]["rack"][i]
    twin = Game(GameState.from_json(data), game.card)
    assert public_view(twin).to_json() == public_view(game).to_json()
    for s in state.players:
        if s != other:
            assert seat_view(twin, s).to_json() == seat_view(game, s).to_json(), f"seat {s} sees seat {other}"


def _check_events(events: list[Event]) -> None:
    for event in events:
        if event.type in PRIVATE_TYPES:
            assert event.private and event.seat is not None
            assert event.visible_to(event.seat) and not event.visible_to(None)
            assert not event.visible_to((event.seat + 1) % 4)
        json.dumps(event.to_json())


def _reference_possible(card: Card, exposures: list[list[int]], visible: list[int]) -> bool:
    """Brute force over every variant of every line: can these exposures plus tiles not yet visible make it?"""
    wild = card.wild
    exposed = Counter((next(t for t in e if t != wild), len(e)) for e in exposures)
    seen = Counter(visible) + Counter(t for e in exposures for t in e)
    reach = {k: max(0, n - seen[k]) for k, n in enumerate(card.tile_set.counts)}
    wilds = reach.get(wild, 0) if wild is not None else 0
    for line in card.lines:
        if exposures and not line.exposed:
            continue
        for variant in line.variants:
            groups = Counter(variant.groups)
            if any(groups[g] < n for g, n in exposed.items()):
                continue
            rest = groups - exposed
            small: Counter[int] = Counter()
            total: Counter[int] = Counter()
            for (tile, size), n in rest.items():
                total[tile] += size * n
                if size < 3:
                    small[tile] += size * n
            if any(small[k] > reach[k] for k in small):
                continue
            short = sum(max(0, total[k] - reach[k]) for k in total)
            if short == 0 or (wild is not None and short <= wilds):
                return True
    return False


def _public_visible(state: GameState, seat: int, wild: int | None) -> list[int]:
    seen = [t for _, t in state.discards]
    for s, other in enumerate(state.seats):
        if s != seat:
            seen += [t for e in other.exposures for t in e.tiles if t != wild]
    return seen


def _check_dead_hands(game: Game, events: list[Event]) -> None:
    state = game.state
    for event in events:
        if event.type == "dead_hand" and "no line" in event.payload.reason:
            s = event.seat
            assert s is not None
            exposures = [e.tiles for e in state.seats[s].exposures]
            assert not _reference_possible(game.card, exposures, _public_visible(state, s, game.card.wild)), \
                f"seat {s} declared dead but a line is still possible"
        if event.type == "turn":
            s = event.seat
            assert s is not None and not state.seats[s].dead
            exposures = [e.tiles for e in state.seats[s].exposures]
            assert _reference_possible(game.card, exposures, _public_visible(state, s, game.card.wild)), \
                f"seat {s} plays on although no line is possible"


def _check_result(game: Game) -> None:
    state = game.state
    result = state.result
    assert result is not None
    paid = payouts(state)
    penalties = [p for p in paid if p.reason == "false Mah Jongg"]
    assert len(penalties) == len(state.penalties)
    assert all(p.amount > 0 and p.payer != p.payee for p in paid)
    if result.winner is None:
        assert paid == penalties  # M10: a wall game pays nothing (penalties already incurred stand)
        return
    winner = result.winner
    line = game.card.line(result.line)  # type: ignore[arg-type]
    assert result.value == line.value and result.singles_and_pairs == line.singles_and_pairs
    tiles = [t for group in result.tiles for t in group]
    assert len(tiles) == 14 and result.jokerless == (game.card.wild not in tiles)
    seat = state.seats[winner]
    assert Counter(tiles) == Counter(seat.rack) + Counter(t for e in seat.exposures for t in e.tiles)
    win_check = check(game.card, seat.rack, [e.tiles for e in seat.exposures], tile_set=game.tile_set)
    assert result.line in {m.line.id for m in win_check.matches}
    wins = [p for p in paid if p not in penalties]
    assert sorted(p.payer for p in wins) == sorted(s for s in state.players if s != winner)
    rules = state.rules
    for p in wins:
        assert p.payee == winner
        if rules.east_double and state.east in (winner, p.payer):
            base = result.east_value if result.east_value is not None else 2 * result.value
        else:
            base = result.value
        factor = 1
        if rules.winner_pays_double_rules:
            factor = 2 if result.self_pick or p.payer == result.discarder else 1
            factor *= 2 if result.jokerless and not result.singles_and_pairs else 1
        assert p.amount == base * factor, (p, result)
    assert sum(p.amount for p in paid if p.payee == winner) - sum(p.amount for p in paid if p.payer == winner) == \
        sum(p.amount for p in wins) + sum(p.amount for p in penalties if p.payee == winner) - \
        sum(p.amount for p in penalties if p.payer == winner)


def _check_replay(game: Game) -> None:
    data = json.loads(json.dumps(export_replay(game)))
    again = replay(data, game.card)
    assert again.game.state.to_json() == game.state.to_json()


# ------------------------------------------------------------------------------------------------ the test

FINISHED_HOW: Counter[str] = Counter()


@pytest.mark.slow
@pytest.mark.parametrize(("name", "seed"), GAMES, ids=[f"{n}-{s}" for n, s in GAMES])
def test_random_games_keep_every_invariant(name: str, seed: int) -> None:
    game = _new_game(name, seed)
    rng = random.Random(f"{name}:{seed}")
    state = game.state
    _check_conservation(game)
    _check_counts(game)
    steps = 0
    while state.phase != Phase.FINISHED:
        events = game.apply(_choose(game, rng))
        steps += 1
        assert steps < 3000, "game did not end"
        _check_events(events)
        _check_conservation(game)
        _check_counts(game)
        _check_dead_hands(game, events)
        _check_round_trip(game)
        if steps % 7 == 0:
            _check_hidden(game, rng)
    assert all(legal_actions(game, s) == [] for s in range(4))
    FINISHED_HOW[state.result.how] += 1  # type: ignore[union-attr]
    _check_result(game)
    _check_replay(game)


def test_random_play_legal_actions_are_all_accepted() -> None:
    """Every action legal_actions offers is accepted (tried on a copy of the state), at several moments."""
    game = _new_game("blanks-any-time", 11)
    rng = random.Random(3)
    for _ in range(300):
        if game.state.phase == Phase.FINISHED:
            break
        data = game.state.to_json()
        for seat in range(4):
            for action in legal_actions(game, seat)[:40]:
                Game(GameState.from_json(data), game.card).apply(action)
        game.apply(_choose(game, rng))


def test_draw_is_never_offered_during_a_window() -> None:
    game = _new_game("no-charleston", 2)
    seat = game.state.turn
    game.apply(Discard(seat, next(t for t in game.state.seats[seat].rack)))
    if game.state.phase == Phase.CALL_WINDOW:
        for s in range(4):
            assert not any(isinstance(a, Draw) for a in legal_actions(game, s))


@pytest.mark.slow
def test_random_wins_pay_by_the_rules() -> None:
    """SC1-SC4 on wins reached by play (lighter: only the end of each game is checked)."""
    wins = 0
    for seed in range(40):
        name = ("no-charleston", "three-players", "default", "strict")[seed % 4]
        game = _new_game(name, 100 + seed)
        rng = random.Random(seed)
        while game.state.phase != Phase.FINISHED:
            game.apply(_choose(game, rng))
        _check_result(game)
        if game.state.result is not None and game.state.result.winner is not None:
            wins += 1
            _check_replay(game)
            if wins == 6:
                break
    assert wins == 6


def _candidates(game: Game, seat: int, rng: random.Random) -> list[Action]:
    """Actions a player might try now, legal or not (Charleston passes: a random sample)."""
    from itertools import combinations_with_replacement

    from bot.engine.actions import CharlestonVote, Hold, PassCall, SwapBlank

    state = game.state
    me = state.seats[seat]
    found: list[Action] = [Draw(seat), PassCall(seat), Hold(seat), DeclareMahJongg(seat), Call(seat, (), True),
                           CharlestonVote(seat, True), CharlestonVote(seat, False), CourtesyOffer(seat, ())]
    found += [Discard(seat, t) for t in sorted(set(me.rack))]
    window = state.window or state.late_window
    if window is not None and game.card.wild is not None:
        for size in range(1, 6):
            for combo in combinations_with_replacement((window.tile, game.card.wild), size):
                found.append(Call(seat, combo, False))
    for owner, other in enumerate(state.seats):
        for n, exposure in enumerate(other.exposures):
            found.append(ExchangeJoker(seat, owner, n, exposure.tile))
    found += [SwapBlank(seat, n) for n in range(len(state.discards))]
    passable = [t for t in me.rack if t not in (Tile.J, Tile.BL)]
    if len(passable) >= 3:
        for _ in range(3):
            blind = rng.randint(0, 3)
            found.append(CharlestonPass(seat, tuple(rng.sample(passable, 3 - blind)), blind))
    return found


def _same(a: Action, b: Action, state: GameState) -> bool:
    from bot.engine.actions import SwapBlank

    if isinstance(a, SwapBlank) and isinstance(b, SwapBlank):
        # Swaps are listed once per tile kind: taking either of two dead 5 Dots is the same move (but the live
        # discard of a window is never dead).
        live = len(state.discards) - 1 if state.phase == Phase.CALL_WINDOW else None
        if a.discard == live or not 0 <= a.discard < len(state.discards):
            return a == b
        return a.seat == b.seat and state.discards[a.discard][1] == state.discards[b.discard][1]
    if isinstance(a, (CharlestonPass, CourtesyOffer, Call)) and type(a) is type(b):
        return a.seat == b.seat and Counter(a.tiles) == Counter(b.tiles) and \
            getattr(a, "blind", 0) == getattr(b, "blind", 0) and getattr(a, "mahjong", 0) == getattr(b, "mahjong", 0)
    return a == b


@pytest.mark.slow
@pytest.mark.parametrize("name", ["default", "nmjl-1946", "blanks-any-time", "three-players-bob"])
def test_apply_accepts_exactly_the_legal_actions(name: str) -> None:
    """legal_actions is sound and complete: an action a player tries is accepted iff it is listed."""
    game = _new_game(name, 21)
    rng = random.Random(name)
    for step in range(400):
        if game.state.phase == Phase.FINISHED:
            break
        if step % 5 == 0:
            data = game.state.to_json()
            for seat in game.state.players:
                legal = legal_actions(game, seat)
                for action in _candidates(game, seat, rng):
                    trial = Game(GameState.from_json(data), game.card)
                    try:
                        trial.apply(action)
                        accepted = True
                    except IllegalAction:
                        accepted = False
                    listed = any(_same(action, a, game.state) for a in legal)
                    assert accepted == listed, f"{action}: accepted={accepted}, listed={listed}, " \
                                               f"phase={game.state.phase}, turn={game.state.turn}"
        game.apply(_choose(game, rng))


def test_views_never_show_another_seats_concealed_tiles() -> None:
    """Two tables identical but for one tile of West's rack: every other seat, and the public, see the same."""
    from support.game_tables import Table

    first = Table({2: "5D 6D"}, wall="7D")
    second = Table({2: "5D 7D"}, wall="6D")
    for table in (first, second):
        table.discard_and_close(0, table.racks[0][-1])
    assert first.racks[2] != second.racks[2]
    assert public_view(first.game).to_json() == public_view(second.game).to_json()
    for seat in (0, 1, 3):
        assert seat_view(first.game, seat).to_json() == seat_view(second.game, seat).to_json()
    assert seat_view(first.game, 2).to_json() != seat_view(second.game, 2).to_json()
    own = seat_view(first.game, 2)
    assert Counter(own.rack) == Counter(first.state.seats[2].rack)
    text = json.dumps(public_view(first.game).to_json())
    assert '"rack"' not in text
