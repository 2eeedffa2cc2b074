"""The demo's narration as a newcomer reads it: the level it shows, every Charleston tile accounted for (blind
passes included), the recorded game's line after the payouts."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.ai.players import LEVELS
from bot.cli import main


def demo(capsys: pytest.CaptureFixture[str], *argv: str) -> list[str]:
    """The demo's lines for these options."""
    assert main(["demo", *argv]) == 0
    return capsys.readouterr().out.splitlines()


def names(text: str) -> list[str]:
    """Tile names as the narration lists them: "East Wind, 9 Bam and 2 Crak"."""
    return [part for part in re.split(r", | and ", text) if part]


def test_the_demo_says_what_its_level_is_and_which_others_there_are(capsys: pytest.CaptureFixture[str]) -> None:
    lines = demo(capsys, "--seed", "2026")
    assert "four 'hard' computer players" in lines[0]
    assert "the strongest" in lines[1] and "--level normal, easy or random" in lines[1]


@pytest.mark.parametrize("level", LEVELS)
def test_the_demo_plays_at_every_level_the_readme_lists(level: str, capsys: pytest.CaptureFixture[str]) -> None:
    lines = demo(capsys, "--seed", "3", "--level", level)
    assert f"four '{level}' computer players" in lines[0]
    assert lines[-1].endswith("left in the wall.")


@pytest.mark.parametrize("seed", [2026, 7, 11])
def test_CH7_every_tile_a_seat_receives_is_kept_or_named_as_passed_on_blind(
        seed: int, capsys: pytest.CaptureFixture[str]) -> None:
    """Each seat gets 3 tiles a pass; a blind passer's line names the ones it sent on unseen, so none vanish."""
    blind = 0
    for line in demo(capsys, "--seed", str(seed)):
        told = re.fullmatch(r"   (?:First|Second|Last) [a-z]+: \w+ receives (.+?)"
                            r"(?:, and passes (.+) on blind to \w+, unseen)?\.", line)
        if told is None:
            continue
        kept = [] if told[1] == "nothing" else names(told[1])
        sent_on = names(told[2]) if told[2] else []
        blind += len(sent_on)
        assert len(kept) + len(sent_on) == 3, line
    if seed == 2026:
        assert blind == 3  # West sends one tile on at the first left, South two at the last right


def test_wind_tiles_are_named_as_tiles_not_seats(capsys: pytest.CaptureFixture[str]) -> None:
    lines = demo(capsys, "--seed", "2026")
    assert "   First right: East receives East Wind, 9 Bam and 2 Crak." in lines


@pytest.mark.slow
def test_a_recorded_demo_says_where_after_the_payouts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    told = demo(capsys, "--seed", "2026")
    recorded = demo(capsys, "--seed", "2026", "--db", str(tmp_path / "demo.db"))
    sealed = [line for line in recorded if line.startswith("Deal sealed: ")]  # the deal's commitment, before play
    first_deal = next(line for line in told if " is dealt " in line)
    assert len(sealed) == 1 and recorded.index(sealed[0]) < recorded.index(first_deal)
    recorded.remove(sealed[0])
    assert recorded[:-2] == told  # the same game, told the same way
    assert recorded[-2] == (f"Recorded as game 1 (table 1) in {tmp_path / 'demo.db'}; computer players are not in "
                            "the standings.")
    assert recorded[-1].startswith("The deal: seed ") and "'charleston fairness verify --db " in recorded[-1]
