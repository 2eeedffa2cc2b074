"""Card files (docs/card-format.md, docs/rules.md §8.2): validation messages and how patterns expand."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from support.card_files import SOURCE, card_text, header_lines, key_line, load_line, only_problem, problems_for

from bot.engine.cardfile import load_card_text, validate_card_text
from bot.engine.errors import CardError
from bot.engine.tiles import SET_1946, STANDARD, Suit, Tile, number_tile
from bot.service.cards import DEFAULT_CARDS_DIR, load_card


def group_problem(problem: str, position: int, token: str) -> None:
    assert f', group {position} "{token}": ' in problem, problem


# ---------------------------------------------------------------------------------------------- shipped cards


@pytest.mark.parametrize(("card_id", "lines"), [("practice", 51), ("nmjl-1946", 44)])
def test_shipped_cards_validate_cleanly(card_id: str, lines: int) -> None:
    path = Path(DEFAULT_CARDS_DIR) / f"{card_id}.toml"
    text = path.read_text(encoding="utf-8")
    assert validate_card_text(text, str(path)) == []
    card = load_card(card_id)
    assert card.id == card_id
    assert len(card.lines) == lines
    assert len({line.id for line in card.lines}) == lines
    assert all(line.variants for line in card.lines)


def test_practice_card_is_played_with_jokers(practice) -> None:  # type: ignore[no-untyped-def]
    assert practice.tile_set == STANDARD
    assert practice.wild == Tile.J
    assert not any(line.east_value for line in practice.lines)


def test_1946_card_is_played_with_wild_flowers_and_east_pays_double(card1946) -> None:  # type: ignore[no-untyped-def]
    assert card1946.ruleset == "nmjl-1946"
    assert card1946.tile_set == SET_1946
    assert card1946.wild == Tile.F
    # H5: two columns, East double.
    assert all(line.east_value == 2 * line.value for line in card1946.lines)
    # No 1946 pattern uses F: flowers are wild there.
    assert not any(t == Tile.F for line in card1946.lines for v in line.variants for t, _ in v.groups)


def test_every_shipped_variant_has_14_tiles(practice, card1946) -> None:  # type: ignore[no-untyped-def]
    for card in (practice, card1946):
        for line in card.lines:
            for v in line.variants:
                assert sum(size for _, size in v.groups) == 14
                assert sum(v.need) == 14


# ---------------------------------------------------------------------------------------------- problems


def test_sizes_not_adding_to_14_report_the_total() -> None:
    problem = only_problem("1111a 2222a 3333a 4a")
    assert "13" in problem and "14" in problem


def test_sizes_over_14_report_the_total() -> None:
    problem = only_problem("1111a 2222a 3333a 444a")
    assert "15" in problem


def test_unknown_symbol() -> None:
    problem = only_problem("Q 1111a 2222a 3333a 44a 5a")
    group_problem(problem, 1, "Q")
    assert "unknown symbol" in problem


def test_number_without_suit_letter() -> None:
    problem = only_problem("1111a 2222 3333a 44a")
    group_problem(problem, 2, "2222")
    assert "2222a" in problem  # says what to write


def test_suit_letter_on_a_wind() -> None:
    problem = only_problem("NNNa 1111a 2222a 333a")
    group_problem(problem, 1, "NNNa")
    assert "NNN" in problem


def test_mixed_symbols_in_one_group() -> None:
    problem = only_problem("NNEE 1111a 2222a 33a")
    group_problem(problem, 1, "NNEE")
    assert "N E W S" in problem


@pytest.mark.parametrize("token", ["2222d", "DDDDd"])
def test_unknown_suit_letter_is_reported_not_a_crash(token: str) -> None:
    problem = only_problem(f"{token} 1111a 3333a 44a")
    group_problem(problem, 1, token)


def test_7q_is_reported_as_unknown() -> None:
    problem = only_problem("7q 1111a 2222a 3333a 4a")
    group_problem(problem, 1, "7q")


def test_unknown_letter_on_something_else_is_reported() -> None:
    problem = only_problem("dd 1111a 2222a 3333a")
    group_problem(problem, 1, "dd")


def test_letter_b_without_a() -> None:
    problem = only_problem("1111b 2222b 3333c 44c")
    group_problem(problem, 1, "1111b")
    assert "a" in problem


def test_letter_y_without_x() -> None:
    problem = only_problem("1111y 2222y 3333y 44y")
    group_problem(problem, 1, "1111y")


def test_two_singles_of_the_same_tile_are_not_a_clash() -> None:
    # a year such as 2022 has two singles of the same tile: that is how it is printed
    problems, _ = problems_for("2022a 1111b 2222b 66c")
    assert problems == []


def test_singles_and_pairs_line_with_a_pung() -> None:
    problem = only_problem("NN EEE WW SS 1a 2a 3a 4a 5a", singles_and_pairs=True, exposed=False)
    group_problem(problem, 2, "EEE")
    assert "Singles & Pairs" in problem


def test_F_on_a_flower_wild_card() -> None:
    problem = only_problem("FFF 1111a 2222a 333a", wild="flower")
    group_problem(problem, 1, "FFF")
    assert "wild" in problem


def test_F_on_a_joker_card_is_fine() -> None:
    problems, _ = problems_for("FFF 1111a 2222a 333a")
    assert problems == []


def test_shift_outside_1_to_9() -> None:
    problem = only_problem("1111a 2222a 3333a 44a", "shift", shift=[0, 6])
    assert "shift 6" in problem and "7-10" in problem


def test_negative_shift_outside_1_to_9() -> None:
    problem = only_problem("1111a 2222a 3333a 44a", "shift", shift=[-1])
    assert "0-3" in problem


def test_shift_on_a_line_without_numbers() -> None:
    problem = only_problem("NNNN EEEE WWWW SS", "shift", shift="any")
    assert "no numbers" in problem


def test_bad_shift_value() -> None:
    problem = only_problem("1111a 2222a 3333a 44a", "shift", shift="some")
    assert "shift" in problem


def test_five_north_singles_can_never_be_completed() -> None:
    # J2: no wild may fill a single, and only 4 North exist (T1)
    problem = only_problem("N N N N N 1111a 2222a 3a")
    assert "never be completed" in problem and "North" in problem


def test_five_singles_from_a_printed_number_can_never_be_completed() -> None:
    # "71777a" is printed digits: singles 7 1 7 7 7, plus one more single 7: five 7s where no wild may go
    problem = only_problem("71777a 7a 1111b 2222b")
    assert "never be completed" in problem and "5" in problem


def test_fourteen_of_a_kind_needs_more_wilds_than_jokers_but_not_than_1946_flowers() -> None:
    # 14 North: 4 naturals and 10 wilds. A joker set has 8 jokers, the 1946 set 18 wild flowers (T1, T7).
    problem = only_problem("NNNNNNNNNNNNNN")
    assert "never be completed" in problem and "10" in problem
    problems, _ = problems_for("NNNNNNNNNNNNNN", wild="flower")
    assert problems == []


def test_a_line_is_kept_if_at_least_one_variant_can_be_made() -> None:
    # With x free, x = Crak makes 7 + 7 Red (10 wilds, impossible); the other two bindings are fine.
    card = load_card_text(card_text({"id": "h1", "pattern": "DDDDDDDx RRRRRRR"}), SOURCE)
    variants = card.lines[0].variants
    assert len(variants) == 2
    assert all(dict(v.groups)[Tile.RD] == 7 for v in variants)
    assert {t for v in variants for t, _ in v.groups} == {Tile.RD, Tile.GD, Tile.WD}


def test_unknown_key_in_hand_and_in_card_is_named_on_its_own_line() -> None:
    text = card_text({"id": "h1", "pattern": "1111a 2222a 3333a 44a", "colr": 25}, extra_card='colour = "red"')
    problems = validate_card_text(text, SOURCE)
    assert problems == [f"{SOURCE}:4: [card]: unknown key `colour` (the keys are id, name, year, ruleset, wild) "
                        "(see docs/card-format.md#the-card-table)",
                        f"{SOURCE}:{key_line(text, 'colr')}: hand h1: unknown key `colr` (the keys are id, section, "
                        "pattern, exposed, value, east_value, shift, note, singles_and_pairs) "
                        "(see docs/card-format.md#the-hand-table)"]


def test_a_misspelt_value_is_an_unknown_key_with_a_suggestion_and_a_missing_value() -> None:
    text = card_text({"id": "h1", "pattern": "1111a 2222a 3333a 44a"}).replace("value = 25", "vaule = 25")
    problems = validate_card_text(text, SOURCE)
    assert problems == [
        f"{SOURCE}:{key_line(text, 'vaule')}: hand h1: unknown key `vaule`; did you mean `value`? "
        "(see docs/card-format.md#the-hand-table)",
        f"{SOURCE}:{key_line(text, 'vaule')}: hand h1: missing `value`: the value printed at the end of the line, "
        "such as value = 25 (see docs/card-format.md#from-a-printed-line-to-its-hand)"]


def test_a_missing_key_with_no_misspelling_is_named_on_its_tables_header() -> None:
    text = card_text({"id": "h1", "pattern": "1111a 2222a 3333a 44a", "colour": "red"}).replace("value = 25\n", "")
    problems = validate_card_text(text, SOURCE)
    assert f"{SOURCE}:{header_lines(text)[0]}: hand h1: missing `value`" in "\n".join(problems)
    assert any(p.startswith(f"{SOURCE}:{key_line(text, 'colour')}: hand h1: unknown key `colour`") for p in problems)


def test_a_misspelt_card_key_is_named_with_the_missing_one_on_its_line() -> None:
    text = card_text({"id": "h1", "pattern": "1111a 2222a 3333a 44a"}).replace('name = "Test card"', 'nmae = "T"')
    problems = validate_card_text(text, SOURCE)
    line = text.splitlines().index('nmae = "T"') + 1
    assert problems[0] == f"{SOURCE}:{line}: [card]: missing `name`: the card's name as players see it, such as " \
        'name = "Tuesday league card 2026" (see docs/card-format.md#from-a-printed-line-to-its-hand)'
    assert problems[1] == f"{SOURCE}:{line}: [card]: unknown key `nmae`; did you mean `name`? " \
        "(see docs/card-format.md#the-card-table)"


def test_missing_required_keys() -> None:
    text = card_text({"id": "h1", "pattern": "1111a 2222a 3333a 44a", "value": 0})
    text = text.replace("exposed = true\n", "")
    problems = validate_card_text(text, SOURCE)
    assert any("missing `exposed`" in p for p in problems), problems
    assert any(p.startswith(f"{SOURCE}:{key_line(text, 'value')}: hand h1: `value` must be a whole number")
               for p in problems), problems


def test_a_line_with_a_missing_key_is_still_checked_for_every_other_problem() -> None:
    text = card_text({"id": "h1", "pattern": "1111a 2222a 3333a 4a"}).replace("value = 25\n", "")
    problems = validate_card_text(text, SOURCE)
    assert len(problems) == 2
    assert "missing `value`" in problems[0] and "13 tiles" in problems[1]


def test_duplicate_ids() -> None:
    text = card_text({"id": "h1", "pattern": "1111a 2222a 3333a 44a"},
                     {"id": "h1", "pattern": "1111a 2222a 3333a 55a"})
    problems = validate_card_text(text, SOURCE)
    assert problems == [f"{SOURCE}:{key_line(text, 'id', 1)}: hand h1: duplicate id (hand #1 has it too): give "
                        "each line its own (see docs/card-format.md#from-a-printed-line-to-its-hand)"]


def test_duplicate_id_reported_even_when_the_first_hand_has_another_problem() -> None:
    text = card_text({"id": "h1", "pattern": "1111a 2222a 3333a 4a"},  # 13 tiles
                     {"id": "h1", "pattern": "1111a 2222a 3333a 55a"})
    problems = validate_card_text(text, SOURCE)
    assert any("duplicate id" in p for p in problems), problems


def test_toml_syntax_error_gives_line_and_column_and_says_what_to_write() -> None:
    text = card_text({"id": "h1", "pattern": "1111a 2222a 3333a 44a"}).replace('name = "Test card"', "name = ")
    problems = validate_card_text(text, SOURCE)
    assert problems == [f"{SOURCE}:3: not valid TOML (column 8): nothing follows the = sign: write the value on the "
                        'same line, such as name = "..." (see docs/card-format.md#typing-toml)']


def test_missing_card_table() -> None:
    text = card_text({"id": "h1", "pattern": "1111a 2222a 3333a 44a"})
    text = text.replace('[card]\nid = "test"\nname = "Test card"\n', "")
    problems = validate_card_text(text, SOURCE)
    assert any("[card]" in p for p in problems), problems


def test_card_without_hands() -> None:
    problems = validate_card_text('[card]\nid = "x"\nname = "X"\n', SOURCE)
    assert problems and "hand" in problems[0]


def test_load_card_text_raises_card_error_with_every_problem() -> None:
    text = card_text({"id": "h1", "pattern": "1111a 2222a 3333a 4a"}, {"id": "h2", "pattern": "Q"})
    with pytest.raises(CardError) as info:
        load_card_text(text, SOURCE)
    assert len(info.value.problems) == 2


def test_several_problems_in_one_file_are_all_reported() -> None:
    hands = [
        {"id": "ok", "pattern": "1111a 2222a 3333a 44a"},
        {"id": "short", "pattern": "1111a 2222a 3333a 4a"},
        {"id": "symbol", "pattern": "Q 1111a 2222a 3333a 44a 5a"},
        {"id": "nosuit", "pattern": "1111a 2222 3333a 44a"},
        {"id": "wind", "pattern": "NNNa 1111a 2222a 333a"},
        {"id": "mixed", "pattern": "NNEE 1111a 2222a 33a"},
        {"id": "order", "pattern": "1111b 2222b 3333c 44c"},
        {"id": "sp", "pattern": "NN EEE WW SS 1a 2a 3a 4a 5a", "singles_and_pairs": True},
        {"id": "shift", "pattern": "1111a 2222a 3333a 44a", "shift": [0, 6]},
        {"id": "noshift", "pattern": "NNNN EEEE WWWW SS", "shift": "any"},
        {"id": "never", "pattern": "N N N N N 1111a 2222a 3a"},
        {"id": "typo", "pattern": "1111a 2222a 3333a 44a", "vaule": 1},
        {"id": "dup", "pattern": "1111a 2222a 3333a 44a"},
        {"id": "dup", "pattern": "1111a 2222a 3333a 55a"},
    ]
    text = card_text(*hands)
    problems = validate_card_text(text, SOURCE)
    headers = header_lines(text)
    expected = {"short": "pattern", "symbol": "pattern", "nosuit": "pattern", "wind": "pattern", "mixed": "pattern",
                "order": "pattern", "sp": "pattern", "shift": "shift", "noshift": "shift", "never": "pattern",
                "typo": "vaule", "dup": "id"}
    assert len(problems) == len(expected), problems
    for hand_id, key in expected.items():
        index = max(i for i, h in enumerate(hands) if h["id"] == hand_id)
        prefix = f"{SOURCE}:{key_line(text, key, index)}: hand {hand_id}"
        assert any(p.startswith(prefix) for p in problems), (prefix, problems)
    assert len(headers) == len(hands)
    assert not any("hand ok" in p for p in problems)


def test_problem_format_matches_the_documentation() -> None:
    problem = only_problem("1111a 2222 3333a 44a")
    assert re.fullmatch(r'test\.toml:\d+: hand h1, group 2 "2222": .+ \(see docs/card-format\.md#[a-z0-9-]+\)',
                        problem)


def test_flower_card_rejects_F_but_allows_big_wind_groups() -> None:
    ok, _ = problems_for("NNNNNNN SSSSSSS", wild="flower")
    assert ok == []


# ---------------------------------------------------------------------------------------------- expansion


def numbers_of(variant) -> list[int]:  # type: ignore[no-untyped-def]
    return sorted({t % 9 + 1 for t, _ in variant.groups if t <= Tile.D9})


def test_shift_any_on_five_consecutive_numbers_gives_offsets_0_to_4() -> None:
    line = load_line("111a 22a 3333a 44a 555a", shift="any")
    # 5 offsets (1-5 ... 5-9) x 3 suits for a
    assert len(line.variants) == 15
    assert {tuple(numbers_of(v)) for v in line.variants} == {tuple(range(s, s + 5)) for s in range(1, 6)}
    for v in line.variants:
        assert len({t // 9 for t, _ in v.groups}) == 1  # one suit


def test_shift_list_gives_only_those_offsets() -> None:
    line = load_line("11111a 33b 55555c FF", shift=[0, 2, 4])
    assert {tuple(numbers_of(v)) for v in line.variants} == {(1, 3, 5), (3, 5, 7), (5, 7, 9)}
    assert len(line.variants) == 3 * 6  # 3 offsets x 6 ways to give a, b, c different suits


def test_no_shift_means_these_numbers_only() -> None:
    line = load_line("1111a 2222a 3333a 44a")
    assert {tuple(numbers_of(v)) for v in line.variants} == {(1, 2, 3, 4)}
    assert len(line.variants) == 3


def test_like_numbers_three_suits() -> None:
    line = load_line("1111a 1111b 1111c NN", shift="any")
    # the three suits are interchangeable, so one variant per number
    assert len(line.variants) == 9
    for v in line.variants:
        n = numbers_of(v)
        assert len(n) == 1
        assert sorted(t for t, s in v.groups if s == 4) == [number_tile(s, n[0]) for s in Suit]


def test_shift_moves_numbers_only_and_never_a_year() -> None:
    # R3: a shift moves the line's numbers; the year 2026 (docs/card-format.md, Years) and the winds stay put.
    line = load_line("2026a NNNN 66b SSSS", shift="any", note="any like pair")
    for v in line.variants:
        kinds = dict.fromkeys(t for t, _ in v.groups)
        assert Tile.WD in kinds and Tile.N in kinds and Tile.S in kinds
        year = [t for t, s in v.groups[:4]]
        assert [t % 9 + 1 for t in year if t <= Tile.D9] == [2, 2, 6]
    # only the pair 66b moves: 1..9 in the second suit
    pairs = {t % 9 + 1 for v in line.variants for t, s in v.groups if s == 2}
    assert pairs == set(range(1, 10))


def test_alternatives() -> None:
    line = load_line(["RRRR 0000 GGGG NN", "RRRR 0000 GGGG SS"])
    assert sorted(sorted(v.groups) for v in line.variants) == sorted([
        sorted([(Tile.RD, 4), (Tile.WD, 4), (Tile.GD, 4), (Tile.N, 2)]),
        sorted([(Tile.RD, 4), (Tile.WD, 4), (Tile.GD, 4), (Tile.S, 2)]),
    ])
    assert line.patterns == ("RRRR 0000 GGGG NN", "RRRR 0000 GGGG SS")


def test_free_letter_x_is_any_dragon() -> None:
    line = load_line("NNNNN DDDDx SSSSS")
    dragons = {t for v in line.variants for t, s in v.groups if s == 4}
    assert dragons == {Tile.RD, Tile.GD, Tile.WD}
    assert len(line.variants) == 3


def test_free_letters_xyz_are_independent() -> None:
    line = load_line("55555x 6666y 77777z", wild="flower")
    assert len(line.variants) == 27  # 3 x 3 x 3, the same suit allowed
    assert any(len({t // 9 for t, _ in v.groups}) == 1 for v in line.variants)


def test_distinct_letters_take_different_suits() -> None:
    line = load_line("DDa 2222a 88a 444b 666b")
    assert len(line.variants) == 6
    for v in line.variants:
        suits = {t // 9 for t, _ in v.groups if t <= Tile.D9}
        assert len(suits) == 2


def test_matching_and_opposite_dragons_follow_T3() -> None:
    matching = load_line("2222a 4444a 6666a DDa")
    for v in matching.variants:
        suit = Suit(next(t for t, _ in v.groups if t <= Tile.D9) // 9)
        assert (dict(v.groups)[{Suit.CRAK: Tile.RD, Suit.BAM: Tile.GD, Suit.DOT: Tile.WD}[suit]]) == 2
    opposite = load_line("2222a 4444a 6666a DDb")
    pairs = {(next(t for t, _ in v.groups if t <= Tile.D9) // 9, next(t for t, s in v.groups if s == 2))
             for v in opposite.variants}
    assert pairs == {(Suit.BAM, Tile.RD), (Suit.BAM, Tile.WD), (Suit.CRAK, Tile.GD), (Suit.CRAK, Tile.WD),
                     (Suit.DOT, Tile.RD), (Suit.DOT, Tile.GD)}


def test_mixed_digit_year_is_singles_with_a_soap() -> None:
    line = load_line("2026a NNNN 66b SSSS")
    v = next(v for v in line.variants if (Tile.B2, 1) in v.groups)
    assert sorted(v.groups[:4]) == sorted([(Tile.B2, 1), (Tile.WD, 1), (Tile.B2, 1), (Tile.B6, 1)])
    assert v.small[Tile.B2] == 2 and v.need[Tile.B2] == 2
    assert v.small[Tile.WD] == 1


def test_mixed_digits_15c_are_two_singles() -> None:
    line = load_line("1111a 2222b 15c 333a 4b")
    assert len(line.variants) == 6
    for v in line.variants:
        a = Suit(next(t for t, s in v.groups if s == 4 and t % 9 == 0) // 9)  # 1111a
        b = Suit(next(t for t, s in v.groups if s == 4 and t % 9 == 1) // 9)  # 2222b
        (c,) = set(Suit) - {a, b}
        singles = sorted(t for t, s in v.groups if s == 1)
        assert singles == sorted([number_tile(c, 1), number_tile(c, 5), number_tile(b, 4)])


def test_decoration_is_ignored() -> None:
    plain = load_line("11111x 22222y 3333z", wild="flower")
    decorated = load_line("11111x + 22222y = 3333z", wild="flower")
    assert [v.groups for v in plain.variants] == [v.groups for v in decorated.variants]
