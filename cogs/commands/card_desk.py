"""The card manager's buttons and sheets (/card-admin): storing an import once its warnings were read, and sending
a card's proof sheet privately, a page per section with alt text. The /card-admin commands and the buttons
(:class:`cogs.show.components.CardButton`, routed by the press router through ``Controls.card``) share it."""

from __future__ import annotations

import asyncio

from bot.engine.wording import plural
from bot.service.errors import ErrorKind, TableError
from bot.service.surface import LeagueCalls
from renderers import render_proof_pages

from ..door import Door, Interaction
from ..show import ids
from ..show.league_look import proof_components, proof_files, stored_text
from .common import require_manager

FILES_PER_MESSAGE = 10  # Discord's limit of attachments on one message


class CardDesk:
    """Answers the card manager's buttons (:class:`cogs.press.controls.CardButtons`) and sends proof sheets."""

    def __init__(self, leagues: LeagueCalls, door: Door) -> None:
        self.leagues = leagues
        self.door = door

    async def pressed(self, interaction: Interaction, act: str, what: str) -> None:
        """A press of "Store this card" (``what``: the import's token) or "Show its proof sheet" (a card)."""
        if act == ids.STORE_IMPORT:
            await self.store(interaction, what)
        elif act == ids.SEND_PROOF:
            await self.send_proof(interaction, what)
        else:
            raise TableError(ErrorKind.GONE, "That button no longer works: use `/card-admin` again.")

    async def store(self, interaction: Interaction, token: str) -> None:
        """Store the import the organiser has read the warnings of; offer its proof sheet."""
        guild_id = await require_manager(self.leagues, interaction)
        await self.door.defer(interaction, thinking=True)
        card = await self.leagues.cards.confirm_import(guild_id, token, interaction.user.id, self.leagues.now_iso())
        name = next((i.name for i in await self.leagues.cards.infos(guild_id) if i.card_id == card.id), card.id)
        await self.door.reply(interaction, stored_text(card.name, name, len(card.lines), card.variant_count,
                                                       card.ruleset), components=proof_components(name))

    async def send_proof(self, interaction: Interaction, name: str) -> None:
        """A card's proof sheet, privately: a page per section (in messages of up to ten pages)."""
        guild_id = await require_manager(self.leagues, interaction)
        card = self.leagues.cards.card(guild_id, name)
        if not card.lines:
            raise TableError(ErrorKind.BAD_INPUT, f"{card.name} has no lines to proof: a hand is four sets and a "
                             "pair.")
        await self.door.defer(interaction, thinking=True)
        pages = await asyncio.to_thread(render_proof_pages, card)
        key = name.strip().lower()
        for start in range(0, len(pages), FILES_PER_MESSAGE):
            chunk = pages[start:start + FILES_PER_MESSAGE]
            content = (f"Proof sheet of **{card.name}** (`{key}`), {plural(len(card.lines), 'line')}, a page per "
                       f"section ({plural(len(pages), 'page')}): hold it next to the printed card and check each "
                       "line, its tiles, colours, note, X or C and value. The tiles under each line are one winning "
                       "hand of it."
                       if start == 0 else f"Pages {start + 1} to {start + len(chunk)} of {len(pages)}.")
            await self.door.reply(interaction, content, files=proof_files(chunk, key, start + 1))
