"""Every move by command (``/play ...``), with suggestions from the player's legal moves, for keyboards, screen
readers and players who prefer typing. A move by command is answered as a button's is
(:meth:`cogs.press.controls.Controls.answer_move`)."""

from __future__ import annotations

import re

from discord import app_commands
from discord.ext import commands

from bot.engine.actions import Call, Discard, ExchangeJoker, SwapBlank
from bot.engine.errors import TileError
from bot.engine.notation import parse_tiles
from bot.engine.tiles import SORT_KEY, Tile, code, name
from bot.service import keys
from bot.service.errors import ErrorKind, TableError
from bot.service.surface import TableCalls
from bot.service.updates import SeatUpdate

from ..door import Door, Interaction
from ..press.controls import Controls
from ..show import look
from .common import Choices, table_for


def _tiles(text: str) -> list[Tile]:
    try:
        return parse_tiles(text)
    except TileError as exc:
        raise TableError(ErrorKind.BAD_INPUT, f"{exc} Write tiles like 5D N RD J (see /hint).") from None


def _exchanges(mine: SeatUpdate) -> list[tuple[str, ExchangeJoker]]:
    """The joker exchanges on offer, each with its key."""
    found = [(c.key, keys.parse_action_key(c.key, mine.seat)) for c in mine.choices.exchanges]
    return [(key, action) for key, action in found if isinstance(action, ExchangeJoker)]


class Play(commands.GroupCog, group_name="play", group_description="Make a move by command"):
    """Moves by command."""

    def __init__(self, service: TableCalls, door: Door, controls: Controls) -> None:
        self.service = service
        self.door = door
        self.controls = controls
        super().__init__()

    def _mine(self, interaction: Interaction) -> tuple[int, SeatUpdate]:
        table = table_for(self.service, interaction)
        return table, self.service.seat_update(table, interaction.user.id)

    async def _move(self, interaction: Interaction, key: str) -> None:
        table = table_for(self.service, interaction)
        await self.door.defer(interaction, thinking=True)  # the table may be busy: answer Discord first
        mine = await self.service.act(table, interaction.user.id, key)
        await self.controls.answer_move(interaction, mine)

    def _suggest(self, interaction: Interaction, typed: str, options: list[tuple[str, str]]) -> Choices:
        """Up to 25 (label, value) options matching what was typed; none (not an error) when not seated."""
        typed = typed.lower().strip()
        return [app_commands.Choice(name=label[:100], value=value) for label, value in options
                if typed in label.lower() or typed in value.lower()][:25]

    def _choices_or_none(self, interaction: Interaction) -> SeatUpdate | None:
        try:
            return self._mine(interaction)[1]
        except TableError:
            return None

    @app_commands.command(name="discard", description="Discard a tile")
    @app_commands.describe(tile="the tile, e.g. 5D, N, RD (suggestions come from your rack)")
    async def discard(self, interaction: Interaction, tile: str) -> None:
        """Discard."""
        kinds = _tiles(tile)
        if len(kinds) != 1:
            raise TableError(ErrorKind.BAD_INPUT, "Name one tile to discard, like 5D.")
        await self._move(interaction, keys.discard_key(kinds[0]))

    @discard.autocomplete("tile")
    async def _discards(self, interaction: Interaction, typed: str) -> Choices:
        mine = self._choices_or_none(interaction)
        discards = [(c.label, keys.parse_action_key(c.key, mine.seat)) for c in mine.choices.discard] if mine else []
        options = [(label, code(action.tile)) for label, action in discards if isinstance(action, Discard)]
        return self._suggest(interaction, typed, options)

    @app_commands.command(name="call", description="Call the discard for an exposure")
    @app_commands.describe(tiles="the exposure (suggestions list the ones you can make)")
    async def call(self, interaction: Interaction, tiles: str | None = None) -> None:
        """Call for an exposure."""
        _, mine = self._mine(interaction)
        calls = mine.choices.calls
        if tiles is None:
            if not calls:
                raise TableError(ErrorKind.ILLEGAL, "There is no discard you can call for an exposure now.")
            if len(calls) != 1:
                options = "; ".join(c.label for c in calls)
                raise TableError(ErrorKind.BAD_INPUT, f"Say which exposure in tiles: you can make {options}.")
            key = calls[0].key
        elif keys.is_key_of(tiles, Call):
            key = tiles  # a suggestion's value: the key itself (the service checks it is a call)
        else:
            key = keys.call_key(_tiles(tiles))
        await self._move(interaction, key)

    @call.autocomplete("tiles")
    async def _calls(self, interaction: Interaction, typed: str) -> Choices:
        mine = self._choices_or_none(interaction)
        return self._suggest(interaction, typed, [(c.label, c.key) for c in mine.choices.calls] if mine else [])

    @app_commands.command(name="pass", description="Pass on the discard")
    async def pass_(self, interaction: Interaction) -> None:
        """Pass."""
        await self._move(interaction, keys.PASS)

    @app_commands.command(name="hold", description="Wait: keep the call window open a little longer")
    async def hold(self, interaction: Interaction) -> None:
        """Hold."""
        await self._move(interaction, keys.HOLD)

    @app_commands.command(name="mahjong", description="Declare Mah Jongg (on your turn, or on the discard)")
    async def mahjong(self, interaction: Interaction) -> None:
        """Mah Jongg."""
        _, mine = self._mine(interaction)
        choice = mine.choices.call_mahjong or mine.choices.declare
        fallback = keys.CALL_MAHJONG if mine.choices.pass_call else keys.DECLARE
        await self._move(interaction, choice.key if choice is not None else fallback)

    @app_commands.command(name="charleston", description="Pass tiles in the Charleston")
    @app_commands.describe(tiles="the tiles, e.g. 5D N RD", blind="how many to pass blind (first left, last right)")
    async def charleston(self, interaction: Interaction, tiles: str = "",
                         blind: app_commands.Range[int, 0, 3] = 0) -> None:
        """Pass."""
        picked = sorted(_tiles(tiles), key=SORT_KEY.__getitem__) if tiles.strip() else []
        await self._move(interaction, keys.charleston_key(picked, blind))

    @charleston.autocomplete("tiles")
    async def _passes(self, interaction: Interaction, typed: str) -> Choices:
        return self._extend_pick(interaction, typed)

    @app_commands.command(name="vote", description="After the first left: stop the Charleston, or go on")
    @app_commands.describe(stop="True to stop here, False to go on to the second Charleston")
    async def vote(self, interaction: Interaction, stop: bool) -> None:
        """Vote."""
        await self._move(interaction, keys.vote_key(stop))

    @app_commands.command(name="courtesy", description="Offer 0 to 3 tiles across")
    @app_commands.describe(tiles="the tiles, e.g. 5D N (leave empty to offer none)")
    async def courtesy(self, interaction: Interaction, tiles: str = "") -> None:
        """Courtesy offer."""
        picked = sorted(_tiles(tiles), key=SORT_KEY.__getitem__) if tiles.strip() else []
        await self._move(interaction, keys.courtesy_key(picked))

    @courtesy.autocomplete("tiles")
    async def _offers(self, interaction: Interaction, typed: str) -> Choices:
        return self._extend_pick(interaction, typed)

    def _extend_pick(self, interaction: Interaction, typed: str) -> Choices:
        """Suggest the typed tiles plus one more from the rack."""
        mine = self._choices_or_none(interaction)
        if mine is None or mine.choices.pick is None:
            return []
        try:
            have = parse_tiles(typed) if typed.strip() else []
        except TileError:
            return []
        rack = [tile for _, tile in mine.choices.pick.options]
        for tile in have:
            if tile in rack:
                rack.remove(tile)
        prefix = " ".join(code(t) for t in have)
        options = [(f"{prefix} {code(t)}".strip(), f"{prefix} {code(t)}".strip()) for t in dict.fromkeys(rack)]
        return [app_commands.Choice(name=label, value=value) for label, value in options][:25] if len(have) < 3 \
            else [app_commands.Choice(name=prefix, value=prefix)]

    @app_commands.command(name="joker", description="Exchange a tile for a joker in an exposure")
    @app_commands.describe(tile="the tile the joker stands for", owner="whose exposure (suggestions list them)")
    async def joker(self, interaction: Interaction, tile: str, owner: str) -> None:
        """Exchange a joker."""
        _, mine = self._mine(interaction)
        wanted = _tiles(tile)[:1]
        for choice, exchange in _exchanges(mine):
            if owner in (str(exchange.owner), choice) and wanted and wanted[0] == exchange.tile:
                await self._move(interaction, choice)
                return
        raise TableError(ErrorKind.ILLEGAL, "No such joker to exchange now: see the suggestions.")

    @joker.autocomplete("tile")
    async def _joker_tiles(self, interaction: Interaction, typed: str) -> Choices:
        mine = self._choices_or_none(interaction)
        tiles = dict.fromkeys(exchange.tile for _, exchange in _exchanges(mine)) if mine else {}
        return self._suggest(interaction, typed, [(name(t), code(t)) for t in tiles])

    @joker.autocomplete("owner")
    async def _joker_owners(self, interaction: Interaction, typed: str) -> Choices:
        mine = self._choices_or_none(interaction)
        if mine is None:
            return []
        seats = dict.fromkeys(exchange.owner for _, exchange in _exchanges(mine))
        return self._suggest(interaction, typed, [(look.seat_label(mine.table.view, s), str(s)) for s in seats])

    @app_commands.command(name="blank", description="Swap a blank for a discard")
    @app_commands.describe(discard="the discard to take (suggestions list them)")
    async def blank(self, interaction: Interaction, discard: str) -> None:
        """Swap a blank."""
        if keys.is_key_of(discard, SwapBlank):
            key = discard  # a suggestion's value: the key itself (the service checks it is a swap)
        elif re.fullmatch(r"[0-9]{1,4}", discard.strip()):  # ASCII digits: int() refuses "²"
            key = keys.swap_key(int(discard))
        else:
            raise TableError(ErrorKind.BAD_INPUT, "Pick the discard from the suggestions.")
        await self._move(interaction, key)

    @blank.autocomplete("discard")
    async def _blanks(self, interaction: Interaction, typed: str) -> Choices:
        mine = self._choices_or_none(interaction)
        swaps = [c for _, group in mine.choices.blank_swaps for c in group] if mine else []
        return self._suggest(interaction, typed, [(c.label, c.key) for c in swaps])
