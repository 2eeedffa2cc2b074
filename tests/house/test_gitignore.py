"""The bot's token and what the commands write stay out of git (issue 32): `.env` holds DISCORD_TOKEN."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from support.paths import ROOT

SECRET = ".env"
WRITTEN = ("charleston.db", "charleston.db-wal", "sample.db", "backups/charleston-2026-11-21.db", "standings.png",
           "rack.png", "deals.jsonl", "sample-ledger.csv", "demo-images/table.png")
KEPT = ("docs/images/rack.png", "data/models/learned.json", ".env.example")


def test_gitignore_names_env_itself() -> None:
    lines = [line.strip() for line in (ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()]
    assert SECRET in lines


@pytest.mark.skipif(shutil.which("git") is None, reason="git decides what it ignores; without git, the line above")
@pytest.mark.parametrize("path", [SECRET, *WRITTEN, *KEPT])
def test_git_ignores_the_token_and_the_files_commands_write_but_not_the_shipped_ones(path: str) -> None:
    ignored = subprocess.run(["git", "-C", str(ROOT), "check-ignore", "--no-index", "-q", path], check=False,
                             capture_output=True).returncode == 0
    assert ignored == (path not in KEPT)
