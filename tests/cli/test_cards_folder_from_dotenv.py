"""CHARLESTON_CARDS_DIR follows the one rule of every setting (issue 35): the environment, then ``.env`` in the
folder a command runs from, else the shipped ``data/cards``; every command that takes ``--card`` finds a card of
one's own in the folder ``.env`` names."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.cli import refused, run
from support.paths import ROOT

from bot.service.cards import load_card

CHARLESTON = Path(sys.executable).parent / "charleston"
WIN_2468_1 = "2C 0 2C 6C N N N N 6B 6B S S S S"  # the practice card's 2026 #1, which our own card keeps


def own_card(folder: Path, card_id: str = "our-league") -> Path:
    """A card of one's own in ``folder``: the practice card's lines under another id and name."""
    text = (ROOT / "data" / "cards" / "practice.toml").read_text(encoding="utf-8")
    text = re.sub(r'(?m)^id = "practice"$', f'id = "{card_id}"', text, count=1)
    text = re.sub(r'(?m)^name = ".*"$', 'name = "Our league card"', text, count=1)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{card_id}.toml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture(autouse=True)
def fresh_cards() -> Iterator[None]:
    """Card lookups are cached per process: each test starts from the folders as it leaves them."""
    load_card.cache_clear()
    yield
    load_card.cache_clear()


@pytest.fixture
def fresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty folder to work in, with no CHARLESTON_CARDS_DIR in the environment."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CHARLESTON_CARDS_DIR", raising=False)
    return tmp_path


@pytest.mark.skipif(not CHARLESTON.exists(), reason="the charleston console script is not installed")
def test_card_list_in_a_fresh_folder_lists_the_card_of_the_folder_dot_env_names(tmp_path: Path) -> None:
    own_card(tmp_path / "my-cards")
    (tmp_path / ".env").write_text("DISCORD_TOKEN=\n# our cards\nCHARLESTON_CARDS_DIR=my-cards\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CHARLESTON_", "DISCORD_"))}
    done = subprocess.run([str(CHARLESTON), "card", "list"], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    listed = {line.split()[0]: line for line in done.stdout.splitlines() if line.strip()}
    assert "our-league" in listed and "Our league card" in listed["our-league"]
    assert "practice" in listed and "nmjl-1946" in listed  # the shipped cards stay


@pytest.mark.parametrize("argv", [
    ["card", "check", "--card", "our-league", WIN_2468_1],
    ["card", "show", "--card", "our-league"],
    ["card", "analyze", "--card", "our-league", "--top", "1", "F F 2B 2B 4B 6C 6C J 8C 8C 8C 3D 1D"],
])
def test_every_card_command_finds_a_card_of_the_folder_dot_env_names(
        fresh: Path, capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    own_card(fresh / "cards")
    code, _, err = run(capsys, *argv)
    assert code == 2 and "Unknown card 'our-league'" in err  # without the setting there is no such card
    load_card.cache_clear()
    (fresh / ".env").write_text("CHARLESTON_CARDS_DIR=cards\n", encoding="utf-8")
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    if argv[1] == "show":
        assert "Our league card [our-league]" in out
    if argv[1] == "check":
        assert out.startswith("Mah Jongg: 2026 #1")


def test_simulate_and_render_find_a_card_of_the_folder_dot_env_names(
        fresh: Path, capsys: pytest.CaptureFixture[str]) -> None:
    own_card(fresh / "cards")
    (fresh / ".env").write_text("CHARLESTON_CARDS_DIR='cards'\n", encoding="utf-8")  # quotes are allowed
    code, out, err = run(capsys, "simulate", "--games", "1", "--card", "our-league", "--players",
                         "random,random,random,random")
    assert code == 0 and "on our-league" in out, err
    code, _, err = run(capsys, "render", "card", "--card", "our-league", "--hand", "2026 #1", "-o", "line.png")
    assert code == 0, err
    assert (fresh / "line.png").read_bytes().startswith(b"\x89PNG")


def test_the_environment_overrides_dot_env_for_the_cards_folder(
        fresh: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    own_card(fresh / "from-file", "file-card")
    own_card(fresh / "from-env", "env-card")
    (fresh / ".env").write_text("CHARLESTON_CARDS_DIR=from-file\n", encoding="utf-8")
    monkeypatch.setenv("CHARLESTON_CARDS_DIR", str(fresh / "from-env"))
    code, out, _ = run(capsys, "card", "list")
    assert code == 0 and "env-card" in out and "file-card" not in out


def test_a_cards_folder_in_dot_env_that_does_not_exist_is_named(
        fresh: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (fresh / ".env").write_text("CHARLESTON_CARDS_DIR=no-such-folder\n", encoding="utf-8")
    line = refused(capsys, "card", "list")
    assert "no-such-folder does not exist" in line and "CHARLESTON_CARDS_DIR" in line


def test_a_malformed_dot_env_is_one_line_naming_its_line_for_a_card_command(
        fresh: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (fresh / ".env").write_text("CHARLESTON_CARDS_DIR=cards\nthis is not a setting\n", encoding="utf-8")
    line = refused(capsys, "card", "check", "--card", "practice", WIN_2468_1)
    assert ".env, line 2: expected NAME=value" in line


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(folder=st.text(alphabet=st.characters(exclude_characters="\n\r'\""), max_size=40))
def test_any_cards_folder_typed_into_dot_env_lists_the_cards_or_is_one_line(
        fresh: Path, capsys: pytest.CaptureFixture[str], folder: str) -> None:
    load_card.cache_clear()
    (fresh / ".env").write_text(f"CHARLESTON_CARDS_DIR={folder}\n", encoding="utf-8")
    code, out, err = run(capsys, "card", "list")
    assert code in (0, 2), err
    if code == 2:
        assert err.count("\n") == 1 and err.startswith("charleston: ")
    else:
        assert "practice" in out
