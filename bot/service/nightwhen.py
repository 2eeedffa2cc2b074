"""A night's date and time as an organiser types it, in her league's time zone: ``2026-12-02 19:00``,
``2 Dec 2026 7pm``, ``Dec 2 19:30``, ``2 Dec 7:30 pm`` (without a year: the next such day)."""

from __future__ import annotations

import re
from datetime import date, datetime, time
from zoneinfo import ZoneInfo

from .errors import ErrorKind, TableError

MONTHS = {name: n for n, name in enumerate(("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct",
                                            "nov", "dec"), start=1)}
_CLOCK = re.compile(r"^([0-9]{1,2})(?::([0-9]{2}))?\s*(am|pm)?$")
EXAMPLE = "like 2026-12-02 19:00, or 2 Dec 2026 7pm"


def _bad(text: str) -> TableError:
    return TableError(ErrorKind.BAD_INPUT, f"'{text.strip()[:40]}' is not a date and time I can read: write it "
                      f"{EXAMPLE} (in the league's time zone).")


def _clock(text: str, typed: str) -> time:
    found = _CLOCK.match(text.strip().lower())
    if not found:
        raise _bad(typed)
    hour, minute = int(found.group(1)), int(found.group(2) or 0)
    if found.group(3):
        if not 1 <= hour <= 12:
            raise _bad(typed)
        hour = hour % 12 + (12 if found.group(3) == "pm" else 0)
    if hour > 23 or minute > 59:
        raise _bad(typed)
    return time(hour, minute)


def _digits(word: str) -> bool:
    """A number typed in ASCII digits (``str.isdigit`` alone passes "²", which ``int`` refuses)."""
    return word.isascii() and word.isdigit()


def _day(words: list[str], typed: str, today: date) -> date:
    """``2026-12-02``, ``2 Dec 2026``, ``Dec 2 2026``, ``2 Dec`` or ``Dec 2``."""
    try:
        if len(words) == 1:
            return date.fromisoformat(words[0])
        month = next((MONTHS[w[:3]] for w in words if w[:3] in MONTHS and not _digits(w)), None)
        numbers = [int(w) for w in words if _digits(w)]
        if month is None or not 1 <= len(numbers) <= 2 or len(words) != len(numbers) + 1:
            raise _bad(typed)
        day = numbers[0]
        if len(numbers) == 2:
            return date(numbers[1], month, day)
        chosen = date(today.year, month, day)
        return chosen if chosen >= today else date(today.year + 1, month, day)
    except ValueError:
        raise _bad(typed) from None


def read_when(text: str, zone: ZoneInfo, now: datetime) -> datetime:
    """The moment typed, in ``zone``; a TableError saying how to write it otherwise."""
    typed = " ".join(text.replace(",", " ").split()).lower()
    if not typed or len(typed) > 40:
        raise _bad(text)
    found = re.match(r"^(.*?)\s+([0-9]{1,2}(?::[0-9]{2})?\s*(?:am|pm)?)$", typed)
    if not found:
        raise _bad(text)
    day = _day(found.group(1).split(), text, now.astimezone(zone).date())
    return datetime.combine(day, _clock(found.group(2), text), zone)
