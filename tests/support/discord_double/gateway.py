"""The gateway websocket: HELLO, IDENTIFY/READY/GUILD_CREATE, heartbeats, RESUME with replay, op 7 on demand."""

from __future__ import annotations

import asyncio
import json
import secrets
import time
import zlib
from collections import Counter, deque
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
    """A gateway session of one shard: every dispatch sent in it (for replay on RESUME) and its live connection."""

    id: str
    intents: int
    shard: int = 0
    count: int = 1
    seq: int = 0
    log: list[dict[str, Any]] = field(default_factory=list)
    conn: _Connection | None = None

    def holds(self, guild_id: int | None) -> bool:
        """Whether this session's shard gets the events of ``guild_id`` (events without a guild: shard 0 only)."""
        if guild_id is None:
            return self.shard == 0
        return (guild_id >> 22) % self.count == self.shard

    @property
    def live(self) -> bool:
        """Whether a connection is attached and open."""
        return self.conn is not None and not self.conn.ws.closed


def guild_of_event(event: str, data: dict[str, Any]) -> int | None:
    """The guild an event belongs to (None for a DM, or an event of no guild), which picks its shard."""
    raw = data.get("id") if event in ("GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE") else data.get("guild_id")
    return int(raw) if raw is not None else None


class Gateway:
    """Serves the gateway websocket for one world, a session per shard (a bot that does not shard is shard 0 of
    1); ``reconnect()`` asks a shard to reconnect (op 7).

    As on Discord, each IDENTIFY names its shard (``[id, count]``) and gets READY and GUILD_CREATE for the guilds
    on that shard (``(guild_id >> 22) % count``); a guild's events go to its shard and events without a guild
    (DMs, every DM interaction) to shard 0 only. With ``world.behaviour.identify_spacing`` set, IDENTIFYs of one
    bucket (``shard % max_concurrency``) closer together than that are refused with op 9, as Discord does."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.sessions: dict[int, Session] = {}  # by shard id
        self.identifies = 0
        self.resumes = 0
        self.connections = 0
        self.heartbeats = 0
        self.close_codes: list[int] = []  # how each connection ended, as the server saw it
        self.closed_with: list[int] = []  # the close codes the double sent (Gateway.close)
        self.identified: list[tuple[float, int]] = []  # (world time, shard) of each accepted IDENTIFY
        self.too_soon: list[tuple[int, float]] = []  # (shard, seconds since its bucket's last) of refused ones
        self.dispatched: Counter[tuple[int, str]] = Counter()  # (shard, event) of every dispatch sent
        self._bucket_last: dict[int, float] = {}
        self.resume_url = ""
        world.dispatch = self.dispatch

    @property
    def session(self) -> Session | None:
        """Shard 0's session (the only one of a bot that does not shard)."""
        return self.sessions.get(0)

    def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send a dispatch to the shard it belongs to; while that shard is disconnected it waits in its session's
        log for RESUME (and is lost with the session, as on Discord)."""
        guild = guild_of_event(event, data)
        session = next((s for s in self.sessions.values() if s.holds(guild)), None)
        if session is not None:
            self._send_in(session, event, data)

    def _send_in(self, session: Session, event: str, data: dict[str, Any]) -> None:
        session.seq += 1
        frame = {"op": DISPATCH, "t": event, "s": session.seq, "d": data}
        session.log.append(frame)
        self.dispatched[(session.shard, event)] += 1
        if session.conn is not None:
            conn = session.conn
            task = asyncio.get_running_loop().create_task(self._send(conn, frame))
            task.add_done_callback(lambda t: t.exception())

    async def _send(self, conn: _Connection, frame: dict[str, Any]) -> None:
        if not conn.ws.closed:
            await conn.send(frame)

    def _live(self, shard: int) -> Session:
        session = self.sessions.get(shard)
        assert session is not None and session.conn is not None, f"no bot is connected to the gateway as shard {shard}"
        return session

    async def reconnect(self, shard: int = 0) -> None:
        """Send op 7 RECONNECT; dispatches from now on wait for the bot's RESUME."""
        session = self._live(shard)
        conn, session.conn = session.conn, None
        assert conn is not None
        await conn.send({"op": RECONNECT, "d": None})

    async def close(self, code: int, *, resumable: bool = True, shard: int = 0) -> None:
        """Close the bot's connection with a close code (4000 unknown error, 4009 session timed out, ...). A
        resumable session waits for RESUME with the dispatches since; otherwise RESUME is answered with op 9 and
        what was dispatched meanwhile is lost, as on Discord."""
        session = self._live(shard)
        conn, session.conn = session.conn, None
        assert conn is not None
        if not resumable:
            del self.sessions[shard]
        self.closed_with.append(code)
        await conn.ws.close(code=code, message=b"closed by the test")

    async def invalidate(self, resumable: bool, shard: int = 0) -> None:
        """Send op 9 INVALID_SESSION: with ``resumable`` the bot resumes; without, it identifies anew (discord.py
        waits 5 s first) and what was dispatched meanwhile is lost."""
        session = self._live(shard)
        conn, session.conn = session.conn, None
        assert conn is not None
        if not resumable:
            del self.sessions[shard]
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
            for session in self.sessions.values():
                if session.conn is conn:
                    session.conn = None
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

    def _identify_too_soon(self, shard: int) -> bool:
        """Whether this IDENTIFY comes too soon after the last one of its bucket (recorded if so)."""
        behaviour = self.world.behaviour
        now = self.world.now()
        bucket = shard % max(1, behaviour.max_concurrency)
        last = self._bucket_last.get(bucket)
        if behaviour.identify_spacing and last is not None and now - last < behaviour.identify_spacing:
            self.too_soon.append((shard, now - last))
            return True
        self._bucket_last[bucket] = now
        return False

    async def _identify(self, conn: _Connection, data: dict[str, Any]) -> None:
        if data.get("token") != self.world.token:
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return
        shard, count = (data.get("shard") or [0, 1])[:2]
        if not (isinstance(shard, int) and isinstance(count, int) and 0 <= shard < count):
            await conn.ws.close(code=4010, message=b"Invalid shard.")
            return
        if self._identify_too_soon(shard):
            await conn.send({"op": INVALID_SESSION, "d": False})
            self.world.notify()
            return
        self.identifies += 1
        self.identified.append((self.world.now(), shard))
        self.world.intents = int(data.get("intents") or 0)
        session = Session(secrets.token_hex(16), self.world.intents, shard, count, conn=conn)
        for held in [s for s in self.sessions.values() if s.conn is conn]:
            held.conn = None  # a connection identifies once; a new IDENTIFY on it starts afresh
        self.sessions[shard] = session
        world = self.world
        guilds = [g for g in world.guilds.values() if session.holds(g.id)]
        ready = {
            "v": 10, "user": world.bot.to_json(), "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.id, "resume_gateway_url": self.resume_url, "private_channels": [],
            "application": {"id": str(world.application_id), "flags": 0}, "session_type": "normal",
            "user_settings": {}, "relationships": [], "presences": [], "geo_ordered_rtc_regions": [],
            "shard": [shard, count],
        }
        self._send_in(session, "READY", ready)
        for guild in guilds:
            channels = [world.channels[c] for c in guild.channel_ids]
            self._send_in(session, "GUILD_CREATE",
                          guild.to_json(channels, world.threads(guild), guild.members[world.bot.id]))
        world.notify()

    async def _resume(self, conn: _Connection, data: dict[str, Any]) -> None:
        session = next((s for s in self.sessions.values() if s.id == data.get("session_id")), None)
        if data.get("token") != self.world.token or session is None:
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
        self._send_in(session, "RESUMED", {})
        self.world.notify()

    @property
    def connected(self) -> bool:
        """True while every shard identified holds a live connection (a bot that does not shard: its one)."""
        return bool(self.sessions) and all(s.live for s in self.sessions.values())

    def shards_connected(self) -> set[int]:
        """The shards holding a live, identified connection now."""
        return {shard for shard, s in self.sessions.items() if s.live}
