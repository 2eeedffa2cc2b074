"""The REST routes of /api/v10 the double serves (path templates named as in Discord's OpenAPI spec)."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from typing import Any

from aiohttp import web

from . import interactions
from .models import DM, PRIVATE_THREAD, PUBLIC_THREAD, Channel, Command, Interaction, Message
from .world import GUILDS, DiscordError, Upload, World

RouteHandler = Callable[[web.Request], Awaitable[web.StreamResponse]]
ROUTES: list[tuple[str, str, RouteHandler]] = []
WORLD = web.AppKey("world", World)
GATEWAY_URL = web.AppKey("gateway_url", str)
# The parsed body and uploaded files of the request being handled, and when it arrived (perf_counter, before
# the double spent time validating it), both set by the server's middleware.
BODY: ContextVar[tuple[Any, list[Upload]]] = ContextVar("BODY", default=(None, []))
ARRIVED: ContextVar[float] = ContextVar("ARRIVED", default=0.0)


def route(method: str, path: str) -> Callable[[RouteHandler], RouteHandler]:
    """Register a handler for ``METHOD /path/{template}`` (order matters: literals before parameters)."""
    def wrap(handler: RouteHandler) -> RouteHandler:
        ROUTES.append((method, path, handler))
        return handler
    return wrap


def register(router: web.UrlDispatcher, prefix: str) -> None:
    """Add every route under the API prefix, literal segments (``@me``, ``@original``) before parameters."""
    for method, path, handler in sorted(ROUTES, key=lambda r: r[1].count("{")):
        router.add_route(method, prefix + path, handler)


def json_response(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    """A JSON answer; the content type must be exactly ``application/json`` (no charset) for discord.py."""
    return web.Response(body=json.dumps(data).encode(), status=status,
                        headers={**(headers or {}), "Content-Type": "application/json"})


def no_content() -> web.Response:
    """204."""
    return web.Response(status=204)


def _world(request: web.Request) -> World:
    return request.app[WORLD]


def _body(request: web.Request) -> dict[str, Any]:
    body = BODY.get()[0]
    return body if isinstance(body, dict) else {}


def _uploads(request: web.Request) -> list[Upload]:
    return list(BODY.get()[1])


def _snowflake(request: web.Request, name: str, unknown: DiscordError) -> int:
    value = request.match_info[name]
    if not value.isdigit():
        raise unknown
    return int(value)


def _channel(request: web.Request) -> Channel:
    cid = _snowflake(request, "channel_id", DiscordError(404, 10003, "Unknown Channel"))
    channel = _world(request).channels.get(cid)
    if channel is None:
        raise DiscordError(404, 10003, "Unknown Channel")
    return channel


def _message(request: web.Request, channel: Channel) -> Message:
    mid = _snowflake(request, "message_id", DiscordError(404, 10008, "Unknown Message"))
    msg = _world(request).messages.get(mid)
    if msg is None or msg.deleted or msg.channel is not channel or msg.visible_to is not None:
        raise DiscordError(404, 10008, "Unknown Message")
    return msg


def _app(request: web.Request) -> World:
    world = _world(request)
    if request.match_info["application_id"] != str(world.application_id):
        raise DiscordError(404, 10002, "Unknown Application")
    return world


def _guild_id(request: web.Request) -> int | None:
    if "guild_id" not in request.match_info:
        return None
    gid = _snowflake(request, "guild_id", DiscordError(404, 10004, "Unknown Guild"))
    if gid not in _world(request).guilds:
        raise DiscordError(404, 10004, "Unknown Guild")
    return gid


# -- who and where ---------------------------------------------------------------------------------------


@route("GET", "/users/@me")
async def get_me(request: web.Request) -> web.Response:
    """The bot's own user."""
    world = _world(request)
    return json_response({**world.bot.to_json(), "verified": True, "mfa_enabled": False, "locale": "en-US",
                          "email": None})


@route("GET", "/applications/@me")
@route("GET", "/oauth2/applications/@me")
async def get_application(request: web.Request) -> web.Response:
    """The bot's application."""
    world = _world(request)
    return json_response({
        "id": str(world.application_id), "name": world.bot.name, "icon": None, "description": "", "summary": "",
        "bot_public": True, "bot_require_code_grant": False, "owner": {**world.bot.to_json(), "bot": False},
        "verify_key": "0" * 64, "flags": 0, "team": None, "bot": world.bot.to_json(), "redirect_uris": [],
        "interactions_endpoint_url": None, "approximate_guild_count": len(world.guilds), "tags": [],
        "rpc_origins": [], "integration_types_config": {"0": {}},
    })


@route("GET", "/gateway")
async def get_gateway(request: web.Request) -> web.Response:
    """Where the gateway is."""
    return json_response({"url": request.app[GATEWAY_URL]})


@route("GET", "/gateway/bot")
async def get_gateway_bot(request: web.Request) -> web.Response:
    """Where the gateway is, with the shard count and identify budget."""
    behaviour = _world(request).behaviour
    return json_response({"url": request.app[GATEWAY_URL], "shards": behaviour.shards, "session_start_limit": {
        "total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": behaviour.max_concurrency}})


@route("GET", "/users/{user_id}")
async def get_user(request: web.Request) -> web.Response:
    """A user by id."""
    uid = _snowflake(request, "user_id", DiscordError(404, 10013, "Unknown User"))
    user = _world(request).users.get(uid)
    if user is None:
        raise DiscordError(404, 10013, "Unknown User")
    return json_response(user.to_json())


@route("POST", "/users/@me/channels")
async def open_dm(request: web.Request) -> web.Response:
    """Open (or find) the DM channel with a user; closed DMs fail only when sending."""
    world = _world(request)
    user = world.users.get(int(_body(request).get("recipient_id") or 0))
    if user is None:
        raise DiscordError(400, 50033, "Invalid Recipient(s)")
    return json_response(world.dm_channel(user).to_json())


@route("GET", "/guilds/{guild_id}")
async def get_guild(request: web.Request) -> web.Response:
    """A guild."""
    world = _world(request)
    guild = world.guilds[_guild_id(request) or 0]
    channels = [world.channels[c] for c in guild.channel_ids]
    return json_response(guild.to_json(channels, [], guild.members[world.bot.id]))


@route("GET", "/guilds/{guild_id}/channels")
async def get_guild_channels(request: web.Request) -> web.Response:
    """A guild's channels."""
    world = _world(request)
    guild = world.guilds[_guild_id(request) or 0]
    return json_response([world.channels[c].to_json() for c in guild.channel_ids])


@route("GET", "/guilds/{guild_id}/members/{user_id}")
async def get_member(request: web.Request) -> web.Response:
    """A member of a guild."""
    world = _world(request)
    guild = world.guilds[_guild_id(request) or 0]
    member = guild.members.get(_snowflake(request, "user_id", DiscordError(404, 10007, "Unknown Member")))
    if member is None:
        raise DiscordError(404, 10007, "Unknown Member")
    return json_response(member.to_json())


# -- application commands --------------------------------------------------------------------------------


def _commands(world: World, guild_id: int | None) -> list[Command]:
    return [c for c in world.commands.values() if c.guild_id == guild_id]


def _find_command(request: web.Request) -> Command:
    world, guild_id = _app(request), _guild_id(request)
    cid = _snowflake(request, "command_id", DiscordError(404, 10063, "Unknown application command"))
    command = world.commands.get(cid)
    if command is None or command.guild_id != guild_id:
        raise DiscordError(404, 10063, "Unknown application command")
    return command


def _duplicates(bodies: list[dict[str, Any]]) -> None:
    seen: set[tuple[str, int]] = set()
    for i, body in enumerate(bodies):
        key = (str(body.get("name")), int(body.get("type") or 1))
        if key in seen:
            raise DiscordError(400, 50035, "Invalid Form Body", {str(i): {"name": {"_errors": [
                {"code": "APPLICATION_COMMANDS_DUPLICATE_NAME", "message": f"Application command names must be "
                 f"unique: {key[0]!r} twice"}]}}})
        seen.add(key)


@route("GET", "/applications/{application_id}/commands")
@route("GET", "/applications/{application_id}/guilds/{guild_id}/commands")
async def list_commands(request: web.Request) -> web.Response:
    """The commands synced globally or to one guild."""
    world = _app(request)
    return json_response([c.to_json() for c in _commands(world, _guild_id(request))])


@route("PUT", "/applications/{application_id}/commands")
@route("PUT", "/applications/{application_id}/guilds/{guild_id}/commands")
async def overwrite_commands(request: web.Request) -> web.Response:
    """Bulk overwrite: the body becomes the whole set (a command keeps its id while its name stays)."""
    world, guild_id = _app(request), _guild_id(request)
    bodies = BODY.get()[0] or []
    _duplicates(bodies)
    old = {(c.name, int(c.body.get("type") or 1)): c for c in _commands(world, guild_id)}
    for command in old.values():
        del world.commands[command.id]
    result = []
    for body in bodies:
        previous = old.get((str(body["name"]), int(body.get("type") or 1)))
        cid = previous.id if previous else world.ids.next()
        world.commands[cid] = Command(cid, world.application_id, guild_id, body, world.ids.next())
        result.append(world.commands[cid].to_json())
    world.notify()
    return json_response(result)


@route("POST", "/applications/{application_id}/commands")
@route("POST", "/applications/{application_id}/guilds/{guild_id}/commands")
async def upsert_command(request: web.Request) -> web.Response:
    """Create one command (replacing one of the same name)."""
    world, guild_id = _app(request), _guild_id(request)
    body = _body(request)
    same = next((c for c in _commands(world, guild_id) if c.name == body.get("name")), None)
    cid = same.id if same else world.ids.next()
    world.commands[cid] = Command(cid, world.application_id, guild_id, body, world.ids.next())
    world.notify()
    return json_response(world.commands[cid].to_json(), status=200 if same else 201)


@route("GET", "/applications/{application_id}/commands/{command_id}")
@route("GET", "/applications/{application_id}/guilds/{guild_id}/commands/{command_id}")
async def get_command(request: web.Request) -> web.Response:
    """One command."""
    return json_response(_find_command(request).to_json())


@route("PATCH", "/applications/{application_id}/commands/{command_id}")
@route("PATCH", "/applications/{application_id}/guilds/{guild_id}/commands/{command_id}")
async def edit_command(request: web.Request) -> web.Response:
    """Change some fields of a command."""
    command = _find_command(request)
    command.body = {**command.body, **_body(request)}
    command.version = _world(request).ids.next()
    return json_response(command.to_json())


@route("DELETE", "/applications/{application_id}/commands/{command_id}")
@route("DELETE", "/applications/{application_id}/guilds/{guild_id}/commands/{command_id}")
async def delete_command(request: web.Request) -> web.Response:
    """Remove a command."""
    command = _find_command(request)
    del _world(request).commands[command.id]
    return no_content()


# -- channels, messages, threads ---------------------------------------------------------------------------


@route("GET", "/channels/{channel_id}")
async def get_channel(request: web.Request) -> web.Response:
    """A channel, thread or DM."""
    return json_response(_channel(request).to_json())


@route("PATCH", "/channels/{channel_id}")
async def edit_channel(request: web.Request) -> web.Response:
    """Rename a channel; archive or lock a thread."""
    world, channel, body = _world(request), _channel(request), _body(request)
    if world.forbidden(channel):
        raise DiscordError(403, 50013, "Missing Permissions")
    if "name" in body:
        channel.name = body["name"]
    if channel.is_thread:
        channel.archived = bool(body.get("archived", channel.archived))
        channel.locked = bool(body.get("locked", channel.locked))
    if world.intents & GUILDS:
        world.dispatch("THREAD_UPDATE" if channel.is_thread else "CHANNEL_UPDATE", channel.to_json())
    world.notify()
    return json_response(channel.to_json())


@route("DELETE", "/channels/{channel_id}")
async def delete_channel(request: web.Request) -> web.Response:
    """Delete a channel or thread (the world forgets it)."""
    world, channel = _world(request), _channel(request)
    if channel.type == DM:
        return json_response(channel.to_json())
    world.remove_channel(channel)
    return json_response(channel.to_json())


@route("GET", "/channels/{channel_id}/messages")
async def history(request: web.Request) -> web.Response:
    """Recent messages, newest first (``limit``, ``before``, ``after``)."""
    channel = _channel(request)
    found = [m for m in channel.live_messages if m.visible_to is None]
    if "before" in request.query:
        found = [m for m in found if m.id < int(request.query["before"])]
    if "after" in request.query:
        found = [m for m in found if m.id > int(request.query["after"])]
    limit = min(100, int(request.query.get("limit", 50)))
    app_id = _world(request).application_id
    return json_response([m.to_json(app_id) for m in reversed(found)][:limit])


@route("POST", "/channels/{channel_id}/messages")
async def send_message(request: web.Request) -> web.Response:
    """The bot posts a message (403 50007 in the DM of a user whose DMs are closed)."""
    world, channel = _world(request), _channel(request)
    if world.forbidden(channel):
        raise DiscordError(403, 50013, "Missing Permissions")
    if channel.is_thread and channel.archived and not channel.locked:
        channel.archived = False  # a new message unarchives a thread that is not locked
    msg = world.post(channel, world.bot, _body(request), _uploads(request))
    return json_response(msg.to_json(world.application_id))


@route("GET", "/channels/{channel_id}/messages/{message_id}")
async def get_message(request: web.Request) -> web.Response:
    """One message."""
    channel = _channel(request)
    return json_response(_message(request, channel).to_json(_world(request).application_id))


@route("PATCH", "/channels/{channel_id}/messages/{message_id}")
async def edit_message(request: web.Request) -> web.Response:
    """Edit one of the bot's messages (attachments replaced by the ``attachments`` list when given)."""
    world, channel = _world(request), _channel(request)
    msg = _message(request, channel)
    if msg.author is not world.bot:
        raise DiscordError(403, 50005, "Cannot edit a message authored by another user")
    world.check_writable(channel)
    return json_response(world.edit(msg, _body(request), _uploads(request)).to_json(world.application_id))


@route("DELETE", "/channels/{channel_id}/messages/{message_id}")
async def delete_message(request: web.Request) -> web.Response:
    """Delete a message."""
    world, channel = _world(request), _channel(request)
    msg = _message(request, channel)
    world.check_writable(channel)
    world.delete(msg)
    return no_content()


@route("POST", "/channels/{channel_id}/threads")
async def start_thread(request: web.Request) -> web.Response:
    """A thread not attached to a message (private when the body gives no type, as in API v10)."""
    world, channel, body = _world(request), _channel(request), _body(request)
    if world.forbidden(channel):
        raise DiscordError(403, 50013, "Missing Permissions")
    thread = world.create_thread(channel, body["name"], int(body.get("type") or PRIVATE_THREAD))
    return json_response(thread.to_json(), status=201)


@route("POST", "/channels/{channel_id}/messages/{message_id}/threads")
async def start_thread_from_message(request: web.Request) -> web.Response:
    """A public thread started from a message; it takes the message's id."""
    world, channel, body = _world(request), _channel(request), _body(request)
    msg = _message(request, channel)
    if msg.id in world.channels:
        raise DiscordError(400, 160004, "A thread has already been created for this message")
    thread = world.create_thread(channel, body["name"], PUBLIC_THREAD, thread_id=msg.id)
    return json_response(thread.to_json(), status=201)


@route("PUT", "/channels/{channel_id}/thread-members/@me")
@route("PUT", "/channels/{channel_id}/thread-members/{user_id}")
@route("DELETE", "/channels/{channel_id}/thread-members/@me")
@route("DELETE", "/channels/{channel_id}/thread-members/{user_id}")
async def thread_member(request: web.Request) -> web.Response:
    """Add someone to (PUT) or remove them from (DELETE) a thread."""
    world, channel = _world(request), _channel(request)
    if not channel.is_thread:
        raise DiscordError(400, 50024, "Cannot execute action on this channel type")
    raw = request.match_info.get("user_id", "@me")
    uid = world.bot.id if raw == "@me" else _snowflake(request, "user_id", DiscordError(404, 10013, "Unknown User"))
    if uid not in world.users:
        raise DiscordError(404, 10013, "Unknown User")
    if request.method == "PUT":
        channel.member_ids.add(uid)
    else:
        channel.member_ids.discard(uid)
    world.notify()
    return no_content()


@route("POST", "/channels/{channel_id}/typing")
async def typing(request: web.Request) -> web.Response:
    """The typing indicator."""
    _channel(request)
    return no_content()


# -- interactions -------------------------------------------------------------------------------------


@route("POST", "/interactions/{interaction_id}/{interaction_token}/callback")
async def interaction_callback(request: web.Request) -> web.Response:
    """The initial response (10062 when late or unknown, 40060 when the second)."""
    world = _world(request)
    inter = world.interactions.get(int(request.match_info["interaction_id"]) if
                                   request.match_info["interaction_id"].isdigit() else 0)
    if inter is None or inter.token != request.match_info["interaction_token"]:
        raise DiscordError(404, 10062, "Unknown interaction")
    answer = interactions.callback(world, inter, _body(request), _uploads(request), ARRIVED.get())
    if request.query.get("with_response", "").lower() in ("1", "true"):
        return json_response(answer)
    return no_content()


def _token_interaction(request: web.Request) -> tuple[World, Interaction]:
    world = _world(request)
    app_id = request.match_info["webhook_id"]
    inter = interactions.by_token(world, int(app_id) if app_id.isdigit() else 0, request.match_info["webhook_token"])
    return world, inter


@route("POST", "/webhooks/{webhook_id}/{webhook_token}")
async def send_followup(request: web.Request) -> web.Response:
    """A followup message (ephemeral with flag 64)."""
    world, inter = _token_interaction(request)
    msg = interactions.followup(world, inter, _body(request), _uploads(request))
    if request.query.get("wait", "").lower() in ("1", "true"):
        return json_response(msg.to_json(world.application_id))
    return no_content()


@route("GET", "/webhooks/{webhook_id}/{webhook_token}/messages/@original")
@route("GET", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}")
@route("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original")
@route("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}")
@route("DELETE", "/webhooks/{webhook_id}/{webhook_token}/messages/@original")
@route("DELETE", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}")
async def webhook_message(request: web.Request) -> web.Response:
    """Read, edit or delete the original response or a followup."""
    world, inter = _token_interaction(request)
    msg = interactions.webhook_message(inter, request.match_info.get("message_id", "@original"))
    if request.method == "DELETE":
        world.delete(msg)
        return no_content()
    if request.method == "PATCH":
        world.edit(msg, _body(request), _uploads(request))
    return json_response(msg.to_json(world.application_id))

