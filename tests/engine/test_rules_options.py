"""Table rules: presets, per-table options and their validation (docs/rules.md §7.2, §10, §11)."""

from __future__ import annotations

import json

import pytest

from bot.engine.game import Game
from bot.engine.rules import PRESETS, RulesError, TableRules, rules_from_dict, table_rules, with_options
from bot.service.cards import load_card


def test_default_is_nmjl_with_house_rules_off() -> None:
    rules = table_rules()
    assert rules.preset == "nmjl" and rules.card == "practice"
    # [TABLE] options are off by default (docs/rules.md §0).
    assert rules.hot_wall == 0 and rules.blanks == 0 and rules.three_player_charleston == "none"
    assert rules.declarations == "friendly"  # §11.1
    assert 3 <= rules.call_window_seconds <= 30  # §11.2
    assert rules.players == 4 and rules.charleston and rules.second_charleston and rules.courtesy_pass
    assert rules.min_call_size == 3 and rules.discard_flowers and not rules.flowers_wild
    assert not rules.east_double and not rules.east_keeps_deal_on_wall_game
    assert rules.false_mahjong_penalty == 0 and rules.winner_pays_double_rules


def test_1946_preset_matches_section_11_7() -> None:
    rules = table_rules("nmjl-1946")
    assert rules.card == "nmjl-1946"
    assert rules.flowers_wild and not rules.discard_flowers  # H2
    assert rules.min_call_size == 4  # H3: kong or larger
    assert not rules.courtesy_pass  # CH11
    assert rules.east_double and rules.east_keeps_deal_on_wall_game  # H5, H6
    assert rules.false_mahjong_penalty == 30  # H7
    assert not rules.winner_pays_double_rules
    assert rules.blanks == 0


def test_preset_options_can_be_overridden() -> None:
    rules = table_rules("nmjl-1946", declarations="strict", charleston=False)
    assert rules.declarations == "strict" and not rules.charleston and rules.flowers_wild


def test_unknown_preset_is_named() -> None:
    with pytest.raises(RulesError, match="Unknown rules preset 'nmjl-1947'") as info:
        table_rules("nmjl-1947")
    for preset in PRESETS:
        assert preset in str(info.value)


def test_unknown_option_is_named_with_the_known_ones() -> None:
    with pytest.raises(RulesError, match="Unknown table option 'hotwall'") as info:
        table_rules(hotwall=5)
    assert "hot_wall" in str(info.value)


@pytest.mark.parametrize(("option", "value", "message"), [
    ("call_window_seconds", 2, "between 3 and 30, not 2"),
    ("call_window_seconds", 31, "between 3 and 30, not 31"),
    ("hot_wall", -1, "between 0 and 40"),
    ("hot_wall", 41, "between 0 and 40"),
    ("hold_seconds", 0, "between 5 and 60"),
    ("false_mahjong_penalty", -5, "between 0 and 1000"),
    ("blanks", 1, "0 (none) or between 2 and 8, not 1"),
    ("blanks", 9, "0 (none) or between 2 and 8, not 9"),
    ("blanks", -2, "0 (none) or between 2 and 8"),
    ("players", 1, "must be one of 2, 3, 4, not 1"),
    ("players", 5, "must be one of 2, 3, 4"),
    ("base", 0, "between 1 and 1000"),
    ("min_call_size", 5, "must be one of 3, 4"),
    ("declarations", "lenient", "must be one of friendly, strict, not 'lenient'"),
    ("blank_timing", "whenever", "own_turn, any_time, not_own_turn"),
    ("three_player_charleston", "mush", "none, bob"),
    ("charleston", "yes", "must be true or false, not 'yes'"),
    ("courtesy_pass", 1, "must be true or false"),
    ("players", "4", "must be a whole number, not '4'"),
    ("hot_wall", True, "must be a whole number, not True"),
    ("hot_wall", 2.5, "must be a whole number"),
    ("card", 7, "must be text"),
])
def test_out_of_range_or_mistyped_values_give_a_clear_error(option: str, value: object, message: str) -> None:
    with pytest.raises(RulesError) as info:
        table_rules(**{option: value})
    text = str(info.value)
    assert f"'{option}'" in text and message in text


@pytest.mark.parametrize(("option", "value"), [
    ("call_window_seconds", 3), ("call_window_seconds", 30), ("hot_wall", 0), ("hot_wall", 40),
    ("blanks", 2), ("blanks", 8), ("players", 3), ("min_call_size", 4), ("blank_timing", "not_own_turn"),
    ("three_player_charleston", "bob"), ("declarations", "strict"),
])
def test_boundary_values_are_accepted(option: str, value: object) -> None:
    assert getattr(table_rules(**{option: value}), option) == value


def test_blanks_are_not_for_the_1946_set() -> None:
    with pytest.raises(RulesError, match="Blanks cannot be used with the 1946 set"):
        table_rules("nmjl-1946", blanks=4)


def test_rules_error_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        table_rules(players=7)


@pytest.mark.parametrize("rules", [
    table_rules(), table_rules("nmjl-1946"), table_rules(blanks=6, blank_timing="any_time", hot_wall=12),
    table_rules(players=3, three_player_charleston="bob", declarations="strict"),
])
def test_rules_round_trip_through_a_dict_and_json(rules: TableRules) -> None:
    data = json.loads(json.dumps(rules.to_dict()))
    assert rules_from_dict(data) == rules


def test_saved_rules_are_checked_again() -> None:
    data = table_rules().to_dict()
    data["call_window_seconds"] = 99
    with pytest.raises(RulesError, match="call_window_seconds"):
        rules_from_dict(data)
    data = table_rules().to_dict()
    data["surprise"] = True
    with pytest.raises(RulesError, match="Unknown table option 'surprise'"):
        rules_from_dict(data)


def test_with_options_changes_and_revalidates() -> None:
    rules = table_rules("nmjl-1946")
    changed = with_options(rules, declarations="strict")
    assert changed.declarations == "strict" and changed.preset == "nmjl-1946" and changed.flowers_wild
    assert rules.declarations == "friendly"  # the original is untouched (frozen)
    with pytest.raises(RulesError, match="Blanks cannot be used with the 1946 set"):
        with_options(rules, blanks=4)


def test_uses_bob_only_for_three_players_with_a_charleston() -> None:
    assert table_rules(players=3, three_player_charleston="bob").uses_bob
    assert not table_rules(players=3, three_player_charleston="bob", charleston=False).uses_bob
    assert not table_rules(players=4, three_player_charleston="bob").uses_bob
    assert not table_rules(players=3).has_charleston  # CH8
    assert table_rules(players=3, three_player_charleston="bob").has_charleston
    assert table_rules().has_charleston and not table_rules(charleston=False).has_charleston


def test_the_card_and_the_rules_must_agree() -> None:
    practice, old = load_card("practice"), load_card("nmjl-1946")
    with pytest.raises(RulesError, match="needs the nmjl-1946 rules"):
        Game.new(old, table_rules(card="nmjl-1946"), 1)
    with pytest.raises(RulesError, match="needs rules with jokers"):
        Game.new(practice, table_rules("nmjl-1946", card="practice"), 1)
    with pytest.raises(RulesError, match="rules name card 'nmjl-1946'"):
        Game.new(practice, table_rules("nmjl-1946", flowers_wild=False), 1)
    with pytest.raises(RulesError, match="East must be seat"):
        Game.new(practice, table_rules(), 1, east=4)
