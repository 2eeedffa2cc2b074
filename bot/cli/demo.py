"""``charleston demo``: one seeded game between four computer players, told as it happens.

The narrator sees every rack (it is a demo, not a table), so it can say what was passed and drawn.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path

from bot.ai.players import LEVEL_DESCRIPTIONS, LEVELS
from bot.ai.selfplay import play_game
from bot.cli.common import plural
from bot.engine import payloads
from bot.engine.charleston import PASSES
from bot.engine.events import Event, EventKind
from bot.engine.game import Game, seat_wind
from bot.engine.payouts import payouts
from bot.engine.rules import TableRules, rules_for_card, table_rules
from bot.engine.tiles import Tile, code
from bot.engine.views import public_view, seat_view
from bot.engine.wording import line_words
from bot.service.cards import load_card
from bot.service.narration import describe, tiles_text


def _tiles(tiles: Sequence[Tile]) -> str:
    return " ".join(code(t) for t in tiles)


class Narrator:
    """Lays the game's events out for the terminal, in the words of :mod:`bot.service.narration`: the
    Charleston's passes as headings, each draw beside its discard, the winning hand with its card line."""

    SHOWN = frozenset({EventKind.CALL, EventKind.EXPOSURE, EventKind.JOKER_EXCHANGE, EventKind.BLANK_SWAP,
                       EventKind.DEAD_HAND, EventKind.FALSE_MAHJONG, EventKind.CHARLESTON_STOPPED,
                       EventKind.DRAW_RETURNED, EventKind.GAME_OVER})

    def __init__(self, game: Game, say: Callable[[str], None]) -> None:
        self.game = game
        self.say = say
        self.drawn: dict[int, Event] = {}
        # A Charleston pass as it goes: the racks when it was announced, the blind counts, what each seat kept.
        self.racks: dict[int, Counter[Tile]] = {}
        self.blind: dict[int, int] = {}
        self.received: dict[int, tuple[Tile, ...]] = {}

    def wind(self, seat: int) -> str:
        """The seat's wind."""
        return seat_wind(self.game.state, seat)

    def __call__(self, events: list[Event]) -> None:
        for event in events:
            told = self.line(event)
            for line in told.split("\n") if told else ():  # one say a line, so --delay paces each
                self.say(line)

    def line(self, event: Event) -> str:
        """The line for one event, or "" when the demo leaves it out."""
        match event.payload:
            case payloads.Charleston():
                self.racks = {s: Counter(self.game.state.seats[s].rack) for s in self.game.state.players}
                self.blind, self.received = {}, {}
                return f"-- {describe(event, self.wind)} --"
            case payloads.Courtesy() | payloads.Play():
                return f"-- {describe(event, self.wind)} --"
            case payloads.CharlestonPassed(blind=blind) if event.seat is not None:
                self.blind[event.seat] = blind
                return ""
            case payloads.CharlestonReceived(tiles=tiles) if event.seat is not None:
                self.received[event.seat] = tiles
                return ""
            case payloads.CharlestonStepDone(step=step):
                return "\n".join(self.pass_lines(step))
            case payloads.CourtesyReceived():
                return f"   {describe(event, self.wind)}"
            case payloads.CourtesyExchanged(count=count) if count:
                return f"   {describe(event, self.wind)}"
            case payloads.Drew() if event.seat is not None:
                self.drawn[event.seat] = event
                return ""
            case payloads.Discard() if event.seat is not None:
                drew = self.drawn.pop(event.seat, None)
                return (describe(drew, self.wind) + " " if drew is not None else "") + describe(event, self.wind)
            case payloads.Mahjong():
                return self.mahjong_line(event, event.payload)
            case payloads.GameOver(how=how) if how != "wall":
                return ""
        return describe(event, self.wind) if event.type in self.SHOWN else ""

    def pass_lines(self, step: str) -> list[str]:
        """What each seat received in one Charleston pass, and the tiles a blind pass sent on unseen."""
        went_on = self.blind_tiles(step)
        lines = []
        for seat, tiles in self.received.items():
            kept = tiles_text(tiles) if tiles else "nothing"
            line = f"   {step.capitalize()}: {self.wind(seat)} receives {kept}"
            if went_on.get(seat):
                target = (seat + _offset(step)) % 4
                line += (f", and passes {tiles_text(sorted(went_on[seat].elements()))} on blind to "
                         f"{self.wind(target)}, unseen")
            lines.append(line + ".")
        return lines

    def blind_tiles(self, step: str) -> dict[int, Counter[Tile]]:
        """The tiles each blind passer sent on without looking (CH7): the narrator sees every rack, so it can
        work out what came to a seat and did not stay."""
        if not any(self.blind.values()) or set(self.received) != set(self.racks):
            return {}
        offset = _offset(step)
        state = self.game.state
        # What each seat passed of its own: its rack before, plus what it kept, minus its rack now.
        own = {s: self.racks[s] + Counter(self.received[s]) - Counter(state.seats[s].rack) for s in self.racks}
        forwarded: dict[int, Counter[Tile]] = {s: Counter() for s in own}
        for _ in range(len(own)):  # blind passes in a row settle within one round of the table
            for seat in own:
                if self.blind.get(seat):
                    sender = (seat - offset) % 4
                    came = own.get(sender, Counter()) + forwarded.get(sender, Counter())
                    forwarded[seat] = came - Counter(self.received[seat])
        return forwarded

    def mahjong_line(self, event: Event, won: payloads.Mahjong) -> str:
        """The Mah Jongg, the card line it matched and the hand, group by group."""
        groups = "  ".join(_tiles(g) for g in won.tiles)
        # A draw is told together with the discard that follows it; a winning draw has no discard, so it is
        # told here (a self-pick may also come from a joker exchange after a call, with no draw to tell).
        drew = self.drawn.pop(event.seat, None) if event.seat is not None else None
        draw = f"{describe(drew, self.wind)}\n" if drew is not None else ""
        card = self.game.card
        told = describe(event, self.wind, card=card)
        if not card.lines:  # the classical game: no card line to show
            return f"{draw}\n{told}\n   Hand: {groups}"
        return f"{draw}\n{told}\n   {line_words(card, card.line(won.line))}\n   Hand: {groups}"


def _offset(step: str) -> int:
    """Seats between a passer and the one it passes to, for a pass named as players say it."""
    return next(p.offset for p in PASSES if p.name == step)


def level_words(level: str) -> str:
    """The level the demo shows, in the words Discord's level choices use, and the others to try."""
    others = [lv for lv in reversed(LEVELS) if lv != level]
    return (f"'{level}': {LEVEL_DESCRIPTIONS[level]}. Other levels: --level {', '.join(others[:-1])} or "
            f"{others[-1]}.")


def run_demo(seed: int, level: str, say: Callable[[str], None], db_path: str | None = None,
             preset: str = "nmjl") -> Game:
    """Play and narrate one game under the rules ``preset``; with ``db_path`` it is played through the table
    service and recorded."""
    card = load_card(table_rules(preset).card)
    rules = rules_for_card(card)
    say(f"Charleston demo: four '{level}' computer players on the {card.name}, seed {seed}.")
    say(f"   {level_words(level)}")
    if db_path is None:
        game, opening = Game.new(card, rules, seed)
        narrator = Narrator(game, say)
        _deal_lines(game, say)
        narrator(opening)
        play_game(game, [level] * 4, on_events=narrator)
        recorded = None
    else:
        game, recorded = asyncio.run(_recorded(seed, level, say, db_path, rules))
    say("")
    money = payouts(game.state)
    if money:
        say("Payouts:")
        for p in money:
            say(f"   {seat_wind(game.state, p.payer):<6} pays {seat_wind(game.state, p.payee)} {p.amount} "
                f"({p.reason})")
    say(f"{plural(game.state.turns, 'discard')}; {plural(len(game.state.wall), 'tile')} left in the wall.")
    if recorded is not None:
        say(recorded)
    return game


def write_images(game: Game, folder: Path) -> list[Path]:
    """The final table, every seat's rack as its player saw it, and the winning line: what a Discord table
    would have posted."""
    from renderers import render_card, render_seat_view, render_table

    folder.mkdir(parents=True, exist_ok=True)
    state = game.state
    images = {"table.png": render_table(public_view(game), [seat_wind(state, s) for s in range(4)],
                                        wild=game.card.wild, card=game.card)}
    for seat in state.players:
        images[f"rack-{seat_wind(state, seat).lower()}.png"] = render_seat_view(seat_view(game, seat))
    if state.result is not None and state.result.line is not None:
        images["winning-line.png"] = render_card(game.card, line_id=state.result.line, tiles=state.result.tiles)
    paths = []
    for filename, image in images.items():
        path = folder / filename
        path.write_bytes(image.png)
        paths.append(path)
    return paths


def _deal_lines(game: Game, say: Callable[[str], None]) -> None:
    for seat in game.state.players:
        say(f"   {seat_wind(game.state, seat):<6} is dealt {_tiles(sorted(game.state.seats[seat].rack))}")


async def _recorded(seed: int, level: str, say: Callable[[str], None], db_path: str,
                    rules: TableRules) -> tuple[Game, str]:
    """Play through the table service (recorded), then tell the game from its action log: the service hands each
    listener only what its seat may see, and the demo's narrator sees everything, in the order it happened.
    Returns the game and the line saying where it was recorded, told after the payouts."""
    from bot.engine.actions import action_from_json
    from bot.engine.replay import export_replay, replay
    from bot.service.tables import TableService
    from bot.store.db import Database

    db = await Database.open(db_path)
    try:
        service = TableService(db, computer_delay=0)
        # The service deals a table's first game from seed + 1.
        table_id = (await service.create_table(0, 0, rules=rules, seed=seed - 1)).table_id
        for seat in range(4):
            await service.add_computer(table_id, level, seat)
        table = service.tables[table_id]
        await service.start(table_id)
        await service.close_table(table_id)
        assert table.game is not None and table.game_id is not None
        record = export_replay(table.game)
        seal = table.view().seal
        if seal is not None:
            say(f"Deal sealed: {seal.commitment}")
        # Told action by action on a copy, so the narrator sees each rack as it was (a blind pass's tiles).
        start = replay(record, table.game.card, stop_at=0)
        _deal_lines(start.game, say)
        narrator = Narrator(start.game, say)
        narrator(start.opening)
        for raw in record["actions"]:
            narrator(start.game.apply(action_from_json(raw)))
        note = (f"Recorded as game {table.game_id} (table {table_id}) in {db_path}; computer players are not in the "
                "standings.")
        if seal is not None:
            note += (f"\nThe deal: seed {seal.seed}, salt {seal.salt}; 'charleston fairness verify --db {db_path} "
                     f"--game {table.game_id}' checks it against its commitment.")
        return table.game, note
    finally:
        await db.close()
