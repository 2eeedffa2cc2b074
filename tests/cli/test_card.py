"""The ``charleston card`` command line (bot/cli/card.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import main
from bot.service.cards import DEFAULT_CARDS_DIR

WIN_2468_3 = "E E E E 4B 4B 4B 6B 6B 8B 8B 8B W W"  # EEEE 444a 66a 888a WW
NEAR_2468_3 = "E E E E 4B 4B 4B 6B 6B 8B 8B 8B W"
PRACTICE_FILE = Path(DEFAULT_CARDS_DIR) / "practice.toml"


def run(capsys, *argv: str) -> tuple[int, str, str]:  # type: ignore[no-untyped-def]
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(capsys, *argv: str) -> str:  # type: ignore[no-untyped-def]
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("charleston: ")
    return lines[0]


# ---------------------------------------------------------------------------------------------- list / show


def test_list_shows_both_shipped_cards(capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run(capsys, "card", "list")
    assert code == 0
    lines = out.splitlines()
    practice = next(line for line in lines if line.startswith("practice"))
    old = next(line for line in lines if line.startswith("nmjl-1946"))
    assert "51 lines" in practice and "Charleston practice card" in practice
    assert "44 lines" in old and "1946" in old


def test_list_marks_a_broken_card(capsys, tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "clitest-good.toml").write_text(
        PRACTICE_FILE.read_text(encoding="utf-8").replace('id = "practice"', 'id = "clitest-good"', 1))
    (tmp_path / "clitest-broken.toml").write_text('[card]\nid = "clitest-broken"\nname = "B"\n')
    monkeypatch.setenv("CHARLESTON_CARDS_DIR", str(tmp_path))
    code, out, err = run(capsys, "card", "list")
    assert code == 0
    assert any(line.startswith("clitest-good") and "51 lines" in line for line in out.splitlines())
    assert "clitest-broken" not in out
    assert err.count("\n") == 1 and "skipped" in err and "clitest-broken.toml" in err and "card validate" in err


def test_list_with_no_cards(capsys, tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("CHARLESTON_CARDS_DIR", str(tmp_path))
    code, out, _ = run(capsys, "card", "list")
    assert code == 0 and "No cards" in out


def test_show_lists_every_line_under_its_section(capsys, practice) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run(capsys, "card", "show", "--card", "practice")
    assert code == 0
    assert out.startswith("Charleston practice card [practice], 2026")
    for line in practice.lines:
        assert f"  {line.id} " in out, line.id
    for section in practice.sections:
        assert f"\n{section}\n" in out
    assert "2468-5" in out and "C 35" in out  # concealed line with its value


def test_show_1946_gives_both_values(capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run(capsys, "card", "show", "--card", "nmjl-1946")
    assert code == 0
    septet = next(line for line in out.splitlines() if "septet-1" in line)
    assert "NNNNNNN SSSSSSS" in septet and "X 100-200" in septet


def test_show_unknown_card(capsys) -> None:  # type: ignore[no-untyped-def]
    line = one_line_error(capsys, "card", "show", "--card", "nope")
    assert "nope" in line and "practice" in line


# ---------------------------------------------------------------------------------------------- validate


def test_validate_good_file(capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run(capsys, "card", "validate", str(PRACTICE_FILE))
    assert code == 0 and err == ""
    assert out.startswith("ok: practice, 51 lines")


def test_validate_broken_file_lists_problems_on_stderr(capsys, tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "broken.toml"
    hand = '[[hand]]\nid = "{}"\nsection = "S"\npattern = "{}"\nexposed = true\nvalue = 25\n'
    path.write_text('[card]\nid = "b"\nname = "B"\n\n' + hand.format("h1", "1111a 2222a 3333a 4a") + "\n"
                    + hand.format("h2", "NNEE 1111a 2222a 33a"))
    code, out, err = run(capsys, "card", "validate", str(path))
    assert code == 1
    assert out == ""
    lines = err.splitlines()
    assert lines[0].startswith(f"{path}:8: hand h1") and "13" in lines[0]  # the line of its pattern
    assert lines[1].startswith(f'{path}:15: hand h2, group 1 "NNEE"')
    assert lines[2] == ("2 problems found. How to write each kind of line: the tutorial at the top of "
                        "docs/card-format.md.")


def test_validate_reports_an_unknown_suit_letter(capsys, tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "letter.toml"
    path.write_text('[card]\nid = "l"\nname = "L"\n\n'
                    '[[hand]]\nid = "h1"\nsection = "S"\npattern = "2222d 1111a 3333a 44a"\nexposed = true\n'
                    "value = 25\n")
    code, _, err = run(capsys, "card", "validate", str(path))
    assert code == 1
    assert '"2222d"' in err


def test_validate_prints_warnings_with_its_report_and_still_exits_0(capsys, tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "warned.toml"
    path.write_text('[card]\nid = "w"\nname = "W"\n\n[[hand]]\nid = "h1"\nsection = "S"\n'
                    'pattern = "FF 1111a Da 1111b Db 11c"\nshift = "any"\nexposed = true\nvalue = 25\n')
    code, out, err = run(capsys, "card", "validate", str(path))
    assert code == 0 and err == ""
    warning, ok = out.splitlines()
    assert warning.startswith(f"{path}:9: hand h1: warning: the line has a shift but no note")
    assert ok == "ok: w, 1 line, 27 concrete variants; 1 warning"


def test_validate_exits_1_for_toml_mistakes_and_lists_them_all(capsys, tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "typed.toml"
    path.write_text('[card]\nid = "t"\nname = "T"\n\n[[hand]]\nid = "h1"\nsection = "S"\n'
                    "pattern = FF 1111a Da 1111b Db 11c\nexposed = True\nvalue = 25\n")
    code, out, err = run(capsys, "card", "validate", str(path))
    assert code == 1 and out == ""
    lines = err.splitlines()
    assert [line.split(": not valid TOML")[0] for line in lines[:2]] == [f"{path}:8", f"{path}:9"]
    assert lines[2].startswith("2 problems found.")


def test_validate_missing_file(capsys, tmp_path) -> None:  # type: ignore[no-untyped-def]
    line = one_line_error(capsys, "card", "validate", str(tmp_path / "none.toml"))
    assert "none.toml" in line


# ---------------------------------------------------------------------------------------------- check


def test_check_json_schema(capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run(capsys, "card", "check", "--card", "practice", "--json", WIN_2468_3)
    assert code == 0 and err == ""
    data = json.loads(out)
    assert set(data) == {"mahjong", "matches"}
    assert data["mahjong"] is True
    assert data["matches"] == [{"hand": "2468-3", "section": "2468", "value": 25, "exposed": True,
                                "jokerless": True}]


def test_check_json_not_mah_jongg(capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run(capsys, "card", "check", "--card", "practice", "--json",
                       "E E E E 4B 4B 4B 6B 6B 8B 8B 8B W J")  # J2: no joker in the West pair
    assert code == 0
    assert json.loads(out) == {"mahjong": False, "matches": []}


def test_check_json_with_exposures_and_jokers(capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run(capsys, "card", "check", "--card", "practice", "--json", "--exposed", "4B 4B J; E E E E",
                       "6B 6B 8B 8B 8B W W")
    assert code == 0
    data = json.loads(out)
    assert data["mahjong"] is True
    match = next(m for m in data["matches"] if m["hand"] == "2468-3")
    assert match["jokerless"] is False and match["exposed"] is True
    for m in data["matches"]:
        assert set(m) == {"hand", "section", "value", "exposed", "jokerless"}
        assert isinstance(m["value"], int) and isinstance(m["exposed"], bool)


def test_check_1946_values_and_multiple_matches(capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run(capsys, "card", "check", "--card", "nmjl-1946", "--json", "N N N N F F F S S S S F F F")
    assert code == 0
    data = json.loads(out)
    assert {(m["hand"], m["value"]) for m in data["matches"]} == {("septet-1", 100), ("winds-1", 50)}


def test_check_text_output(capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run(capsys, "card", "check", "--card", "practice", WIN_2468_3)
    assert code == 0
    assert out.splitlines()[0] == "Mah Jongg: 2468-3 (2468) X 25 jokerless"
    assert "E E E E" in out
    code, out, _ = run(capsys, "card", "check", "--card", "practice", NEAR_2468_3 + " N")
    assert code == 0 and out.startswith("Not a Mah Jongg")


def test_check_tiles_as_one_string_or_several_args(capsys) -> None:  # type: ignore[no-untyped-def]
    _, one, _ = run(capsys, "card", "check", "--card", "practice", "--json", WIN_2468_3)
    _, several, _ = run(capsys, "card", "check", "--card", "practice", "--json", *WIN_2468_3.split())
    _, mixed, _ = run(capsys, "card", "check", "--card", "practice", "--json", "Ex4", "4bx3,6b,6b", "8Bx3", "w", "W")
    assert one == several == mixed
    assert json.loads(one)["mahjong"] is True


def test_check_bad_tile(capsys) -> None:  # type: ignore[no-untyped-def]
    line = one_line_error(capsys, "card", "check", "--card", "practice", "1B 2X 3B")
    assert '"2X"' in line


def test_check_wrong_count(capsys) -> None:  # type: ignore[no-untyped-def]
    line = one_line_error(capsys, "card", "check", "--card", "practice", NEAR_2468_3)
    assert "14" in line and "13" in line


def test_check_impossible_count(capsys) -> None:  # type: ignore[no-untyped-def]
    line = one_line_error(capsys, "card", "check", "--card", "practice", "3B 3B 3B 3B 3B 4B 4B 4B 6B 6B 8B 8B 8B W")
    assert "3B" in line


def test_check_unknown_card(capsys) -> None:  # type: ignore[no-untyped-def]
    line = one_line_error(capsys, "card", "check", "--card", "nope", WIN_2468_3)
    assert "'nope'" in line


def test_check_bad_exposure(capsys) -> None:  # type: ignore[no-untyped-def]
    line = one_line_error(capsys, "card", "check", "--card", "practice", "--exposed", "W W E",
                          "E E E E 4B 4B 4B 6B 6B 8B 8B")
    assert "W W E" in line


def test_check_broken_card(capsys, tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "clitest-broken2.toml").write_text('[card]\nid = "clitest-broken2"\nname = "B"\n')
    monkeypatch.setenv("CHARLESTON_CARDS_DIR", str(tmp_path))
    line = one_line_error(capsys, "card", "check", "--card", "clitest-broken2", WIN_2468_3)
    assert "broken" in line and "validate" in line


def test_check_card_whose_id_differs_from_its_file_name(capsys, tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "clitest-named.toml").write_text(
        PRACTICE_FILE.read_text(encoding="utf-8").replace('id = "practice"', 'id = "other"', 1))
    monkeypatch.setenv("CHARLESTON_CARDS_DIR", str(tmp_path))
    line = one_line_error(capsys, "card", "check", "--card", "clitest-named", WIN_2468_3)
    assert "clitest-named.toml" in line and "'other'" in line


# ---------------------------------------------------------------------------------------------- analyze


def test_analyze_json_schema_best_first(capsys, practice) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run(capsys, "card", "analyze", "--card", "practice", "--json", NEAR_2468_3)
    assert code == 0 and err == ""
    data = json.loads(out)
    assert set(data) == {"hands"}
    hands = data["hands"]
    assert len(hands) == len(practice.lines)
    for h in hands:
        assert set(h) == {"hand", "section", "value", "missing", "need", "possible"}
        assert isinstance(h["need"], list) and len(h["need"]) == h["missing"]
        assert isinstance(h["possible"], bool)
    assert hands[0] == {"hand": "2468-3", "section": "2468", "value": 25, "missing": 1, "need": ["W"],
                        "possible": True}
    keys = [(not h["possible"], h["missing"], -h["value"]) for h in hands]
    assert keys == sorted(keys)


def test_analyze_top(capsys) -> None:  # type: ignore[no-untyped-def]
    _, full, _ = run(capsys, "card", "analyze", "--card", "practice", "--json", NEAR_2468_3)
    code, out, _ = run(capsys, "card", "analyze", "--card", "practice", "--json", "--top", "3", NEAR_2468_3)
    assert code == 0
    assert json.loads(out)["hands"] == json.loads(full)["hands"][:3]


def test_analyze_repeat_prints_once(capsys) -> None:  # type: ignore[no-untyped-def]
    _, once, _ = run(capsys, "card", "analyze", "--card", "practice", "--json", NEAR_2468_3)
    code, out, _ = run(capsys, "card", "analyze", "--card", "practice", "--json", "--repeat", "5", NEAR_2468_3)
    assert code == 0 and out == once
    assert len(out.splitlines()) == 1


@pytest.mark.parametrize("option", [("--repeat", "0"), ("--top", "-1")])
def test_analyze_bad_repeat_or_top(capsys, option: tuple[str, str]) -> None:  # type: ignore[no-untyped-def]
    one_line_error(capsys, "card", "analyze", "--card", "practice", *option, NEAR_2468_3)


def test_analyze_visible_and_exposed(capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run(capsys, "card", "analyze", "--card", "practice", "--json", "--visible", "W W W W",
                       NEAR_2468_3[:-2] + " N")
    assert code == 0
    row = next(h for h in json.loads(out)["hands"] if h["hand"] == "2468-3")
    assert row["possible"] is False
    code, out, _ = run(capsys, "card", "analyze", "--card", "practice", "--json", "--exposed", "4B 4B 4B",
                       "E E E E 6B 6B 8B 8B 8B W")
    assert code == 0
    first = json.loads(out)["hands"][0]
    assert first["hand"] == "2468-3" and first["missing"] == 1


def test_analyze_text_output(capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run(capsys, "card", "analyze", "--card", "practice", "--top", "1", NEAR_2468_3)
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split() == ["hand", "section", "value", "missing", "need"]
    assert lines[1].split() == ["2468-3", "2468", "25", "1", "W"]


@pytest.mark.parametrize(("args", "fragment"), [
    (("1B 2X",), '"2X"'),
    (("1B 1B",), "13 or 14"),
    (("--visible", "Q", NEAR_2468_3), '"Q"'),
    (("--visible", "W W W W", NEAR_2468_3), "W"),
    (("--exposed", "5D 5D", "1Bx4 2Bx4 3Bx3"), "5D 5D"),
])
def test_analyze_bad_input_is_one_line(capsys, args: tuple[str, ...], fragment: str) -> None:  # type: ignore[no-untyped-def]
    line = one_line_error(capsys, "card", "analyze", "--card", "practice", *args)
    assert fragment in line


def test_analyze_unknown_card(capsys) -> None:  # type: ignore[no-untyped-def]
    line = one_line_error(capsys, "card", "analyze", "--card", "nope", NEAR_2468_3)
    assert "'nope'" in line


# ---------------------------------------------------------------------------------------------- entry point


@pytest.mark.slow
def test_console_entry_point_runs() -> None:
    env = {k: v for k, v in os.environ.items() if k != "CHARLESTON_CARDS_DIR"}
    done = subprocess.run([sys.executable, "-m", "bot", "card", "check", "--card", "practice", "--json",
                           WIN_2468_3], capture_output=True, text=True, timeout=60, env=env, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["matches"][0]["hand"] == "2468-3"
    bad = subprocess.run([sys.executable, "-m", "bot", "card", "check", "--card", "practice", "2X"],
                         capture_output=True, text=True, timeout=60, env=env, check=False)
    assert bad.returncode == 2
    assert len(bad.stderr.splitlines()) == 1 and '"2X"' in bad.stderr


def test_installed_charleston_script_runs() -> None:
    script = Path(sys.executable).parent / "charleston"
    if not script.exists():
        pytest.skip("the charleston console script is not installed next to this Python")
    env = {k: v for k, v in os.environ.items() if k != "CHARLESTON_CARDS_DIR"}
    done = subprocess.run([str(script), "card", "list"], capture_output=True, text=True, timeout=60, env=env,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert "practice" in done.stdout and "nmjl-1946" in done.stdout
