"""What a person's DM needs now, decided from what it shows and the newest update, before anything is sent: the
pure half of :mod:`cogs.show.dms` (which carries the plan out), so that every case can be read and tested from a
table of facts.

The DM is edited in place while the same decision is open, and sent anew (the old one deleted) when a new decision
awaits her, a Mah Jongg is hers to claim, or she asked for it again (``/rack``, a moved table), so that her phone
tells her. A call window alone does not ring her phone from the DM (the table message offers the plain Pass); where
her DMs are closed, what a DM would show her is told privately in the table's thread through her latest interaction
there, and without one a DM is tried once a game (and on ``/rack``), in case she opened them again.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Step(StrEnum):
    """What is done to a person's DM."""

    NOTHING = "nothing"
    EDIT = "edit"  # the standing DM, in place
    SEND = "send"  # a new DM (a follow-up of her latest press while its token lives, else through her DM channel)
    TELL_IN_THREAD = "tell in the thread"  # her DMs are closed: a private follow-up in the table's thread


@dataclass(frozen=True)
class DmFacts:
    """What the decision depends on, each a plain fact about her DM and the newest update."""

    unchanged: bool  # the DM shows this already, and no renewal or press is pending
    table_closed: bool
    dms_closed: bool  # her DMs are known closed (the table still open)
    thread_hook: bool  # she has a live interaction in the table's thread (to be told there, privately)
    tried_this_game: bool  # a DM to her closed DMs was tried already this game
    renewal_due: bool  # a new message was asked for (/rack, a moved table) and not sent yet
    standing: bool  # a DM of hers stands (it can be edited)
    new_win: bool  # a Mah Jongg she can claim now that she has not been told of by a new message
    new_decision: bool  # a decision awaits her that her standing DM was not sent for
    call_window: bool  # the table is in a call window


@dataclass(frozen=True)
class DmPlan:
    """The step to take, and why (for a reader of the code and the tests)."""

    step: Step
    why: str
    mark_shown: bool = False  # nothing sent, yet the DM counts as showing this update (My rack shows her the same)
    try_closed: bool = False  # this write is the game's one try of her closed DMs


def plan_dm(facts: DmFacts) -> DmPlan:
    """What to do with a person's DM now."""
    if facts.unchanged:
        return DmPlan(Step.NOTHING, "it shows this already")
    in_thread = facts.dms_closed and facts.thread_hook
    try_closed = facts.dms_closed and not in_thread
    if try_closed and facts.tried_this_game and not facts.renewal_due:
        return DmPlan(Step.NOTHING, "her DMs are closed and were tried this game; My rack shows her the same",
                      mark_shown=True)
    fresh = _fresh(facts, in_thread)
    if facts.standing and fresh is None:
        return DmPlan(Step.EDIT, "the same decision: her DM is brought up to date in place", try_closed=try_closed)
    if facts.table_closed:
        return DmPlan(Step.NOTHING, "the table closed and no DM of hers stands to show it", try_closed=try_closed)
    why = fresh or "no DM of hers stands"
    return DmPlan(Step.TELL_IN_THREAD if in_thread else Step.SEND, why, try_closed=try_closed)


def _fresh(facts: DmFacts, in_thread: bool) -> str | None:
    """Why a new message is due (so that her phone rings), or None while an edit will do."""
    if facts.table_closed:
        return None
    if facts.renewal_due:
        return "she asked for it again (/rack), or the table moved"
    if facts.new_win:
        return "a Mah Jongg is hers to claim"
    if facts.new_decision and (not facts.call_window or in_thread):
        return "a new decision awaits her"
    return None
