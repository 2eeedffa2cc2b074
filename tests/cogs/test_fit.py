"""Fitting a message into Discord's 2,000 characters (cogs/show/fit.py): cut between whole lines only, a code
block the cut leaves open closed, and a last line saying how many lines were left out."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from cogs.show.fit import FENCE, MESSAGE_LIMIT, fit_lines

TAIL = "… and {more}: `/standings` shows them all."


def _check(text: str, fitted: str, limit: int = MESSAGE_LIMIT) -> None:
    """What every fitted message must be: within the limit, fences balanced, the original's first whole lines,
    and, when lines with something in them were left out, the tail counting them."""
    assert len(fitted) <= limit
    if len(text) <= limit:
        assert fitted == text  # a message that fits is left as its author wrote it
        return
    assert fitted.count(FENCE) % 2 == 0
    lines, out = text.split("\n"), fitted.split("\n") if fitted else []
    kept = 0
    while kept < len(out) and kept < len(lines) and out[kept] == lines[kept]:
        kept += 1
    rest = out[kept:]
    if sum(line.count(FENCE) for line in lines[:kept]) % 2:
        assert rest[:1] == [FENCE]
        rest = rest[1:]
    missing = sum(1 for line in lines[kept:] if line.strip() != FENCE)
    if missing:
        word = "line" if missing == 1 else "lines"
        assert rest == [TAIL.format(more=f"{missing:,} more {word}")]
    else:
        assert rest == []


def test_a_short_message_is_left_as_it_is() -> None:
    text = "**Club** · standings\n```\n 1  Ruth  +12\n```"
    assert fit_lines(text, TAIL) == text


def test_a_long_table_is_cut_between_rows_its_code_block_closed_and_the_rest_counted() -> None:
    rows = [f"{n:>3}  Player number {n:<6} {n * 3:+6d}" for n in range(1, 120)]
    text = "\n".join(["**Club** · standings", FENCE, *rows, FENCE, "Corrections: none"])
    fitted = fit_lines(text, TAIL)
    assert len(fitted) <= MESSAGE_LIMIT and fitted.count(FENCE) == 2
    body = fitted.split("\n")
    assert body[-2] == FENCE and body[-1].startswith("… and ") and body[-1].endswith("more lines: `/standings` shows "
                                                                                       "them all.")
    shown = [line for line in body if line in rows]
    assert shown == rows[:len(shown)] and len(shown) > 40
    assert body[-1] == TAIL.format(more=f"{len(rows) - len(shown) + 1} more lines")  # the rows and the corrections
    _check(text, fitted)


def test_one_line_left_out_is_counted_in_the_singular() -> None:
    text = "a" * 1900 + "\n" + "b" * 200
    fitted = fit_lines(text, TAIL)
    assert fitted == "a" * 1900 + "\n" + "… and 1 more line: `/standings` shows them all."
    _check(text, fitted)


LINES = st.lists(st.one_of(st.text(max_size=300), st.sampled_from([FENCE, "```py", " ```", "x```y"]),
                           st.text(alphabet="`a \n", max_size=40)),
                 max_size=120)


@settings(max_examples=300, deadline=None)
@given(LINES, st.integers(min_value=80, max_value=MESSAGE_LIMIT))
def test_any_lines_fit_whole_with_balanced_fences_and_the_tail(lines: list[str], limit: int) -> None:
    text = "\n".join(lines)
    _check(text, fit_lines(text, TAIL, limit), limit)
