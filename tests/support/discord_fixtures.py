"""The pytest fixtures of the offline Discord (tests/support/discord_double), shared by the end-to-end tests
(tests/e2e) and the Discord layer's own tests (tests/cogs), each folder's conftest.py importing them: the spec,
compiled once a run, and a fresh offline Discord per test that fails the test at teardown if anything sent was
something Discord would refuse."""

from __future__ import annotations

import functools
from collections.abc import AsyncIterator

import pytest

from .discord_double import DiscordDouble, Double, World, load_validator, spec_path
from .discord_double.spec import SpecValidator

SPEC_MISSING = "OpenAPI spec not found"
_TOLD = pytest.StashKey[bool]()


@functools.cache
def _compiled(path: str) -> SpecValidator:
    """The spec at ``path``, compiled once a run however many folders offer the fixture."""
    return load_validator(path)


@pytest.fixture(scope="session")
def discord_spec() -> SpecValidator:
    """Discord's OpenAPI spec, compiled once; the tests that need it are skipped (with the reason) without it."""
    path = spec_path()
    if not path.is_file():
        pytest.skip(f"Discord {SPEC_MISSING} at {path}: set CHARLESTON_DISCORD_SPEC to discord-openapi.json")
    return _compiled(str(path))


@pytest.fixture
async def discord_double(discord_spec: SpecValidator) -> AsyncIterator[Double]:
    """A fresh offline Discord on 127.0.0.1; at teardown, any invalid body or unknown route fails the test."""
    server = await DiscordDouble(World(), discord_spec).start()
    double = Double(server)
    try:
        yield double
    finally:
        await server.close()
    problems = double.problems()
    if problems:
        pytest.fail("the bot sent what Discord would refuse:\n" + "\n".join(problems), pytrace=False)


def say_why_skipped(terminalreporter: pytest.TerminalReporter) -> None:
    """Say in the summary, even without ``-rs``, why the offline-Discord tests were skipped (once a run, however
    many conftest files ask)."""
    stash = terminalreporter.config.stash
    if stash.get(_TOLD, False):
        return
    stash[_TOLD] = True
    path = spec_path()
    skipped = [r for r in terminalreporter.stats.get("skipped", []) if SPEC_MISSING in str(r.longrepr)]
    if skipped:
        terminalreporter.write_line(
            f"{len(skipped)} offline-Discord test(s) SKIPPED: Discord's OpenAPI spec is not at {path}; "
            "set CHARLESTON_DISCORD_SPEC to discord-openapi.json", yellow=True, bold=True)
