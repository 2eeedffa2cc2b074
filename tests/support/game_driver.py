"""Scripted people at a Charleston table on the offline Discord: they read their DMs (or, with DMs closed, the
private "My rack" answer) and press the buttons and selects there, choosing like one of the project's computer
players. The bot runs in the test process, so the driver may ask the service which move a computer would make;
everything it *does* goes through Discord components."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from bot.ai.selfplay import computer_move
from bot.engine.actions import Action, Call, CharlestonPass, CourtesyOffer, Discard, Draw, ExchangeJoker, Hold, PassCall
from bot.engine.tiles import Tile, code
from bot.service.clock import ManualClock
from bot.service.keys import action_key
from bot.settings import Settings
from cogs.app import CharlestonBot
from cogs.failures import Backoff
from support.discord_double import Double, Player
from support.discord_double.models import Channel, Message

Policy = Callable[[object, int], Action]


def make_bot(double: Double, db: Path, *, clock: ManualClock | None = None, seeds: Iterator[int] | None = None,
             refresh: float = 0.05, render_workers: int = 0, request_timeout: float = 5.0,
             global_limit: int = 50) -> CharlestonBot:
    """The Charleston bot for the double: commands synced to its guild, messages refreshed every ``refresh``
    seconds, new tables dealt from ``seeds``, images drawn in a thread (``render_workers`` 0) or processes; a
    failed write tried again after 0.05 s doubling to 0.5 s, a Discord call given up after ``request_timeout``;
    at most ``global_limit`` rate-limited requests started in any second (cogs/pacer.py)."""
    settings = Settings(double.token, str(db), double.guild_id, "INFO", double.api_base, double.gateway_url, refresh,
                        render_workers, global_limit=global_limit)
    return CharlestonBot(settings, clock=clock, seeds=seeds, backoff=Backoff(0.05, 0.5),
                         request_timeout=request_timeout)


def normal(game: object, seat: int) -> Action:
    """The move of a hard computer player (the player named normal before the ladder: the scripted people play
    as it did, so seeded scenarios stay as they were found)."""
    return computer_move("hard", game, seat)  # type: ignore[arg-type]


def greedy(game: object, seat: int) -> Action:
    """A normal player who also calls every discard she can and exchanges every joker she can (races, swaps)."""
    from bot.engine.views import seat_view

    view = seat_view(game, seat)  # type: ignore[arg-type]
    for action in view.legal:
        if isinstance(action, Call) and action.mahjong:
            return action
    for action in view.legal:
        if isinstance(action, (Call, ExchangeJoker)):
            return action
    return normal(game, seat)


@dataclass
class Person:
    """One scripted person at the table."""

    player: Player
    seat: int
    policy: Policy = normal
    moves: int = 0
    used: list[str] = field(default_factory=list)  # how each move was made: "dm", "table", "rack"


def _component_for(table: int, token: str | None, action: Action) -> str:
    """The custom_id (or its start) of the component that makes ``action``."""
    if isinstance(action, (CharlestonPass, CourtesyOffer)) and action.tiles:
        return f"ch:p:{table}:{token}:"
    if isinstance(action, ExchangeJoker):
        return f"ch:t:{table}:jokers"
    return f"ch:a:{table}:{token}:{action_key(action)}"


class Driver:
    """Plays the people of one table through Discord until the game ends."""

    def __init__(self, double: Double, bot: CharlestonBot, table_id: int, people: list[Person],
                 think: Callable[[], float] | None = None, patience: float = 10.0) -> None:
        self.think = think  # seconds a person takes before each move (none in tests)
        self.patience = patience  # seconds to wait for the bot before failing (a benchmark's loaded machine: more)
        self.double = double
        self.bot = bot
        self.table_id = table_id
        self.people = {p.seat: p for p in people}

    @property
    def live(self):  # type: ignore[no-untyped-def]
        """The service's table."""
        return self.bot.service.tables[self.table_id]

    def thread(self) -> Channel:
        """The table's thread."""
        return self.double.world.channels[self.live.display.thread]

    def table_message(self) -> Message | None:
        """The table message as it stands."""
        message_id = self.live.display.message
        found = self.double.world.messages.get(message_id) if message_id else None
        return found if found is not None and not found.deleted else None

    async def play(self, *, until: Callable[[], bool] | None = None, timeout: float = 90) -> None:
        """Answer every decision the table puts to a person, until the game ends (or ``until()``)."""
        loop = asyncio.get_running_loop()
        stop_at = loop.time() + timeout
        await self.double.wait_for(lambda: self.live.game is not None, self.patience, "the game to be dealt")
        while self.live.playing and not (until and until()):
            assert loop.time() < stop_at, "the game did not end in time"
            due = [s for s in self.live.people_awaited() if s in self.people]
            if not due:
                version = self.live.version
                await self.double.wait_for(lambda v=version: self.live.version != v or not self.live.playing  # type: ignore[misc]
                                           or any(s in self.people for s in self.live.people_awaited()),
                                           self.patience,
                                           "the table to move on")
                continue
            await self.move(self.people[due[0]])
        # The engine's state moves before the move is saved and published: wait for the table's version.
        await self.double.wait_for(self.saved, self.patience, "the last move to be saved")

    def saved(self) -> bool:
        """Every move applied to the game has been saved (and so published)."""
        game = self.live.game
        return game is not None and self.live.version == len(game.state.log)

    async def move(self, person: Person) -> None:
        """Make the move this person's policy chooses, through the components Discord shows them."""
        if self.think is not None:
            token = self.bot.service.seat_update(self.table_id, person.player.id).table.token
            await asyncio.sleep(self.think())
            if self._moved_on(person, token):
                return  # while she thought, the table moved on (it passed for her, or her time ran out)
        game = self.live.game
        action = person.policy(game, person.seat)
        token = self.bot.service.seat_update(self.table_id, person.player.id).table.token
        before = self.live.version
        if isinstance(action, Draw):  # the table draws for everyone (no button): wait for it
            await self.double.wait_for(lambda: self.live.version != before or not self.live.playing,
                                       self.patience,
                                       f"the table to draw for {person.player}")
            return
        if isinstance(action, (PassCall, Hold)) and not isinstance(action, Call) and not person.player.user.dms_open:
            sent = await self._from_table(person, token, action_key(action))  # her DM can't offer it: the table's
        else:
            message = await self._own_message(person, token, action)
            sent = None if message is None else await self._press(person, message, token, action)
        if sent is None:
            return  # the decision moved on before the button came (the table passed for her): nothing to press
        kind = await sent.response()
        assert not sent.interaction.errors, sent.interaction.errors
        if kind == 4:  # answered with a message: a refusal would say why
            reply = await sent.message()
            assert "went wrong" not in reply.content, reply.content
        sent = await self._confirm(person, sent, action)
        await self.double.wait_for(lambda: self.live.version != before and self.saved(), self.patience,
                                   f"{person.player} to have moved")
        person.moves += 1

    async def _confirm(self, person: Person, sent, action: Action):  # type: ignore[no-untyped-def]
        """A discard of a joker is asked about (a misclick guard): she meant it, so she confirms."""
        if not (isinstance(action, Discard) and action.tile == Tile.J):
            return sent
        asked = await self.double.wait_for(lambda: next((m for m in sent.interaction.followups
                                                         if any(c.startswith("ch:y:") for c in m.custom_ids)), None),
                                           10, f"the question to {person.player} whether to discard the joker")
        person.used.append("confirm")
        confirm = next(c for c in asked.custom_ids if c.startswith("ch:y:"))
        confirmed = await person.player.at(asked.channel).click(asked, confirm)
        await confirmed.response()
        return confirmed

    def _moved_on(self, person: Person, token: str | None) -> bool:
        """The decision this person was about to answer is over, or no longer waits for her: a scripted person
        re-checks this before pressing, as a real one sees the buttons go."""
        return (person.seat not in self.live.people_awaited()
                or self.bot.service.seat_update(self.table_id, person.player.id).table.token != token)

    async def _own_message(self, person: Person, token: str | None, action: Action) -> Message | None:
        """The person's message for this decision, once it offers this move (a message drawn before the rack last
        changed may not): their DM, or the "My rack" answer where DMs are closed."""
        wanted = _component_for(self.table_id, token, action)

        def current() -> Message | None:
            for message in reversed(person.player.dms()):
                rack = any(a.filename == "rack.png" for a in message.attachments)
                if rack and any(cid.startswith(wanted) for cid in message.custom_ids):
                    return message
            return None

        if person.player.user.dms_open:
            found = await self.double.wait_for(lambda: current() or self._moved_on(person, token),
                                               self.patience,
                                               f"{person.player}'s DM for decision {token}")
            return found if isinstance(found, Message) else None
        table = await self.double.wait_for(self.table_message, self.patience, "the table message")
        person.used.append("rack")
        shown = await person.player.at(self.thread()).click(table, f"ch:t:{self.table_id}:rack")
        return await shown.message()

    async def _from_table(self, person: Person, token: str | None, key: str):  # type: ignore[no-untyped-def]
        custom_id = f"ch:a:{self.table_id}:{token}:{key}"
        message = await self.double.wait_for(
            lambda: ((m := self.table_message()) is not None and custom_id in m.custom_ids and m)
            or self._moved_on(person, token), self.patience, f"the table message's {key!r} button")
        if not isinstance(message, Message):
            return None
        person.used.append("table")
        return await person.player.at(self.thread()).click(message, custom_id)

    async def _press(self, person: Person, message: Message, token: str | None, action: Action):  # type: ignore[no-untyped-def]
        player = person.player.at(message.channel)
        person.used.append("dm" if message.channel.type == 1 else "rack")
        if isinstance(action, (CharlestonPass, CourtesyOffer)) and action.tiles:
            pick = next(cid for cid in message.custom_ids if cid.startswith(f"ch:p:{self.table_id}:{token}:"))
            options = message.component(pick)["options"]  # type: ignore[index]
            values: list[str] = []
            for tile in action.tiles:
                value = next(o["value"] for o in options
                             if o["value"].split(".")[0] == code(tile) and o["value"] not in values)
                values.append(value)
            return await player.select(message, pick, values)
        key = action_key(action)
        custom_id = f"ch:a:{self.table_id}:{token}:{key}"
        if custom_id in message.custom_ids:
            return await player.click(message, custom_id)
        if isinstance(action, ExchangeJoker):
            person.used.append("jokers")
            offer = await (await player.click(message, f"ch:t:{self.table_id}:jokers")).message()
            return await player.at(offer.channel).click(offer, custom_id)
        raise AssertionError(f"no component for {key} in {message.custom_ids}")
