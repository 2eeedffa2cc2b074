"""Fuzzing what people hand the program (issue 18), with Hypothesis: card files, tile strings, replays, command
options and database files, each through the real command line (``bot.cli.main``, in-process for speed; the
subprocess cases for a corrupt database are in tests/store/test_bad_input_db.py).

Every run must end with exit status 0 or 2 (1 only where it means "problems found"), at most one line on stderr
and never a traceback, leave no thread behind (an open database connection keeps the process alive), and create
or change no file but the output the command was told to write. Bounded for ``.ci/run``; set
``CHARLESTON_FUZZ_EXAMPLES`` (e.g. 2000) and ``CHARLESTON_FUZZ_RANDOM=1`` for a longer, randomised campaign.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import shutil
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.paths import ROOT

from bot.cli import main
from bot.service.cards import DEFAULT_CARDS_DIR, load_card

pytestmark = pytest.mark.slow

PRACTICE_TEXT = (Path(DEFAULT_CARDS_DIR) / "practice.toml").read_text(encoding="utf-8")
EXAMPLE_TEXT = (ROOT / "docs" / "examples" / "mahjong-on-a-discard.json").read_text(encoding="utf-8")

FUZZ = settings(max_examples=int(os.environ.get("CHARLESTON_FUZZ_EXAMPLES", "40")), deadline=None,
                derandomize=not os.environ.get("CHARLESTON_FUZZ_RANDOM"), database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                       HealthCheck.data_too_large, HealthCheck.large_base_example])
OUTPUT_OPTIONS = ("-o", "--output", "--log", "--images", "--to", "--jsonl")
WRITING_COMMANDS = ("simulate", "demo", "resume", "migrate", "sample-week")  # their --db is their output


# ------------------------------------------------------------------------------------------------- the check


def _files(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file() and not p.is_symlink()}


def _outputs(argv: Sequence[str]) -> list[str]:
    """The paths this command line names as its output (``--debug`` is taken out first, as the command does)."""
    argv = [word for word in argv if word != "--debug"]
    named = [argv[i + 1] for i, word in enumerate(argv[:-1]) if word in OUTPUT_OPTIONS]
    if any(word in WRITING_COMMANDS for word in argv):
        named += [argv[i + 1] for i, word in enumerate(argv[:-1]) if word == "--db"]
    return named


def cli(workdir: Path, argv: Sequence[str], codes: frozenset[int] = frozenset({0, 2})) -> tuple[int, str]:
    """Run the command line in ``workdir`` and check the guarantees of issue 18."""
    before_files = _files(workdir)
    before_threads = set(threading.enumerate())
    out, err = io.StringIO(), io.StringIO()
    load_card.cache_clear()  # the fuzzed card changes between examples under one id
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    # A folder made on the way to an output is said on a line of its own (the one rule for files written).
    message = "".join(line for line in err.getvalue().splitlines(keepends=True)
                      if not line.startswith("charleston: created the folder "))
    assert code in codes, (argv, code, message)
    assert "Traceback" not in message, (argv, message)
    if code != 1:  # "problems found" (card validate, ledger verify) lists each problem
        assert message.count("\n") <= 1 and (code == 0 or message.count("\n") == 1), (argv, message)
    for thread in set(threading.enumerate()) - before_threads:
        thread.join(timeout=10)
        assert not thread.is_alive(), (argv, "a thread was left running")
    after = _files(workdir)
    outputs = [str(Path(p)) for p in _outputs(argv)]
    touched = [name for name in set(before_files) | set(after) if before_files.get(name) != after.get(name)]
    strays = [name for name in touched if not any(name == o or name.startswith((o + "/", o + "-")) for o in outputs)]
    assert strays == [], (argv, strays)
    for output in outputs:  # outputs go, so each example starts from the same files
        path = workdir / output
        if not path.resolve().is_relative_to(workdir.resolve()) or path.resolve() == workdir.resolve():
            continue
        if path.is_dir() and output not in before_files:
            shutil.rmtree(path, ignore_errors=True)
        elif output not in before_files:
            for extra in (path, *path.parent.glob(path.name + "-*")):
                with contextlib.suppress(OSError):
                    extra.unlink()
    return code, out.getvalue()


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, recorded_db: Path) -> Iterator[Path]:
    """A working folder with a cards folder (the practice card) and a real database; the command line runs here."""
    cards = tmp_path / "cards"
    cards.mkdir()
    (cards / "practice.toml").write_text(PRACTICE_TEXT, encoding="utf-8")
    shutil.copy(recorded_db, tmp_path / "league.db")
    (tmp_path / "replay.json").write_text(EXAMPLE_TEXT, encoding="utf-8")
    (tmp_path / "folder").mkdir()
    monkeypatch.setenv("CHARLESTON_CARDS_DIR", str(cards))
    monkeypatch.delenv("CHARLESTON_DB", raising=False)
    monkeypatch.chdir(tmp_path)
    yield tmp_path
    load_card.cache_clear()


@pytest.fixture(scope="module")
def recorded_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("fuzz-db") / "recorded.db"
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["simulate", "--games", "2", "--seed", "4", "--db", str(path)]) == 0
    return path


# ------------------------------------------------------------------------------------------------ card files

TOML_VALUES = ['""', "0", "-1", "10e400", "true", "[]", "{}", '"' + "x" * 3000 + '"', "[" * 3000, "nan", "inf",
               "1979-05-27", "9" * 30, '"any"', '["1111a 2222a 3333a 44a"]', "[0, 2, 4]", '"FF 2026a 222b 2222c"',
               "[" + ", ".join(['"11x 22y 33z 4444x 5555y"'] * 20) + "]", '"\\u00e9"', "'''\n'''",
               # the card language of issue 29, and the ways people mistype TOML
               '"ZZZ 111a 2222a 3333a"', '"11a 2222b 11a 3333c FF"', '"FFFF 2026a 222b 222c"', '"ZZ Z ZZ 1111a 5555b"',
               "[" + ", ".join([f'"ZZZ {n * 4}a NN {n * 3}b FF"' for n in "123456789"] * 7) + "]",
               "\u201cFF 1111a\u201d", "True", '"NN 1111a" or "SS 1111a"', '["FF 1111a",', "FF 2222a 44a"]


@st.composite
def card_bytes(draw: st.DrawFn) -> bytes:
    lines = PRACTICE_TEXT.replace('id = "practice"', 'id = "fuzz"', 1).splitlines()
    how = draw(st.sampled_from(["value", "line", "delete", "truncate", "bytes", "hands", "garbage"]))
    if how == "value":
        for _ in range(draw(st.integers(1, 4))):
            n = draw(st.sampled_from([i for i, line in enumerate(lines) if " = " in line]))
            lines[n] = lines[n].split(" = ")[0] + " = " + draw(st.sampled_from(TOML_VALUES))
    elif how == "line":
        n = draw(st.integers(0, len(lines) - 1))
        pieces = [*'[]="\'.,#x1aFDN \t', "[[hand]]", "pattern", "id"]
        lines[n] = "".join(draw(st.lists(st.sampled_from(pieces), max_size=30)))
    elif how == "delete":
        del lines[draw(st.integers(0, len(lines) - 1))]
    elif how == "hands":
        hand = ['[[hand]]', 'id = "h{n}"', 'section = "S"', 'pattern = "1111x 2222y 3333z 44x"', "exposed = true",
                "value = 25", 'shift = "any"']
        lines += [line.format(n=n) for n in range(draw(st.sampled_from([10, 200, 600]))) for line in hand]
    text = "\n".join(lines).encode()
    if how == "truncate":
        text = text[:draw(st.integers(0, len(text)))]
    elif how == "bytes":
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(st.binary(min_size=1, max_size=8)) + text[at:]
    elif how == "garbage":
        text = draw(st.binary(max_size=400))
    return text


@FUZZ
@given(content=card_bytes(), rack=st.sampled_from(["E E E E 4B 4B 4B 6B 6B 8B 8B 8B W W", "1B", "J " * 14]))
def test_fuzz_card_files(workdir: Path, content: bytes, rack: str) -> None:
    (workdir / "cards" / "fuzz.toml").write_bytes(content)
    _, out = cli(workdir, ["card", "list"], frozenset({0}))
    assert any(line.startswith("practice ") for line in out.splitlines())  # the good card is always listed
    cli(workdir, ["card", "show", "--card", "fuzz"])
    cli(workdir, ["card", "check", "--card", "fuzz", rack])
    cli(workdir, ["card", "validate", "cards/fuzz.toml"], frozenset({0, 1, 2}))
    assert cli(workdir, ["card", "show", "--card", "practice"])[0] == 0


# ------------------------------------------------------------------------------------------------ tile strings

TILE_WORDS = st.sampled_from(["1B", "9c", "5D", "N", "e", "W", "S", "RD", "GD", "WD", "R", "G", "0", "SOAP", "F",
                              "J", "BL", "7Cx3", "1bX8", "NX9", "x3", "10B", "B", "", ",", ";", " ", "\t", "é",
                              "🀄", "-", "--json", "1B" * 40, "X" * 300])
TILES = st.lists(TILE_WORDS, max_size=40).map(" ".join)


@FUZZ
@given(tiles=TILES, exposed=TILES, visible=TILES, drawn=TILE_WORDS)
def test_fuzz_tile_strings(workdir: Path, tiles: str, exposed: str, visible: str, drawn: str) -> None:
    cli(workdir, ["card", "check", "--card", "practice", "--exposed", exposed, "--", tiles])
    cli(workdir, ["card", "analyze", "--card", "practice", "--top", "2", "--visible", visible, "--", tiles])
    cli(workdir, ["render", "rack", "--tiles", tiles, "--exposed", exposed, "--drawn", drawn, "-o", "rack.png"])


# ------------------------------------------------------------------------------------------------ replays

JSON = st.recursive(st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.sampled_from([0, 1, 3, 4, -1])
                    | st.floats(allow_nan=False) | st.text(max_size=12)
                    | st.sampled_from(["5D", "J", "draw", "discard", "call", "nmjl", "nmjl-1946", "practice"]),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
                        st.sampled_from(["type", "seat", "tile", "tiles", "preset", "blanks", "x"]), inner,
                        max_size=3), max_leaves=8)


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield prefix
    children = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else []
    for key, child in children:
        yield from _paths(child, (*prefix, key))


@st.composite
def replay_bytes(draw: st.DrawFn) -> bytes:
    data = json.loads(EXAMPLE_TEXT)
    if draw(st.integers(0, 9)) == 0:
        return draw(st.binary(max_size=300))
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(list(_paths(data))[1:]))
        parent = data
        for key in path[:-1]:
            parent = parent[key]
        if draw(st.booleans()) and isinstance(parent, dict):
            del parent[path[-1]]
        else:
            parent[path[-1]] = draw(JSON)
    return json.dumps(data).encode()


@FUZZ
@given(content=replay_bytes(), step=st.sampled_from([None, "0", "4", "99"]))
def test_fuzz_replays(workdir: Path, content: bytes, step: str | None) -> None:
    (workdir / "fuzz.json").write_bytes(content)
    cli(workdir, ["replay", "fuzz.json"])
    cli(workdir, ["replay", "fuzz.json", "--json"])
    cli(workdir, ["render", "table", "--replay", "fuzz.json", "-o", "table.png", *(["--step", step] if step else [])])


# ------------------------------------------------------------------------------------------------ options

VALUES = st.sampled_from(["", "0", "1", "2", "-1", "x", "1.5", "1e9", "9" * 25, "nan", "inf", "2026-W48", "9999-W52",
                          "2026-W99", "practice", "nmjl-1946", "nope", "normal,easy,random,hard", "hard,x", "league.db",
                          "replay.json", "folder", "cards/practice.toml", "missing/x.db", "new.db", "out.png",
                          "é" * 3, "-", "--json"])
COMMANDS = [
    ["card", "show", "--card", "{}"], ["card", "check", "--card", "{}", "{}"],
    ["card", "analyze", "--card", "practice", "--top", "{}", "--repeat", "{}", "1B 2B"],
    ["standings", "--db", "{}", "--guild", "{}"], ["standings", "--db", "league.db", "--week", "{}", "--json"],
    ["standings", "--db", "{}", "--all-time", "--csv"], ["tables", "list", "--db", "{}", "--json"],
    ["ledger", "verify", "--db", "{}"], ["tables", "resume", "--db", "{}"], ["migrate", "--db", "{}"],
    ["fairness", "verify", "--db", "{}", "--game", "{}"], ["fairness", "verify", "--db", "league.db", "--game", "{}"],
    ["stats", "--db", "{}", "--guild", "{}", "--json"], ["stats", "--db", "league.db", "--league", "{}"],
    ["stats", "--db", "league.db", "--player", "{}", "--json"],
    ["backup", "--db", "{}", "--to", "{}"],
    ["simulate", "--games", "{}", "--seed", "{}", "--players", "{}", "--json"],
    ["simulate", "--games", "1", "--card", "{}", "--rules", "{}", "--log", "{}"],
    ["simulate", "--games", "1", "--db", "{}"], ["demo", "--seed", "{}", "--level", "{}", "--delay", "{}"],
    ["demo", "--seed", "1", "--db", "{}", "--images", "{}"],
    ["render", "tiles", "--width", "{}", "-o", "{}"], ["render", "card", "--card", "{}", "--hand", "{}", "-o", "c.png"],
    ["render", "standings", "--db", "{}", "--guild", "{}", "--week", "{}", "-o", "s.png"],
    ["render", "table", "--replay", "{}", "--step", "{}", "--names", "{}", "-o", "t.png"],
    ["replay", "{}"],
    ["paired", "--seeds", "{}", "--games", "1", "--candidate", "{}", "--rules", "{}"],
    ["paired", "--seeds", "1", "--games", "1", "--jsonl", "{}", "--json"],
    ["paired", "--summary", "{}", "--versus", "{}"],
    ["sample-week", "--db", "{}", "--games", "1", "--seed", "{}", "--guild", "{}"],
    ["ledger", "export", "--db", "{}", "--guild", "{}", "-o", "{}"],
]


@st.composite
def command_lines(draw: st.DrawFn) -> list[str]:
    template = draw(st.sampled_from(COMMANDS))
    argv = [draw(VALUES) if word == "{}" else word for word in template]
    # A valid --games or --seed that asks for hours of play is the user's choice, not bad input.
    for i, word in enumerate(argv[:-1]):
        if word == "--games" and argv[i + 1].isdigit() and int(argv[i + 1]) > 2:
            argv[i + 1] = "2"
    if draw(st.integers(0, 5)) == 0:
        argv.insert(draw(st.integers(0, len(argv))), draw(st.sampled_from(["--debug", "--bogus", "--json", "-o"])))
    return argv


@FUZZ
@given(argv=command_lines())
def test_fuzz_command_options(workdir: Path, argv: list[str]) -> None:
    cli(workdir, argv, frozenset({0, 1, 2}) if "verify" in argv else frozenset({0, 2}))


# ------------------------------------------------------------------------------------------------ databases


DATABASES = st.one_of(
    st.tuples(st.just("flip"), st.lists(st.tuples(st.integers(0, 10**6), st.integers(1, 255)), min_size=1,
                                        max_size=12)),
    st.tuples(st.just("flip header"), st.lists(st.tuples(st.integers(0, 99), st.integers(1, 255)), min_size=1,
                                               max_size=4)),
    st.tuples(st.just("truncate"), st.integers(1, 10**6)),
    st.tuples(st.just("random"), st.binary(max_size=2000)),
    st.tuples(st.just("other program"), st.integers(0, 9)),
    st.tuples(st.just("header"), st.tuples(st.integers(-5, 9), st.integers(-5, 2**31 - 1))),
    st.tuples(st.just("empty"), st.none()),
)


def database_bytes(spec: tuple[str, Any], recorded: bytes, scratch: Path) -> bytes:
    """The file a database strategy describes (described, not drawn as bytes, so a failure prints short)."""
    how, arg = spec
    if how.startswith("flip"):
        data = bytearray(recorded)
        for offset, xor in arg:
            data[offset % len(data)] ^= xor
        return bytes(data)
    if how == "truncate":
        return recorded[:arg % len(recorded)]
    if how == "random":
        return bytes(arg)
    if how == "empty":
        return b""
    scratch.unlink(missing_ok=True)
    conn = sqlite3.connect(scratch)
    if how == "other program":
        conn.execute("CREATE TABLE games (id INTEGER)")
        conn.execute(f"PRAGMA user_version = {arg}")
    else:
        conn.execute(f"PRAGMA user_version = {arg[0]}")
        conn.execute(f"PRAGMA application_id = {arg[1]}")
    conn.commit()
    conn.close()
    data = scratch.read_bytes()
    scratch.unlink()
    return data


@FUZZ
@given(spec=DATABASES)
def test_fuzz_database_files(workdir: Path, recorded_db: Path, spec: tuple[str, Any]) -> None:
    path = workdir / "fuzz.db"
    path.write_bytes(database_bytes(spec, recorded_db.read_bytes(), recorded_db.parent / "scratch.db"))
    for command in (["standings", "--all-time"], ["tables", "list"], ["render", "standings", "-o", "s.png"]):
        cli(workdir, [*command, "--db", "fuzz.db"])
    cli(workdir, ["ledger", "verify", "--db", "fuzz.db"], frozenset({0, 1, 2}))
    cli(workdir, ["fairness", "verify", "--db", "fuzz.db"], frozenset({0, 1, 2}))
    cli(workdir, ["stats", "--db", "fuzz.db", "--json"])
    cli(workdir, ["backup", "--db", "fuzz.db", "--to", "copy.db"])
    cli(workdir, ["tables", "resume", "--db", "fuzz.db"])
    path.unlink()
    for extra in workdir.glob("fuzz.db-*"):
        extra.unlink()
