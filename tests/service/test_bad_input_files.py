"""Bad files (issue 18): card files and replays that are broken, of the wrong type or pathologically large give one
clear line naming the file, exit status 2, and never stop the other cards from working."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.cli import refused, run
from support.paths import DOCS

from bot.engine.cardfile import MAX_EXPANSIONS, MAX_HANDS, validate_card_text
from bot.engine.errors import CardError
from bot.engine.pattern import parse_pattern
from bot.service.cards import DEFAULT_CARDS_DIR, load_card, load_card_file

PRACTICE_TEXT = (Path(DEFAULT_CARDS_DIR) / "practice.toml").read_text(encoding="utf-8")
EXAMPLE = DOCS / "examples" / "mahjong-on-a-discard.json"



@pytest.fixture
def cards(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A cards folder holding a copy of the practice card; card lookups are not cached across tests."""
    folder = tmp_path / "cards"
    folder.mkdir()
    (folder / "practice.toml").write_text(PRACTICE_TEXT, encoding="utf-8")
    monkeypatch.setenv("CHARLESTON_CARDS_DIR", str(folder))
    load_card.cache_clear()
    yield folder
    load_card.cache_clear()


def practice_as(card_id: str) -> str:
    return PRACTICE_TEXT.replace('id = "practice"', f'id = "{card_id}"', 1)


# ------------------------------------------------------------------------------------------------ card files


def test_a_card_that_is_not_utf8_is_skipped_and_every_other_card_keeps_working(
        cards: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (cards / "latin1.toml").write_bytes(practice_as("latin1").replace("practice card", "carte d'entra\u00eene")
                                        .encode("latin-1"))
    code, out, err = run(capsys, "card", "list")
    assert code == 0 and out.startswith("practice ")
    assert err.count("\n") == 1 and "latin1.toml" in err and "not UTF-8" in err
    code, out, _ = run(capsys, "card", "show", "--card", "practice")
    assert code == 0 and "2026-1" in out
    line = refused(capsys, "card", "show", "--card", "latin1")
    assert "latin1.toml:1: not UTF-8 text (byte 0xee at column 27)" in line
    assert run(capsys, "simulate", "--games", "1", "--json")[0] == 0
    assert run(capsys, "demo", "--seed", "3")[0] == 0


def test_validate_names_the_line_of_a_byte_that_is_not_utf8(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.toml"
    path.write_bytes(b'[card]\nid = "bad"\nname = "\xff"\n')
    assert f"{path}:3: not UTF-8 text (byte 0xff at column 9); save the card file as UTF-8" in refused(
        capsys, "card", "validate", str(path))


def test_a_card_with_a_byte_order_mark_is_read(cards: Path) -> None:
    (cards / "bom.toml").write_bytes(b"\xef\xbb\xbf" + practice_as("bom").encode())
    assert len(load_card("bom").lines) == 51


def test_a_folder_or_a_missing_file_in_the_cards_folder_is_skipped(cards: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    (cards / "folder.toml").mkdir()
    (cards / "dangling.toml").symlink_to(cards / "nowhere.toml")
    code, out, err = run(capsys, "card", "list")
    assert code == 0 and out.startswith("practice ")
    assert "folder.toml is a folder" in err and "dangling.toml: no such file" in err


def test_deeply_nested_toml_is_a_card_problem(cards: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = '[card]\nid = "deep"\nname = "Deep"\nx = ' + "[" * 5000 + "]" * 5000 + "\n"
    assert validate_card_text(text, "deep.toml") == ["deep.toml: not valid for a card: arrays or tables are nested "
                                                     "too deeply"]
    (cards / "deep.toml").write_text(text)
    assert "nested too deeply" in refused(capsys, "card", "check", "--card", "deep", "1B")
    assert run(capsys, "card", "list")[0] == 0


def test_a_pattern_of_thousands_of_groups_is_refused_with_the_limit() -> None:
    _, problems = parse_pattern("111a " * 16_000)
    assert len(problems) == 1 and "at most 200" in problems[0].message


def _card(hands: list[dict[str, Any]]) -> str:
    lines = ['[card]\nid = "big"\nname = "Big"\n']
    for hand in hands:
        lines.append("[[hand]]\n" + "".join(f"{key} = {json.dumps(value)}\n" for key, value in hand.items()))
    return "\n".join(lines)


def _hand(n: int, **keys: Any) -> dict[str, Any]:
    return {"id": f"h{n}", "section": "S", "pattern": "1111a 2222a 3333a 44a", "exposed": False, "value": 25,
            **keys}


def test_a_card_with_too_many_hands_is_refused_with_the_limit() -> None:
    problems = validate_card_text(_card([_hand(n) for n in range(MAX_HANDS + 1)]), "big.toml")
    assert problems == [f"big.toml:1: the card has {MAX_HANDS + 1} [[hand]] tables; a card may have at most "
                        f"{MAX_HANDS} (a printed card has 50 to 75) (see docs/card-format.md#limits)"]


def test_a_card_that_expands_too_far_is_refused_once_with_the_limit() -> None:
    # Three free suit letters and every shift: 27 bindings x 6 shifts per alternative, 20 alternatives a line.
    wide = ["1111x 2222y 3333z 44x"] * 20
    problems = validate_card_text(_card([_hand(n, pattern=wide, shift="any") for n in range(30)]), "big.toml")
    assert len(problems) == 1 and f"more than {MAX_EXPANSIONS:,} combinations" in problems[0]


def test_problems_are_capped_at_a_hundred() -> None:
    problems = validate_card_text(_card([_hand(n, value=-1) for n in range(300)]), "big.toml")
    assert len(problems) == 101 and problems[-1] == "big.toml: more problems not shown; fix these first"


@pytest.mark.parametrize(("keys", "fragment"), [
    ({"value": 10**30}, "`value` must be a whole number from 1 to 10,000"),
    ({"id": "x" * 41}, "`id` is 41 characters long; at most 40"),
])
def test_limits_on_a_hand(keys: dict[str, Any], fragment: str) -> None:
    problems = validate_card_text(_card([_hand(1, **keys)]), "big.toml")
    assert len(problems) == 1 and fragment in problems[0]


def test_a_card_file_that_is_too_big_is_not_read(cards: Path) -> None:
    (cards / "huge.toml").write_text(practice_as("huge") + "#" * 1_000_001)
    with pytest.raises(CardError, match="larger than 1,000,000 bytes"):
        load_card_file(cards / "huge.toml")


# ------------------------------------------------------------------------------------------------ replays


def _example() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    return data


def _write(tmp_path: Path, data: Any) -> str:
    path = tmp_path / "replay.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize(("change", "fragment"), [
    (lambda d: d["actions"][0].update(tile=5), "action 0: discard: 5 is not a tile: write tiles as text"),
    (lambda d: d["actions"][0].update(type={"a": 1}), 'action 0: An action must be an object with a "type"'),
    (lambda d: d["actions"].insert(0, {"type": "charleston_pass", "seat": 0}), "needs a 'tiles' field"),
    (lambda d: d.update(rules=None), '"rules" must be an object of table options'),
    (lambda d: d.update(rules=[]), '"rules" must be an object of table options'),
    (lambda d: d.update(rules="nmjl"), '"rules" must be an object of table options'),
    (lambda d: d.update(east="0"), '"east" must be East\'s seat'),
    (lambda d: d.update(east=1.0), '"east" must be East\'s seat'),
    (lambda d: d.update(game_no="x"), '"game_no" must be a whole number'),
    (lambda d: d.update(seed=True), '"seed" must be a whole number'),
    (lambda d: d["deal"].update(wall=5), '"deal" must be {"hands"'),
    (lambda d: d["deal"].update(hands=[5, 5, 5, 5]), '"deal" must be {"hands"'),
    (lambda d: d["rules"].update(preset={}), "Unknown rules preset {}"),
    (lambda d: d.update(version=2), "written by a newer Charleston; this one reads version 1. Update Charleston"),
    (lambda d: d.update(version="1"), '"version" must be the whole number 1'),
])
def test_a_replay_with_a_wrong_type_gives_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                  change: Any, fragment: str) -> None:
    data = _example()
    change(data)
    path = _write(tmp_path, data)
    assert fragment in refused(capsys, "replay", path)
    assert fragment in refused(capsys, "render", "table", "--replay", path, "-o", str(tmp_path / "t.png"))
    assert not (tmp_path / "t.png").exists()


@pytest.mark.parametrize(("content", "fragment"), [
    (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
    (b'{"seed": ' + b"9" * 5000 + b"}", "not a usable replay"),
    (b'{"format": "charleston-replay",\n "card": "\xe9"}', ":2: not UTF-8 text"),
    (b'{"format":\n\n  nope}', ":3: not valid JSON"),
    (b"[1, 2]", "a replay is a JSON object"),
])
def test_a_replay_file_that_is_not_a_replay_gives_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                          content: bytes, fragment: str) -> None:
    path = tmp_path / "replay.json"
    path.write_bytes(content)
    assert fragment in refused(capsys, "replay", str(path))


def test_a_replay_path_that_is_a_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert f"{tmp_path} is a folder, not a replay" in refused(capsys, "replay", str(tmp_path))
