"""Scripted players: users who run slash commands, click, select, fill modals and read what the bot sent them.

A player can only do what the Discord client lets a person do: use a command the bot synced, with the options
it declared (choices and bounds respected), click a button they can see, pick listed select options.
Anything else is a mistake in the test script and raises ``PlayerError`` at once.
"""

from __future__ import annotations

from typing import Any

from . import interactions
from .models import Attachment, Channel, Command, Interaction, Message, User
from .world import World

SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = 3, 4, 5, 6, 7, 8, 9, 10, 11
BUTTON, STRING_SELECT, TEXT_INPUT, LABEL = 2, 3, 4, 18


class PlayerError(AssertionError):
    """The test script asked a player to do something the Discord client would not let them do."""


class Sent:
    """An interaction a player started: await the bot's answers to it (initial response, then followups)."""

    def __init__(self, world: World, interaction: Interaction) -> None:
        self.world = world
        self.interaction = interaction

    @property
    def response_type(self) -> int | None:
        """4 message, 5 deferred, 6 deferred update, 7 update, 8 autocomplete, 9 modal (None until answered)."""
        return self.interaction.response_type

    @property
    def modal(self) -> dict[str, Any] | None:
        """The modal the bot opened (callback type 9), as sent."""
        return self.interaction.modal

    async def response(self, timeout: float = 5.0) -> int:
        """Wait for the initial response and return its type."""
        inter = self.interaction
        await self.world.wait_for(lambda: inter.responded, timeout, f"the bot's response to interaction {inter.name}")
        assert inter.response_type is not None
        return inter.response_type

    async def message(self, timeout: float = 5.0) -> Message:
        """The message the response made or updated, once it is no longer a 'thinking...' placeholder."""
        inter = self.interaction
        return await self.world.wait_for(
            lambda: inter.original if inter.original is not None and not inter.original.loading else None,
            timeout, f"a response message to {inter.name or inter.data.get('custom_id')}")

    async def messages(self, count: int, timeout: float = 5.0) -> list[Message]:
        """Wait until the response and followups make at least ``count`` finished messages; return them all."""
        inter = self.interaction

        def ready() -> list[Message] | None:
            done = [m for m in inter.messages if not m.loading]
            return done if len(done) >= count else None

        return await self.world.wait_for(ready, timeout, f"{count} message(s) answering {inter.name}")

    async def followups(self, count: int, timeout: float = 5.0) -> list[Message]:
        """Wait for ``count`` followup messages."""
        inter = self.interaction
        return await self.world.wait_for(lambda: list(inter.followups) if len(inter.followups) >= count else None,
                                         timeout, f"{count} followup(s) to {inter.name}")


class Player:
    """A user in the double's world, acting in one channel (``at`` gives the same user in another)."""

    def __init__(self, world: World, user: User, channel: Channel) -> None:
        self.world = world
        self.user = user
        self.channel = channel

    def __repr__(self) -> str:
        return f"<Player {self.user.name} in #{self.channel.name or 'DM'}>"

    @property
    def id(self) -> int:
        """The user's id."""
        return self.user.id

    @property
    def mention(self) -> str:
        """``<@id>``."""
        return self.user.mention

    def at(self, channel: Channel) -> Player:
        """The same user, acting in another channel (a thread, or their DM with the bot)."""
        return Player(self.world, self.user, channel)

    # -- reading --------------------------------------------------------------------------------------

    @property
    def dm_channel(self) -> Channel:
        """This user's DM channel with the bot."""
        return self.world.dm_channel(self.user)

    def dms(self) -> list[Message]:
        """Messages in this user's DM with the bot, oldest first."""
        return self.sees(self.dm_channel)

    def sees(self, channel: Channel | None = None) -> list[Message]:
        """The messages of a channel this user can see (their own ephemeral ones included)."""
        return [m for m in (channel or self.channel).messages if m.visible(self.user)]

    def last_message(self, channel: Channel | None = None) -> Message | None:
        """The newest message this user can see in a channel."""
        seen = self.sees(channel)
        return seen[-1] if seen else None

    # -- acting -----------------------------------------------------------------------------------------

    async def say(self, content: str) -> Message:
        """Post a plain message in the channel."""
        return self.world.post(self.channel, self.user, {"content": content})

    def upload(self, filename: str, data: bytes, content_type: str | None = None) -> Attachment:
        """A file to give as an attachment option (the bot can download it from its URL)."""
        return self.world.upload(filename, data, content_type)

    async def slash(self, *names: str, **options: Any) -> Sent:
        """Run ``/names...`` with options, e.g. ``slash("table", "new", card="practice")``."""
        _, data = self._command_data(names, options, focused=None)
        inter = interactions.start(self.world, interactions.COMMAND, self.user, self.channel, data,
                                   name=" ".join(names))
        return Sent(self.world, inter)

    async def autocomplete(self, *names: str, timeout: float = 5.0, **options: Any) -> list[dict[str, Any]]:
        """Type into the last keyword option given and return the choices the bot suggests."""
        if not options:
            raise PlayerError("autocomplete needs the option being typed (the last keyword argument)")
        focused = list(options)[-1]
        _, data = self._command_data(names, options, focused=focused)
        inter = interactions.start(self.world, interactions.AUTOCOMPLETE, self.user, self.channel, data,
                                   name=" ".join(names))
        await Sent(self.world, inter).response(timeout)
        return list(inter.choices or [])

    async def click(self, message: Message, custom_id: str) -> Sent:
        """Click a button of a message."""
        comp = self._component(message, custom_id, BUTTON)
        if comp.get("style") == 5 or comp.get("url"):
            raise PlayerError(f"{custom_id!r} is a link button: it opens a URL, the bot hears nothing")
        data = {"custom_id": custom_id, "component_type": BUTTON, "id": comp.get("id")}
        return self._start(interactions.COMPONENT, data, message)

    async def click_removed(self, message: Message, custom_id: str) -> Sent:
        """Click a button the player's screen still shows though the bot has just edited it away (her client had not
        redrawn yet): Discord delivers the press with the message as it stands now, without that button."""
        current = self.world.messages.get(message.id, message)
        if not current.visible(self.user):
            raise PlayerError(f"{self.user.name} cannot see message {message.id} (deleted, or ephemeral for another)")
        if current.component(custom_id) is not None:
            raise PlayerError(f"message {message.id} still has {custom_id!r}: use click")
        return self._start(interactions.COMPONENT, {"custom_id": custom_id, "component_type": BUTTON}, current)

    async def select(self, message: Message, custom_id: str, values: list[str]) -> Sent:
        """Pick ``values`` in a string select of a message."""
        comp = self._component(message, custom_id, STRING_SELECT)
        _check_select(comp, values)
        data = {"custom_id": custom_id, "component_type": STRING_SELECT, "values": list(values), "id": comp.get("id")}
        return self._start(interactions.COMPONENT, data, message)

    async def submit_modal(self, opened: Sent, values: dict[str, Any] | None = None, **more: Any) -> Sent:
        """Fill and submit the modal the bot opened in answer to ``opened``: text by input custom_id."""
        modal = opened.interaction.modal
        if modal is None:
            raise PlayerError("the bot did not answer that interaction with a modal")
        if opened.interaction.user is not self.user:
            raise PlayerError("a modal can only be submitted by the user it was shown to")
        given = {**(values or {}), **more}
        components = [_submitted(c, given) for c in modal.get("components") or []]
        if given:
            raise PlayerError(f"the modal has no input(s) {sorted(given)}")
        data = {"custom_id": modal["custom_id"], "components": [c for c in components if c is not None]}
        return self._start(interactions.MODAL_SUBMIT, data, opened.interaction.message)

    def _start(self, kind: int, data: dict[str, Any], message: Message | None) -> Sent:
        inter = interactions.start(self.world, kind, self.user, self.channel if message is None else message.channel,
                                   data, message=message)
        return Sent(self.world, inter)

    def _component(self, message: Message, custom_id: str, kind: int) -> dict[str, Any]:
        if not message.visible(self.user):
            raise PlayerError(f"{self.user.name} cannot see message {message.id} (deleted, or ephemeral for another)")
        current = self.world.messages.get(message.id, message)
        comp = current.component(custom_id)
        if comp is None:
            raise PlayerError(f"message {message.id} has no component {custom_id!r}; it has {current.custom_ids}")
        if comp.get("type") != kind:
            raise PlayerError(f"component {custom_id!r} is of type {comp.get('type')}, not {kind}")
        if comp.get("disabled"):
            raise PlayerError(f"component {custom_id!r} is disabled")
        return comp

    # -- slash command payloads -------------------------------------------------------------------------

    def _find_command(self, name: str) -> Command:
        world, guild_id = self.world, self.channel.guild_id
        synced = [c for c in world.commands.values() if c.name == name and int(c.body.get("type") or 1) == 1]
        local = [c for c in synced if guild_id is not None and c.guild_id == guild_id]
        found = local or [c for c in synced if c.guild_id is None]
        if guild_id is None:
            found = [c for c in found if c.body.get("contexts") is None or 1 in c.body["contexts"]]
        if not found:
            names = sorted({c.name for c in world.commands.values()})
            raise PlayerError(f"/{name} is not synced where {self.user.name} is (synced: {names})")
        return found[0]

    def _command_data(self, names: tuple[str, ...], options: dict[str, Any],
                      focused: str | None) -> tuple[Command, dict[str, Any]]:
        if not names:
            raise PlayerError("slash needs a command name")
        command = self._find_command(names[0])
        resolved: dict[str, dict[str, Any]] = {}
        top: list[dict[str, Any]] = []
        container, declared = top, list(command.body.get("options") or [])
        for name in names[1:]:
            sub = next((o for o in declared if o["name"] == name and o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)),
                       None)
            if sub is None:
                known = [o["name"] for o in declared if o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)]
                raise PlayerError(f"/{' '.join(names)}: no subcommand {name!r} (there are {known})")
            entry: dict[str, Any] = {"type": sub["type"], "name": name, "options": []}
            container.append(entry)
            container, declared = entry["options"], list(sub.get("options") or [])
        if any(o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in declared):
            raise PlayerError(f"/{' '.join(names)} needs a subcommand: {[o['name'] for o in declared]}")
        for opt in declared:
            if opt.get("required") and opt["name"] not in options:
                raise PlayerError(f"/{' '.join(names)} requires option {opt['name']!r}")
        for key, value in options.items():
            opt = next((o for o in declared if o["name"] == key), None)
            if opt is None:
                raise PlayerError(f"/{' '.join(names)} has no option {key!r} (it has {[o['name'] for o in declared]})")
            if key == focused:
                container.append({"type": opt["type"], "name": key, "value": str(value), "focused": True})
            else:
                container.append(self._option(opt, value, resolved))
        data: dict[str, Any] = {"id": str(command.id), "name": command.name, "type": 1, "options": top}
        if resolved:
            data["resolved"] = resolved
        if command.guild_id is not None:
            data["guild_id"] = str(command.guild_id)
        return command, data

    def _option(self, opt: dict[str, Any], value: Any, resolved: dict[str, dict[str, Any]]) -> dict[str, Any]:
        kind, name = opt["type"], opt["name"]
        if kind in (STRING, INTEGER, NUMBER):
            value = {STRING: str, INTEGER: int, NUMBER: float}[kind](value)
            _check_choice(opt, value)
        elif kind == BOOLEAN:
            value = bool(value)
        elif kind == USER:
            user = value.user if isinstance(value, Player) else value
            if not isinstance(user, User):
                raise PlayerError(f"option {name!r} takes a Player or a User")
            resolved.setdefault("users", {})[str(user.id)] = user.to_json()
            guild = self.world.guild_of(self.channel)
            if guild is not None and user.id in guild.members:
                member = guild.members[user.id].to_json(with_user=False,
                                                        permissions=self.world.permissions_for(user, guild))
                resolved.setdefault("members", {})[str(user.id)] = member
            value = str(user.id)
        elif kind == CHANNEL:
            if not isinstance(value, Channel):
                raise PlayerError(f"option {name!r} takes a Channel")
            channel_types = opt.get("channel_types")
            if channel_types and value.type not in channel_types:
                raise PlayerError(f"option {name!r} accepts channel types {channel_types}, not {value.type}")
            guild = self.world.guild_of(self.channel)
            resolved.setdefault("channels", {})[str(value.id)] = {
                **value.to_json(), "permissions": self.world.permissions_for(self.user, guild)}
            value = str(value.id)
        elif kind == ATTACHMENT:
            if not isinstance(value, Attachment):
                raise PlayerError(f"option {name!r} takes an Attachment (player.upload(filename, data))")
            resolved.setdefault("attachments", {})[str(value.id)] = value.to_json()
            value = str(value.id)
        else:
            raise PlayerError(f"option {name!r} has type {kind}, which scripted players do not send yet")
        return {"type": kind, "name": name, "value": value}


def _check_choice(opt: dict[str, Any], value: Any) -> None:
    choices = opt.get("choices")
    if choices and value not in [c["value"] for c in choices]:
        raise PlayerError(f"option {opt['name']!r} must be one of {[c['value'] for c in choices]}, not {value!r}")
    if isinstance(value, str):
        if len(value) < int(opt.get("min_length") or 0) or len(value) > int(opt.get("max_length") or 6000):
            raise PlayerError(f"option {opt['name']!r}: length {len(value)} is out of bounds")
        return
    low, high = opt.get("min_value"), opt.get("max_value")
    if (low is not None and value < low) or (high is not None and value > high):
        raise PlayerError(f"option {opt['name']!r} must be within [{low}, {high}], not {value}")


def _check_select(comp: dict[str, Any], values: list[str]) -> None:
    allowed = [o["value"] for o in comp.get("options") or []]
    unknown = [v for v in values if v not in allowed]
    if unknown:
        raise PlayerError(f"select {comp['custom_id']!r} has no option(s) {unknown} (it has {allowed})")
    low, high = comp.get("min_values", 1), comp.get("max_values", 1)
    low = 1 if low is None else low
    high = 1 if high is None else high
    if not low <= len(values) <= high:
        raise PlayerError(f"select {comp['custom_id']!r} takes {low}..{high} values, not {len(values)}")


def _submitted(comp: dict[str, Any], given: dict[str, Any]) -> dict[str, Any] | None:
    """What Discord sends back for one top-level modal component, taking the typed values out of ``given``."""
    if comp.get("type") == 1:
        inner = [_field(c, given) for c in comp.get("components") or []]
        return {"type": 1, "components": [c for c in inner if c is not None]}
    if comp.get("type") == LABEL and isinstance(comp.get("component"), dict):
        inner_one = _field(comp["component"], given)
        return None if inner_one is None else {"type": LABEL, "component": inner_one}
    return None


def _field(comp: dict[str, Any], given: dict[str, Any]) -> dict[str, Any] | None:
    custom_id = str(comp.get("custom_id"))
    if comp.get("type") == TEXT_INPUT:
        value = str(given.pop(custom_id, comp.get("value") or ""))
        if comp.get("required", True) and not value:
            raise PlayerError(f"modal input {custom_id!r} is required")
        if value and not int(comp.get("min_length") or 0) <= len(value) <= int(comp.get("max_length") or 4000):
            raise PlayerError(f"modal input {custom_id!r}: length {len(value)} is out of bounds")
        return {"type": TEXT_INPUT, "custom_id": custom_id, "value": value}
    if comp.get("type") == STRING_SELECT:
        values = list(given.pop(custom_id, []))
        _check_select(comp, values)
        return {"type": STRING_SELECT, "custom_id": custom_id, "values": values}
    return None
