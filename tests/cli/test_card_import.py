"""``charleston card import`` (bot/cli/card_import.py): a card file of another tool written as a Charleston card
that passes ``card validate``, its warnings one line each on stderr naming the source line, exit 0; a file it
cannot read is one line and exit 2. The files are our own (tests/engine/data/import)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from support.card_import import IMPORT_FILES

from bot.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def refused(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "", (code, out, err)
    assert len(err.splitlines()) == 1 and err.startswith("charleston: ") and "Traceback" not in err, err
    return err


@pytest.mark.parametrize("name", ["practice.jq", "practice.json"])
def test_import_writes_a_card_named_after_out_that_passes_validate(capsys: pytest.CaptureFixture[str],
                                                                   tmp_path: Path, name: str) -> None:
    out_file = tmp_path / "spring-2026.toml"
    code, out, _ = run(capsys, "card", "import", str(IMPORT_FILES / name), "--out", str(out_file))
    assert code == 0 and "card 'spring-2026'" in out and "51 lines" in out
    assert 'id = "spring-2026"' in out_file.read_text(encoding="utf-8")
    code, out, err = run(capsys, "card", "validate", str(out_file))
    assert code == 0 and out.startswith("ok: spring-2026, 51 lines"), err


def test_import_prints_each_warning_on_one_line_naming_the_source_line_and_exits_0(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    source = IMPORT_FILES / "constructs.jq"
    code, out, err = run(capsys, "card", "import", str(source), "--format", "ra", "--out", str(tmp_path / "c.toml"))
    assert code == 0
    warnings = err.splitlines()
    assert warnings and all(w.startswith("warning: ") for w in warnings)
    thirteen = next(w for w in warnings if "13 tiles, not 14" in w)
    row = next(n for n, text in enumerate(source.read_text(encoding="utf-8").splitlines(), start=1)
               if '"display_name": "Mistakes #1"' in text)
    assert thirteen.startswith(f"warning: {source}:{row}: ") and "left out" in thirteen
    assert f"{len(warnings)} warning(s)" in out and "left out (see the warnings)" in out
    assert run(capsys, "card", "validate", str(tmp_path / "c.toml"))[0] == 0


def test_import_reads_the_format_from_the_content_when_the_name_does_not_say(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    source = tmp_path / "card-from-a-friend"
    shutil.copy(IMPORT_FILES / "practice.json", source)
    code, out, _ = run(capsys, "card", "import", str(source), "--out", str(tmp_path / "friend.toml"))
    assert code == 0 and "mpmahj card JSON" in out


def test_import_of_a_missing_file_is_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    err = refused(capsys, "card", "import", str(tmp_path / "nope.jq"), "--out", str(tmp_path / "x.toml"))
    assert "no such file" in err and not (tmp_path / "x.toml").exists()


def test_import_of_a_binary_file_is_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    picture = tmp_path / "card.jq"
    picture.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)))
    err = refused(capsys, "card", "import", str(picture), "--out", str(tmp_path / "x.toml"))
    assert "binary file" in err and not (tmp_path / "x.toml").exists()


def test_import_of_a_file_not_in_the_format_named_is_one_line(capsys: pytest.CaptureFixture[str],
                                                              tmp_path: Path) -> None:
    err = refused(capsys, "card", "import", str(IMPORT_FILES / "practice.json"), "--format", "ra",
                  "--out", str(tmp_path / "x.toml"))
    assert "not a riichi_advanced card file" in err and not (tmp_path / "x.toml").exists()


def test_import_of_text_not_utf8_is_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    latin = tmp_path / "card.json"
    latin.write_bytes('{"sections": [{"group_description": "Caf\u00e9"}]}'.encode("latin-1"))
    err = refused(capsys, "card", "import", str(latin), "--out", str(tmp_path / "x.toml"))
    assert "UTF-8" in err


@pytest.mark.parametrize(("out", "words"), [("card.txt", "ending in .toml"), ("my card.toml", "card's id"),
                                            (".toml", "card's id")])
def test_import_needs_an_out_file_whose_name_is_a_card_id(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                          out: str, words: str) -> None:
    err = refused(capsys, "card", "import", str(IMPORT_FILES / "practice.jq"), "--out", str(tmp_path / out))
    assert words in err


def test_import_never_overwrites_the_file_it_reads(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    source = tmp_path / "mine.toml"
    shutil.copy(IMPORT_FILES.parents[3] / "data" / "cards" / "practice.toml", source)
    before = source.read_bytes()
    err = refused(capsys, "card", "import", str(source), "--out", str(source))
    assert "is the file being imported" in err and source.read_bytes() == before
