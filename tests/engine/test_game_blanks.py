"""Blanks, a table option (T6, TR2; J6: never for a joker)."""

from __future__ import annotations

from collections import Counter

import pytest
from support.game_tables import Table, one_event
from support.tiles import tile, tiles

from bot.engine.actions import DeclareMahJongg, ExchangeJoker, SwapBlank
from bot.engine.game import Game
from bot.engine.legal import legal_actions
from bot.engine.rules import RulesError, table_rules
from bot.engine.state import Phase
from bot.engine.tiles import Tile


def _after_first_discards(timing: str = "own_turn", hands: dict[int, str] | None = None) -> Table:
    """East throws 5 Dot (dead once South draws); South draws."""
    table = Table({0: "5D", 1: "BL", 2: "BL", 3: "BL", **(hands or {})}, wall="1D 2D 3D 4D", blanks=4,
                  blank_timing=timing)
    table.discard_and_close(0, "5D")
    return table


def test_TR2_swap_a_blank_for_a_dead_discard_on_ones_own_turn() -> None:
    table = _after_first_discards()
    state = table.state
    table.refuse(SwapBlank(1, 0), "only on your own turn, after drawing")
    table.refuse(SwapBlank(2, 0), "only on your own turn")
    table.draw(1)
    assert SwapBlank(1, 0) in legal_actions(table.game, 1)
    before = table.rack(1)
    events = table.act(SwapBlank(1, 0))
    swap = one_event(events, "blank_swap")
    assert swap.payload.tile == tile("5D") and not swap.private
    assert table.rack(1) == before - Counter(tiles("BL")) + Counter(tiles("5D"))
    assert state.discards == [(0, Tile.BL)]
    assert state.seats[1].tile_count == 14 and state.phase == Phase.PLAY and state.turn == 1


def test_TR2_never_the_discard_that_may_still_be_called() -> None:
    table = _after_first_discards("any_time")
    table.draw(1)
    table.discard(1, "1D")
    assert table.state.phase == Phase.CALL_WINDOW
    table.refuse(SwapBlank(2, 1), "Pick a dead discard")
    assert SwapBlank(2, 1) not in legal_actions(table.game, 2)
    table.refuse(SwapBlank(2, 7), "Pick a dead discard")
    # any_time: an earlier (dead) discard may be taken while the window is open, out of turn.
    table.act(SwapBlank(2, 0))
    assert table.state.discards[0] == (0, Tile.BL)


def test_TR2_a_blank_is_never_swapped_for_a_joker_or_a_blank() -> None:
    table = Table({0: "J", 1: "BL", 2: "BL BL"}, wall="1D 2D 3D", blanks=4)
    table.discard(0, "J")  # P12: dead at once
    table.draw(1)
    table.refuse(SwapBlank(1, 0), "can't be swapped for a joker")
    table.discard(1, "BL")  # a discarded blank is dead too: no window
    assert table.state.phase == Phase.PLAY and table.state.turn == 2
    table.draw(2)
    table.refuse(SwapBlank(2, 1), "can't be swapped for a joker or another blank")
    assert not any(isinstance(a, SwapBlank) for a in legal_actions(table.game, 2))


def test_J6_a_blank_is_never_exchanged_for_a_joker() -> None:
    table = Table({0: "N", 2: "J J", 3: "BL"}, wall="1D 2D", blanks=4)
    table.discard(0, "N")
    table.call(2, "J J")
    table.close()
    table.discard_and_close(2, table.racks[2][-1])
    table.draw(3)
    table.refuse(ExchangeJoker(3, 2, 0, Tile.BL), "That joker stands for North Wind; you offered Blank")


def test_TR2_timing_any_time() -> None:
    table = _after_first_discards("any_time")
    # Before her draw, and out of turn, both allowed.
    before = table.rack(2)
    table.act(SwapBlank(2, 0))
    assert table.rack(2) == before - Counter(tiles("BL")) + Counter(tiles("5D"))


def test_TR2_timing_only_when_not_ones_turn() -> None:
    table = _after_first_discards("not_own_turn")
    table.refuse(SwapBlank(1, 0), "only when it is not your turn")
    table.draw(1)
    table.refuse(SwapBlank(1, 0), "only when it is not your turn")
    assert SwapBlank(3, 0) in legal_actions(table.game, 3)
    before = table.rack(3)
    table.act(SwapBlank(3, 0))
    assert table.rack(3) == before - Counter(tiles("BL")) + Counter(tiles("5D"))


def test_TR2_no_blank_no_swap_and_no_blanks_at_a_plain_table() -> None:
    table = _after_first_discards("any_time", hands={3: ""})
    table.refuse(SwapBlank(3, 0), "You have no blank")
    plain = Table({0: "5D"}, wall="1D")
    plain.discard_and_close(0, "5D")
    plain.draw(1)
    plain.refuse(SwapBlank(1, 0), "without blanks")


def test_TR2_blanks_must_be_swapped_away_before_declaring() -> None:
    table = Table({0: "3B 3B 3B J 6B 6B 6B J 9C 9C 9C BL E E"}, blanks=2)
    assert DeclareMahJongg(0) not in legal_actions(table.game, 0)
    table.refuse(DeclareMahJongg(0), "not a Mah Jongg")


def test_T6_blank_tiles_exist_only_at_a_table_that_uses_them() -> None:
    racks = [list(r) for r in Table().racks]
    racks[0][0] = Tile.BL
    with pytest.raises(RulesError, match=r"more tiles than the set holds.*Blank"):
        Game.new(Table().card, table_rules(charleston=False), 1, deal=(racks, []))
