"""``charleston render ...``: files written, alt text printed, bad input refused with one line and exit 2."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from PIL import Image
from support.paths import DOCS

from bot.cli import main

EXAMPLE = str(DOCS / "examples" / "mahjong-on-a-discard.json")


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def test_render_rack_writes_png_and_prints_alt(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "rack.png"
    code, stdout, stderr = run(["render", "rack", "--tiles", "J N N 2B 3C", "--exposed", "GD GD J", "--drawn", "5D",
                                "-o", str(out), "--repeat", "3"], capsys)
    assert code == 0
    assert stdout.strip() == ("Your rack, 5 tiles in order: Joker, North Wind, North Wind, 2 Bam, 3 Crak. Just drawn, "
                              "shown apart on the right: 5 Dot. Exposed: Pung of Green Dragon with 1 joker.")
    assert f"wrote {out}: 824x" in stderr
    assert Image.open(out).size[0] == 824


@pytest.mark.parametrize(("args", "message"), [
    (["--tiles", "J 2Q"], '"2Q" is not a tile'),
    (["--tiles", "3B 3B 3B 3B 3B"], "a set holds only 4 of them"),
    (["--tiles", "1B 2B 3B 4B 5B 6B 7B 8B 9B 1C 2C 3C 4C 5C", "--drawn", "6C"], "at most 14 tiles"),
    (["--tiles", "1B", "--exposed", "2B 2B"], "at least 3 tiles"),
    (["--tiles", "1B", "--drawn", "XX"], '"XX" is not a tile'),
    (["--tiles", "1B", "--repeat", "0"], "argument --repeat: give a whole number from 1"),
])
def test_render_rack_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str],
                               message: str) -> None:
    code, stdout, stderr = run(["render", "rack", *args, "-o", str(tmp_path / "x.png")], capsys)
    assert code == 2 and stdout == ""
    assert stderr.count("\n") == 1 and message in stderr
    assert not (tmp_path / "x.png").exists()


def test_render_to_a_place_behind_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "notes").write_text("mine")
    target = tmp_path / "notes" / "x.png"
    code, _, stderr = run(["render", "rack", "--tiles", "1B", "-o", str(target)], capsys)
    assert code == 2 and f"{tmp_path / 'notes'} is a file, not a folder" in stderr
    assert (tmp_path / "notes").read_text() == "mine"


def test_render_into_a_missing_folder_creates_it_and_says_so(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "images" / "today" / "x.png"
    code, _, stderr = run(["render", "rack", "--tiles", "1B", "-o", str(target)], capsys)
    assert code == 0 and Image.open(target).format == "PNG"
    assert f"charleston: created the folder {target.parent}" in stderr


def test_render_table_from_a_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "table.png"
    code, stdout, _ = run(["render", "table", "--replay", EXAMPLE, "--step", "5", "--names", "Ann, Bea", "-o",
                           str(out)], capsys)
    assert code == 0 and out.exists()
    assert "South to discard" in stdout and "South, Bea, to play" in stdout and "West:" in stdout
    code, stdout, _ = run(["render", "table", "--replay", EXAMPLE, "-o", str(out)], capsys)
    assert code == 0 and "Mah Jongg! East wins on a discard" in stdout and "Winning hand: 2026 #1, 30 chips" in stdout


@pytest.mark.parametrize(("args", "message"), [
    (["--replay", "/nonexistent.json"], "cannot read /nonexistent.json"),
    (["--replay", EXAMPLE, "--step", "99"], "the replay has only 9 actions"),
    (["--replay", EXAMPLE, "--step", "-1"], "argument --step: give a whole number from 0"),
    (["--replay", EXAMPLE, "--names", "a,b,c,d,e"], "at most 4 names"),
])
def test_render_table_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str],
                                message: str) -> None:
    code, _, stderr = run(["render", "table", *args, "-o", str(tmp_path / "x.png")], capsys)
    assert code == 2 and stderr.count("\n") == 1 and message in stderr


def test_render_table_broken_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "charleston-replay", "version": 1, "card": "practice", "actions": [{"type": "x"}]}')
    code, _, stderr = run(["render", "table", "--replay", str(bad), "-o", str(tmp_path / "x.png")], capsys)
    assert code == 2 and stderr.count("\n") == 1 and "action 0" in stderr


def test_render_card(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "card.png"
    code, stdout, _ = run(["render", "card", "--card", "practice", "--section", "quints", "-o", str(out)], capsys)
    assert code == 0 and "Quints #1: 22 44444 66 88888" in stdout
    code, stdout, _ = run(["render", "card", "--card", "practice", "--hand", "2468-1", "--winning",
                           "GD GD; 2B 2B 2B 2B; 8B 8B; 4C 4C J; 6C 6C 6C", "-o", str(out)], capsys)
    assert code == 0 and "Winning tiles: Green Dragon, Green Dragon;" in stdout


@pytest.mark.parametrize(("args", "message"), [
    (["--card", "nope"], "Unknown card 'nope'"),
    (["--card", "practice", "--section", "nope"], "no section 'nope'"),
    (["--card", "practice", "--hand", "nope"], "no line 'nope'"),
    (["--card", "practice", "--section", "Quints", "--hand", "quint-1"], "not both"),
    (["--card", "practice", "--winning", "1B 1B 1B"], "add --hand"),
])
def test_render_card_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str],
                               message: str) -> None:
    code, _, stderr = run(["render", "card", *args, "-o", str(tmp_path / "x.png")], capsys)
    assert code == 2 and stderr.count("\n") == 1 and message in stderr


def test_render_tiles_sheet(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, stdout, _ = run(["render", "tiles", "--width", "40", "-o", str(tmp_path / "t.png")], capsys)
    assert code == 0 and "Joker J" in stdout
    code, _, stderr = run(["render", "tiles", "--width", "4", "-o", str(tmp_path / "t.png")], capsys)
    assert code == 2 and "--width" in stderr


async def _league(path: Path) -> None:
    from bot.service.clock import ManualClock
    from bot.service.tables import TableService
    from bot.store.db import Database

    db = await Database.open(path)
    service = TableService(db, clock=ManualClock(), computer_delay=0)
    table_id = (await service.create_table(77, 1, seed=5)).table_id
    await service.join(table_id, 11, "Ruth", seat=0)
    await service.join(table_id, 12, "Sadie", seat=1)
    await service.add_computer(table_id, "normal", 2)
    await service.add_computer(table_id, "normal", 3)
    await service.start(table_id)
    await service.leave(table_id, 11)
    await service.leave(table_id, 12)
    await db.close()


def test_render_standings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "league.db"
    asyncio.run(_league(path))
    out = tmp_path / "week.png"
    code, stdout, _ = run(["render", "standings", "--db", str(path), "-o", str(out)], capsys)
    assert code == 0 and out.exists()
    assert stdout.startswith("Weekly standings, ") and "Ruth" in stdout and "Sadie" in stdout
    code, stdout, _ = run(["render", "standings", "--db", str(path), "--guild", "77", "--season", "-o", str(out)],
                          capsys)
    assert code == 0 and "cumulative net chips over 1 week for" in stdout
    code, stdout, _ = run(["render", "standings", "--db", str(path), "--week", "2001-W01", "-o", str(out)], capsys)
    assert code == 0 and stdout.strip() == "Weekly standings, week of 1 Jan 2001: no games this week."


@pytest.mark.parametrize(("args", "message"), [
    (["--db", "/nonexistent.db"], "no database at /nonexistent.db"),
    (["--db", "DB", "--week", "2026-W99"], "2026 has no week 99"),
    (["--db", "DB", "--week", "last week"], "is not a week"),
    (["--db", "DB", "--week", "2026-W10", "--season"], "not both"),
])
def test_render_standings_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str],
                                    message: str) -> None:
    db = tmp_path / "empty.db"
    db.write_bytes(b"")
    args = [str(db) if a == "DB" else a for a in args]
    code, _, stderr = run(["render", "standings", *args, "-o", str(tmp_path / "x.png")], capsys)
    assert code == 2 and stderr.count("\n") == 1 and message in stderr
