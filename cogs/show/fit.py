"""Fitting a message into Discord's 2,000 characters without breaking it: the text is cut only between whole
lines, a ``` code block left open by the cut is closed (else the rest of the channel shows as code on a phone),
and a last line says how many lines were left out and where to see them."""

from __future__ import annotations

from bot.engine.wording import plural

MESSAGE_LIMIT = 2000  # Discord's limit on a message's content
FENCE = "```"


def _omitted(lines: list[str]) -> int:
    """Lines a reader would miss: a bare fence carries nothing."""
    return sum(1 for line in lines if line.strip() != FENCE)


def fit_lines(text: str, tail: str, limit: int = MESSAGE_LIMIT) -> str:
    """``text`` as it is when it fits in ``limit`` characters; else as many of its first lines as fit, an open
    code block closed, and ``tail`` (short) with ``{more}`` replaced by "N more lines" (``"… and {more}: see
    /standings"``)."""
    if len(text) <= limit:
        return text
    lines = text.split("\n")
    best, size, fences = 0, -1, 0  # the most lines that fit; the first k lines' length joined, their fences
    more = _omitted(lines)  # after the first k
    for k, line in enumerate(lines[:-1], start=1):
        more -= line.strip() != FENCE
        size += len(line) + 1
        if size > limit:
            break
        fences += line.count(FENCE)
        closing = len(FENCE) + 1 if fences % 2 else 0
        ending = len(_tail(tail, more)) + 1 if more else 0
        if size + closing + ending <= limit:
            best = k
    return _assemble(lines[:best], lines[best:], tail)


def _tail(tail: str, more: int) -> str:
    return tail.format(more=plural(more, "more line"))


def _assemble(kept: list[str], left: list[str], tail: str) -> str:
    """The kept lines, a fence closing an open block, and the tail naming what was left out."""
    parts = list(kept)
    if sum(line.count(FENCE) for line in kept) % 2:
        parts.append(FENCE)
    more = _omitted(left)
    if more:
        parts.append(_tail(tail, more))
    return "\n".join(parts)
