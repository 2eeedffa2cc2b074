"""Whatever is typed into a setting (issue 35): each reader of bot/settings.py gives a value in its range or one
SettingsError naming the setting, never a traceback. Whole numbers are ASCII digits only: "²" and other scripts'
digits pass ``str.isdigit`` and then break or fool ``int``."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from bot.settings import Settings, SettingsError, database_setting, load_settings, read_dotenv, whole_number

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GxYz12.abcdefghijklmnopqrstuvwxyz012345"

# Each setting, and what a loaded value must be: the range the README and .env.example promise.
IN_RANGE = {
    "CHARLESTON_THINK_WORKERS": lambda s: s.think_workers is None or 0 <= s.think_workers <= 16,
    "CHARLESTON_RENDER_WORKERS": lambda s: s.render_workers is None or 0 <= s.render_workers <= 8,
    "CHARLESTON_GLOBAL_LIMIT": lambda s: 1 <= s.global_limit <= 100_000,
    "CHARLESTON_SHARD_COUNT": lambda s: s.shard_count is None or 1 <= s.shard_count <= 10_000,
    "CHARLESTON_GUILD": lambda s: s.guild_id is None or 10**14 <= s.guild_id < 10**20,
    "CHARLESTON_REFRESH_SECONDS": lambda s: 0.05 <= s.refresh_seconds <= 10,
    "CHARLESTON_LOG_LEVEL": lambda s: s.log_level in ("DEBUG", "INFO", "WARNING", "ERROR"),
}
DIGITS_OF_OTHER_SCRIPTS = ["²", "³", "¹⁶", "٣", "१", "８", "⑤", "Ⅻ", "1²", "𝟙𝟚"]


def typed_into(name: str, text: str) -> Settings:
    """The settings with ``text`` typed as ``name`` (a PostgreSQL database, so shard settings may load)."""
    return load_settings({"DISCORD_TOKEN": TOKEN, "CHARLESTON_DB": "postgresql://bot@db/charleston", name: text},
                         dotenv=None)


@pytest.mark.parametrize("name", sorted(IN_RANGE))
@given(text=st.text(max_size=40))
@example(text="²")
@example(text="٣")
@example(text="9" * 5000)
@example(text="1_0")
@example(text="nan")
def test_any_text_typed_into_a_setting_loads_in_range_or_is_one_sentence_naming_it(name: str, text: str) -> None:
    try:
        found = typed_into(name, text)
    except SettingsError as exc:
        message = str(exc)
        assert message.startswith(name) and "\n" not in message and len(message) < 400
        return
    assert IN_RANGE[name](found), (name, text)


@pytest.mark.parametrize("name", ["CHARLESTON_THINK_WORKERS", "CHARLESTON_RENDER_WORKERS", "CHARLESTON_GLOBAL_LIMIT",
                                  "CHARLESTON_SHARD_COUNT", "CHARLESTON_REFRESH_SECONDS"])
@pytest.mark.parametrize("digits", DIGITS_OF_OTHER_SCRIPTS)
def test_digits_of_other_scripts_are_refused_by_name_in_every_whole_number_setting(name: str, digits: str) -> None:
    with pytest.raises(SettingsError, match=f"^{name} must be a .*number"):
        typed_into(name, digits)


@given(ids=st.text(max_size=30))
@example(ids="0-²")
@example(ids="٠,1")
@example(ids="0-" + "9" * 5000)
def test_any_shard_ids_typed_load_among_the_shards_or_are_one_sentence(ids: str) -> None:
    try:
        found = load_settings({"DISCORD_TOKEN": TOKEN, "CHARLESTON_DB": "postgresql://bot@db/charleston",
                               "CHARLESTON_SHARD_COUNT": "4", "CHARLESTON_SHARD_IDS": ids}, dotenv=None)
    except SettingsError as exc:
        assert str(exc).startswith("CHARLESTON_SHARD_IDS") and "\n" not in str(exc)
        return
    assert found.shard_ids is None or (found.shard_ids and set(found.shard_ids) <= {0, 1, 2, 3})


@given(db=st.text(max_size=60))
def test_any_database_setting_is_a_target_or_one_sentence(db: str) -> None:
    try:
        target = database_setting({"CHARLESTON_DB": db})
    except SettingsError as exc:
        assert str(exc).startswith("CHARLESTON_DB: ") and "\n" not in str(exc)
        return
    assert target and "\0" not in target


@given(text=st.text(max_size=200))
def test_any_dot_env_file_reads_as_settings_or_one_sentence_naming_its_line(tmp_path_factory: pytest.TempPathFactory,
                                                                            text: str) -> None:
    path = tmp_path_factory.mktemp("env") / ".env"
    path.write_text(text, encoding="utf-8", newline="")
    try:
        values = read_dotenv(path)
    except SettingsError as exc:
        assert str(exc).startswith(f"{path}, line ") and "expected NAME=value" in str(exc)
        return
    assert all(key.isidentifier() and key.isascii() for key in values)


def test_a_dot_env_that_is_not_text_is_one_sentence(tmp_path: Path) -> None:
    path = tmp_path / ".env"
    path.write_bytes(b"CHARLESTON_THINK_WORKERS=\xff\xfe\n")
    with pytest.raises(SettingsError, match="can't be read"):
        read_dotenv(path)


@pytest.mark.parametrize(("text", "whole"), [("0", True), ("16", True), ("²", False), ("٣", False), ("", False),
                                             ("1.0", False), ("-1", False), (" 1", False), ("9" * 21, False)])
def test_a_whole_number_is_ascii_digits_only(text: str, whole: bool) -> None:
    assert whole_number(text) is whole
