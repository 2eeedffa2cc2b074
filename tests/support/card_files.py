"""Card files written for the validator's tests: a one-hand card from a pattern and keys, the line a key is
written on, the problems of such a card."""

from __future__ import annotations

from bot.engine.card import Line
from bot.engine.cardfile import load_card_text, validate_card_text

SOURCE = "test.toml"


def card_text(*hands: dict[str, object], wild: str | None = None, extra_card: str = "") -> str:
    """A card file with one [[hand]] table per dict, written key by key (strings quoted, lists as TOML)."""
    lines = ["[card]", 'id = "test"', 'name = "Test card"']
    if wild:
        lines.append(f'wild = "{wild}"')
    if extra_card:
        lines.append(extra_card)
    for hand in hands:
        lines += ["", "[[hand]]"]
        full = {"section": "S", "exposed": True, "value": 25, **hand}
        for key, value in full.items():
            lines.append(f"{key} = {toml_value(value)}")
    return "\n".join(lines) + "\n"


def toml_value(value: object) -> str:
    """A value written as TOML."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return str(value)


def header_lines(text: str) -> list[int]:
    """The file lines of the [[hand]] headers."""
    return [n for n, line in enumerate(text.splitlines(), start=1) if line.strip() == "[[hand]]"]


def key_line(text: str, key: str, hand: int = 0) -> int:
    """The file line of ``key`` in the ``hand``-th [[hand]] table of a file written by :func:`card_text`."""
    lines = text.splitlines()
    start = header_lines(text)[hand]
    return next(n for n in range(start + 1, len(lines) + 1) if lines[n - 1].startswith(f"{key} = "))


def problems_for(pattern: str | list[str], key: str = "pattern", **keys: object) -> tuple[list[str], int]:
    """Problems of a one-hand card with this pattern, and the file line of ``key`` (the pattern by default)."""
    wild = keys.pop("wild", None)
    text = card_text({"id": "h1", "pattern": pattern, **keys}, wild=wild)  # type: ignore[arg-type]
    return validate_card_text(text, SOURCE), key_line(text, key)


def only_problem(pattern: str | list[str], key: str = "pattern", **keys: object) -> str:
    """The one problem of a one-hand card, checked to be on the line of ``key``."""
    problems, line = problems_for(pattern, key, **keys)
    assert len(problems) == 1, problems
    problem = problems[0]
    assert problem.startswith(f"{SOURCE}:{line}: hand h1"), problem
    return problem


def load_line(pattern: str | list[str], wild: str | None = None, **keys: object) -> Line:
    """The one line of a one-hand card with this pattern, compiled."""
    text = card_text({"id": "h1", "pattern": pattern, **keys}, wild=wild)
    return load_card_text(text, SOURCE).lines[0]
