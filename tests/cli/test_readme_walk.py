"""The README's commands, walked as a newcomer would: in a fresh empty folder, with the real ``charleston``
entry point, in the order the README gives them. The commands and how their answers begin are read from the
README itself (every ``sh`` block right after a ``<!-- walked -->`` line), so the words and the behaviour cannot
part ways without this failing."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from support.paths import ROOT

README = ROOT / "README.md"
MARKER = "<!-- walked -->"
CHARLESTON = Path(sys.executable).parent / "charleston"


@dataclass
class Step:
    """One ``$`` line of a walked block and the lines the README says its answer begins with."""

    line: int  # in the README, for the failure message
    command: str
    expected: list[str] = field(default_factory=list)


def walked_steps(text: str) -> list[Step]:
    """Every command of the README's walked blocks, in order."""
    steps: list[Step] = []
    lines = text.splitlines()
    for number, line in enumerate(lines):
        if line.strip() != MARKER:
            continue
        assert lines[number + 1].strip() == "```sh", f"README line {number + 2}: a walked block is a ```sh block"
        for offset, body in enumerate(lines[number + 2:], start=number + 3):
            if body.strip() == "```":
                break
            if body.startswith("$ "):
                steps.append(Step(offset, body[2:]))
            else:
                assert steps, f"README line {offset}: an answer before any command"
                steps[-1].expected.append(body)
    return steps


def command_words(command: str) -> tuple[dict[str, str], list[str]]:
    """The environment settings before the command (``CHARLESTON_DB=x charleston ...``) and its words, without
    the trailing ``# comment``."""
    words = shlex.split(command, comments=True)
    env = {}
    while words and re.fullmatch(r"[A-Z_]+=.*", words[0]):
        key, _, value = words.pop(0).partition("=")
        env[key] = value
    return env, words


def matches(expected: str, actual: str) -> bool:
    """Whether a README line says how an answer's line begins: ``...`` stands for anything."""
    pattern = ".*".join(re.escape(part) for part in expected.rstrip().split("..."))
    return re.fullmatch(pattern, actual.rstrip()) is not None


def test_the_readme_has_walked_blocks_for_each_part_a_newcomer_meets() -> None:
    commands = " ".join(step.command for step in walked_steps(README.read_text(encoding="utf-8")))
    for part in ("charleston demo", "charleston card list", "charleston card check", "charleston card analyze",
                 "charleston migrate", "charleston ledger verify", "charleston tables list", "charleston backup",
                 "charleston standings", "charleston sample-week", "charleston render standings",
                 "charleston simulate"):
        assert part in commands, f"no walked README command for {part!r}"


def test_matching_an_answer_with_the_readme_wildcard() -> None:
    assert matches("Guild 1, week of ...:", "Guild 1, week of 23 Nov 2026:")
    assert matches("a [b] (c) ...", "a [b] (c) anything at all")
    assert not matches("Guild 2, week of ...:", "Guild 1, week of 23 Nov 2026:")
    assert not matches("ok", "not ok")


@pytest.mark.slow
def test_every_walked_readme_command_does_what_the_readme_says(tmp_path: Path) -> None:
    steps = walked_steps(README.read_text(encoding="utf-8"))
    folder = tmp_path / "fresh"
    folder.mkdir()
    base = {k: v for k, v in os.environ.items() if not k.startswith(("CHARLESTON_", "DISCORD_"))}
    base["PATH"] = f"{CHARLESTON.parent}{os.pathsep}{base.get('PATH', '')}"
    base["PYTHONUNBUFFERED"] = "1"  # stdout and stderr interleaved as a terminal shows them
    for step in steps:
        env, words = command_words(step.command)
        assert words[0] == "charleston", f"README line {step.line}: walked commands are charleston commands"
        done = subprocess.run([str(CHARLESTON), *words[1:]], cwd=folder, env={**base, **env}, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, timeout=120, check=False)
        where = f"README line {step.line}: `{step.command}`"
        assert done.returncode == 0, f"{where} exited {done.returncode}: {done.stdout[-500:]}"
        answer = done.stdout.splitlines()
        assert "Traceback" not in done.stdout, f"{where}: {done.stdout[-500:]}"
        for k, line in enumerate(step.expected):
            assert k < len(answer) and matches(line, answer[k]), (
                f"{where}: the README says its answer's line {k + 1} is {line!r}; it is "
                f"{answer[k] if k < len(answer) else 'missing'!r}")
