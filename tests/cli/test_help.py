"""What --help says where a newcomer looks first (issue 32): the options' defaults and what a command writes."""

from __future__ import annotations

import argparse

import pytest

from bot.cli import build_parser, main


def help_text(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """A command's --help, as one line of words."""
    assert main([*argv, "--help"]) == 0
    return " ".join(capsys.readouterr().out.split())


def test_paired_help_prints_a_plain_percent_sign(capsys: pytest.CaptureFixture[str]) -> None:
    text = help_text(capsys, "paired")
    assert "95% confidence" in text and "%%" not in text


def test_train_help_says_its_default_out_replaces_the_shipped_model(capsys: pytest.CaptureFixture[str]) -> None:
    assert "default: data/models/learned.json, the shipped model, which it replaces" in help_text(capsys, "train")


def test_analyze_help_says_what_top_0_means(capsys: pytest.CaptureFixture[str]) -> None:
    assert "show only the best N lines (0, the default: every line)" in help_text(capsys, "card", "analyze")


@pytest.mark.parametrize("argv", [["standings"], ["ledger", "verify"], ["ledger", "export"], ["tables", "list"],
                                  ["tables", "resume"],
                                  ["backup"], ["migrate"], ["render", "standings"]])
def test_every_db_command_states_the_default_database(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    assert "default: CHARLESTON_DB from the environment, else from .env, else ./charleston.db" in help_text(
        capsys, *argv)


@pytest.mark.parametrize("argv", [["backup"], ["render", "rack"], ["train"], ["simulate"], ["demo"], ["paired"],
                                  ["sample-week"], ["db", "copy"], ["ledger", "export"]])
def test_every_command_that_writes_a_file_says_missing_folders_are_created(
        capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    assert "missing folders are created" in help_text(capsys, *argv)


def test_the_demo_offers_every_level_the_readme_lists(capsys: pytest.CaptureFixture[str]) -> None:
    assert "{random,easy,normal,hard}" in help_text(capsys, "demo")


def _every_command(parser: argparse.ArgumentParser, words: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """The words of every command and sub-command of the command line, the top one included."""
    found = [words]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found += _every_command(sub, (*words, name))
    return found


EVERY_COMMAND = _every_command(build_parser())


@pytest.mark.parametrize("argv", EVERY_COMMAND, ids=lambda words: " ".join(words) or "charleston")
def test_every_help_explains_every_option_in_plain_words(capsys: pytest.CaptureFixture[str],
                                                        argv: tuple[str, ...]) -> None:
    """Issue 35: each option and argument of ``charleston <cmd> --help`` has its line of help, and no help shows
    a doubled percent sign or a Python value (``None``, ``<function ...>``, ``[]``)."""
    text = help_text(capsys, *argv)
    assert text.startswith("usage: charleston")
    parser = build_parser()
    for word in argv:
        parser = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices[word]
    silent = [a.option_strings or a.dest for a in parser._actions
              if a.help is None and not isinstance(a, argparse._SubParsersAction)]
    assert silent == [], silent
    for stray in ("%%", "None", "<function", "object at", "[]"):
        assert stray not in text, stray


def test_db_copy_reads_the_bots_database_unless_given_from(capsys: pytest.CaptureFixture[str]) -> None:
    text = help_text(capsys, "db", "copy")
    assert "[--from DB] --to DB" in text
    assert "--from DB the database to copy: an SQLite file or a postgresql:// URL; default: CHARLESTON_DB from the " \
           "environment, else from .env, else ./charleston.db" in text
