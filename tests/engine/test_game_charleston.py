"""The Charleston (docs/rules.md §3: CH1-CH8, CH11)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from support.game_tables import CARD_1946, PRACTICE, Table, event_types, tiles_in_game, tiles_in_set
from support.tiles import tiles

from bot.engine import charleston as ch
from bot.engine.actions import CharlestonPass, CharlestonVote, CourtesyOffer, DeclareMahJongg, Discard, Draw
from bot.engine.game import Game, tile_set_for
from bot.engine.legal import legal_actions
from bot.engine.rules import table_rules
from bot.engine.state import Phase
from bot.engine.tiles import Tile

STEPS = ["first right", "first across", "first left", "second left", "second across", "last right"]
RECEIVER_OFFSET = {"right": 1, "across": 2, "left": 3}  # S1: right = East to South, left = East to North


def _game(seed: int = 3, **options: object) -> Game:
    game, _ = Game.new(PRACTICE, table_rules(**options), seed)  # type: ignore[arg-type]
    return game


def _some_pass(game: Game, seat: int, rng: random.Random, count: int = 3) -> tuple[int, ...]:
    passable = [t for t in game.state.seats[seat].rack if t not in (Tile.J, Tile.BL)]
    return tuple(rng.sample(passable, count))


def _pass_round(game: Game, rng: random.Random, blind: dict[int, int] | None = None) -> dict[int, Counter[int]]:
    """Every player passes (own tiles chosen at random); returns what each passed of her own."""
    passed: dict[int, Counter[int]] = {}
    for seat in game.state.players:
        b = (blind or {}).get(seat, 0)
        tiles = _some_pass(game, seat, rng, 3 - b)
        passed[seat] = Counter(tiles)
        game.apply(CharlestonPass(seat, tiles, b))
    return passed


# ------------------------------------------------------------------------------------------------ CH1 order


def test_CH1_order_right_across_left_then_left_across_right_then_courtesy() -> None:
    game = _game()
    state = game.state
    rng = random.Random(1)
    seen_steps = []
    for step in STEPS:
        assert state.phase == Phase.CHARLESTON
        assert ch.PASSES[state.charleston.stage].name == step  # type: ignore[union-attr]
        seen_steps.append(step)
        direction = step.split()[1]
        before = {s: Counter(state.seats[s].rack) for s in range(4)}
        passed = _pass_round(game, rng)
        for sender in range(4):
            receiver = (sender + RECEIVER_OFFSET[direction]) % 4
            got = Counter(state.seats[receiver].rack) - (before[receiver] - passed[receiver])
            assert got == passed[sender], f"{step}: seat {receiver} should get seat {sender}'s tiles"
        if step == "first left":
            assert state.phase == Phase.CHARLESTON_VOTE
            for seat in range(4):
                game.apply(CharlestonVote(seat, False))
    assert seen_steps == STEPS
    assert state.phase == Phase.COURTESY
    for seat in range(4):
        game.apply(CourtesyOffer(seat, ()))
    assert state.phase == Phase.PLAY and state.turn == state.east and not state.turn_state.needs_draw


def test_CH1_events_name_each_step() -> None:
    game, opening = Game.new(PRACTICE, table_rules(), 2)
    assert [e.payload.step for e in opening if e.type == "charleston"] == ["first right"]
    rng = random.Random(0)
    events = []
    for seat in range(4):
        events += game.apply(CharlestonPass(seat, _some_pass(game, seat, rng)))
    done = [e for e in events if e.type == "charleston_step_done"]
    assert [e.payload.step for e in done] == ["first right"]
    nxt = [e for e in events if e.type == "charleston"]
    assert [e.payload.step for e in nxt] == ["first across"]
    received = [e for e in events if e.type == "charleston_received"]
    # CH2: received tiles are private to the receiver.
    assert sorted(e.seat for e in received) == [0, 1, 2, 3] and all(e.private for e in received)


def test_CH1_first_charleston_is_compulsory() -> None:
    game = _game()
    table_state = game.state
    table = _wrap(game)
    table.refuse(CharlestonVote(0, True), "pass your tiles first")
    table.refuse(Draw(0), "pass your tiles first")
    table.refuse(Discard(0, table_state.seats[0].rack[0]), "pass your tiles first")
    rng = random.Random(2)
    _pass_round(game, rng)
    table.refuse(CharlestonVote(1, True), "pass your tiles first")  # no stopping before the first Left
    _pass_round(game, rng)
    assert table_state.phase == Phase.CHARLESTON
    _pass_round(game, rng)
    assert table_state.phase == Phase.CHARLESTON_VOTE


def _wrap(game: Game) -> Table:
    table = Table.__new__(Table)
    table.game = game
    table.rules = game.state.rules
    table.card = game.card
    return table


# ------------------------------------------------------------------------------------------------ CH2 three tiles


def test_CH2_every_pass_is_exactly_three_tiles_of_ones_own() -> None:
    game = _game()
    table = _wrap(game)
    rack = [t for t in game.state.seats[0].rack if t != Tile.J]
    table.refuse(CharlestonPass(0, tuple(rack[:2])), "Pass exactly 3 tiles")
    table.refuse(CharlestonPass(0, tuple(rack[:4])), "Pass exactly 3 tiles")
    absent = next(t for t in range(34) if t not in game.state.seats[0].rack)
    table.refuse(CharlestonPass(0, (absent, rack[0], rack[1])), "You don't have")
    game.apply(CharlestonPass(0, tuple(rack[:3])))
    table.refuse(CharlestonPass(0, tuple(rack[3:6])), "already passed")


def test_CH2_tiles_are_picked_up_only_once_everyone_has_passed() -> None:
    game = _game()
    state = game.state
    rng = random.Random(5)
    before = [Counter(s.rack) for s in state.seats]
    events = []
    for seat in (0, 1, 2):
        events += game.apply(CharlestonPass(seat, _some_pass(game, seat, rng)))
    # Nothing moves, and nobody sees an incoming tile, before the last player has passed (CH2, CH7).
    assert [Counter(s.rack) for s in state.seats] == before
    assert "charleston_received" not in event_types(events)
    passed = [e for e in events if e.type == "charleston_passed"]
    assert all(not e.private and "tiles" not in e.to_json() for e in passed)


# ------------------------------------------------------------------------------------------------ CH3 stopping


def _to_vote(seed: int = 3, **options: object) -> Game:
    game = _game(seed, **options)
    rng = random.Random(seed)
    for _ in range(3):
        _pass_round(game, rng)
    assert game.state.phase == Phase.CHARLESTON_VOTE
    return game


@pytest.mark.parametrize("stopper", [0, 1, 2, 3])
def test_CH3_any_single_player_stops_the_second_charleston_but_not_the_courtesy_pass(stopper: int) -> None:
    game = _to_vote()
    for seat in range(4):
        if seat != stopper and seat < stopper:
            game.apply(CharlestonVote(seat, False))
    events = game.apply(CharlestonVote(stopper, True))
    assert "charleston_stopped" in event_types(events)
    assert game.state.phase == Phase.COURTESY  # CH3: the courtesy pass still happens


def test_CH3_second_charleston_when_nobody_stops() -> None:
    game = _to_vote()
    for seat in range(3):
        game.apply(CharlestonVote(seat, False))
        assert game.state.phase == Phase.CHARLESTON_VOTE
    events = game.apply(CharlestonVote(3, False))
    assert game.state.phase == Phase.CHARLESTON
    assert [e.payload.step for e in events if e.type == "charleston"] == ["second left"]
    _wrap(game).refuse(CharlestonVote(3, True), "pass your tiles first")


def test_CH3_a_player_votes_once() -> None:
    game = _to_vote()
    game.apply(CharlestonVote(1, False))
    _wrap(game).refuse(CharlestonVote(1, True), "already voted")


def test_CH3_second_charleston_can_be_turned_off_by_the_table() -> None:
    game = _game(second_charleston=False)
    rng = random.Random(0)
    for _ in range(3):
        _pass_round(game, rng)
    assert game.state.phase == Phase.COURTESY


# ------------------------------------------------------------------------------------------------ CH4 courtesy


def test_CH4_courtesy_offers_3_and_1_exchange_one_tile() -> None:
    table = Table({0: "1B 2B 3B", 2: "9D", 1: "5C 6C", 3: ""}, charleston=True)
    game = table.game
    rng = random.Random(9)
    for _ in range(3):
        # pass tiles other than the ones the courtesy pass will use
        for seat in range(4):
            keep = Counter(tiles({0: "1B 2B 3B", 2: "9D", 1: "5C 6C", 3: ""}[seat]))
            free = list((Counter(t for t in game.state.seats[seat].rack if t != Tile.J) - keep).elements())
            game.apply(CharlestonPass(seat, tuple(rng.sample(free, 3))))
    game.apply(CharlestonVote(0, True))
    before = [Counter(s.rack) for s in game.state.seats]
    game.apply(CourtesyOffer(0, tuple(tiles("1B 2B 3B"))))  # East offers 3, most wanted-gone first
    game.apply(CourtesyOffer(2, tuple(tiles("9D"))))  # West offers 1
    game.apply(CourtesyOffer(1, tuple(tiles("5C 6C"))))  # South offers 2
    events = game.apply(CourtesyOffer(3, ()))  # North offers none
    after = [Counter(s.rack) for s in game.state.seats]
    # East-West swap the smaller number, 1: East gives her first-listed tile.
    assert after[0] == before[0] - Counter(tiles("1B")) + Counter(tiles("9D"))
    assert after[2] == before[2] - Counter(tiles("9D")) + Counter(tiles("1B"))
    # South-North: 2 against 0, nothing moves.
    assert after[1] == before[1] and after[3] == before[3]
    exchanged = {e.seat: e.payload.count for e in events if e.type == "courtesy_exchanged"}
    assert exchanged == {0: 1, 1: 0}
    assert game.state.phase == Phase.PLAY and [len(s.rack) for s in game.state.seats] == [14, 13, 13, 13]


def test_CH4_courtesy_offer_is_zero_to_three_tiles_once() -> None:
    game = _to_vote()
    game.apply(CharlestonVote(0, True))
    table = _wrap(game)
    rack = [t for t in game.state.seats[1].rack if t != Tile.J]
    table.refuse(CourtesyOffer(1, tuple(rack[:4])), "0 to 3 tiles")
    game.apply(CourtesyOffer(1, tuple(rack[:2])))
    table.refuse(CourtesyOffer(1, ()), "already made your courtesy offer")


# ------------------------------------------------------------------------------------------------ CH5 blind


@pytest.mark.parametrize("preset", ["nmjl", "nmjl-1946"])
def test_CH5_blind_pass_only_first_left_and_last_right(preset: str) -> None:
    """CH5 (and CH11 for 1946: the last pass of each Charleston)."""
    card = PRACTICE if preset == "nmjl" else CARD_1946
    game, _ = Game.new(card, table_rules(preset), 4)
    table = _wrap(game)
    rng = random.Random(4)
    allowed = {"first left", "last right"}
    for step in STEPS:
        stage = game.state.charleston.stage  # type: ignore[union-attr]
        assert ch.PASSES[stage].name == step
        assert ch.PASSES[stage].blind_allowed == (step in allowed)
        legal = legal_actions(game, 0)
        assert any(a.blind for a in legal if isinstance(a, CharlestonPass)) == (step in allowed)
        if step not in allowed:
            for b in (1, 2, 3):
                tiles = _some_pass(game, 0, rng, 3 - b)
                table.refuse(CharlestonPass(0, tiles, b), f"No blind pass on the {step}")
            _pass_round(game, rng)
        else:
            _pass_round(game, rng, blind={0: 1, 1: 2, 2: 3})
        if game.state.phase == Phase.CHARLESTON_VOTE:
            for seat in range(4):
                game.apply(CharlestonVote(seat, False))
    # No blind courtesy pass: an offer is just tiles, and the table then plays.
    if game.state.phase == Phase.COURTESY:
        assert all(isinstance(a, CourtesyOffer) for a in legal_actions(game, 0))


def test_CH5_blind_count_is_1_to_3() -> None:
    game = _to_vote()
    for seat in range(4):
        game.apply(CharlestonVote(seat, False))
    rng = random.Random(0)
    for _ in range(2):
        _pass_round(game, rng)
    table = _wrap(game)
    assert ch.PASSES[game.state.charleston.stage].name == "last right"  # type: ignore[union-attr]
    table.refuse(CharlestonPass(0, (), 4), "1, 2 or 3")
    table.refuse(CharlestonPass(0, _some_pass(game, 0, rng, 1), 1), "Pass exactly 3 tiles")


# ------------------------------------------------------------------------------------------------ CH6 jokers


def test_CH6_jokers_are_never_passed() -> None:
    table = Table({0: "J J 1B 2B 3B", 1: "J"}, charleston=True)
    table.refuse(CharlestonPass(0, tuple(tiles("J 1B 2B"))), "Jokers are never passed")
    table.refuse(CharlestonPass(1, tuple(tiles("J")), 2), "No blind pass")
    for seat in range(4):
        assert all(Tile.J not in a.tiles for a in legal_actions(table.game, seat) if isinstance(a, CharlestonPass))


def test_CH6_jokers_are_never_passed_in_the_courtesy_pass() -> None:
    table = Table({0: "J 1B 2B 3B 4B 5B 6B 7B 8B 9B", 1: "J"}, charleston=True)
    game = table.game
    rng = random.Random(3)
    for _ in range(3):
        _pass_round(game, rng)
    game.apply(CharlestonVote(3, True))
    table.refuse(CourtesyOffer(0, tuple(tiles("J"))), "Jokers are never passed")
    assert all(Tile.J not in a.tiles for a in legal_actions(game, 0) if isinstance(a, CourtesyOffer))


def test_CH6_blanks_are_never_passed() -> None:
    table = Table({0: "BL 1B 2B"}, charleston=True, blanks=4)
    table.refuse(CharlestonPass(0, tuple(tiles("BL 1B 2B"))), "Blanks are never passed")


# ------------------------------------------------------------------------------------------------ CH7 IOUs


def _first_left(seed: int = 6) -> tuple[Game, random.Random]:
    game = _game(seed)
    rng = random.Random(seed)
    for _ in range(2):
        _pass_round(game, rng)
    assert ch.PASSES[game.state.charleston.stage].name == "first left"  # type: ignore[union-attr]
    return game, rng


def test_CH7_all_four_blind_three_moves_nothing() -> None:
    game, _ = _first_left()
    before = [Counter(s.rack) for s in game.state.seats]
    events = []
    for seat in range(4):
        events += game.apply(CharlestonPass(seat, (), 3))
    assert [Counter(s.rack) for s in game.state.seats] == before
    received = [e for e in events if e.type == "charleston_received"]
    assert all(e.payload.tiles == () for e in received)


def test_CH7_a_blind_passer_forwards_what_she_receives_unseen() -> None:
    """First Left: South's tiles go to East, who passes all three blind, so they go on to North; East keeps her
    own rack; West gets North's tiles and South gets West's."""
    game, rng = _first_left()
    state = game.state
    before = [Counter(s.rack) for s in state.seats]
    own = {}
    for seat in (1, 2, 3):
        own[seat] = Counter(_some_pass(game, seat, rng))
        game.apply(CharlestonPass(seat, tuple(own[seat].elements())))
    game.apply(CharlestonPass(0, (), 3))
    after = [Counter(s.rack) for s in state.seats]
    assert after[0] == before[0]
    assert after[3] == before[3] - own[3] + own[1]
    assert after[2] == before[2] - own[2] + own[3]
    assert after[1] == before[1] - own[1] + own[2]


def test_CH7_two_blind_passers_in_a_row() -> None:
    """First Left with East and South both blind 3: West's tiles travel South -> East -> North."""
    game, rng = _first_left(8)
    state = game.state
    before = [Counter(s.rack) for s in state.seats]
    own = {s: Counter(_some_pass(game, s, rng)) for s in (2, 3)}
    game.apply(CharlestonPass(0, (), 3))
    game.apply(CharlestonPass(1, (), 3))
    game.apply(CharlestonPass(2, tuple(own[2].elements())))
    game.apply(CharlestonPass(3, tuple(own[3].elements())))
    after = [Counter(s.rack) for s in state.seats]
    assert after[0] == before[0] and after[1] == before[1]
    assert after[3] == before[3] - own[3] + own[2]
    assert after[2] == before[2] - own[2] + own[3]


@pytest.mark.parametrize("seed", range(40))
def test_CH7_resolution_conserves_tiles_and_everyone_keeps_her_count(seed: int) -> None:
    """Pure resolver: every seat ends with as many tiles as she passed of her own (3 - b), and the tiles that
    moved are exactly the tiles passed."""
    rng = random.Random(seed)
    offset = rng.choice([1, 2, 3])
    own = {}
    blind = {}
    next_tile = 0
    for seat in range(4):
        blind[seat] = rng.randint(0, 3)
        own[seat] = list(range(next_tile, next_tile + 3 - blind[seat]))
        next_tile += 3 - blind[seat]
    got = ch.resolve_round(own, blind, offset, random.Random(seed))
    assert sorted(t for tiles in got.values() for t in tiles) == list(range(next_tile))
    for seat in range(4):
        assert len(got[seat]) == 3 - blind[seat]
    if all(b == 3 for b in blind.values()):
        assert all(not tiles for tiles in got.values())


@pytest.mark.parametrize("seed", range(12))
def test_CH7_blind_passes_in_a_game_conserve_the_set_and_the_rack_sizes(seed: int) -> None:
    game, rng = _first_left(seed)
    blind = {s: rng.randint(0, 3) for s in range(4)}
    _pass_round(game, rng, blind)
    state = game.state
    assert [len(s.rack) for s in state.seats] == [14, 13, 13, 13]
    assert tiles_in_game(state) == tiles_in_set(tile_set_for(state.rules))


# ------------------------------------------------------------------------------------------------ CH8 three players


def test_CH8_three_players_have_no_charleston() -> None:
    game = _game(players=3)
    assert game.state.phase == Phase.PLAY
    table = _wrap(game)
    table.refuse(CharlestonPass(0, tuple(game.state.seats[0].rack[:3])))


def _bob_game(seed: int = 5) -> Game:
    game = _game(seed, players=3, three_player_charleston="bob")
    assert game.state.phase == Phase.CHARLESTON
    return game


def test_CH8_bob_lays_out_six_rows_of_three_from_the_wall() -> None:
    game = _bob_game()
    state = game.state
    assert state.charleston is not None
    assert [len(row) for row in state.charleston.bob_out] == [3] * 6
    assert len(state.wall) == 152 - 40 - 18
    assert tiles_in_game(state) == tiles_in_set(tile_set_for(state.rules))


def test_CH8_bob_passes_and_receives_like_a_player() -> None:
    game = _bob_game()
    state = game.state
    cs = state.charleston
    assert cs is not None
    bob = 3
    rows = [list(r) for r in cs.bob_out]
    rng = random.Random(1)
    before = Counter(state.seats[0].rack)
    passed = _pass_round(game, rng)  # first right: Bob gives to East, West gives to Bob
    assert set(passed) == {0, 1, 2}
    assert Counter(cs.bob_in) == passed[2]
    assert Counter(state.seats[0].rack) == before - passed[0] + Counter(rows[0])
    assert bob not in passed


@pytest.mark.parametrize("stop", [True, False])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_CH8_bob_conserves_tiles_and_rebuilds_the_wall(stop: bool, seed: int) -> None:
    game = _bob_game(seed)
    state = game.state
    rng = random.Random(seed)
    full = tiles_in_set(tile_set_for(state.rules))
    while state.phase != Phase.PLAY:
        if state.phase == Phase.CHARLESTON:
            step = ch.PASSES[state.charleston.stage]  # type: ignore[union-attr]
            blind = {s: rng.randint(0, 3) for s in (0, 1, 2)} if step.blind_allowed else {}
            _pass_round(game, rng, blind)
        elif state.phase == Phase.CHARLESTON_VOTE:
            for seat in (0, 1, 2):
                if state.phase == Phase.CHARLESTON_VOTE:
                    game.apply(CharlestonVote(seat, stop))
        else:
            cs = state.charleston
            assert cs is not None
            bob_in = Counter(cs.bob_in)
            before_south = Counter(state.seats[1].rack)
            offer = _some_pass(game, 1, rng, 2)
            game.apply(CourtesyOffer(0, ()))
            game.apply(CourtesyOffer(2, ()))
            game.apply(CourtesyOffer(1, offer))
            # The player across from Bob (South) takes tiles Bob received.
            gained = Counter(state.seats[1].rack) - (before_south - Counter(offer))
            assert sum(gained.values()) == min(2, sum(bob_in.values()))
            assert not gained - bob_in
        assert tiles_in_game(state) == full
    assert [len(s.rack) for s in state.seats] == [14, 13, 13, 0]
    assert len(state.wall) == 152 - 40  # Bob's leftovers rebuild the fourth wall
    assert tiles_in_game(state) == full


# ------------------------------------------------------------------------------------------------ CH11 1946


@pytest.mark.parametrize("second", [True, False])
def test_CH11_1946_has_no_courtesy_pass(second: bool) -> None:
    game, _ = Game.new(CARD_1946, table_rules("nmjl-1946"), 2)
    rng = random.Random(2)
    for _ in range(3):
        _pass_round(game, rng)
    for seat in range(4):
        if game.state.phase == Phase.CHARLESTON_VOTE:
            game.apply(CharlestonVote(seat, not second))
    if second:
        for _ in range(3):
            _pass_round(game, rng)
    assert game.state.phase == Phase.PLAY
    _wrap(game).refuse(CourtesyOffer(0, ()))


def test_CH_heavenly_declaration_is_not_a_pass() -> None:
    """Only East's dealt hand may be declared in the Charleston; other seats have no DeclareMahJongg."""
    game = _game()
    for seat in (1, 2, 3):
        assert not any(isinstance(a, DeclareMahJongg) for a in legal_actions(game, seat))
