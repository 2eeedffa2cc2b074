"""The custom_id of every component the bot draws: what it is for, which table, which decision, which move.

All state lives in the custom_id (at most 100 characters), so a button drawn before a restart still works after
it; one :class:`discord.ui.DynamicItem` per kind parses them back (:mod:`cogs.components`).

    ch:a:<table>:<token>:<key>    make the move <key> (bot.service.keys) while decision <token> is open
    ch:s:<table>:<token>:<n>      a select whose options' values are moves (the blank swaps of one suit)
    ch:p:<table>:<token>:<mode>   the tile pick: a Charleston pass (c: exactly 3; b: fewer go blind), a courtesy
                                  offer (k)
    ch:c:<table>:<token>          "Call": show me the exposures I can make with this discard
    ch:t:<table>:<what>           the lobby (join, computer, start, leave) and the private helpers (rack, hint,
                                  jokers, blanks, back), answered for the presser alone
"""

from __future__ import annotations

_TABLE = r"(?P<table>\d{1,18})"
_TOKEN = r"(?P<token>[0-9a-z]{2,12})"
ACT = rf"ch:a:{_TABLE}:{_TOKEN}:(?P<key>[^:]{{1,60}})"
SELECT = rf"ch:s:{_TABLE}:{_TOKEN}:(?P<n>[0-9])"
PICK = rf"ch:p:{_TABLE}:{_TOKEN}:(?P<mode>[cbk])"
CALL = rf"ch:c:{_TABLE}:{_TOKEN}"
TABLE = rf"ch:t:{_TABLE}:(?P<what>join|computer|start|leave|rack|hint|jokers|blanks|back)"


def act_id(table: int, token: str, key: str) -> str:
    """A button that makes one move."""
    return f"ch:a:{table}:{token}:{key}"


def select_id(table: int, token: str, n: int) -> str:
    """A select of moves (``n`` tells several apart in one message)."""
    return f"ch:s:{table}:{token}:{n}"


def pick_id(table: int, token: str, mode: str) -> str:
    """The select that picks tiles to pass or offer."""
    return f"ch:p:{table}:{token}:{mode}"


def call_id(table: int, token: str) -> str:
    """The "Call" button of a call window."""
    return f"ch:c:{table}:{token}"


def table_id(table: int, what: str) -> str:
    """A lobby button or a private helper."""
    return f"ch:t:{table}:{what}"
