"""Interactions: the INTERACTION_CREATE a player causes, and Discord's rules for the bot's answers to it."""

from __future__ import annotations

import secrets
import time
from collections.abc import Sequence
from typing import Any

from .models import ALL_PERMISSIONS, EPHEMERAL, LOADING, Channel, Interaction, Message, User
from .world import DiscordError, Upload, World

COMMAND, COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 2, 3, 4, 5
MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE, AUTOCOMPLETE_RESULT, MODAL = 4, 5, 6, 7, 8, 9
# Which initial responses Discord accepts for each interaction type.
ALLOWED = {
    COMMAND: {MESSAGE, DEFERRED_MESSAGE, MODAL},
    COMPONENT: {MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE, MODAL},
    AUTOCOMPLETE: {AUTOCOMPLETE_RESULT},
    MODAL_SUBMIT: {MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE},
}


def start(world: World, kind: int, user: User, channel: Channel, data: dict[str, Any], *,
          message: Message | None = None, name: str | None = None) -> Interaction:
    """Record a new interaction and dispatch INTERACTION_CREATE to the bot."""
    inter = Interaction(world.ids.next(), "aW50ZXJhY3Rpb24." + secrets.token_urlsafe(60), kind, user, channel, data,
                        message, clock_at=world.now(), perf_at=time.perf_counter(), name=name)
    world.interactions[inter.id] = inter
    world.dispatch("INTERACTION_CREATE", payload(world, inter))
    world.notify()
    return inter


def payload(world: World, inter: Interaction) -> dict[str, Any]:
    """The interaction object, with every field discord.py 2.7 reads unconditionally."""
    guild = world.guild_of(inter.channel)
    channel = inter.channel.to_json()
    data: dict[str, Any] = {
        "id": str(inter.id), "application_id": str(world.application_id), "type": inter.type, "data": inter.data,
        "token": inter.token, "version": 1, "channel": channel, "channel_id": str(inter.channel.id),
        "app_permissions": ALL_PERMISSIONS, "locale": "en-US", "entitlements": [], "entitlement_sku_ids": [],
        "attachment_size_limit": world.behaviour.attachment_size_limit,
    }
    if guild is not None:
        permissions = world.permissions_for(inter.user, guild)
        channel["permissions"] = permissions
        member = world.member(guild, inter.user).to_json(permissions=permissions)
        data.update({"guild_id": str(guild.id), "guild": {"id": str(guild.id), "locale": "en-US", "features": []},
                     "guild_locale": "en-US", "member": member, "context": 0,
                     "authorizing_integration_owners": {"0": str(guild.id)}})
    else:
        data.update({"user": inter.user.to_json(), "context": 1, "authorizing_integration_owners": {"0": "0"}})
    if inter.message is not None:
        data["message"] = inter.message.to_json(world.application_id)
    return data


def _invalid_type(inter: Interaction, kind: int) -> DiscordError:
    message = f"response type {kind} is not valid for interaction type {inter.type}"
    errors = {"type": {"_errors": [{"code": "INTERACTION_RESPONSE_TYPE_INVALID", "message": message}]}}
    return DiscordError(400, 50035, "Invalid Form Body", errors)


def callback(world: World, inter: Interaction, body: dict[str, Any], uploads: Sequence[Upload],
             arrived: float) -> dict[str, Any]:
    """Apply the bot's initial response (``arrived``: perf_counter when the request came in).

    The returned body is what ``?with_response=true`` answers.
    """
    late = world.behaviour.late_callbacks > 0 and not inter.responded
    if late:
        world.behaviour.late_callbacks -= 1  # this answer arrives after Discord's 3 s, whenever the bot sent it
    if late or world.now() - inter.clock_at > world.behaviour.interaction_deadline:
        inter.expired = True
        inter.errors.append(10062)
        raise DiscordError(404, 10062, "Unknown interaction")
    if inter.responded:
        inter.errors.append(40060)
        raise DiscordError(400, 40060, "Interaction has already been acknowledged.")
    kind = int(body["type"])
    data = body.get("data") or {}
    if kind not in ALLOWED.get(inter.type, set()) or (kind in (DEFERRED_UPDATE, UPDATE_MESSAGE) and not inter.message):
        raise _invalid_type(inter, kind)
    message: Message | None = None
    if kind == MESSAGE:
        message = world.post(inter.channel, world.bot, data, uploads, interaction=inter,
                             msg_type=20 if inter.type == COMMAND else 0)
    elif kind == DEFERRED_MESSAGE:
        message = world.post(inter.channel, world.bot, {"flags": data.get("flags")}, interaction=inter,
                             msg_type=20 if inter.type == COMMAND else 0, extra_flags=LOADING)
    elif kind == UPDATE_MESSAGE:
        assert inter.message is not None
        message = world.edit(inter.message, data, uploads)
    elif kind == DEFERRED_UPDATE:
        assert inter.message is not None
        inter.original = inter.message
    elif kind == AUTOCOMPLETE_RESULT:
        inter.choices = list(data.get("choices") or [])
    elif kind == MODAL:
        inter.modal = data
    if message is not None:
        inter.original = message
    inter.response_type = kind
    inter.responded_perf = arrived or time.perf_counter()
    world.notify()
    answer: dict[str, Any] = {
        "interaction": {"id": str(inter.id), "type": inter.type,
                        "response_message_loading": kind == DEFERRED_MESSAGE,
                        "response_message_ephemeral": bool(message and message.ephemeral)},
        "resource": {"type": kind},
    }
    if message is not None:
        answer["interaction"]["response_message_id"] = str(message.id)
        answer["resource"]["message"] = message.to_json(world.application_id)
    return answer


def by_token(world: World, application_id: int, token: str) -> Interaction:
    """The interaction a webhook token belongs to, while the token is valid (15 minutes)."""
    inter = next((i for i in world.interactions.values() if i.token == token), None)
    if inter is None or application_id != world.application_id or inter.expired:
        raise DiscordError(404, 10015, "Unknown Webhook")
    if world.now() - inter.clock_at > world.behaviour.token_lifetime:
        inter.errors.append(50027)
        raise DiscordError(401, 50027, "Invalid Webhook Token")
    return inter


def followup(world: World, inter: Interaction, body: dict[str, Any], uploads: Sequence[Upload]) -> Message:
    """A followup message; after a 'thinking' deferral the first followup replaces the placeholder."""
    if not inter.responded:
        raise DiscordError(404, 10015, "Unknown Webhook")
    original = inter.original
    if original is not None and original.loading and original.edits == 0 and inter.response_type == DEFERRED_MESSAGE:
        return world.edit(original, body, uploads)
    msg = world.post(inter.channel, world.bot, body, uploads, interaction=inter)
    inter.followups.append(msg)
    world.notify()
    return msg


def webhook_message(inter: Interaction, message_id: str) -> Message:
    """``@original`` or one of the interaction's followups, by id."""
    if message_id == "@original":
        if inter.original is None or inter.original.deleted:
            raise DiscordError(404, 10008, "Unknown Message")
        return inter.original
    for msg in [*([inter.original] if inter.original else []), *inter.followups]:
        if str(msg.id) == message_id and not msg.deleted:
            return msg
    raise DiscordError(404, 10008, "Unknown Message")


def ephemeral(body: dict[str, Any]) -> bool:
    """Whether a message body asks to be ephemeral."""
    return bool(int(body.get("flags") or 0) & EPHEMERAL)
