"""The custom_id of every component the bot draws: what it is for, which table, which decision, which move; and the
one registry of the helper buttons.

All state lives in the custom_id (at most 100 characters), so a button drawn before a restart still works after
it; one component class per kind parses them back (:mod:`cogs.show.components`), and every press is routed by
that registry (:mod:`cogs.press.router`). A move's part is an action key, built and read only by
:mod:`bot.service.keys`.

    ch:a:<table>:<token>:<key>    make the move <key> while decision <token> is open
    ch:y:<table>:<token>:<key>    the same, confirmed: a move the player was asked about (a pass that lets a Mah
                                  Jongg go, a joker discarded) and chose anyway
    ch:s:<table>:<token>:<n>      a select whose options' values are moves (the blank swaps of one suit)
    ch:p:<table>:<token>:<mode>   the tile pick: a Charleston pass (c: exactly 3; b: fewer go blind), a courtesy
                                  offer (k)
    ch:c:<table>:<token>          "Call": show me the exposures I can make with this discard
    ch:t:<table>:<helper>         a helper (:class:`Helper`): the lobby's buttons and the private helpers,
                                  answered for the presser alone
    ch:n:<night>:<in|out>         a league night's sign-up: I'm in, Can't come (the one kind that names no table)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

import discord


class Helper(StrEnum):
    """The helper buttons: the lobby's, and those that answer the presser alone. Each one's label and style are
    in :data:`HELPERS`, and :class:`cogs.press.controls.Controls` has one handler per helper."""

    JOIN = "join"
    COMPUTER = "computer"
    START = "start"
    LEAVE = "leave"
    RACK = "rack"
    HINT = "hint"
    JOKERS = "jokers"
    BLANKS = "blanks"
    BACK = "back"


@dataclass(frozen=True)
class HelperLook:
    """How a helper button looks."""

    label: str
    style: discord.ButtonStyle = discord.ButtonStyle.secondary


HELPERS: dict[Helper, HelperLook] = {
    Helper.JOIN: HelperLook("Join", discord.ButtonStyle.success),
    Helper.COMPUTER: HelperLook("Add computer"),
    Helper.START: HelperLook("Start", discord.ButtonStyle.primary),  # "Deal again" between games
    Helper.LEAVE: HelperLook("Leave", discord.ButtonStyle.danger),
    Helper.RACK: HelperLook("My rack"),
    Helper.HINT: HelperLook("Hint"),
    Helper.JOKERS: HelperLook("Exchange a joker"),
    Helper.BLANKS: HelperLook("Swap a blank"),
    Helper.BACK: HelperLook("I'm back", discord.ButtonStyle.success),
}

_TABLE = r"(?P<table>\d{1,18})"
_TOKEN = r"(?P<token>[0-9a-z]{2,12})"
ACT = rf"ch:a:{_TABLE}:{_TOKEN}:(?P<key>[^:]{{1,60}})"
CONFIRM = rf"ch:y:{_TABLE}:{_TOKEN}:(?P<key>[^:]{{1,60}})"
SELECT = rf"ch:s:{_TABLE}:{_TOKEN}:(?P<n>[0-9])"
PICK = rf"ch:p:{_TABLE}:{_TOKEN}:(?P<mode>[cbk])"
CALL = rf"ch:c:{_TABLE}:{_TOKEN}"
SIGNUP = r"ch:n:(?P<night>\d{1,18}):(?P<answer>in|out)"
TABLE = rf"ch:t:{_TABLE}:(?P<what>{'|'.join(helper.value for helper in HELPERS)})"


def act_id(table: int, token: str, key: str) -> str:
    """A button that makes one move."""
    return f"ch:a:{table}:{token}:{key}"


def confirm_id(table: int, token: str, key: str) -> str:
    """A button that makes one move the player was asked to confirm."""
    return f"ch:y:{table}:{token}:{key}"


def select_id(table: int, token: str, n: int) -> str:
    """A select of moves (``n`` tells several apart in one message)."""
    return f"ch:s:{table}:{token}:{n}"


def pick_id(table: int, token: str, mode: str) -> str:
    """The select that picks tiles to pass or offer."""
    return f"ch:p:{table}:{token}:{mode}"


def call_id(table: int, token: str) -> str:
    """The "Call" button of a call window."""
    return f"ch:c:{table}:{token}"


def helper_id(table: int, helper: Helper) -> str:
    """A helper button of a table."""
    return f"ch:t:{table}:{helper.value}"


def signup_id(night: int, coming: bool) -> str:
    """A league night's sign-up button: I'm in, or Can't come."""
    return f"ch:n:{night}:{'in' if coming else 'out'}"
