"""What a person's DM needs at each change (cogs/show/dm_plan.py), from a table of cases: edited in place while the
same decision is open; sent anew when a new decision awaits her, a Mah Jongg is hers to claim or she asked again;
told privately in the thread where her DMs are closed; and nothing when nothing changed."""

from __future__ import annotations

from dataclasses import replace

import pytest

from cogs.show.dm_plan import DmFacts, Step, plan_dm

# A DM standing for the decision open now, nothing new: the baseline each case changes.
QUIET = DmFacts(unchanged=False, table_closed=False, dms_closed=False, thread_hook=False, tried_this_game=False,
                renewal_due=False, standing=True, new_win=False, new_decision=False, call_window=False)

CASES = [
    # (what changed, the facts, the step, mark_shown, try_closed)
    ("nothing changed", {"unchanged": True}, Step.NOTHING, False, False),
    ("the same decision, something on it changed", {}, Step.EDIT, False, False),
    ("a new decision awaits her: her phone rings", {"new_decision": True}, Step.SEND, False, False),
    ("a call window she can call: the DM is edited, the table offers the Pass", {"new_decision": True,
                                                                               "call_window": True},
     Step.EDIT, False, False),
    ("a Mah Jongg she can claim rings even in a call window", {"new_win": True, "call_window": True}, Step.SEND,
     False, False),
    ("she asked for her rack again", {"renewal_due": True}, Step.SEND, False, False),
    ("no DM of hers yet", {"standing": False}, Step.SEND, False, False),
    ("the table closed: her DM is edited to say so", {"table_closed": True, "new_decision": True}, Step.EDIT, False,
     False),
    ("the table closed and no DM stands", {"table_closed": True, "standing": False}, Step.NOTHING, False, False),
    ("DMs closed, a live interaction in the thread: told there", {"dms_closed": True, "thread_hook": True,
                                                                 "standing": False}, Step.TELL_IN_THREAD, False,
     False),
    ("DMs closed, told in the thread even in a call window", {"dms_closed": True, "thread_hook": True,
                                                             "new_decision": True, "call_window": True},
     Step.TELL_IN_THREAD, False, False),
    ("DMs closed, no interaction in the thread: a DM is tried once a game", {"dms_closed": True, "standing": False},
     Step.SEND, False, True),
    ("DMs closed and tried this game: nothing, My rack shows her the same", {"dms_closed": True,
                                                                            "tried_this_game": True},
     Step.NOTHING, True, False),
    ("DMs closed and tried, but she typed /rack: tried again", {"dms_closed": True, "tried_this_game": True,
                                                               "renewal_due": True, "standing": False},
     Step.SEND, False, True),
]


@pytest.mark.parametrize(("changes", "step", "mark_shown", "try_closed"),
                         [case[1:] for case in CASES], ids=[case[0] for case in CASES])
def test_the_dm_plan_for_each_case(changes: dict[str, bool], step: Step, mark_shown: bool, try_closed: bool) -> None:
    plan = plan_dm(replace(QUIET, **changes))
    assert (plan.step, plan.mark_shown, plan.try_closed) == (step, mark_shown, try_closed), plan.why
    assert plan.why


def test_every_step_is_reached_by_some_case() -> None:
    assert {case[2] for case in CASES} == set(Step)
