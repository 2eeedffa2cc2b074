"""``charleston demo``: one seeded game between four computer players, told as it happens.

The narrator sees every rack (it is a demo, not a table), so it can say what was passed and drawn.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.ai.players import make_player
from bot.cards import load_card
from bot.engine.events import Event
from bot.engine.game import Game, seat_wind
from bot.engine.payouts import payouts
from bot.engine.rules import table_rules
from bot.engine.tiles import code, name
from bot.simulate import play_game


def _tiles(tiles: list[int]) -> str:
    return " ".join(code(t) for t in tiles)


class Narrator:
    """Turns the engine's events into short lines, folding a draw and its discard into one."""

    def __init__(self, game: Game, say: Callable[[str], None]) -> None:
        self.game = game
        self.say = say
        self.drawn: dict[int, int] = {}

    def wind(self, seat: int | None) -> str:
        return seat_wind(self.game.state, seat) if seat is not None and seat >= 0 else "The table"

    def __call__(self, events: list[Event]) -> None:
        for event in events:
            line = self.line(event)
            if line:
                self.say(line)

    def line(self, event: Event) -> str:
        d = event.data
        who = self.wind(event.seat)
        match event.type:
            case "charleston":
                return f"-- Charleston: {d['step']} --"
            case "charleston_received":
                return f"   {who} receives {_tiles(d['tiles'])}"
            case "charleston_stopped":
                return f"{who} stops the Charleston."
            case "charleston_voted" if not d["stop"]:
                return ""
            case "courtesy":
                return "-- Courtesy pass across --"
            case "courtesy_exchanged":
                partner = self.wind(d["partner"]) if d["partner"] is not None else "Bob"
                return f"   {who} and {partner} swap {d['count']} tile(s)." if d["count"] else ""
            case "play":
                return f"-- Play: East opens; {d['wall']} tiles in the wall --"
            case "drew":
                self.drawn[event.seat or 0] = d["tile"]
                return ""
            case "discard":
                drawn = self.drawn.pop(event.seat or 0, None)
                took = f"draws {code(drawn)}, " if drawn is not None else ""
                return f"{who:<6} {took}discards {name(d['tile'])}"
            case "call":
                return f"{who} calls {'MAH JONGG' if d['mahjong'] else 'it'}!"
            case "exposure":
                return f"{who} exposes {_tiles(d['tiles'])}"
            case "joker_exchange":
                return f"{who} gives {code(d['tile'])} for a joker from {self.wind(d['owner'])}'s exposure"
            case "dead_hand":
                return f"{who}'s hand is dead: {d['reason']}."
            case "mahjong":
                return self.mahjong_line(event)
            case "game_over" if d["how"] == "wall":
                return "The wall is empty: a wall game. Nobody pays."
        return ""

    def mahjong_line(self, event: Event) -> str:
        d = event.data
        card = self.game.card
        line = card.line(d["line"])
        how = {"self_pick": "self-picked", "discard": f"on {self.wind(d['discarder'])}'s discard",
               "heavenly": "with the heavenly hand"}[d["how"]]
        groups = "  ".join(_tiles(g) for g in d["tiles"])
        bonus = ", jokerless" if d["jokerless"] else ""
        return (f"\nMAH JONGG! {self.wind(event.seat)} wins {how}{bonus}.\n"
                f"   Line {line.id} ({line.section}): {line.printed()}\n   Hand: {groups}")


def run_demo(seed: int, level: str, say: Callable[[str], None]) -> Game:
    card = load_card("practice")
    rules = table_rules("nmjl", card=card.id)
    players = [make_player(level, seed=seed * 4 + s) for s in range(4)]
    game, opening = Game.new(card, rules, seed)
    narrator = Narrator(game, say)
    say(f"Charleston demo: four '{level}' computer players on the {card.name}, seed {seed}.")
    for seat in game.state.players:
        say(f"   {seat_wind(game.state, seat):<6} is dealt {_tiles(sorted(game.state.seats[seat].rack))}")
    narrator(opening)
    play_game(game, players, on_events=narrator)
    say("")
    money = payouts(game.state)
    if money:
        say("Payouts:")
        for p in money:
            say(f"   {seat_wind(game.state, p.payer):<6} pays {seat_wind(game.state, p.payee)} {p.amount} "
                f"({p.reason})")
    say(f"{game.state.turns} discards; {len(game.state.wall)} tiles left in the wall.")
    return game
