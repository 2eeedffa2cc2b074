"""The offline Discord shards as Discord does, proven with discord.py's own AutoShardedClient: GET /gateway/bot
recommends a shard count, each IDENTIFY's shard gets READY and GUILD_CREATE for its own guilds, a guild's events go
to its shard and DMs to shard 0 only, and IDENTIFYs of one bucket closer than Discord allows are refused (op 9)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Sequence

import discord
from discord import app_commands
from support.discord_double import Double


class ShardedClient(discord.AutoShardedClient):
    """A client running some shards (or, without ``shard_ids``, every shard Discord recommends), with one command
    that says which shards answered it."""

    def __init__(self, shard_ids: Sequence[int] | None = None, count: int | None = None) -> None:
        super().__init__(intents=discord.Intents.default(), shard_ids=list(shard_ids) if shard_ids else None,
                         shard_count=count)
        self.tree = app_commands.CommandTree(self)
        self.heard: list[int | None] = []  # the guild of each /where this client answered (None: a DM)
        self.identified: set[int] = set()

        @self.tree.command(description="Which shards answer here?")
        async def where(interaction: discord.Interaction) -> None:
            self.heard.append(interaction.guild_id)
            await interaction.response.send_message(f"shards {self.shard_ids}")

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Each shard's first IDENTIFY at once (no coordination at all); a second one after 1.1 s."""
        if shard_id in self.identified:
            await asyncio.sleep(1.1)
        self.identified.add(shard_id or 0)


@contextlib.asynccontextmanager
async def running(double: Double, *clients: ShardedClient) -> AsyncIterator[None]:
    """Every client connected to the double and ready (all its shards), closed afterwards."""
    async with contextlib.AsyncExitStack() as stack:
        for client in clients:
            await stack.enter_async_context(double.running(client, timeout=30))
        yield


async def test_each_shard_gets_its_own_guilds_and_dms_go_to_shard_0(discord_double: Double) -> None:
    double = discord_double
    double.shard(4, identify_spacing=0)
    one, two = double.add_guild("One", shard=1), double.add_guild("Two", shard=2)
    low, high = ShardedClient([0, 1], 4), ShardedClient([2, 3], 4)
    async with running(double, low, high):
        assert sorted(low.shards) == [0, 1] and sorted(high.shards) == [2, 3]
        on = {g.id: double.guild_shard(g) for g in double.world.guilds.values()}
        assert {g.id for g in low.guilds} == {g for g, s in on.items() if s in (0, 1)} and one.id in on
        assert {g.id for g in high.guilds} == {g for g, s in on.items() if s in (2, 3)}
        assert one.id in {g.id for g in low.guilds} and two.id in {g.id for g in high.guilds}
        await low.tree.sync()  # global: one client syncs for all
        carol = double.user("carol", guild=two)
        in_two = await (await carol.slash("where")).message()
        in_dm = await (await carol.at(carol.dm_channel).slash("where")).message()
    assert in_two.content == "shards [2, 3]" and in_dm.content == "shards [0, 1]"
    assert high.heard == [two.id] and low.heard == [None]
    sent = double.gateway.dispatched
    assert (sent[(2, "INTERACTION_CREATE")], sent[(0, "INTERACTION_CREATE")]) == (1, 1)
    assert double.gateway.identifies == 4 and not double.gateway.too_soon


async def test_gateway_bot_recommends_the_shard_count(discord_double: Double) -> None:
    discord_double.shard(3, identify_spacing=0)
    client = ShardedClient()
    async with running(discord_double, client):
        assert client.shard_count == 3 and sorted(client.shards) == [0, 1, 2]
        assert discord_double.gateway.shards_connected() == {0, 1, 2}
        assert sorted(s for _, s in discord_double.gateway.identified) == [0, 1, 2]


async def test_an_identify_too_soon_in_its_bucket_is_refused_with_op_9(discord_double: Double) -> None:
    double = discord_double
    double.shard(4, max_concurrency=2, identify_spacing=1.0)
    double.expect_identify_too_soon()
    client = ShardedClient([0, 1, 2], 4)  # shards 0 and 2 share bucket 0 (shard % max_concurrency)
    async with running(double, client):
        assert double.gateway.shards_connected() == {0, 1, 2}
    (refused,) = double.gateway.too_soon
    assert refused[0] == 2 and refused[1] < 1.0
    identified = {shard: at for at, shard in double.gateway.identified}
    assert identified[2] - identified[0] >= 1.0 and len(double.gateway.identified) == 3
