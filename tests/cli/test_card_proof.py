"""``charleston card proof`` (bot/cli/card_proof.py): a page per section, from an id or a file, and the proof hint
after ``charleston card import``."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image
from support.paths import ROOT

from bot.cli import main
from bot.service.cards import load_card

IMPORTS = ROOT / "tests" / "engine" / "data" / "import"


def run(capsys, *argv: str) -> tuple[int, str, str]:  # type: ignore[no-untyped-def]
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_proof_writes_one_png_per_section_and_says_where(capsys, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run(capsys, "card", "proof", "--card", "nmjl-1946", "--out", str(tmp_path / "sheet"))
    card = load_card("nmjl-1946")
    pages = sorted((tmp_path / "sheet").iterdir())
    assert code == 0 and err == f"charleston: created the folder {tmp_path / 'sheet'}\n"  # the one folder rule
    assert len(pages) == len(card.sections)
    assert pages[0].name.startswith("nmjl-1946-proof-01-")
    for page in pages:
        assert page.name in out
        with Image.open(io.BytesIO(page.read_bytes())) as picture:
            assert picture.format == "PNG" and picture.width == 720
    assert str(tmp_path / "sheet") in out


def test_proof_takes_a_card_file_and_import_tells_how_to_proof_it(capsys, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    out_file = tmp_path / "spring-2026.toml"
    code, out, _ = run(capsys, "card", "import", str(IMPORTS / "practice.jq"), "--out", str(out_file))
    assert code == 0
    hint = f"charleston card proof --card {out_file} --out {tmp_path / 'spring-2026'}-proof"
    assert hint in out
    code, out, _ = run(capsys, *hint.split()[1:])
    assert code == 0
    assert len(list((tmp_path / "spring-2026-proof").glob("spring-2026-proof-*.png"))) == len(
        load_card("practice").sections)


def test_proof_of_an_unknown_card_or_a_missing_file_is_one_line(capsys, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    for card in ("no-such-card", str(tmp_path / "missing.toml")):
        code, out, err = run(capsys, "card", "proof", "--card", card, "--out", str(tmp_path / "x"))
        assert code == 2 and out == "" and len(err.splitlines()) == 1, err
    broken = tmp_path / "broken.toml"
    broken.write_text("[card]\nid = 'broken'\n", encoding="utf-8")
    code, _, err = run(capsys, "card", "proof", "--card", str(broken), "--out", str(tmp_path / "x"))
    assert code == 2 and "charleston card validate" in err and len(err.splitlines()) == 1
    assert not (tmp_path / "x").exists()
