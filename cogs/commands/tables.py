"""``/table``: open a table in its own thread, and the lobby by command (join, leave, computer, start, close,
show)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.ai.players import LEVEL_DESCRIPTIONS, LEVELS
from bot.service.cards import card_label
from bot.service.errors import ErrorKind, TableError
from bot.service.surface import LeagueCalls, TableCalls
from bot.service.updates import TableOptions

from ..door import Door, Interaction
from ..failures import DiscordFailure
from ..press.controls import Controls
from ..show import look
from ..show.drawing import Drawing
from ..show.presenter import Presenter
from .common import Choices, here, table_for


class Tables(commands.GroupCog, group_name="table", group_description="Open a Mah Jongg table and seat players"):
    """The table lobby."""

    def __init__(self, service: TableCalls, leagues: LeagueCalls, door: Door, presenter: Presenter,
                 controls: Controls, drawing: Drawing) -> None:
        self.service = service
        self.leagues = leagues
        self.door = door
        self.presenter = presenter
        self.controls = controls
        self.drawing = drawing
        super().__init__()

    @app_commands.command(name="new", description="Open a table in a new thread of this channel")
    @app_commands.describe(card="the card to play (default: the server's default card)",
                           rules="the rules: modern NMJL, the League's 1946 rules, or the classical chow/pung game "
                                 "(default: the card's)",
                           call_seconds="how long a discard may be called (3 to 30 seconds)",
                           players="2, 3 or 4 players", strict="a wrong Mah Jongg kills the hand (default: refused)",
                           computer_delay="seconds a computer player waits before each move (0 to 5)",
                           league="the league its games count for (default: this channel's league, if any)")
    @app_commands.choices(rules=[app_commands.Choice(name="NMJL (modern)", value="nmjl"),
                                 app_commands.Choice(name="NMJL 1946", value="nmjl-1946"),
                                 app_commands.Choice(name="Classical (chow/pung, no card)", value="classical")])
    @app_commands.choices(players=[app_commands.Choice(name="4 players", value=4),
                                   app_commands.Choice(name="3 players", value=3),
                                   app_commands.Choice(name="2 players", value=2)])
    async def new(self, interaction: Interaction, card: str | None = None, rules: str | None = None,
                  call_seconds: app_commands.Range[int, 3, 30] = 8, players: int = 4, strict: bool = False,
                  computer_delay: app_commands.Range[float, 0, 5] = 1.5, league: str | None = None) -> None:
        """Open a table: its thread, its lobby message, the opener in seat 0."""
        if interaction.guild_id is None or interaction.channel is None:
            raise TableError(ErrorKind.BAD_INPUT, "Tables are opened in a server's channel, not in DMs.")
        service = self.service
        if card is None and league is None:
            # Nothing typed can be wrong, so answer Discord before the database reads: in a burst of openings
            # they queue behind other tables' writes, past Discord's 3 s. A typed name is checked first, so
            # that a typo is answered privately.
            await self.door.defer(interaction, ephemeral=False, thinking=True)
        card_id, preset = await self.leagues.cards.for_table(interaction.guild_id, card, rules)
        counts_for = await self.leagues.for_new_table(interaction.guild_id, league, here(interaction))
        table_rules = service.make_rules(preset, card=card_id, call_window_seconds=call_seconds, players=players,
                                         declarations="strict" if strict else "friendly")
        await self.door.defer(interaction, ephemeral=False, thinking=True)
        opened = await service.create_table(interaction.guild_id, interaction.channel_id or 0,
                                            created_by=interaction.user.id, rules=table_rules,
                                            options=TableOptions(float(computer_delay)))
        table_id = opened.table_id
        if counts_for is not None:
            await self.leagues.attach_table(table_id, counts_for)
        channel_id = interaction.channel_id or 0
        thread = await self._thread(interaction.channel, channel_id, table_id)
        await service.relocate(table_id, thread)
        await service.update_display(table_id, lambda d: d.opened(thread, channel_id if thread != channel_id else None))
        await service.join(table_id, interaction.user.id, interaction.user.display_name, 0)
        await service.catch_up()
        await self.presenter.show_now(table_id)  # the lobby message, posted by the presenter
        where = f"<#{thread}>" if thread != channel_id else "here"
        league_note = f", counts for **{counts_for.name}**" if counts_for is not None else ""
        await self.door.reply(interaction, f"{interaction.user.mention} opened **table {table_id}** "
                              f"({card_label(table_rules.card)} card{league_note}): join it {where}.", ephemeral=False)

    async def _thread(self, channel: object, channel_id: int, table_id: int) -> int:
        """A public thread for the table, or the channel itself where threads can't be made."""
        if not isinstance(channel, discord.TextChannel):
            return channel_id  # a thread, a voice channel's chat: play right there
        try:
            thread = await self.door.create_thread(channel_id, f"Mah Jongg table {table_id}",
                                                   "open the table's thread", table=table_id)
        except DiscordFailure:
            return channel_id  # not a text channel, or no permission to make threads: play in the channel
        return thread.id

    @new.autocomplete("card")
    async def _cards(self, interaction: Interaction, typed: str) -> Choices:
        names = self.leagues.cards.names(interaction.guild_id) if interaction.guild_id else []
        return [app_commands.Choice(name=name, value=name) for name in names if typed.lower() in name][:25]

    @new.autocomplete("league")
    async def _leagues(self, interaction: Interaction, typed: str) -> Choices:
        names = await self.leagues.names(interaction.guild_id) if interaction.guild_id else []
        return [app_commands.Choice(name=name, value=name) for name in names if typed.lower() in name.lower()][:25]

    @app_commands.command(name="join", description="Take a seat at this table")
    @app_commands.describe(seat="a seat number, 0 to 3 (default: the first free one)")
    async def join(self, interaction: Interaction, seat: app_commands.Range[int, 0, 3] | None = None) -> None:
        """Take a seat (as the lobby's Join button does)."""
        await self.controls.join(interaction, table_for(self.service, interaction), seat)

    @app_commands.command(name="leave", description="Leave this table (mid-game a computer finishes for you)")
    async def leave(self, interaction: Interaction) -> None:
        """Leave the table."""
        await self.controls.leave(interaction, table_for(self.service, interaction))

    @app_commands.command(name="computer", description="Seat a computer player")
    @app_commands.describe(level="how well it plays", seat="a seat number, 0 to 3 (default: the first free one)")
    @app_commands.choices(level=[app_commands.Choice(name=f"{level}: {LEVEL_DESCRIPTIONS[level]}", value=level)
                                 for level in LEVELS])
    async def computer(self, interaction: Interaction, level: str = "normal",
                       seat: app_commands.Range[int, 0, 3] | None = None) -> None:
        """Seat a computer."""
        update = await self.service.add_computer(table_for(self.service, interaction), level, seat)
        added = next(event.seat for event in update.events if event.seat is not None)  # the COMPUTER_ADDED event
        await self.door.reply(interaction, f"A {level} computer player sits in seat {added}.")

    @app_commands.command(name="start", description="Deal the next game")
    async def start(self, interaction: Interaction) -> None:
        """Deal."""
        table = table_for(self.service, interaction)
        await self.door.defer(interaction)
        await self.service.start(table, by=interaction.user.id)
        await self.door.reply(interaction, "Dealt! Your rack is in your DMs.")

    @app_commands.command(name="close", description="Close this table (its opener or a server manager); a game in "
                                                    "progress is abandoned")
    async def close(self, interaction: Interaction) -> None:
        """Close the table."""
        manager = isinstance(interaction.user, discord.Member) and interaction.user.guild_permissions.manage_guild
        table = table_for(self.service, interaction)
        await self.service.close_table(table, by=interaction.user.id, manager=manager)
        await self.door.reply(interaction, f"Table {table} is closed.")

    @app_commands.command(name="show", description="The table as it is now, just for you")
    async def show(self, interaction: Interaction) -> None:
        """The table image and whose turn it is, privately."""
        table = table_for(self.service, interaction)
        update = self.service.snapshot(table)
        payload = await look.table_payload(update, [], self.drawing)
        await self.door.reply(interaction, payload.content, files=payload.files)
