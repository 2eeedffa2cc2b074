"""A card of one's own on the command line (issue 29 item 5): ``--card`` takes a file as well as an id, a folder
of one's own cards (``CHARLESTON_CARDS_DIR``) adds to the shipped ones, a card's id is its ``[card] id`` wherever
its file is, and a line is named as the card prints it ("2468 #3") in what the commands print and accept."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.cli import main
from bot.service.cards import DEFAULT_CARDS_DIR, load_card

PRACTICE_TEXT = (Path(DEFAULT_CARDS_DIR) / "practice.toml").read_text(encoding="utf-8")
WIN_2468_3 = "E E E E 4B 4B 4B 6B 6B 8B 8B 8B W W"  # EEEE 444a 66a 888a WW


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def practice_as(card_id: str, name: str = "My league card") -> str:
    return (PRACTICE_TEXT.replace('id = "practice"', f'id = "{card_id}"', 1)
            .replace('name = "Charleston practice card"', f'name = "{name}"', 1))


@pytest.fixture(autouse=True)
def fresh_cards() -> Iterator[None]:
    """Card lookups are cached per process: each test starts from the folders as it leaves them."""
    load_card.cache_clear()
    yield
    load_card.cache_clear()


@pytest.fixture
def own(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "my-cards"
    folder.mkdir()
    monkeypatch.setenv("CHARLESTON_CARDS_DIR", str(folder))
    return folder


def test_card_check_takes_a_card_file_by_its_path(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    mine = tmp_path / "tuesday.toml"
    mine.write_text(practice_as("tuesday"), encoding="utf-8")
    code, out, _ = run(capsys, "card", "check", "--card", str(mine), WIN_2468_3)
    assert code == 0 and out.startswith("Mah Jongg: 2468 #3 X 25")
    code, out, _ = run(capsys, "card", "show", "--card", str(mine))
    assert code == 0 and out.startswith("My league card [tuesday]")


def test_render_and_simulate_take_a_card_file_too(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    mine = tmp_path / "tuesday.toml"
    mine.write_text(practice_as("tuesday"), encoding="utf-8")
    code, out, _ = run(capsys, "render", "card", "--card", str(mine), "--hand", "2468 #1", "-o",
                       str(tmp_path / "line.png"))
    assert code == 0 and "2468 #1" in out and (tmp_path / "line.png").stat().st_size > 0
    code, out, err = run(capsys, "simulate", "--games", "1", "--card", str(mine), "--json")
    assert code == 0 and json.loads(out)["games"] == 1, err


@pytest.mark.parametrize(("text", "words"), [
    (None, "no such file"),
    ('[card]\nid = "x"\nname = "X"\n', "no [[hand]]"),
])
def test_a_card_file_that_cannot_be_used_is_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                     text: str | None, words: str) -> None:
    mine = tmp_path / "mine.toml"
    if text is not None:
        mine.write_text(text, encoding="utf-8")
    code, out, err = run(capsys, "card", "check", "--card", str(mine), WIN_2468_3)
    assert code == 2 and out == "" and len(err.splitlines()) == 1, err
    assert err.startswith(f"charleston: cannot use the card file {mine}: ") and words in err, err


def test_a_folder_of_ones_own_cards_adds_to_the_shipped_ones(capsys: pytest.CaptureFixture[str], own: Path) -> None:
    (own / "tuesday.toml").write_text(practice_as("tuesday"), encoding="utf-8")
    code, out, _ = run(capsys, "card", "list")
    ids = [row.split()[0] for row in out.splitlines()]
    assert code == 0 and ids == ["nmjl-1946", "practice", "tuesday"]
    assert f"[{own / 'tuesday.toml'}]" in out
    assert run(capsys, "card", "check", "--card", "tuesday", WIN_2468_3)[0] == 0
    assert run(capsys, "card", "show", "--card", "nmjl-1946")[0] == 0


def test_a_card_of_ones_own_with_a_shipped_cards_id_replaces_it(capsys: pytest.CaptureFixture[str],
                                                                own: Path) -> None:
    (own / "practice.toml").write_text(practice_as("practice", "Our practice"), encoding="utf-8")
    code, out, _ = run(capsys, "card", "list")
    assert code == 0 and "Our practice" in out and "replaces the shipped card" in out
    assert "Charleston practice card" not in out
    assert run(capsys, "card", "show", "--card", "practice")[1].startswith("Our practice [practice]")


def test_two_files_of_one_folder_with_the_same_id_use_the_one_named_after_it(capsys: pytest.CaptureFixture[str],
                                                                             own: Path) -> None:
    (own / "a-copy.toml").write_text(practice_as("tuesday", "The copy"), encoding="utf-8")
    (own / "tuesday.toml").write_text(practice_as("tuesday", "The card"), encoding="utf-8")
    code, out, err = run(capsys, "card", "list")
    assert code == 0 and "The card" in out and "The copy" not in out
    assert len(err.splitlines()) == 1 and "a-copy.toml" in err and "already the id of tuesday.toml" in err


def test_render_card_names_a_line_as_printed(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out_file = tmp_path / "line.png"
    for name in ("2468 #3", "2468#3", "2468 3", "2468-3"):  # the printed name, loosely typed, and the old id
        code, out, err = run(capsys, "render", "card", "--card", "practice", "--hand", name, "-o", str(out_file))
        assert code == 0 and "2468 #3" in out, (name, out, err)
    code, _, err = run(capsys, "render", "card", "--card", "practice", "--hand", "2468 #99", "-o", str(out_file))
    assert code == 2 and "no line '2468 #99'" in err and "e.g. '" in err
