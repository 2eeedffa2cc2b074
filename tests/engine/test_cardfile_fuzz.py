"""Fuzzing the card reader with the card language of issue 29 (docs/card-format.md), with Hypothesis: cards typed
with separate same-tile groups, Z, years, shifts and long lists of alternatives, then broken the ways people
break TOML (no quotes, curly quotes, True, "or", a list left open, one bracket, a missing =, a misspelt key).

Whatever the file, the reader answers with a card or with problems, each one line naming the file and its line,
never with an exception; a card it accepts has only lines of 14 tiles it can make."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine.cardfile import check_card_text
from bot.engine.tiles import STANDARD

pytestmark = pytest.mark.slow

FUZZ = settings(max_examples=int(os.environ.get("CHARLESTON_FUZZ_EXAMPLES", "150")), deadline=None,
                derandomize=not os.environ.get("CHARLESTON_FUZZ_RANDOM"), database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

TOKENS = ["1111a", "11a", "11a", "1a", "222b", "2222b", "33c", "2026a", "20a", "26b", "0", "000", "ZZZ", "ZZ", "Z",
          "ZZZZZ", "ZN", "ZZZa", "FFF", "FFF", "FFFFFF", "FF", "N E W S", "NEWS", "DDDa", "DDx", "DDDDb", "1946a",
          "99999b", "135a", "Q", "7q", "+", "=", "NNN", "SS", "RRRR", "GG", "11111x", "44y"]
VALID = ["11a 2222b 11a 3333c FF", "FFF 6666a FFF 7777a", "ZZZ 111a 2222a 3333a", "ZZ 4444a ZZ 5555b FF",
         "FFFF 2026a 222b 222c", "FF 1111a Da 1111b Db 11c", "NN 33a 55a 77a 99a 11b 11b", "FFF ZZZZ DDDx 1111a",
         "FFFF 2a 0 2a 5a 222b 222c", "ZZZZZ 11111a 2222b", "11a 222a 3333a DDa FFF"]
SHIFTS = [None, '"any"', "[0, 3]", "[0, 7]", "[-1]", '"x"', "[]", "[0, 2, 4]", "true"]
KEYS = ["id", "section", "pattern", "exposed", "value", "note", "shift", "singles_and_pairs", "vaule", "colour"]


@st.composite
def patterns(draw: st.DrawFn) -> str:
    if draw(st.booleans()):
        return draw(st.sampled_from(VALID))
    return " ".join(draw(st.lists(st.sampled_from(TOKENS), min_size=1, max_size=9)))


@st.composite
def hands(draw: st.DrawFn, number: int) -> list[str]:
    alternatives = draw(st.lists(patterns(), min_size=1, max_size=draw(st.sampled_from([1, 3, 60]))))
    if len(alternatives) == 1 and draw(st.booleans()):
        pattern = f'"{alternatives[0]}"'
    else:
        split = "\n  " if draw(st.booleans()) else " "
        pattern = "[" + f",{split}".join(f'"{p}"' for p in alternatives) + "]"
    lines = ["[[hand]]", f'id = "h{number}"', 'section = "S"', f"pattern = {pattern}", "exposed = true",
             "value = 25"]
    shift = draw(st.sampled_from([None, None, '"any"', *SHIFTS]))
    if shift is not None:
        lines.append(f"shift = {shift}")
    if draw(st.booleans()):
        lines.append('note = "any like numbers"')
    return lines


def breakage(line: str, how: str) -> str:
    """One of the mistakes people make typing TOML, applied to a line."""
    key, _, value = line.partition(" = ")
    if how == "unquote":
        return line.replace('"', "")
    if how == "curly":
        return line.replace('"', "\u201c", 1).replace('"', "\u201d", 1)
    if how == "capital":
        return line.replace("true", "True")
    if how == "or":
        return f'{key} = "{value.strip(chr(34))}" or "NN"' if value else line
    if how == "open":
        return line.replace("]", "")
    if how == "bracket":
        return line.replace("[[hand]]", "[hand]")
    if how == "equals":
        return line.replace(" = ", " ", 1)
    if how == "misspell" and key in KEYS:
        return line.replace(key, key[::-1], 1)
    return line


@st.composite
def card_texts(draw: st.DrawFn) -> str:
    lines = ["[card]", 'id = "fuzz"', 'name = "Fuzz card"']
    for number in range(draw(st.integers(1, 5))):
        lines += ["", *draw(hands(number))]
    for _ in range(draw(st.sampled_from([0, 0, 1, 4]))):
        n = draw(st.integers(0, len(lines) - 1))
        how = draw(st.sampled_from(["unquote", "curly", "capital", "or", "open", "bracket", "equals", "misspell"]))
        lines[n] = breakage(lines[n], how)
    return "\n".join(lines) + "\n"


@FUZZ
@given(text=card_texts())
def test_fuzz_the_card_language_gives_a_card_or_one_line_problems(text: str) -> None:
    report = check_card_text(text, "fuzz.toml")
    for message in [*report.problems, *report.warnings]:
        assert "\n" not in message and message.startswith("fuzz.toml:"), message
        assert "Traceback" not in message
    assert (report.card is None) == bool(report.problems)
    if report.card is not None:
        for line in report.card.lines:
            assert line.variants
            for variant in line.variants:
                assert sum(size for _, size in variant.groups) == 14
                small_fits = all(s <= n for s, n in zip(variant.small, STANDARD.counts, strict=True))
                assert small_fits  # never a fifth natural where no joker may stand
