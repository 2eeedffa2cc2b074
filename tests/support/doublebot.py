"""A small discord.py bot that exercises what the offline Discord must support (not the Charleston bot).

Each command does one thing Discord can accept or refuse; what the bot saw (an exception, a value) is put in
``bot.outcome(name)`` for the test to read.
"""

from __future__ import annotations

import asyncio
import copy
import hashlib
import io
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands
from PIL import Image

TILES = ["1B", "2B", "3B", "4B", "5B", "5C", "5D", "N", "E", "W", "S", "F", "J"]


class DoubleTestBot(commands.Bot):
    """Guild commands for the scenarios, one global command usable in DMs."""

    def __init__(self, guild_id: int) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default())
        self.guild_id = guild_id
        self.outcomes: dict[str, asyncio.Future[Any]] = {}
        self.slow_started = asyncio.Event()
        self.slow_release = asyncio.Event()
        self.readies = 0
        self.resumes = 0
        self.heard: list[tuple[str, str]] = []
        self.channel_updates: list[int] = []  # CHANNEL_UPDATEs heard, by channel id
        self.deleted_channels: list[int] = []  # CHANNEL_DELETEs heard

    def outcome(self, name: str) -> asyncio.Future[Any]:
        """The future a command resolves with what it saw."""
        if name not in self.outcomes:
            self.outcomes[name] = asyncio.get_running_loop().create_future()
        return self.outcomes[name]

    async def setup_hook(self) -> None:
        """Register the commands and sync them to the guild and globally."""
        guild = discord.Object(self.guild_id)
        command: app_commands.Command[Any, ..., Any] | app_commands.Group
        for command in (TABLE, PLAY, dm, slow, twice, bad, feedback, announce, thread, card, inspect, ask, cycle):
            self.tree.add_command(command, guild=guild)
        self.tree.add_command(rack)
        await self.tree.sync(guild=guild)
        await self.tree.sync()

    async def on_ready(self) -> None:
        """Count READY (a resumed session does not fire it again)."""
        self.readies += 1

    async def on_resumed(self) -> None:
        """Count RESUMED."""
        self.resumes += 1

    async def on_guild_channel_update(self, before: discord.abc.GuildChannel, after: discord.abc.GuildChannel) -> None:
        """Note a channel's change (its permissions, say)."""
        self.channel_updates.append(after.id)

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        """Note a deleted channel."""
        self.deleted_channels.append(channel.id)

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Identify again at once after a lost session (discord.py waits 5 s by default: tests need not)."""

    async def on_message(self, message: discord.Message) -> None:
        """Note what users' messages look like to a bot without the message content intent."""
        if message.author != self.user:
            self.heard.append((message.author.name, message.content))


def _bot(interaction: discord.Interaction) -> DoubleTestBot:
    assert isinstance(interaction.client, DoubleTestBot)
    return interaction.client


class TableView(discord.ui.View):
    """A join button (answered by updating the message, then a followup) and a seat select."""

    def __init__(self) -> None:
        super().__init__(timeout=60)

    @discord.ui.button(label="Join", custom_id="table:join", style=discord.ButtonStyle.primary)
    async def join(self, interaction: discord.Interaction, button: discord.ui.Button[TableView]) -> None:
        """Update the table message, then welcome the player privately."""
        await interaction.response.edit_message(content=f"{interaction.user.name} joined", view=self)
        await interaction.followup.send("Welcome to the table", ephemeral=True)

    @discord.ui.button(label="Leave", custom_id="table:leave")
    async def leave(self, interaction: discord.Interaction, button: discord.ui.Button[TableView]) -> None:
        """Acknowledge silently (deferred update), then edit the table message through the token."""
        await interaction.response.defer()
        await interaction.edit_original_response(content=f"{interaction.user.name} left")

    @discord.ui.select(custom_id="table:seat", placeholder="Seat",
                       options=[discord.SelectOption(label=w.title(), value=w) for w in ("east", "south", "west")])
    async def seat(self, interaction: discord.Interaction, select: discord.ui.Select[TableView]) -> None:
        """Confirm the seat privately."""
        await interaction.response.send_message(f"seat {select.values[0]}", ephemeral=True)


TABLE = app_commands.Group(name="table", description="Tables")


@TABLE.command(name="new", description="Open a table")
@app_commands.choices(card=[app_commands.Choice(name="Practice", value="practice")])
async def table_new(interaction: discord.Interaction, card: app_commands.Choice[str],
                    seats: app_commands.Range[int, 3, 4] = 4) -> None:
    """Open a table: a message with a view."""
    await interaction.response.send_message(f"New {card.value} table for {seats}", view=TableView())


PLAY = app_commands.Group(name="play", description="Play")


@PLAY.command(name="discard", description="Discard a tile")
async def play_discard(interaction: discord.Interaction, tile: str) -> None:
    """Discard a tile."""
    await interaction.response.send_message(f"discarded {tile}")


@play_discard.autocomplete("tile")
async def tile_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Tiles matching what was typed."""
    return [app_commands.Choice(name=t, value=t) for t in TILES if current.upper() in t][:25]


@app_commands.command(description="DM someone")
async def dm(interaction: discord.Interaction, who: discord.User) -> None:
    """Send a DM; closed DMs raise Forbidden (50007)."""
    try:
        await who.send("Your rack is ready")
    except discord.HTTPException as error:  # 50007 for closed DMs, or whatever a test made Discord answer
        _bot(interaction).outcome("dm").set_result(error)
        await interaction.response.send_message("Their DMs are closed", ephemeral=True)
        return
    _bot(interaction).outcome("dm").set_result("sent")
    await interaction.response.send_message("sent", ephemeral=True)


@app_commands.command(description="Answer when released")
@app_commands.choices(step=[app_commands.Choice(name=n, value=n) for n in ("respond", "followup")])
async def slow(interaction: discord.Interaction, step: str) -> None:
    """Wait for the test, then answer or follow up (too late if the test moved Discord's clock)."""
    bot = _bot(interaction)
    if step == "followup":
        await interaction.response.defer()
    bot.slow_started.set()
    await bot.slow_release.wait()
    try:
        if step == "followup":
            await interaction.followup.send("finally")
        else:
            await interaction.response.send_message("finally")
    except discord.HTTPException as error:
        bot.outcome("slow").set_result(error)


@app_commands.command(description="Answer twice")
async def twice(interaction: discord.Interaction) -> None:
    """Two handlers answering one interaction: the second gets 40060 from Discord."""
    other = copy.copy(interaction)  # its own InteractionResponse, as a second handler would have
    await interaction.response.send_message("one")
    try:
        await other.response.send_message("two")
    except discord.HTTPException as error:
        _bot(interaction).outcome("twice").set_result(error)


@app_commands.command(description="Send a payload Discord refuses")
@app_commands.choices(what=[app_commands.Choice(name=n, value=n) for n in ("select", "custom_id")])
async def bad(interaction: discord.Interaction, what: str) -> None:
    """A select with 26 options, or a button with a 101-character custom_id."""
    view = discord.ui.View()
    if what == "select":
        options = [discord.SelectOption(label=str(i)) for i in range(26)]
        view.add_item(discord.ui.Select(custom_id="many", options=options))
    else:
        view.add_item(discord.ui.Button(label="x", custom_id="x" * 101))
    try:
        await interaction.response.send_message("bad", view=view)
    except discord.HTTPException as error:
        _bot(interaction).outcome("bad").set_result(error)


class Feedback(discord.ui.Modal, title="Feedback"):
    """One text input."""

    text: discord.ui.TextInput[Feedback] = discord.ui.TextInput(label="What happened?", custom_id="feedback:text",
                                                                 max_length=200)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        """Thank the user, privately."""
        await interaction.response.send_message(f"Thanks: {self.text.value}", ephemeral=True)


@app_commands.command(description="Open a modal")
async def feedback(interaction: discord.Interaction) -> None:
    """Answer with a modal."""
    await interaction.response.send_modal(Feedback())


@app_commands.command(description="Post in the channel, then answer")
async def announce(interaction: discord.Interaction) -> None:
    """A plain channel message (the 429 scenario rate-limits it)."""
    assert isinstance(interaction.channel, discord.TextChannel)
    await interaction.channel.send("news")
    await interaction.response.send_message("announced", ephemeral=True)


@app_commands.command(description="Open threads")
async def thread(interaction: discord.Interaction) -> None:
    """A thread on the response message, one without a message, and a private one for the caller."""
    assert isinstance(interaction.channel, discord.TextChannel)
    await interaction.response.send_message("Table 1")
    message = await interaction.original_response()
    on_message = await message.create_thread(name="Table 1")
    await on_message.send("Welcome to table 1")
    loose = await interaction.channel.create_thread(name="Lobby", type=discord.ChannelType.public_thread)
    await loose.send("Lobby open")
    private = await interaction.channel.create_thread(name="Rack", type=discord.ChannelType.private_thread,
                                                      invitable=False)
    await private.add_user(interaction.user)
    await private.send("only for you")
    _bot(interaction).outcome("thread").set_result((on_message.id, loose.id, private.id))


def png(width: int, height: int, colour: str) -> bytes:
    """A small PNG made with Pillow."""
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), colour).save(buffer, "PNG")
    return buffer.getvalue()


@app_commands.command(description="Your rack, privately")
async def rack(interaction: discord.Interaction) -> None:
    """Defer ephemerally, then send a picture with alt text as the followup."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    picture = discord.File(io.BytesIO(png(64, 32, "green")), "rack.png", description="Your rack: 13 tiles")
    await interaction.followup.send("Your rack", file=picture, ephemeral=True)


@app_commands.command(description="Post a picture, then replace it")
async def card(interaction: discord.Interaction) -> None:
    """Send with one file, then edit the original to carry another one instead."""
    first = discord.File(io.BytesIO(png(10, 10, "red")), "first.png", description="first picture")
    await interaction.response.send_message("card", file=first)
    second = discord.File(io.BytesIO(png(20, 10, "blue")), "second.png", description="second picture")
    await interaction.edit_original_response(content="card v2", attachments=[second])


@app_commands.command(description="Read an attachment")
async def inspect(interaction: discord.Interaction, file: discord.Attachment, about: discord.User | None = None,
                  where: discord.TextChannel | None = None) -> None:
    """Download the attachment from its URL and answer with its size and digest (and who, and where)."""
    data = await file.read()
    who, place = (about.name if about else "nobody"), (where.name if where else "nowhere")
    digest = hashlib.sha256(data).hexdigest()
    await interaction.response.send_message(f"{file.filename} {len(data)} {digest} {who} {place}")


@app_commands.command(description="Defer, then answer")
async def ask(interaction: discord.Interaction) -> None:
    """A public deferral edited into the answer; a followup edited; another deleted."""
    await interaction.response.defer(thinking=True)
    await interaction.edit_original_response(content="answer")
    more = await interaction.followup.send("and one more thing", wait=True)
    await more.edit(content="and one more thing, edited")
    temporary = await interaction.followup.send("temporary", wait=True)
    await temporary.delete()
    _bot(interaction).outcome("ask").set_result((more.id, temporary.id))


@app_commands.command(description="Post, edit, delete, read back")
async def cycle(interaction: discord.Interaction) -> None:
    """Channel messages through the channel routes: a file kept and one added by an edit, a delete, history."""
    channel = interaction.channel
    assert isinstance(channel, discord.TextChannel)
    first = await channel.send("cycle", file=discord.File(io.BytesIO(png(8, 8, "white")), "a.png", description="A"))
    added = discord.File(io.BytesIO(png(9, 9, "black")), "b.png", description="B")
    await first.edit(content="cycle v2", attachments=[first.attachments[0], added])
    doomed = await channel.send("to delete")
    await doomed.delete()
    fetched = await interaction.client.fetch_channel(channel.id)
    history = [m.content async for m in channel.history(limit=10)]
    await interaction.response.send_message("cycled", ephemeral=True)
    _bot(interaction).outcome("cycle").set_result((first.id, fetched.id, history))
