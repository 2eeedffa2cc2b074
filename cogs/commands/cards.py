"""``/card list|show`` for everyone; ``/card-admin import|proof|line|default`` for server managers (a group of its
own, since Discord applies default permissions to top-level commands only; checked again here). Imported cards
belong to the server that imported them."""

from __future__ import annotations

import asyncio
import io

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine.wording import line_name, plural
from bot.service.card_admin import CardProblems
from bot.service.errors import ErrorKind, TableError
from bot.service.guild_cards import MAX_CARD_BYTES
from bot.service.surface import LeagueCalls
from renderers import render_card, render_proof_line

from ..door import Door, Interaction
from ..failures import DiscordFailure
from ..show.fit import fit_lines
from ..show.league_look import import_components, import_file, import_preview_text, proof_components
from .card_desk import CardDesk
from .common import CardNames, Choices, guild_of, matching, require_manager

MESSAGE_LIMIT = 2000
FORMATS = (("auto", "by the file's name and content"), ("toml", "Charleston TOML (.toml)"),
           ("ra", "riichi_advanced American notation (.jq)"), ("mpmahj", "mpmahj card JSON (.json)"))


def problems_text(error: CardProblems) -> str:
    """The compiler's problems, one per line, within one message (the first ones, and how many more)."""
    head, *_ = str(error).split("\n", 1)
    lines = [head]
    for n, problem in enumerate(error.problems):
        line = f"- {problem}"
        rest = len(error.problems) - n
        if sum(len(x) + 1 for x in lines) + len(line) + 80 > MESSAGE_LIMIT:
            lines.append(f"… and {rest} more: run `charleston card validate` on the file to see them all.")
            break
        lines.append(line)
    return "\n".join(lines)


@app_commands.guild_only()
class Cards(CardNames, commands.GroupCog, group_name="card", group_description="The cards this server plays"):
    """Looking at cards."""

    def __init__(self, leagues: LeagueCalls, door: Door) -> None:
        self.leagues = leagues
        self.door = door
        super().__init__()

    @app_commands.command(name="list", description="The cards this server can play")
    async def list_(self, interaction: Interaction) -> None:
        """List the cards."""
        infos = await self.leagues.cards.infos(guild_of(interaction))
        lines = ["Cards for `/table new card:`"]
        for info in infos:
            marks = [m for m, on in (("imported here", info.imported), ("**default**", info.default)) if on]
            lines.append(f"- `{info.name}`: {discord.utils.escape_markdown(info.title)}, {plural(info.lines, 'line')}, "
                         f"{info.ruleset} rules" + (f" ({', '.join(marks)})" if marks else ""))
        await self.door.reply(interaction, fit_lines("\n".join(lines), "… and {more}: too long for one message."))

    @app_commands.command(name="show", description="A card's sheet, every line as printed")
    @app_commands.describe(name="the card", section="one section only (easier to read on a phone)")
    @app_commands.autocomplete(name=CardNames.card_names)
    async def show(self, interaction: Interaction, name: str, section: str | None = None) -> None:
        """Show a card sheet."""
        card = self.leagues.cards.card(guild_of(interaction), name)
        if section is not None and section.strip().lower() not in [s.lower() for s in card.sections]:
            raise TableError(ErrorKind.BAD_INPUT, f"{card.name} has no section '{section[:40]}'. Its sections: "
                             f"{', '.join(card.sections)}.")
        await self.door.defer(interaction, thinking=True)
        image = await asyncio.to_thread(render_card, card, section=section.strip() if section else None)
        file = discord.File(io.BytesIO(image.png), filename="card.png", description=image.alt)
        shown = f"section {section.strip()} of " if section else ""
        title = discord.utils.escape_markdown(card.name)
        lines = plural(len(card.lines), "line")
        await self.door.reply(interaction, f"{shown}**{title}** (`{name.strip().lower()}`): {lines}, "
                              f"{card.ruleset} rules.", files=[file])

    @show.autocomplete("section")
    async def _sections(self, interaction: Interaction, typed: str) -> Choices:
        try:
            card = self.leagues.cards.card(interaction.guild_id or 0, interaction.namespace.name or "")
        except TableError:
            return []
        typed = typed.strip().lower()
        return [app_commands.Choice(name=s[:100], value=s[:100]) for s in card.sections if typed in s.lower()][:25]


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class CardAdmin(CardNames, commands.GroupCog, group_name="card-admin",
                group_description="Import this server's own cards (server managers)"):
    """Importing cards, and the server's default card."""

    def __init__(self, leagues: LeagueCalls, door: Door, desk: CardDesk) -> None:
        self.leagues = leagues
        self.door = door
        self.desk = desk
        super().__init__()

    @app_commands.command(name="import", description="Import a card file: TOML, riichi_advanced .jq or mpmahj JSON")
    @app_commands.describe(file="the card file, at most 256 KB of text",
                           name="its name here: letters, digits, - and _ (e.g. spring-2026)",
                           format_="the file's format (by default told by its name and content)")
    @app_commands.rename(format_="format")
    @app_commands.choices(format_=[app_commands.Choice(name=label, value=value) for value, label in FORMATS])
    async def import_(self, interaction: Interaction, file: discord.Attachment,
                      name: app_commands.Range[str, 1, 32], format_: str = "auto") -> None:
        """Import a card: its warnings first (privately), stored once the organiser presses the button."""
        guild_id = await require_manager(self.leagues, interaction)
        if file.size > MAX_CARD_BYTES:
            raise TableError(ErrorKind.BAD_INPUT, f"{file.filename[:60]} is {file.size:,} bytes: a card file may have "
                             f"at most {MAX_CARD_BYTES:,} (a printed card takes about 10,000). Nothing was imported.")
        await self.door.defer(interaction, thinking=True)
        try:
            data = await self.door.call(file.read, "download a card file")
        except DiscordFailure:
            raise TableError(ErrorKind.BAD_INPUT, "I couldn't download the file from Discord: try again in a moment."
                             ) from None
        try:
            preview = await self.leagues.cards.preview_import(guild_id, name, data, file.filename, format_,
                                                              interaction.user.id, self.leagues.now_iso())
        except CardProblems as exc:
            await self.door.reply(interaction, problems_text(exc))
            return
        if not preview.ask_first:  # a Charleston card file without a warning: stored as written
            await self.desk.store(interaction, preview.token)
            return
        await self.door.reply(interaction, import_preview_text(preview), files=[import_file(preview)],
                              components=import_components(preview.token))

    @app_commands.command(name="proof", description="A card's proof sheet, privately: every line with a winning hand")
    @app_commands.describe(name="the card")
    @app_commands.autocomplete(name=CardNames.card_names)
    async def proof(self, interaction: Interaction, name: str) -> None:
        """Send the proof sheet, a page per section."""
        await self.desk.send_proof(interaction, name)

    @app_commands.command(name="line", description="Replace one line of a card imported here, typed as printed")
    @app_commands.describe(name="the card (one imported here)", line="the line, as the card names it: 2468 #1",
                           text="the line in the card language, e.g. 2468a FFFF 2222b 88b X 25 (X/C and value "
                           "at the end: optional)", note="the words printed beside it (optional)")
    @app_commands.autocomplete(name=CardNames.card_names)
    async def line(self, interaction: Interaction, name: str, line: app_commands.Range[str, 1, 60],
                   text: app_commands.Range[str, 1, 400], note: app_commands.Range[str, 1, 200] | None = None
                   ) -> None:
        """Replace a line, checked at once; answered with its proof."""
        guild_id = await require_manager(self.leagues, interaction)
        await self.door.defer(interaction, thinking=True)
        card, line_id = await self.leagues.cards.replace_line(guild_id, name, line, text, note, interaction.user.id,
                                                              self.leagues.now_iso())
        image = await asyncio.to_thread(render_proof_line, card, line_id)
        named = line_name(card, card.line(line_id))
        file = discord.File(io.BytesIO(image.png), filename="line.png", description=image.alt)
        await self.door.reply(interaction, f"**{discord.utils.escape_markdown(named)}** of `{name.strip().lower()}` "
                              "is replaced; new tables play it (tables already playing keep the line they were "
                              "dealt with). Check it against the printed card:", files=[file],
                              components=proof_components(name.strip().lower()))

    @line.autocomplete("line")
    async def _lines(self, interaction: Interaction, typed: str) -> Choices:
        try:
            names = self.leagues.cards.line_names(interaction.guild_id or 0, interaction.namespace.name or "")
        except TableError:
            return []
        return matching(typed, names)

    @app_commands.command(name="default", description="The card /table new uses when none is named")
    @app_commands.describe(name="the card")
    @app_commands.autocomplete(name=CardNames.card_names)
    async def default(self, interaction: Interaction, name: str) -> None:
        """Set the default card."""
        guild_id = await require_manager(self.leagues, interaction)
        card = await self.leagues.cards.set_default(guild_id, name, self.leagues.now_iso())
        await self.door.reply(interaction, f"New tables here now play **{discord.utils.escape_markdown(card.name)}** "
                              f"(`{name.strip().lower()}`) unless `/table new card:` names another.")
