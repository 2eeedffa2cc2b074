"""The gateway websocket: HELLO, IDENTIFY/READY/GUILD_CREATE, heartbeats, RESUME with replay, op 7 on demand."""

from __future__ import annotations

import asyncio
import json
import secrets
import time
import zlib
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from .world import World

DISPATCH, HEARTBEAT, IDENTIFY, RESUME, RECONNECT, INVALID_SESSION, HELLO, HEARTBEAT_ACK = 0, 1, 2, 6, 7, 9, 10, 11
HEARTBEAT_INTERVAL_MS = 41250
SENDS_PER_MINUTE = 120


class _Connection:
    """One websocket: zlib-stream compressed (one deflate context per connection) or plain JSON text."""

    def __init__(self, ws: web.WebSocketResponse, compress: bool) -> None:
        self.ws = ws
        self._deflate = zlib.compressobj() if compress else None
        self.sent_by_client: deque[float] = deque()
        # Compression state is shared by every frame, so frames must be compressed and written in order.
        self.lock = asyncio.Lock()

    async def send(self, payload: dict[str, Any]) -> None:
        """Send one payload (in order with every other send on this connection)."""
        async with self.lock:
            await self.send_unlocked(payload)

    async def send_unlocked(self, payload: dict[str, Any]) -> None:
        """Send while already holding ``lock``."""
        text = json.dumps(payload, separators=(",", ":"))
        if self._deflate is None:
            await self.ws.send_str(text)
        else:
            # Each payload ends with a sync flush (00 00 ff ff), which is how discord.py finds message ends.
            data = self._deflate.compress(text.encode()) + self._deflate.flush(zlib.Z_SYNC_FLUSH)
            await self.ws.send_bytes(data)

    def over_limit(self) -> bool:
        """Whether the client exceeded Discord's 120 sends per 60 s on this connection."""
        now = time.monotonic()
        self.sent_by_client.append(now)
        while self.sent_by_client and now - self.sent_by_client[0] > 60:
            self.sent_by_client.popleft()
        return len(self.sent_by_client) > SENDS_PER_MINUTE


@dataclass
class Session:
    """A gateway session: every dispatch sent in it (for replay on RESUME) and its live connection, if any."""

    id: str
    intents: int
    seq: int = 0
    log: list[dict[str, Any]] = field(default_factory=list)
    conn: _Connection | None = None


class Gateway:
    """Serves the gateway websocket for one world; ``reconnect()`` asks the bot to reconnect (op 7)."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.session: Session | None = None
        self.identifies = 0
        self.resumes = 0
        self.connections = 0
        self.heartbeats = 0
        self.close_codes: list[int] = []  # how each connection ended, as the server saw it
        self.closed_with: list[int] = []  # the close codes the double sent (Gateway.close)
        self.resume_url = ""
        world.dispatch = self.dispatch

    def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send a dispatch in the current session; while disconnected it waits in the log for RESUME."""
        session = self.session
        if session is None:
            return
        session.seq += 1
        frame = {"op": DISPATCH, "t": event, "s": session.seq, "d": data}
        session.log.append(frame)
        if session.conn is not None:
            conn = session.conn
            task = asyncio.get_running_loop().create_task(self._send(conn, frame))
            task.add_done_callback(lambda t: t.exception())

    async def _send(self, conn: _Connection, frame: dict[str, Any]) -> None:
        if not conn.ws.closed:
            await conn.send(frame)

    async def reconnect(self) -> None:
        """Send op 7 RECONNECT; dispatches from now on wait for the bot's RESUME."""
        session = self.session
        assert session is not None and session.conn is not None, "no bot is connected to the gateway"
        conn, session.conn = session.conn, None
        await conn.send({"op": RECONNECT, "d": None})

    async def close(self, code: int, *, resumable: bool = True) -> None:
        """Close the bot's connection with a close code (4000 unknown error, 4009 session timed out, ...). A
        resumable session waits for RESUME with the dispatches since; otherwise RESUME is answered with op 9 and
        what was dispatched meanwhile is lost, as on Discord."""
        session = self.session
        assert session is not None and session.conn is not None, "no bot is connected to the gateway"
        conn, session.conn = session.conn, None
        if not resumable:
            self.session = None
        self.closed_with.append(code)
        await conn.ws.close(code=code, message=b"closed by the test")

    async def invalidate(self, resumable: bool) -> None:
        """Send op 9 INVALID_SESSION: with ``resumable`` the bot resumes; without, it identifies anew (discord.py
        waits 5 s first) and what was dispatched meanwhile is lost."""
        session = self.session
        assert session is not None and session.conn is not None, "no bot is connected to the gateway"
        conn, session.conn = session.conn, None
        if not resumable:
            self.session = None
        await conn.send({"op": INVALID_SESSION, "d": resumable})

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        """The websocket endpoint (``?v=10&encoding=json&compress=zlib-stream``)."""
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        self.connections += 1
        compression = request.query.get("compress")
        if request.query.get("encoding", "json") != "json" or compression not in (None, "zlib-stream"):
            # discord.py asks for zstd-stream only when the zstandard package is installed; say so loudly.
            self.world.unknown_routes.append(f"GATEWAY unsupported options {dict(request.query)}")
            await ws.close(code=4002, message=b"unsupported encoding or compression")
            return ws
        conn = _Connection(ws, compression == "zlib-stream")
        await conn.send({"op": HELLO, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}})
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                if conn.over_limit():
                    await ws.close(code=4008, message=b"Rate limited.")
                    break
                await self._receive(conn, json.loads(msg.data))
        finally:
            if ws.close_code is not None:
                self.close_codes.append(ws.close_code)
            if self.session is not None and self.session.conn is conn:
                self.session.conn = None
            self.world.notify()
        return ws

    async def _receive(self, conn: _Connection, msg: dict[str, Any]) -> None:
        op, data = msg.get("op"), msg.get("d")
        if op == HEARTBEAT:
            self.heartbeats += 1
            await conn.send({"op": HEARTBEAT_ACK})
        elif op == IDENTIFY:
            await self._identify(conn, data or {})
        elif op == RESUME:
            await self._resume(conn, data or {})
        # Presence updates (op 3) and member requests (op 8) need no answer here.

    async def _identify(self, conn: _Connection, data: dict[str, Any]) -> None:
        if data.get("token") != self.world.token:
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return
        self.identifies += 1
        self.world.intents = int(data.get("intents") or 0)
        self.session = Session(secrets.token_hex(16), self.world.intents, conn=conn)
        world = self.world
        ready = {
            "v": 10, "user": world.bot.to_json(), "guilds": [{"id": str(g), "unavailable": True} for g in world.guilds],
            "session_id": self.session.id, "resume_gateway_url": self.resume_url, "private_channels": [],
            "application": {"id": str(world.application_id), "flags": 0}, "session_type": "normal",
            "user_settings": {}, "relationships": [], "presences": [], "geo_ordered_rtc_regions": [],
        }
        self.dispatch("READY", ready)
        for guild in world.guilds.values():
            channels = [world.channels[c] for c in guild.channel_ids]
            self.dispatch("GUILD_CREATE", guild.to_json(channels, world.threads(guild), guild.members[world.bot.id]))
        world.notify()

    async def _resume(self, conn: _Connection, data: dict[str, Any]) -> None:
        session = self.session
        if data.get("token") != self.world.token or session is None or data.get("session_id") != session.id:
            await conn.send({"op": INVALID_SESSION, "d": False})
            return
        self.resumes += 1
        after = int(data.get("seq") or 0)
        async with conn.lock:
            # Attach first so nothing dispatched during the replay is lost; those frames queue on the lock.
            missed = [frame for frame in session.log if frame["s"] > after]
            session.conn = conn
            for frame in missed:
                await conn.send_unlocked(frame)
        self.dispatch("RESUMED", {})
        self.world.notify()

    @property
    def connected(self) -> bool:
        """True while a bot holds a live, identified connection."""
        return self.session is not None and self.session.conn is not None and not self.session.conn.ws.closed
