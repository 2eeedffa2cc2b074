"""Every button and select the bot draws: one class per kind of component, which knows its custom_id's pattern
(:mod:`cogs.show.ids`), reads a press of it back, and names the handler that press asks for; and the component sets
of the table message and of a player's own message, drawn from the service's updates.

**One dispatch.** Every press of a component of ours is routed by :data:`COMPONENTS` (:mod:`cogs.press.router`),
whether or not the component is still on its message. discord.py's own dispatch (``DynamicItem``) runs a press only
while its component is on the message as Discord sends it, so a press on a button the bot had just edited away
needed a second, hand-written path; and a ``DynamicItem`` reaches its handler only through the interaction's client.
So the messages' components are a :class:`Components` view that discord.py never stores nor dispatches.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar, Protocol

import discord

from bot.engine.tiles import name
from bot.service import keys
from bot.service.choices import Choice, SeatChoices, TilePick
from bot.service.updates import SeatUpdate, TablePhase, TableUpdate

from ..door import Interaction
from . import ids
from .ids import HELPERS, Helper

PER_ROW = 5
Item = discord.ui.Item[discord.ui.View]


class Handlers(Protocol):
    """What a press asks for; :class:`cogs.press.controls.Controls` answers each."""

    async def act(self, interaction: Interaction, table: int, token: str, key: str, *, confirm: bool = False) -> None:
        """Make a move (``confirm``: one the player was asked about and chose anyway)."""

    async def pick(self, interaction: Interaction, table: int, token: str, mode: str, values: list[str]) -> None:
        """Pass (or offer) the tiles picked."""

    async def call_options(self, interaction: Interaction, table: int, token: str) -> None:
        """Show the presser the exposures she can make with the discard."""

    async def helper(self, interaction: Interaction, table: int, helper: Helper) -> None:
        """A lobby step, or one of the private helpers."""

    async def night_answer(self, interaction: Interaction, night: int, coming: bool) -> None:
        """I'm in / Can't come, for a league night."""


class Components(discord.ui.View):
    """A message's buttons and selects. discord.py never stores or dispatches it (see the module's docstring): every
    press is routed by :data:`COMPONENTS`, so the components' own callbacks are never called."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    def is_dispatchable(self) -> bool:
        """Never: discord.py would keep every message's view in memory, for presses the router handles anyway."""
        return False


class Component:
    """A kind of component: its custom_id's pattern, and what a press of one asks for."""

    pattern: ClassVar[re.Pattern[str]]
    table: int

    @classmethod
    def parse(cls, match: re.Match[str], values: list[str]) -> Component | None:
        """The component a custom_id matched by :attr:`pattern` names, with the values a select sent (None: a
        select pressed without a value)."""
        raise NotImplementedError

    @property
    def custom_id(self) -> str:
        """The component's custom_id (read back by :meth:`parse`)."""
        raise NotImplementedError

    async def handle(self, handlers: Handlers, interaction: Interaction) -> None:
        """Hand the press to its handler."""
        raise NotImplementedError


def _button(custom_id: str, label: str, style: discord.ButtonStyle, row: int | None) -> discord.ui.Button[Components]:
    return discord.ui.Button(label=label[:80], style=style, custom_id=custom_id, row=row)


@dataclass(frozen=True)
class ActButton(Component):
    """Makes one move (an action key) while its decision is open."""

    pattern: ClassVar[re.Pattern[str]] = re.compile(ids.ACT)
    table: int
    token: str
    key: str

    @classmethod
    def parse(cls, match: re.Match[str], values: list[str]) -> ActButton:
        """The button a press came from."""
        return cls(int(match["table"]), match["token"], match["key"])

    @property
    def custom_id(self) -> str:
        """The component's custom_id (:mod:`cogs.show.ids`)."""
        return ids.act_id(self.table, self.token, self.key)

    async def handle(self, handlers: Handlers, interaction: Interaction) -> None:
        """Make the move."""
        await handlers.act(interaction, self.table, self.token, self.key)

    def draw(self, label: str, style: discord.ButtonStyle = discord.ButtonStyle.secondary,
             row: int | None = None) -> discord.ui.Button[Components]:
        """The button."""
        return _button(self.custom_id, label, style, row)


@dataclass(frozen=True)
class ConfirmButton(Component):
    """Makes a move the player was asked about and chose anyway (a pass that lets a Mah Jongg go, a joker thrown)."""

    pattern: ClassVar[re.Pattern[str]] = re.compile(ids.CONFIRM)
    table: int
    token: str
    key: str

    @classmethod
    def parse(cls, match: re.Match[str], values: list[str]) -> ConfirmButton:
        """The button a press came from."""
        return cls(int(match["table"]), match["token"], match["key"])

    @property
    def custom_id(self) -> str:
        """The component's custom_id (:mod:`cogs.show.ids`)."""
        return ids.confirm_id(self.table, self.token, self.key)

    async def handle(self, handlers: Handlers, interaction: Interaction) -> None:
        """Make the move, confirmed."""
        await handlers.act(interaction, self.table, self.token, self.key, confirm=True)

    def draw(self, label: str) -> discord.ui.Button[Components]:
        """The button."""
        return _button(self.custom_id, label, discord.ButtonStyle.danger, None)


@dataclass(frozen=True)
class MoveSelect(Component):
    """Picks one move among several (each option's value is an action key)."""

    pattern: ClassVar[re.Pattern[str]] = re.compile(ids.SELECT)
    table: int
    token: str
    n: int  # tells several selects of one message apart
    chosen: str = ""

    @classmethod
    def parse(cls, match: re.Match[str], values: list[str]) -> MoveSelect | None:
        """The select a press came from, with the move chosen."""
        return cls(int(match["table"]), match["token"], int(match["n"]), values[0]) if values else None

    @property
    def custom_id(self) -> str:
        """The component's custom_id (:mod:`cogs.show.ids`)."""
        return ids.select_id(self.table, self.token, self.n)

    async def handle(self, handlers: Handlers, interaction: Interaction) -> None:
        """Make the chosen move."""
        await handlers.act(interaction, self.table, self.token, self.chosen)

    def draw(self, options: list[discord.SelectOption], placeholder: str, row: int) -> discord.ui.Select[Components]:
        """The select."""
        return discord.ui.Select(custom_id=self.custom_id, options=options,
                                 placeholder=placeholder, row=row)


@dataclass(frozen=True)
class TilePickSelect(Component):
    """Picks tiles from the rack: a Charleston pass (mode ``c``: exactly 3; ``b``: fewer go blind) or a courtesy
    offer (``k``)."""

    pattern: ClassVar[re.Pattern[str]] = re.compile(ids.PICK)
    table: int
    token: str
    mode: str
    picked: tuple[str, ...] = ()

    @classmethod
    def parse(cls, match: re.Match[str], values: list[str]) -> TilePickSelect | None:
        """The select a press came from, with the tiles picked."""
        return cls(int(match["table"]), match["token"], match["mode"], tuple(values)) if values else None

    @property
    def custom_id(self) -> str:
        """The component's custom_id (:mod:`cogs.show.ids`)."""
        return ids.pick_id(self.table, self.token, self.mode)

    async def handle(self, handlers: Handlers, interaction: Interaction) -> None:
        """Pass (or offer) the picked tiles."""
        await handlers.pick(interaction, self.table, self.token, self.mode, list(self.picked))

    def draw(self, options: list[discord.SelectOption], least: int, most: int,
             placeholder: str) -> discord.ui.Select[Components]:
        """The select."""
        return discord.ui.Select(custom_id=self.custom_id, options=options,
                                 min_values=least, max_values=most, placeholder=placeholder)


@dataclass(frozen=True)
class CallButton(Component):
    """"Call" under a discard: answers with the exposures the presser can make."""

    pattern: ClassVar[re.Pattern[str]] = re.compile(ids.CALL)
    table: int
    token: str

    @classmethod
    def parse(cls, match: re.Match[str], values: list[str]) -> CallButton:
        """The button a press came from."""
        return cls(int(match["table"]), match["token"])

    @property
    def custom_id(self) -> str:
        """The component's custom_id (:mod:`cogs.show.ids`)."""
        return ids.call_id(self.table, self.token)

    async def handle(self, handlers: Handlers, interaction: Interaction) -> None:
        """Show the presser's call options."""
        await handlers.call_options(interaction, self.table, self.token)

    def draw(self) -> discord.ui.Button[Components]:
        """The button."""
        return _button(self.custom_id, "Call", discord.ButtonStyle.primary, 0)


@dataclass(frozen=True)
class HelperButton(Component):
    """A helper (:class:`cogs.show.ids.Helper`): the lobby's buttons, and the private helpers (my rack, hint,
    jokers, blanks, I'm back)."""

    pattern: ClassVar[re.Pattern[str]] = re.compile(ids.TABLE)
    table: int
    helper: Helper

    @classmethod
    def parse(cls, match: re.Match[str], values: list[str]) -> HelperButton:
        """The button a press came from."""
        return cls(int(match["table"]), Helper(match["what"]))

    @property
    def custom_id(self) -> str:
        """The component's custom_id (:mod:`cogs.show.ids`)."""
        return ids.helper_id(self.table, self.helper)

    async def handle(self, handlers: Handlers, interaction: Interaction) -> None:
        """Do the lobby step or show the helper."""
        await handlers.helper(interaction, self.table, self.helper)

    def draw(self, label: str | None = None, row: int | None = None) -> discord.ui.Button[Components]:
        """The button (``label``: instead of the helper's own)."""
        look = HELPERS[self.helper]
        return _button(self.custom_id, label or look.label, look.style, row)


@dataclass(frozen=True)
class SignupButton(Component):
    """A league night's sign-up: I'm in, or Can't come. It names a night, not a table (``table`` is 0): it is
    pressed in a server's channel, never in a DM, so no process needs to find its table."""

    pattern: ClassVar[re.Pattern[str]] = re.compile(ids.SIGNUP)
    night: int
    coming: bool
    table: int = 0

    @classmethod
    def parse(cls, match: re.Match[str], values: list[str]) -> SignupButton:
        """The button a press came from."""
        return cls(int(match["night"]), match["answer"] == "in")

    @property
    def custom_id(self) -> str:
        """The component's custom_id (:mod:`cogs.show.ids`)."""
        return ids.signup_id(self.night, self.coming)

    async def handle(self, handlers: Handlers, interaction: Interaction) -> None:
        """Answer for the presser."""
        await handlers.night_answer(interaction, self.night, self.coming)

    def draw(self) -> discord.ui.Button[Components]:
        """The button."""
        if self.coming:
            return _button(self.custom_id, "I'm in", discord.ButtonStyle.success, 0)
        return _button(self.custom_id, "Can't come", discord.ButtonStyle.secondary, 0)


def signup_components(night: int) -> Components:
    """A night's sign-up buttons."""
    view = Components()
    view.add_item(SignupButton(night, True).draw())
    view.add_item(SignupButton(night, False).draw())
    return view


# Every kind of component: a press is read by the first whose pattern matches its custom_id (cogs.press.router).
COMPONENTS: tuple[type[Component], ...] = (ActButton, ConfirmButton, MoveSelect, TilePickSelect, CallButton,
                                           HelperButton, SignupButton)


def read_press(custom_id: str, values: list[str]) -> Component | None:
    """The component a press names (with what a select sent), or None for a custom_id that is none of ours."""
    for kind in COMPONENTS:
        if (match := kind.pattern.fullmatch(custom_id)) is not None:
            return kind.parse(match, values)
    return None


def table_named(custom_id: str) -> int | None:
    """The table a component's custom_id names (every one of ours but a night's sign-up names one); None if it is
    none of ours or names no table."""
    for kind in COMPONENTS:
        if (match := kind.pattern.fullmatch(custom_id)) is not None:
            table = match.groupdict().get("table")
            return int(table) if table is not None else None
    return None


# -- the component sets of the bot's messages --------------------------------------------------------------------
def table_components(update: TableUpdate) -> Components | None:
    """The table message's components: the lobby's buttons between games; the call buttons while a discard may be
    called; "My rack" and "Hint" during a game."""
    if update.view.closed:
        return None
    components = Components()
    table = update.table_id
    if update.phase in (TablePhase.LOBBY, TablePhase.FINISHED):
        dealt = update.view.game is not None
        components.add_item(HelperButton(table, Helper.JOIN).draw())
        components.add_item(HelperButton(table, Helper.COMPUTER).draw())
        components.add_item(HelperButton(table, Helper.START).draw(label="Deal again" if dealt else None))
        components.add_item(HelperButton(table, Helper.LEAVE).draw())
        return components
    if update.claimable is not None:  # a discard may be called (under the 1946 rules, until the next one)
        window = update.claimable[0]
        components.add_item(CallButton(table, window).draw())
        components.add_item(ActButton(table, window, keys.CALL_MAHJONG).draw("Mah Jongg!", discord.ButtonStyle.success,
                                                                             row=0))
        if update.phase is TablePhase.CALL_WINDOW:
            components.add_item(ActButton(table, window, keys.PASS).draw("Pass", row=0))
            components.add_item(ActButton(table, window, keys.HOLD).draw("Wait", row=0))
    components.add_item(HelperButton(table, Helper.RACK).draw(row=1))
    components.add_item(HelperButton(table, Helper.HINT).draw(row=1))
    return components


def rack_components(update: SeatUpdate) -> Components | None:
    """One player's components under her rack: exactly what she may do now."""
    table, choices, token = update.table.table_id, update.choices, update.table.token
    if update.table.view.closed:
        return None
    components = Components()
    if update.table.view.seats[update.seat].away:
        components.add_item(HelperButton(table, Helper.BACK).draw())
        return components
    if token is None or (choices.empty and choices.pick is None):
        return None
    claimable = update.table.claimable
    if choices.pick is not None:
        _pick(components, table, token, choices.pick, choices)
    elif choices.vote:
        for choice in choices.vote:
            components.add_item(ActButton(table, token, choice.key).draw(choice.label))
    elif (choices.calls or choices.call_mahjong) and claimable is not None:
        _calls(components, table, claimable[0], choices)
    elif update.table.phase is TablePhase.CALL_WINDOW:
        return None  # nothing to call: passing is the table message's business
    else:
        _turn(components, table, token, choices, update)
    return components


def call_components(table: int, token: str, choices: SeatChoices) -> Components:
    """The exposures (and Mah Jongg) one player can make with the discard, for the "Call" button's answer."""
    components = Components()
    _calls(components, table, token, choices)
    return components


def _calls(components: Components, table: int, token: str, choices: SeatChoices) -> None:
    row = [(ActButton(table, token, c.key), c.label, discord.ButtonStyle.primary) for c in choices.calls]
    if choices.call_mahjong is not None:
        row.append((ActButton(table, token, choices.call_mahjong.key), "Mah Jongg!", discord.ButtonStyle.success))
    for extra in (choices.pass_call, choices.hold):
        if extra is not None:
            row.append((ActButton(table, token, extra.key), extra.label, discord.ButtonStyle.secondary))
    for n, (button, label, style) in enumerate(row[: PER_ROW * 4]):
        components.add_item(button.draw(label, style, row=n // PER_ROW))


def _pick(components: Components, table: int, token: str, pick: TilePick, choices: SeatChoices) -> None:
    options = [discord.SelectOption(label=name(tile), value=value) for value, tile in pick.options]
    if pick.kind == "charleston":
        blind = len(pick.blind) > 1
        least = 1 if blind else 3
        select = TilePickSelect(table, token, "b" if blind else "c")
        components.add_item(select.draw(options, min(least, len(options)), min(3, len(options)),
                                        "Pick 3 tiles to pass" + (" (fewer: the rest blind)" if blind else "")))
        if blind:
            components.add_item(ActButton(table, token, keys.charleston_key((), 3)).draw("Pass all 3 blind", row=1))
    else:
        select = TilePickSelect(table, token, "k")
        components.add_item(select.draw(options, 1, min(3, len(options)), "Offer 1 to 3 tiles across"))
        components.add_item(ActButton(table, token, keys.courtesy_key(())).draw("Offer nothing", row=1))
    if choices.declare is not None:
        components.add_item(ActButton(table, token, choices.declare.key).draw("Mah Jongg!",
                                                                              discord.ButtonStyle.success, row=1))


def _turn(components: Components, table: int, token: str, choices: SeatChoices, update: SeatUpdate) -> None:
    drawn = update.view.drawn if update.view is not None else None
    drawn_key = keys.discard_key(drawn) if drawn is not None else None
    for n, choice in enumerate(choices.discard[: PER_ROW * 3]):
        style = discord.ButtonStyle.primary if choice.key == drawn_key else discord.ButtonStyle.secondary
        components.add_item(ActButton(table, token, choice.key).draw(choice.label, style, row=n // PER_ROW))
    extras: list[Item] = []
    if choices.declare is not None:
        extras.append(ActButton(table, token, choices.declare.key).draw("Mah Jongg!", discord.ButtonStyle.success))
    if choices.exchanges:
        extras.append(HelperButton(table, Helper.JOKERS).draw())
    if choices.blank_swaps:
        extras.append(HelperButton(table, Helper.BLANKS).draw())
    extras += [ActButton(table, token, kong.key).draw(kong.label) for kong in choices.kongs[:2]]  # classical
    extras.append(HelperButton(table, Helper.HINT).draw())
    for item in extras:
        item.row = 3
        components.add_item(item)


def confirm_components(table: int, token: str, key: str, anyway: str,
                       instead: tuple[str, str] | None) -> Components:
    """The two answers to a move the player is asked about: the better move (Mah Jongg!), if there is one, and the
    move anyway."""
    components = Components()
    if instead is not None:
        components.add_item(ActButton(table, token, instead[0]).draw(instead[1], discord.ButtonStyle.success))
    components.add_item(ConfirmButton(table, token, key).draw(anyway))
    return components


def choice_buttons(table: int, token: str, choices: tuple[Choice, ...]) -> Components:
    """A button per choice (at most 25), for a private answer such as the joker exchanges."""
    components = Components()
    for n, choice in enumerate(choices[:25]):
        components.add_item(ActButton(table, token, choice.key).draw(choice.label, row=n // PER_ROW))
    return components


def choice_selects(table: int, token: str, groups: tuple[tuple[str, tuple[Choice, ...]], ...]) -> Components:
    """A select per group of choices (the blank swaps, by suit)."""
    components = Components()
    for n, (label, choices) in enumerate(groups[:5]):
        options = [discord.SelectOption(label=c.label[:100], value=c.key) for c in choices[:25]]
        components.add_item(MoveSelect(table, token, n).draw(options, label, row=n))
    return components
