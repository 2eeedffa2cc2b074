"""League weeks as people say them: "week of 23 Nov 2026" (the day the week starts), read back from what people
type. The stored key of a week stays its ISO-style label (``2026-W48``, :mod:`bot.store.standings`), which is
still accepted wherever a week is typed."""

from __future__ import annotations

import re
from datetime import date

from bot.store.standings import parse_week, week_label, week_start_date

MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
FULL_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
               "november", "december")
_DAY_MONTH_YEAR = re.compile(r"^(?:week\s+of\s+)?([0-9]{1,2})\s+([a-z]{3,9})\.?,?\s+([0-9]{4})$")
_MONTH_DAY_YEAR = re.compile(r"^(?:week\s+of\s+)?([a-z]{3,9})\.?\s+([0-9]{1,2}),?\s+([0-9]{4})$")
_ISO_DATE = re.compile(r"^(?:week\s+of\s+)?([0-9]{4})-([0-9]{2})-([0-9]{2})$")
EXAMPLE = "a day of the week, like 23 Nov 2026 (or 2026-11-23, or the week's number 2026-W48)"


def day_text(day: date) -> str:
    """``23 Nov 2026``: a date as the standings say it, the same in every country."""
    return f"{day.day} {MONTHS[day.month - 1]} {day.year}"


def week_name(label: str, week_start: int) -> str:
    """The week labelled ``label`` as people say it: ``week of 23 Nov 2026``, the day it starts."""
    return f"week of {day_text(week_start_date(label, week_start))}"


def read_week(text: str, week_start: int) -> str:
    """The label of the week a person typed: any day in it (``23 Nov 2026``, ``Nov 23, 2026``, ``2026-11-23``,
    with or without "week of") or the week's ISO label (``2026-W48``). ValueError saying what to type."""
    typed = " ".join(text.strip().split()).lower()
    if re.fullmatch(r"[0-9]{4}-w[0-9]{2}", typed):
        label = typed.upper()
        parse_week(label)
        return label
    day = _read_day(typed)
    if day is None:
        raise ValueError(f"'{text.strip()[:40]}' is not a week: type {EXAMPLE}.")
    if not date(1000, 1, 8) <= day <= date(9998, 11, 30):
        raise ValueError(f"'{text.strip()[:40]}' is out of range: give a week between the years 1000 and 9998.")
    return week_label(day, week_start)


def _read_day(typed: str) -> date | None:
    for pattern, order in ((_DAY_MONTH_YEAR, "dmy"), (_MONTH_DAY_YEAR, "mdy"), (_ISO_DATE, "ymd")):
        found = pattern.match(typed)
        if found is None:
            continue
        parts = dict(zip(order, found.groups(), strict=True))
        month = _month(parts["m"])
        if month is None:
            return None
        try:
            return date(int(parts["y"]), month, int(parts["d"]))
        except ValueError:
            return None
    return None


def _month(text: str) -> int | None:
    if text.isascii() and text.isdigit():
        return int(text) if 1 <= int(text) <= 12 else None
    for n, full in enumerate(FULL_MONTHS, start=1):
        if text in (full, full[:3]) or (text == "sept" and n == 9):
            return n
    return None
