"""Bad command-line input and the command line's own faces (issue 18): option values, output paths, the error
path (one line, exit 2; --debug for a bug's traceback), the progress bar, the demo's files and its narration."""

from __future__ import annotations

import io
import os
import re
from pathlib import Path

import pytest
from support.game_tables import Table
from support.paths import ROOT

from bot.cli import main, play
from bot.cli.demo import Narrator, run_demo
from bot.engine.actions import Draw

EXAMPLE = str(ROOT / "docs" / "examples" / "mahjong-on-a-discard.json")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def refused(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code, _, err = run(capsys, *argv)
    assert code == 2, err
    assert err.count("\n") == 1 and err.startswith("charleston: ") and "Traceback" not in err, err
    return err


# ------------------------------------------------------------------------------------------------ options


@pytest.mark.parametrize(("argv", "fragment"), [
    (["standings", "--db", "x.db", "--week", "9999-W52"], "'9999-W52' is out of range"),
    (["standings", "--db", "x.db", "--week", "0001-W01"], "'0001-W01' is out of range"),
    (["render", "standings", "--db", "x.db", "--week", "9999-W52", "-o", "s.png"], "out of range"),
    (["standings", "--db", "x.db", "--guild", "9" * 30], "argument --guild: a guild (Discord server) id"),
    (["render", "standings", "--db", "x.db", "--guild", "-1", "-o", "s.png"], "argument --guild"),
    (["simulate", "--seed", "-1"], "argument --seed: a seed is a whole number from 0 to 4294967295"),
    (["simulate", "--seed", "1" * 5000], "argument --seed"),
    (["simulate", "--games", "0"], "argument --games: give a whole number from 1"),
    (["demo", "--delay", "nan"], "argument --delay: give a number of seconds from 0 to 10"),
    (["demo", "--delay", "inf"], "argument --delay"),
    (["demo", "--seed", "x"], "argument --seed"),
    (["card", "analyze", "--card", "practice", "--top", "-1", "1B"], "argument --top"),
    (["card", "analyze", "--card", "practice", "--repeat", "0", "1B"], "argument --repeat"),
    (["render", "tiles", "--width", "1000", "-o", "t.png"], "argument --width: give a whole number from 24 to 256"),
    (["render", "table", "--replay", EXAMPLE, "--step", "-1", "-o", "t.png"], "argument --step"),
    (["no-such-command"], "invalid choice: 'no-such-command'"),
    (["standings"], "no database at charleston.db, the default (CHARLESTON_DB from the environment or .env"),
    (["standings", "--db", "x.db", "--all-time", "--week", "2026-W48"], "--week: not allowed with argument --all"),
    (["standings", "--db", "x.db", "--json", "--csv"], "argument --csv: not allowed with argument --json"),
    (["paired", "--seeds", "9201-"], "'9201-' is not a list of seeds"),
    (["render", "tiles", "-o", "tiles.jpg"], "the image is drawn as a PNG; give a name ending in .png"),
    (["simulate", "--log", ""], "argument --log: give a folder, not an empty name"),
    (["card", "list", "--bogus"], "unrecognized arguments: --bogus"),
    (["card", "check", "--card", "practice", "1B" * 50_000], "is not a tile"),
    (["card", "check", "--card", "practice", "1B " * 300], "More than 200 tiles"),
    (["card", "show", "--card", "x" * 10_000], "Unknown card 'xxxxxxxx"),
])
def test_a_bad_option_is_one_line_and_exit_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str], argv: list[str],
                                             fragment: str) -> None:
    monkeypatch.chdir(tmp_path)
    assert fragment in refused(capsys, *argv)
    assert len(refused(capsys, *argv)) < 500
    assert list(tmp_path.iterdir()) == []


def test_an_output_folder_that_is_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    taken = tmp_path / "taken"
    taken.write_text("mine")
    assert "--log" in refused(capsys, "simulate", "--games", "1", "--log", str(taken))
    assert "--images" in refused(capsys, "demo", "--images", str(taken))
    assert taken.read_text() == "mine"


def test_an_output_that_would_overwrite_an_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    replay = tmp_path / "game.png"  # a replay under an image's name, so that -o passes its own check
    replay.write_text(Path(EXAMPLE).read_text())
    line = refused(capsys, "render", "table", "--replay", str(replay), "-o", str(replay))
    assert "is one of this command's input files" in line
    assert replay.read_text() == Path(EXAMPLE).read_text()


def test_help_is_not_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "standings", "--help")
    assert code == 0 and "--db" in out and err == ""


# ------------------------------------------------------------------------------------------- the error path


def test_an_unexpected_error_is_a_short_message_and_the_traceback_only_with_debug(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def broken(args: object) -> int:
        raise RuntimeError("a bug\nover two lines")

    monkeypatch.setattr("bot.cli.card.run_list", broken)
    code, _, err = run(capsys, "card", "list")
    assert code == 70 and err.count("\n") == 1 and "Traceback" not in err
    assert "unexpected error (RuntimeError: a bug over two lines)" in err and "--debug" in err
    for argv in (["--debug", "card", "list"], ["card", "list", "--debug"]):
        code, _, err = run(capsys, *argv)
        assert code == 70 and "Traceback (most recent call last)" in err and 'raise RuntimeError("a bug' in err


# ------------------------------------------------------------------------------------------- progress bar


class Terminal(io.StringIO):
    """A stderr that says it is a terminal."""

    def isatty(self) -> bool:
        return True


@pytest.mark.slow
def test_the_progress_bar_only_draws_on_a_terminal(monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "simulate", "--games", "20", "--seed", "3", "--players", "random,random,random,random")
    assert code == 0 and "\r" not in err and err == ""
    terminal = Terminal()
    monkeypatch.setattr(play.sys, "stderr", terminal)
    assert play.ProgressBar.wanted(20)
    bar = play.ProgressBar()
    for done in range(1, 21):
        bar(done, 20)
    assert terminal.getvalue().startswith("\r[") and terminal.getvalue().endswith("20/20 games\n")


# -------------------------------------------------------------------------------------------------- demo


def test_the_demo_writes_no_file_unless_asked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CHARLESTON_DB", raising=False)
    code, out, _ = run(capsys, "demo", "--seed", "5")
    assert code == 0 and ("Mah Jongg!" in out or "wall game" in out)
    assert list(tmp_path.iterdir()) == []
    code, out, _ = run(capsys, "demo", "--seed", "5", "--db", "demo.db", "--images", "pictures")
    assert code == 0
    assert "in demo.db; computer players are not in the standings." in out
    said = re.search(r"Wrote (\d+) images to pictures: (.*)", out)
    assert said is not None and sorted(said.group(2).split(", ")) == sorted(os.listdir("pictures"))
    assert sorted(os.listdir(".")) == ["demo.db", "pictures"]


def _told(db: Path | None) -> list[str]:
    lines: list[str] = []
    run_demo(2026, "normal", lines.append, None if db is None else str(db))
    only_recorded = ("Recorded as game", "Deal sealed: ", "The deal: seed ")  # what the database adds
    return [line for line in lines if not line.startswith(only_recorded)]


def test_the_recorded_demo_tells_each_pass_under_its_own_heading(tmp_path: Path) -> None:
    """Issue 18: with its database, the demo printed the tiles of one pass under the next pass's heading."""
    recorded = _told(tmp_path / "demo.db")
    assert recorded == _told(None)
    headings = [(n, line) for n, line in enumerate(recorded) if line.startswith("-- Charleston, ")]
    assert headings and headings[0][1].startswith("-- Charleston, first right")
    for n, heading in headings:
        step = heading.removeprefix("-- Charleston, ").split(":")[0]
        received = recorded[n + 1: n + 5]
        assert all(line.strip().startswith(f"{step.capitalize()}: ") and " receives " in line
                   for line in received), (heading, received)


def test_a_self_drawn_mah_jongg_is_told_with_its_draw() -> None:
    table = Table({0: "N", 1: "3B 3B 3B J 6Bx4 9Cx4 E"}, wall="E")
    lines: list[str] = []
    narrator = Narrator(table.game, lines.append)
    narrator(table.opening)
    narrator(table.discard(0, "N"))
    narrator(table.pass_all())
    narrator(table.act(Draw(1)))
    narrator(table.declare(1))
    told = "\n".join(lines)
    assert "South draws East Wind.\n\nMah Jongg! South wins with 369 #4, self-picked: 25 chips." in told


# ------------------------------------------------------------------------------------------------- docs


def test_no_doc_message_or_test_cites_a_rules_file_the_project_does_not_contain() -> None:
    """The project's rules reference is docs/rules.md."""
    missing = "RULES" + ".md"
    places = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "data" / "cards").glob("*"))]
    for folder in ("bot", "cogs", "renderers", "tests"):
        places += sorted((ROOT / folder).rglob("*.py"))
    cited = re.compile(re.escape(missing) + r"|\b" + "RULES" + r" (§|[A-Z]*\d)")
    offenders = [f"{p.relative_to(ROOT)}:{n}" for p in places if p != Path(__file__).resolve()
                 for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), start=1) if cited.search(line)]
    assert offenders == []
