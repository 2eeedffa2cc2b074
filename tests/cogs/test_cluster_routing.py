"""What the process of shard 0 reads from an INTERACTION_CREATE to route it (cogs/cluster.py): the table a component
names (every kind of custom_id the bot draws), who pressed or typed it, and which command it is."""

from __future__ import annotations

import pytest

from cogs.cluster import TABLE_COMMANDS, command_of, table_of, user_of
from cogs.show import ids
from cogs.show.ids import Helper

USER = {"id": "42", "username": "ruth"}


@pytest.mark.parametrize("custom_id", [ids.act_id(17, "3t31", "d.5D"), ids.select_id(17, "3t31", 0),
                                       ids.pick_id(17, "3c2", "b"), ids.call_id(17, "3w31"),
                                       ids.helper_id(17, Helper.BACK), ids.helper_id(17, Helper.RACK)])
def test_every_component_names_its_table(custom_id: str) -> None:
    pressed = {"id": "1", "type": 3, "user": USER, "data": {"custom_id": custom_id, "component_type": 2}}
    assert table_of(pressed) == 17 and user_of(pressed) == 42 and command_of(pressed) is None


def test_what_names_no_table() -> None:
    assert table_of({"type": 3, "data": {"custom_id": "something:else"}}) is None
    assert table_of({"type": 3}) is None
    assert table_of({"type": 2, "data": {"name": "rack"}}) is None


def test_a_command_and_who_typed_it_in_a_dm_or_a_guild() -> None:
    typed = {"id": "1", "type": 2, "user": USER, "data": {"name": "rack"}}
    assert command_of(typed) == "rack" and "rack" in TABLE_COMMANDS and user_of(typed) == 42
    in_guild = {"id": "2", "type": 4, "guild_id": "9", "member": {"user": USER}, "data": {"name": "play"}}
    assert command_of(in_guild) == "play" and user_of(in_guild) == 42
    assert command_of({"type": 2, "data": {"name": "ping"}}) not in TABLE_COMMANDS
