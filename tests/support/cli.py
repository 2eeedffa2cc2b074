"""Running the command line inside a test: its exit status and what it printed."""

from __future__ import annotations

import pytest

from bot.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """The exit status, stdout and stderr of one command (never a traceback)."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return code, out, err


def refused(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """The command exits 2 with exactly one line on stderr; returns that line."""
    code, _, err = run(capsys, *argv)
    assert code == 2 and err.count("\n") == 1 and err.startswith("charleston: "), err
    return err
