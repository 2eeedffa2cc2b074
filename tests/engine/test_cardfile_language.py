"""The card validator on issue 29's language (docs/card-format.md; docs/rules.md §8): separate groups of the same
tile, Z (any wind), years a shift leaves alone, no cap on alternatives, warnings, and a file's TOML mistakes all
reported in one run, each on its own line."""

from __future__ import annotations

from support.card_files import SOURCE, card_text, key_line, load_line, only_problem, problems_for

from bot.engine.cardfile import check_card_text, validate_card_text
from bot.engine.tiles import Tile


def warnings_for(pattern: str | list[str], **keys: object) -> list[str]:
    text = card_text({"id": "h1", "pattern": pattern, **keys})
    report = check_card_text(text, SOURCE)
    assert report.problems == [] and report.card is not None
    return report.warnings


# ------------------------------------------------------------------------------ separate groups of the same tile


def test_R1_the_same_group_written_twice_is_two_separate_groups() -> None:
    assert problems_for("11a 2222b 11a 3333c FF")[0] == []
    assert problems_for("FFF 6666a FFF 7777a")[0] == []
    assert problems_for("222a 22a 1111a 33333b")[0] == []  # a pung and a separate pair of 2s: 5 of them, J3


def test_R1_one_kong_stays_one_group() -> None:
    line = load_line("1111a 2222b 3333c FF")
    assert all((size, t) != (2, t) for v in line.variants for t, size in v.groups if t <= Tile.D9)


def test_T1_a_line_needing_a_fifth_copy_in_singles_and_pairs_is_refused_naming_its_groups() -> None:
    problem = only_problem("11a 11a 1a 2222b 3333c N")
    assert 'never be completed: it needs 5 1 ' in problem
    assert '(groups 1 "11a", 2 "11a", 3 "1a")' in problem and "fifth copy of a tile" in problem


def test_T1_two_pairs_of_the_same_wind_and_a_single_more_is_a_fifth_copy() -> None:
    problem = only_problem("ZZ 4444a ZZ 5555b Z F")
    assert "fifth copy" in problem and '"ZZ"' in problem and '"Z"' in problem


# ------------------------------------------------------------------------------------------------- any wind


def test_R5_Z_takes_no_suit_letter() -> None:
    problem = only_problem("ZZZa 1111a 2222a 333a")
    assert 'group 1 "ZZZa"' in problem and "write ZZZ" in problem


def test_R5_Z_does_not_mix_with_a_named_wind() -> None:
    problem = only_problem("ZN 1111a 2222a 3333a")
    assert "repeats one symbol" in problem


def test_R5_a_Z_line_without_a_note_is_warned_about() -> None:
    (warning,) = warnings_for("ZZZ 111a 2222a 3333a")
    assert warning.startswith(f"{SOURCE}:") and "hand h1: warning: the line has Z (any wind) but no note" in warning
    assert warnings_for("ZZZ 111a 2222a 3333a", note="any wind") == []


# ---------------------------------------------------------------------------------------------- years, shifts


def test_R6_a_shift_leaves_the_year_alone_so_the_issues_example_makes_no_5058() -> None:
    line = load_line("FFFF 2025a 222b 222c", shift=[0, 3], note="any like pungs")
    years = {tuple(t for t, _ in v.groups[1:5]) for v in line.variants}
    assert all([t % 9 + 1 for t in year if t <= Tile.D9] == [2, 2, 5] for year in years)
    assert {t % 9 + 1 for v in line.variants for t, size in v.groups if size == 3} == {2, 5}


def test_R6_a_year_printed_in_two_colours_keeps_both_halves_under_a_shift() -> None:
    line = load_line("FF 20a 26b 1111a 2222b", shift=[0, 5], note="any two consecutive kongs")
    halves = {tuple(t % 9 + 1 for t, size in v.groups[1:5] if t <= Tile.D9) for v in line.variants}
    assert halves == {(2, 2, 6)}  # the soap is no number tile; 2, 2 and 6 never move
    assert {t % 9 + 1 for v in line.variants for t, size in v.groups if size == 4} == {1, 2, 6, 7}


def test_R3_two_digit_numbers_without_a_soap_still_shift() -> None:
    line = load_line("FF 12a 34a 5555b 6666c", shift=[0, 1], note="any run")
    assert {t % 9 + 1 for v in line.variants for t, size in v.groups if size == 1} == {1, 2, 3, 4, 5}


def test_R6_a_shift_on_a_line_whose_only_numbers_are_the_year_is_refused() -> None:
    problem = only_problem("FFFF 2026a NNN SSS", "shift", shift="any")
    assert "only numbers of the line are a year's" in problem and "#years" in problem


def test_R6_a_year_written_as_separate_singles_next_to_a_shift_is_warned_about() -> None:
    warnings = warnings_for("FFFF 2a 0 2a 5a 222b 222c", shift=[0, 3], note="any like pungs")
    assert len(warnings) == 1
    assert 'group 3 "0": warning: the soap (0) stays a soap' in warnings[0] and "2026a" in warnings[0]


def test_R6_a_nineteen_hundreds_number_that_shifts_is_warned_about() -> None:
    (warning,) = warnings_for("1946a 1111b 6666c NN", shift=[0], note="these numbers")
    assert "1946 looks like a year" in warning


def test_R3_a_shifted_line_without_a_note_is_warned_about_on_its_shift() -> None:
    text = card_text({"id": "h1", "pattern": "FF 1111a Da 1111b Db 11c", "shift": "any"})
    (warning,) = check_card_text(text, SOURCE).warnings
    assert warning.startswith(f"{SOURCE}:{key_line(text, 'shift')}: hand h1: warning: the line has a shift but no "
                              'note: players would see "FF 1111 D 1111 D 11"')
    assert "any like numbers" in warning


# ---------------------------------------------------------------------------------------------- alternatives


def test_a_line_takes_more_than_twenty_alternatives() -> None:
    alternatives = [f"FF {str(n) * 4}a NNNN {str(n) * 4}b" for n in range(1, 10)] * 1
    alternatives += [f"FF {str(n) * 4}a SSSS {str(n) * 4}b" for n in range(1, 10)]
    alternatives += [f"FF {str(n) * 4}a EEEE {str(n) * 4}b" for n in range(1, 10)]
    line = load_line(alternatives)
    assert len(line.patterns) == 27 and len(line.variants) == 27 * 3


def test_a_problem_in_one_alternative_of_a_list_over_several_lines_is_named_on_its_own_line() -> None:
    good = '  "FF 1111a NNNN 1111b",\n'
    text = ('[card]\nid = "t"\nname = "T"\n\n[[hand]]\nid = "h1"\nsection = "S"\npattern = [\n'
            + good * 24 + '  "FF 1111a NNNN 111b",\n' + good + ']\nexposed = true\nvalue = 25\n')
    problems = validate_card_text(text, SOURCE)
    assert problems == [f"{SOURCE}:33: hand h1: alternative 25: the groups add up to 13 tiles (2 + 4 + 4 + 3), not "
                        "14 (see docs/card-format.md#counting-to-14)"]


# ------------------------------------------------------------------------------ TOML mistakes, all in one run


BROKEN = '''[card]
id = "league"
name = "League card"

[[hand]]
id = "2468-1"
section = "2468"
pattern = NN 2222a 4a 666b 8888b
exposed = True
value = 25

[[hand]]
id = "2468-2"
section = "2468"
pattern = "NN 2222a 4a 666b 8888b" or "SS 2222a 4a 666b 8888b"
exposed = true
value 25

[[hand]]
id = "2468-3"
section = "2468"
pattern = \u201cFFFF 2222a 88a 222b 888b\u201d
exposed = false
value = 30

[[hand]]
id = "2468-4"
section = "2468"
pattern = ["NN 2222a 4a 666b 8888b",
exposed = true
value = 25

[[hand]]
id = "2468-5"
section = "2468"
pattern = "FF 2222a 44a 666b 88b"
exposed = true
vaule = 25
'''


def test_every_toml_mistake_of_a_file_is_reported_in_one_run_each_on_its_line() -> None:
    problems = validate_card_text(BROKEN, SOURCE)
    tail = " (see docs/card-format.md#typing-toml)"
    assert problems[:7] == [
        f'{SOURCE}:8: not valid TOML (column 11): text goes in double quotes: pattern = "NN 2222a 4a 666b 8888b"'
        + tail,
        f"{SOURCE}:9: not valid TOML (column 11): write exposed = true or exposed = false, in small letters (true "
        "for an exposed X line, false for a concealed C line)" + tail,
        f"{SOURCE}:15: not valid TOML (column 36): write alternatives as a list in square brackets, separated by "
        'commas: pattern = ["...", "..."], not "..." or "..."' + tail,
        f'{SOURCE}:17: not valid TOML (column 7): every setting is a key, an equals sign and a value, such as '
        'value = 25; "value 25" has no =' + tail,
        f"{SOURCE}:22: not valid TOML (column 11): the quotes are curly (\u201c \u201d), as a word processor types "
        'them: use straight double quotes " " (type the card in a plain-text editor)' + tail,
        f"{SOURCE}:29: not valid TOML: the list is not closed: end it with ] (a list may go on over "
        "several lines, but it must end)" + tail,
        f"{SOURCE}:38: hand 2468-5: unknown key `vaule`; did you mean `value`? "
        "(see docs/card-format.md#the-hand-table)",
    ]
    # the checks after TOML still run where the file could be read, and nothing refused is called missing
    assert problems[7:] == [
        f"{SOURCE}:38: hand 2468-5: missing `value`: the value printed at the end of the line,"
        " such as value = 25 (see docs/card-format.md#from-a-printed-line-to-its-hand)",
        f"{SOURCE}:36: hand 2468-5: the groups add up to 13 tiles (2 + 4 + 2 + 3 + 2), not 14 "
        "(see docs/card-format.md#counting-to-14)"]


def test_a_hand_header_with_single_brackets_is_explained() -> None:
    text = card_text({"id": "h1", "pattern": "1111a 2222a 3333a 44a"}, {"id": "h2", "pattern": "1111a 2222a 3333a 55a"})
    text = text.replace("[[hand]]", "[hand]")
    problems = validate_card_text(text, SOURCE)
    assert len(problems) == 1
    assert problems[0].startswith(f"{SOURCE}:{text.splitlines().index('[hand]') + 1}: write each line of the card "
                                  "under [[hand]], with two brackets")


def test_hands_written_as_inline_tables_are_read_and_problems_fall_back_to_the_first_line() -> None:
    text = ('hand = [{id = "h1", section = "S", pattern = "1111a 2222a 3333a 4a", exposed = true, value = 25}]\n'
            '[card]\nid = "t"\nname = "T"\n')
    problems = validate_card_text(text, SOURCE)
    assert len(problems) == 1 and "13 tiles" in problems[0]
