"""Fixtures for end-to-end tests against the offline Discord (tests/support/discord_double): defined once in
tests/support/discord_fixtures.py, which the Discord layer's own tests (tests/cogs) share."""

from __future__ import annotations

import pytest
from support.discord_fixtures import discord_double, discord_spec, say_why_skipped  # noqa: F401  (fixtures)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Say in the summary, even without ``-rs``, why the offline-Discord tests were skipped."""
    say_why_skipped(terminalreporter)
