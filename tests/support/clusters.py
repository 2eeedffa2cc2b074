"""Running the bot as several processes ("clusters", tests/support/cluster_bot_process.py) over one PostgreSQL
database against the offline Discord, and a person who plays only by what Discord shows her: her DM's buttons and
selects, and the table message's Pass."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from dataclasses import dataclass
from pathlib import Path

from support.discord_double import Double, Player
from support.discord_double.models import Channel, Guild, Message

PROCESS = Path(__file__).resolve().parent / "cluster_bot_process.py"


@dataclass
class Cluster:
    """One bot process and the shards it runs."""

    shards: tuple[int, ...]
    process: asyncio.subprocess.Process
    log: Path

    def tail(self, chars: int = 4000) -> str:
        """The end of its log."""
        return self.log.read_text(errors="replace")[-chars:]


def cluster_env(double: Double, db_url: str, shards: tuple[int, ...], count: int, clock: Path) -> dict[str, str]:
    """The environment of one cluster: the double's token and addresses, the database, its shards; commands are
    synced globally (the bot is in several guilds, and DMs need global commands)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "CHARLESTON_"))}
    return env | double.env() | {
        "CHARLESTON_DB": db_url, "CHARLESTON_SHARD_COUNT": str(count),
        "CHARLESTON_SHARD_IDS": ",".join(map(str, shards)), "CHARLESTON_LOG_LEVEL": "INFO",
        "CHARLESTON_REFRESH_SECONDS": "0.05", "CHARLESTON_THINK_WORKERS": "0", "CHARLESTON_RENDER_WORKERS": "0",
        "CHARLESTON_TEST_CLOCK": str(clock)}


async def launch(double: Double, db_url: str, shards: tuple[int, ...], count: int, clock: Path, log: Path) -> Cluster:
    """Start a cluster process (not waiting for it)."""
    with log.open("ab") as out:  # a file, not a pipe nobody reads while it runs
        process = await asyncio.create_subprocess_exec(
            sys.executable, str(PROCESS), env=cluster_env(double, db_url, shards, count, clock),
            cwd=str(log.parent), stdout=out, stderr=out, start_new_session=True)
    return Cluster(shards, process, log)


async def until_up(double: Double, *clusters: Cluster, timeout: float = 90) -> None:
    """Wait until every cluster's shards are connected to the gateway (or fail with the logs of those that are
    not)."""
    wanted = {s for c in clusters for s in c.shards}
    try:
        await double.wait_for(lambda: wanted <= double.gateway.shards_connected(), timeout,
                              f"shards {sorted(wanted)} to connect")
    except AssertionError:
        for cluster in clusters:
            await kill(cluster)
        logs = "\n".join(f"--- shards {c.shards}:\n{c.tail()}" for c in clusters)
        raise AssertionError(f"the clusters did not come up:\n{logs}") from None


async def kill(cluster: Cluster) -> None:
    """SIGKILL the process (as the OOM killer would) and wait for it."""
    if cluster.process.returncode is None:
        with_group = cluster.process.pid
        cluster.process.send_signal(signal.SIGKILL)
        try:
            await asyncio.wait_for(cluster.process.wait(), 20)
        except TimeoutError:
            os.killpg(with_group, signal.SIGKILL)
            raise


# -- a simple person playing by Discord alone ----------------------------------------------------------------------


def _decision(message: Message) -> str | None:
    """The custom_id on a player's own message that makes a move (what a simple player would use first): Mah Jongg,
    stop the Charleston, offer the courtesy, discard (not a joker), pass; else the tile pick."""
    ids = [cid for cid in message.custom_ids if not cid.endswith(":d.J")]  # a joker's discard asks first
    for suffix in (":cm", ":m", ":v.0", ":co.", ":p"):  # a Mah Jongg first: a Pass that lets one go asks first
        found = next((cid for cid in ids if cid.startswith("ch:a:") and cid.endswith(suffix)), None)
        if found:
            return found
    found = next((cid for cid in ids if cid.startswith("ch:a:") and ":d." in cid), None)
    return found or next((cid for cid in ids if cid.startswith("ch:p:")), None)


class Person:
    """A player at one table of one guild, who answers whatever Discord asks of her: the first tiles to pass, the
    first discard, never a call (Pass on the table message)."""

    def __init__(self, double: Double, player: Player, guild: Guild) -> None:
        self.double = double
        self.player = player
        self.guild = guild

    def own(self) -> Message | None:
        """Her newest rack DM, if it offers a move."""
        dms = [m for m in self.player.dms() if any(a.filename == "rack.png" for a in m.attachments)]
        current = self.double.world.messages.get(dms[-1].id, dms[-1]) if dms else None
        return current if current is not None and not current.deleted and _decision(current) else None

    def thread(self) -> Channel | None:
        """Her table's thread (the first thread of her guild)."""
        return next(iter(self.double.world.threads(self.guild)), None)

    def offered(self) -> bool:
        """Whether Discord shows her a move to make: her DM's, or the table message's Pass."""
        table = self.table_message()
        return self.own() is not None or (table is not None and any(c.endswith(":p") for c in table.custom_ids))

    def lobby_start(self) -> tuple[Message, str] | None:
        """The table message's Start (Deal again, once a game has ended) and its custom_id, if it shows one."""
        table = self.table_message()
        found = next((c for c in table.custom_ids if c.endswith(":start")), None) if table else None
        return (table, found) if table is not None and found is not None else None

    def table_message(self) -> Message | None:
        """The table message in her guild's thread."""
        for thread in self.double.world.threads(self.guild):
            for message in reversed(thread.messages):
                if not message.deleted and any(cid.startswith("ch:t:") for cid in message.custom_ids):
                    return message
        return None

    async def press(self, message: Message, custom_id: str) -> Message | None:
        """Press a button (or pick the first three tiles in a pick); returns the private answer, if any."""
        here = self.player.at(message.channel)
        if custom_id.startswith("ch:p:"):
            options = [o["value"] for o in message.component(custom_id)["options"]]  # type: ignore[index]
            sent = await here.select(message, custom_id, options[:3])
        else:
            sent = await here.click(message, custom_id)
        await sent.response(timeout=10)
        answers = [m for m in sent.interaction.messages if m.ephemeral]
        return answers[-1] if answers else None

    async def step(self) -> bool:
        """Make one move if Discord offers her one now; whether she did."""
        own = self.own()
        if own is not None:
            said = await self.press(own, _decision(own) or "")
            assert said is None or "went wrong" not in said.content, said.content
            return True
        table = self.table_message()
        passing = next((cid for cid in table.custom_ids if cid.endswith(":p")), None) if table else None
        if table is not None and passing is not None:
            await self.press(table, passing)
            return True
        return False
