"""Numbers are typed in ASCII digits everywhere a user hands us one (issue 35): on the command line, in a week, a
night's time, a line's name, a tile's repeat count. "²" passes ``str.isdigit`` and then breaks ``int``; "١٢" and
"1_0" are read by ``int`` and ``float`` as numbers nobody typed. Each is one clear refusal, never a traceback."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.cli import refused, run

from bot.engine.actions import SwapBlank
from bot.engine.errors import TileError
from bot.engine.notation import parse_tiles
from bot.engine.wording import line_by_name
from bot.service.cards import load_card
from bot.service.errors import TableError
from bot.service.keys import parse_action_key
from bot.service.nightwhen import read_when
from bot.service.weeks import read_week

OTHER_DIGITS = ["²", "١٢", "１２", "⑫", "1_0", "𝟙"]


@pytest.mark.parametrize("typed", OTHER_DIGITS)
@pytest.mark.parametrize("argv", [
    ["simulate", "--games", "{}"], ["simulate", "--seed", "{}"], ["demo", "--seed", "{}"],
    ["demo", "--delay", "{}"], ["card", "analyze", "--card", "practice", "--top", "{}", "F F 2B"],
    ["render", "card", "--card", "practice", "--hand", "2468 #{}", "-o", "line.png"],
    ["standings", "--db", "none.db", "--week", "{} Nov 2026"],
])
def test_a_number_in_another_script_is_refused_by_the_command_line(
        typed: str, argv: list[str], capsys: pytest.CaptureFixture[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    line = refused(capsys, *(a.replace("{}", typed) for a in argv))
    assert "unexpected error" not in line
    assert not (tmp_path / "line.png").exists()


def test_the_same_numbers_in_ascii_digits_are_taken(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, "render", "card", "--card", "practice", "--hand", "2468 #1", "-o", "line.png")
    assert code == 0 and (tmp_path / "line.png").is_file(), err
    code, out, err = run(capsys, "simulate", "--games", " 1", "--seed", "12", "--players",
                         "random,random,random,random")
    assert code == 0 and out.startswith("1 game on practice"), err


@pytest.mark.parametrize("typed", ["²² Nov 2026", "١٢ Nov 2026", "2026-١١-23", "Nov ² 2026", "2026-W٤٨"])
def test_a_week_typed_in_other_digits_is_refused_saying_what_to_type(typed: str) -> None:
    with pytest.raises(ValueError, match="is not a week: type a day of the week"):
        read_week(typed, 0)


@pytest.mark.parametrize("typed", ["2 Dec ²", "Dec ² 2026 19:00", "١ Dec 2026 19:00", "2 Dec 2026 ١٩:00",
                                   "2 Dec 2026 7²pm"])
def test_a_nights_time_typed_in_other_digits_is_refused_saying_how_to_write_it(typed: str) -> None:
    with pytest.raises(TableError):
        read_when(typed, ZoneInfo("America/New_York"), datetime(2026, 11, 28, tzinfo=UTC))


@pytest.mark.parametrize("typed", ["2468 #²", "2468 ١", "2468 #１"])
def test_a_line_named_with_other_digits_is_not_a_line(typed: str) -> None:
    with pytest.raises(KeyError):
        line_by_name(load_card("practice"), typed)


@pytest.mark.parametrize("typed", ["7Cx²", "7Cx٣", "7Cx３"])
def test_a_tile_repeat_count_in_other_digits_is_a_tile_error(typed: str) -> None:
    with pytest.raises(TileError):
        parse_tiles(typed)


@given(st.text(alphabet=st.characters(categories=["Nd", "No", "Nl"]), min_size=1, max_size=4))
def test_a_blank_swap_numbered_in_another_script_is_a_bad_move_message(number: str) -> None:
    """The key a ``/play blank`` typed number becomes: a move in ASCII digits, else the one bad-move message."""
    try:
        action = parse_action_key(f"b.{number}", 0)
    except TableError as exc:
        assert "is not a move this table knows" in str(exc)
        assert not (number.isascii() and number.isdigit())
        return
    assert number.isascii() and isinstance(action, SwapBlank) and action.discard == int(number)
