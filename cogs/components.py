"""Every button and select the bot draws, as persistent :class:`discord.ui.DynamicItem`\\ s (state in the
custom_id, see :mod:`cogs.ids`), and the component sets of the table message and of a player's own message.

A component's callback only hands the press to the bot's :class:`~cogs.controls.Controls`; every error is
answered there.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import discord

from bot.engine.state import Phase
from bot.engine.tiles import Tile, name
from bot.service import keys
from bot.service.choices import Choice, SeatChoices, TilePick
from bot.service.updates import SeatUpdate, TablePhase, TableUpdate

from . import ids
from .ids import HELPERS, Helper

if TYPE_CHECKING:
    from .app import CharlestonBot
    from .controls import Controls

    Interaction = discord.Interaction[CharlestonBot]

PER_ROW = 5
Item = discord.ui.Item[discord.ui.View]
# discord.py types a component's callback for any client (``Interaction[ClientT]``); ours are only ever called by
# the Charleston bot, so they take ``Interaction[CharlestonBot]`` (hence the ``type: ignore[override]``s).


def _controls(interaction: Interaction) -> Controls:
    return interaction.client.controls


class ActButton(discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=ids.ACT):
    """Makes one move (an action key) while its decision is open."""

    def __init__(self, table: int, token: str, key: str, *, label: str = "Go",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary, row: int | None = None) -> None:
        super().__init__(discord.ui.Button(label=label[:80], style=style, custom_id=ids.act_id(table, token, key),
                                           row=row))
        self.table, self.token, self.key = table, token, key

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: Item,  # type: ignore[override]
                             match: re.Match[str], /) -> ActButton:
        """Rebuild the button from its custom_id."""
        assert isinstance(item, discord.ui.Button)
        return cls(int(match["table"]), match["token"], match["key"], label=item.label or "Go", style=item.style)

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        """Make the move."""
        await _controls(interaction).act(interaction, self.table, self.token, self.key)


class ConfirmButton(discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=ids.CONFIRM):
    """Makes a move the player was asked about and chose anyway (a pass that lets a Mah Jongg go, a joker thrown)."""

    def __init__(self, table: int, token: str, key: str, *, label: str = "Yes",
                 style: discord.ButtonStyle = discord.ButtonStyle.danger) -> None:
        super().__init__(discord.ui.Button(label=label[:80], style=style,
                                           custom_id=ids.confirm_id(table, token, key)))
        self.table, self.token, self.key = table, token, key

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: Item,  # type: ignore[override]
                             match: re.Match[str], /) -> ConfirmButton:
        """Rebuild the button from its custom_id."""
        assert isinstance(item, discord.ui.Button)
        return cls(int(match["table"]), match["token"], match["key"], label=item.label or "Yes", style=item.style)

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        """Make the move, confirmed."""
        await _controls(interaction).act(interaction, self.table, self.token, self.key, confirm=True)


class ActSelect(discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]], template=ids.SELECT):
    """Picks one move among several (each option's value is an action key)."""

    def __init__(self, table: int, token: str, n: int, options: list[discord.SelectOption] | None = None, *,
                 placeholder: str | None = None, row: int | None = None) -> None:
        super().__init__(discord.ui.Select(custom_id=ids.select_id(table, token, n), options=options or [],
                                           placeholder=placeholder, row=row))
        self.table, self.token = table, token

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: Item,  # type: ignore[override]
                             match: re.Match[str], /) -> ActSelect:
        """Rebuild the select from its custom_id."""
        assert isinstance(item, discord.ui.Select)
        return cls(int(match["table"]), match["token"], int(match["n"]), list(item.options))

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        """Make the chosen move."""
        await _controls(interaction).act(interaction, self.table, self.token, self.item.values[0])


class PickSelect(discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]], template=ids.PICK):
    """Picks tiles from the rack: a Charleston pass (mode ``c``: exactly 3; ``b``: fewer go blind) or a courtesy
    offer (``k``)."""

    def __init__(self, table: int, token: str, mode: str, options: list[discord.SelectOption] | None = None, *,
                 min_values: int = 1, max_values: int = 3, placeholder: str | None = None) -> None:
        super().__init__(discord.ui.Select(custom_id=ids.pick_id(table, token, mode), options=options or [],
                                           min_values=min_values, max_values=max_values, placeholder=placeholder))
        self.table, self.token, self.mode = table, token, mode

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: Item,  # type: ignore[override]
                             match: re.Match[str], /) -> PickSelect:
        """Rebuild the select from its custom_id."""
        assert isinstance(item, discord.ui.Select)
        return cls(int(match["table"]), match["token"], match["mode"], list(item.options),
                   min_values=item.min_values, max_values=item.max_values)

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        """Pass (or offer) the picked tiles."""
        await _controls(interaction).pick(interaction, self.table, self.token, self.mode, list(self.item.values))


class CallButton(discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=ids.CALL):
    """"Call" under a discard: answers with the exposures the presser can make."""

    def __init__(self, table: int, token: str) -> None:
        super().__init__(discord.ui.Button(label="Call", style=discord.ButtonStyle.primary,
                                           custom_id=ids.call_id(table, token), row=0))
        self.table, self.token = table, token

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: Item,  # type: ignore[override]
                             match: re.Match[str], /) -> CallButton:
        """Rebuild the button from its custom_id."""
        return cls(int(match["table"]), match["token"])

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        """Show the presser's call options."""
        await _controls(interaction).call_options(interaction, self.table, self.token)


class HelperButton(discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=ids.TABLE):
    """A helper (:class:`cogs.ids.Helper`): the lobby's buttons, and the private helpers (my rack, hint, jokers,
    blanks, I'm back)."""

    def __init__(self, table: int, helper: Helper, *, label: str | None = None, row: int | None = None) -> None:
        look = HELPERS[helper]
        super().__init__(discord.ui.Button(label=label or look.label, style=look.style,
                                           custom_id=ids.helper_id(table, helper), row=row))
        self.table, self.helper = table, helper

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: Item,  # type: ignore[override]
                             match: re.Match[str], /) -> HelperButton:
        """Rebuild the button from its custom_id."""
        label = item.label if isinstance(item, discord.ui.Button) else None
        return cls(int(match["table"]), Helper(match["what"]), label=label)

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        """Do the lobby step or show the helper."""
        await _controls(interaction).helper(interaction, self.table, self.helper)


DYNAMIC_ITEMS = (ActButton, ConfirmButton, ActSelect, PickSelect, CallButton, HelperButton)


def table_view(update: TableUpdate) -> discord.ui.View | None:
    """The table message's components: the lobby's buttons between games; the call buttons while a discard may be
    called; "My rack" and "Hint" during a game."""
    view = discord.ui.View(timeout=None)
    table = update.table_id
    game = update.view.game
    if update.view.closed:
        return None
    if game is None or game.phase == Phase.FINISHED:
        view.add_item(HelperButton(table, Helper.JOIN))
        view.add_item(HelperButton(table, Helper.COMPUTER))
        view.add_item(HelperButton(table, Helper.START, label="Deal again" if game is not None else None))
        view.add_item(HelperButton(table, Helper.LEAVE))
        return view
    if update.claimable is not None:  # a discard may be called (under the 1946 rules, until the next one)
        window = update.claimable[0]
        view.add_item(CallButton(table, window))
        view.add_item(ActButton(table, window, keys.CALL_MAHJONG, label="Mah Jongg!",
                                style=discord.ButtonStyle.success, row=0))
        if game.phase == Phase.CALL_WINDOW:
            view.add_item(ActButton(table, window, keys.PASS, label="Pass", row=0))
            view.add_item(ActButton(table, window, keys.HOLD, label="Wait", row=0))
    view.add_item(HelperButton(table, Helper.RACK, row=1))
    view.add_item(HelperButton(table, Helper.HINT, row=1))
    return view


def seat_view(update: SeatUpdate) -> discord.ui.View | None:
    """One player's components: exactly what they may do now."""
    table, choices, token = update.table.table_id, update.choices, update.table.token
    view = discord.ui.View(timeout=None)
    if update.table.view.closed:
        return None
    if update.table.view.seats[update.seat].away:
        view.add_item(HelperButton(table, Helper.BACK))
        return view
    if token is None or (choices.empty and choices.pick is None):
        return None
    claimable = update.table.claimable
    if choices.pick is not None:
        _pick(view, table, token, choices.pick, choices)
    elif choices.vote:
        for choice in choices.vote:
            view.add_item(ActButton(table, token, choice.key, label=choice.label))
    elif (choices.calls or choices.call_mahjong) and claimable is not None:
        _calls(view, table, claimable[0], choices)
    elif update.table.phase is TablePhase.CALL_WINDOW:
        return None  # nothing to call: passing is the table message's business
    else:
        _turn(view, table, token, choices, update)
    return view


def call_options_view(table: int, token: str, choices: SeatChoices) -> discord.ui.View:
    """The exposures (and Mah Jongg) one player can make with the discard, for the "Call" button's answer."""
    view = discord.ui.View(timeout=None)
    _calls(view, table, token, choices)
    return view


def _calls(view: discord.ui.View, table: int, token: str, choices: SeatChoices) -> None:
    row = [ActButton(table, token, c.key, label=c.label, style=discord.ButtonStyle.primary) for c in choices.calls]
    if choices.call_mahjong is not None:
        row.append(ActButton(table, token, choices.call_mahjong.key, label="Mah Jongg!",
                             style=discord.ButtonStyle.success))
    for extra in (choices.pass_call, choices.hold):
        if extra is not None:
            row.append(ActButton(table, token, extra.key, label=extra.label))
    for n, item in enumerate(row[: PER_ROW * 4]):
        item.item.row = n // PER_ROW
        view.add_item(item)


def _pick(view: discord.ui.View, table: int, token: str, pick: TilePick, choices: SeatChoices) -> None:
    options = [discord.SelectOption(label=_tile_label(tile), value=value) for value, tile in pick.options]
    if pick.kind == "charleston":
        blind = len(pick.blind) > 1
        least = 1 if blind else 3
        view.add_item(PickSelect(table, token, "b" if blind else "c", options, min_values=min(least, len(options)),
                                 max_values=min(3, len(options)),
                                 placeholder="Pick 3 tiles to pass" + (" (fewer: the rest blind)" if blind else "")))
        if blind:
            view.add_item(ActButton(table, token, keys.charleston_key((), 3), label="Pass all 3 blind", row=1))
    else:
        view.add_item(PickSelect(table, token, "k", options, min_values=1, max_values=min(3, len(options)),
                                 placeholder="Offer 1 to 3 tiles across"))
        view.add_item(ActButton(table, token, keys.courtesy_key(()), label="Offer nothing", row=1))
    if choices.declare is not None:
        view.add_item(ActButton(table, token, choices.declare.key, label="Mah Jongg!",
                                style=discord.ButtonStyle.success, row=1))


def _turn(view: discord.ui.View, table: int, token: str, choices: SeatChoices, update: SeatUpdate) -> None:
    drawn = update.view.drawn if update.view is not None else None
    for n, choice in enumerate(choices.discard[: PER_ROW * 3]):
        drawn_key = keys.discard_key(drawn) if drawn is not None else None
        style = discord.ButtonStyle.primary if choice.key == drawn_key else discord.ButtonStyle.secondary
        view.add_item(ActButton(table, token, choice.key, label=choice.label, style=style, row=n // PER_ROW))
    extras: list[ActButton | HelperButton] = []
    if choices.declare is not None:
        extras.append(ActButton(table, token, choices.declare.key, label="Mah Jongg!",
                                style=discord.ButtonStyle.success))
    if choices.exchanges:
        extras.append(HelperButton(table, Helper.JOKERS))
    if choices.blank_swaps:
        extras.append(HelperButton(table, Helper.BLANKS))
    extras += [ActButton(table, token, kong.key, label=kong.label) for kong in choices.kongs[:2]]  # classical
    extras.append(HelperButton(table, Helper.HINT))
    for item in extras:
        item.row = 3
        view.add_item(item)


def confirm_view(table: int, token: str, key: str, anyway: str, instead: tuple[str, str] | None) -> discord.ui.View:
    """The two answers to a move the player is asked about: the better move (Mah Jongg!), if there is one, and the
    move anyway."""
    view = discord.ui.View(timeout=None)
    if instead is not None:
        view.add_item(ActButton(table, token, instead[0], label=instead[1], style=discord.ButtonStyle.success))
    view.add_item(ConfirmButton(table, token, key, label=anyway))
    return view


def choice_buttons(table: int, token: str, choices: tuple[Choice, ...]) -> discord.ui.View:
    """A button per choice (at most 25), for an ephemeral answer such as the joker exchanges."""
    view = discord.ui.View(timeout=None)
    for n, choice in enumerate(choices[:25]):
        view.add_item(ActButton(table, token, choice.key, label=choice.label, row=n // PER_ROW))
    return view


def choice_selects(table: int, token: str, groups: tuple[tuple[str, tuple[Choice, ...]], ...]) -> discord.ui.View:
    """A select per group of choices (the blank swaps, by suit)."""
    view = discord.ui.View(timeout=None)
    for n, (label, choices) in enumerate(groups[:5]):
        options = [discord.SelectOption(label=c.label[:100], value=c.key) for c in choices[:25]]
        view.add_item(ActSelect(table, token, n, options, placeholder=label, row=n))
    return view


def _tile_label(tile: Tile) -> str:
    return name(tile)


def shows_component(message: discord.Message | None, custom_id: str) -> bool:
    """Whether ``custom_id`` is a component of ``message`` as Discord sent it with the press (discord.py dispatches
    a press only then: a button the bot has just removed would otherwise go unanswered)."""
    if message is None:
        return False
    for row in message.components:
        for item in getattr(row, "children", [row]):
            if getattr(item, "custom_id", None) == custom_id:
                return True
    return False


async def answer_removed(interaction: Interaction, custom_id: str) -> None:
    """A press of a component no longer on its message (the bot removed it a moment before), or one that is not
    ours: handled as the component would have been (its decision decides whether it still counts), or answered
    with a sentence saying what to do."""
    controls = _controls(interaction)
    raw = interaction.data.get("values") if interaction.data else None
    values = [str(v) for v in raw] if isinstance(raw, list) else []
    if match := re.fullmatch(ids.ACT, custom_id):
        await controls.act(interaction, int(match["table"]), match["token"], match["key"])
    elif match := re.fullmatch(ids.CONFIRM, custom_id):
        await controls.act(interaction, int(match["table"]), match["token"], match["key"], confirm=True)
    elif (match := re.fullmatch(ids.SELECT, custom_id)) and values:
        await controls.act(interaction, int(match["table"]), match["token"], values[0])
    elif (match := re.fullmatch(ids.PICK, custom_id)) and values:
        await controls.pick(interaction, int(match["table"]), match["token"], match["mode"], values)
    elif match := re.fullmatch(ids.CALL, custom_id):
        await controls.call_options(interaction, int(match["table"]), match["token"])
    elif match := re.fullmatch(ids.TABLE, custom_id):
        await controls.helper(interaction, int(match["table"]), Helper(match["what"]))
    else:
        await controls.unknown(interaction)
