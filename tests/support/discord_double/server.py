"""The offline Discord's HTTP side: an aiohttp app on 127.0.0.1 serving /api/v10, the gateway and attachments.

Every request is counted by route; every JSON body (and multipart ``payload_json``) is validated against
Discord's OpenAPI spec; an unknown route answers 404 and is recorded so the test fails.
"""

from __future__ import annotations

import asyncio
import json
import math
import re
import socket
import time
import traceback
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import BodyPartReader, web

from . import routes
from .gateway import Gateway
from .routes import json_response
from .spec import SpecValidator
from .world import DiscordError, Fault, InvalidRequest, RequestRecord, Upload, World

API_PREFIX = "/api/v10"
# Routes discord.py calls without the bot token: interaction callbacks and the interaction webhook.
_TOKENLESS = ("/interactions/", "/webhooks/")

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def error_response(error: DiscordError) -> web.Response:
    """Discord's JSON error body with its status."""
    return json_response(error.to_json(), status=error.status)


def fault_response(fault: Fault) -> web.Response:
    """A fault's answer, as Discord sends it: the status, a JSON error body (or plain text), the headers."""
    if fault.text is not None:
        return web.Response(text=fault.text, status=fault.status, headers={**fault.headers,
                                                                           "Content-Type": "text/plain"})
    body = {"message": fault.message or f"{fault.status} error", "code": fault.code}
    return json_response(body, status=fault.status, headers=fault.headers)


def rate_limited_response(route: str, retry_after: float) -> web.Response:
    """A 429 with the headers and body discord.py needs to wait and retry (not a Cloudflare ban)."""
    headers = {
        "X-RateLimit-Limit": "5", "X-RateLimit-Remaining": "0",
        "X-RateLimit-Reset": f"{time.time() + retry_after:.3f}", "X-RateLimit-Reset-After": f"{retry_after:.3f}",
        "X-RateLimit-Bucket": f"double-{abs(hash(route)):x}", "X-RateLimit-Scope": "user",
        "Retry-After": str(math.ceil(retry_after)), "Via": "1.1 google",
    }
    body = {"message": "You are being rate limited.", "retry_after": retry_after, "global": False, "code": 0}
    return json_response(body, status=429, headers=headers)


_DISPOSITION = re.compile(r'(?:^|;)\s*(name|filename)="((?:[^"\\]|\\.)*)"')


def _disposition(header: str) -> tuple[str, str | None]:
    """The ``name`` and ``filename`` of a multipart part's Content-Disposition (form-data; name="..."; ...)."""
    found = {key: value.replace('\\"', '"') for key, value in _DISPOSITION.findall(header)}
    return found.get("name", ""), found.get("filename")


async def read_body(request: web.Request) -> tuple[Any, list[Upload]]:
    """The JSON body (or multipart ``payload_json``) and any ``files[n]`` parts."""
    if not request.can_read_body:
        return None, []
    # Header parsing by hand: aiohttp's (through the email package) cost the double more than the bot's own work
    # under load, and the benchmark counts the double's time against the bot.
    if request.headers.get("Content-Type", "").lower().startswith("multipart/"):
        body: Any = None
        uploads: list[Upload] = []
        reader = await request.multipart()
        while (part := await reader.next()) is not None:
            if not isinstance(part, BodyPartReader):
                continue
            name, filename = _disposition(part.headers.get("Content-Disposition", ""))
            data = await part.read(decode=False)
            if name == "payload_json":
                body = json.loads(data)
            elif name.startswith("files["):
                ctype = part.headers.get("Content-Type")
                uploads.append(Upload(int(name[6:-1]), filename or name, bytes(data), ctype))
        return body, uploads
    raw = await request.read()
    return (json.loads(raw) if raw else None), []


class DiscordDouble:
    """The server: start it, point discord.py at ``api_base`` and ``gateway_url``, and close it after."""

    def __init__(self, world: World, validator: SpecValidator | None) -> None:
        self.world = world
        self.validator = validator
        self.gateway = Gateway(world)
        self.port = 0
        self._runner: web.AppRunner | None = None

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:<port>``."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        """What ``discord.http.Route.BASE`` must be set to."""
        return self.base_url + API_PREFIX

    @property
    def gateway_url(self) -> str:
        """What ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`` must be set to."""
        return f"ws://127.0.0.1:{self.port}/gateway/"

    async def start(self) -> DiscordDouble:
        """Listen on a free port of 127.0.0.1."""
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        self.world.base_url = self.base_url
        self.gateway.resume_url = self.gateway_url
        app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024 * 1024)
        app[routes.WORLD] = self.world
        app[routes.GATEWAY_URL] = self.gateway_url
        app.router.add_get("/gateway/", self.gateway.handle)
        app.router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self._attachment)
        routes.register(app.router, API_PREFIX)
        app.router.add_route("*", "/{tail:.*}", self._unknown)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        await web.SockSite(self._runner, sock).start()
        return self

    async def close(self) -> None:
        """Stop listening and drop every connection."""
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _unknown(self, request: web.Request) -> web.Response:
        self.world.unknown_routes.append(f"{request.method} {request.path}")
        return json_response({"message": "404: Not Found", "code": 0}, status=404)

    async def _attachment(self, request: web.Request) -> web.Response:
        attachment = self.world.files.get(int(request.match_info["attachment_id"]))
        if attachment is None:
            return web.Response(status=404)
        return web.Response(body=attachment.data, content_type=attachment.content_type or "application/octet-stream")

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        if not request.path.startswith(API_PREFIX + "/"):
            return await handler(request)
        resource = request.match_info.route.resource
        canonical = resource.canonical if resource is not None else request.path
        route = canonical.removeprefix(API_PREFIX)
        if not canonical.startswith(API_PREFIX):
            route = request.path.removeprefix(API_PREFIX)  # the catch-all: recorded, answered 404
        routes.ARRIVED.set(time.perf_counter())
        record = RequestRecord(request.method, route, request.path, 0, at=time.monotonic())
        self.world.requests.append(record)
        self.world.rest_calls[record.key] += 1
        response = await self._answer(request, handler, route, record)
        record.status = response.status
        self.world.notify()
        return response

    async def _answer(self, request: web.Request, handler: Handler, route: str,
                      record: RequestRecord) -> web.StreamResponse:
        world = self.world
        if not route.startswith(_TOKENLESS) and request.headers.get("Authorization") != f"Bot {world.token}":
            return json_response({"message": "401: Unauthorized", "code": 0}, status=401)
        channel = request.match_info.get("channel_id")
        fault = world.take_fault(record.key, int(channel) if channel and channel.isdigit() else None)
        if fault is not None:
            world.faults_sent.append(record)
            if fault.stall:
                await asyncio.sleep(fault.stall)
                if request.transport is None or request.transport.is_closing():
                    record.code = -1  # the bot gave up waiting: dropped before Discord did anything with it
                    return web.Response(status=408)
            if fault.status:
                record.code = fault.code or None
                return fault_response(fault)
        retry_after = world.take_rate_limit(record.key)
        if retry_after is not None:
            return rate_limited_response(record.key, retry_after)
        try:
            body, uploads = await read_body(request)
        except (ValueError, UnicodeDecodeError):
            record.code = 50109
            return json_response({"message": "The request body contains invalid JSON.", "code": 50109}, status=400)
        record.body = body
        record.uploaded = sum(len(upload.data) for upload in uploads)
        if body is not None and self.validator is not None:
            errors = self.validator.errors(request.method, route, body)
            if errors is not None:
                world.invalid.append(InvalidRequest(request.method, route, body, errors))
                record.code = 50035
                return error_response(DiscordError(400, 50035, "Invalid Form Body", errors))
        routes.BODY.set((body, uploads))
        try:
            return await handler(request)
        except DiscordError as error:
            record.code = error.code
            if error.code == 50035 and error.errors is not None:
                world.invalid.append(InvalidRequest(request.method, route, body, error.errors))
            return error_response(error)
        except Exception:
            # A bug in the double: answer 400 (a 5xx would make discord.py retry with long sleeps) and fail
            # the test at teardown with the traceback.
            world.crashes.append(f"{record.key}: {traceback.format_exc()}")
            return json_response({"message": "the Discord double crashed on this request", "code": 0}, status=400)
