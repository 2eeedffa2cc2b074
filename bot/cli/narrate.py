"""Plain-English lines for engine events, for the command line and the demo (the Discord layer words its own)."""

from __future__ import annotations

from bot.engine.events import Event
from bot.engine.tiles import name

SEAT_NAMES = ("seat 0", "seat 1", "seat 2", "seat 3")


def _tiles(tiles: list[int]) -> str:
    return ", ".join(name(t) for t in tiles) if tiles else "nothing"


def describe(event: Event, winds: list[str] | None = None) -> str:
    """One line for an event; ``winds`` names the seats (East, South, ...) when known."""
    who = (winds[event.seat] if winds and event.seat is not None and event.seat >= 0
           else f"seat {event.seat}")
    d = event.data
    match event.type:
        case "deal":
            return f"The tiles are dealt; {d['wall']} stay in the wall."
        case "rack":
            return f"{who} is dealt {_tiles(d['tiles'])}."
        case "charleston":
            blind = " (blind allowed)" if d.get("blind_allowed") else ""
            return f"Charleston: pass {d['step']}{blind}."
        case "charleston_passed":
            return f"{who} passes" + (f", {d['blind']} blind." if d["blind"] else ".")
        case "charleston_received":
            return f"{who} receives {_tiles(d['tiles'])} on the {d['step']}."
        case "charleston_step_done":
            return f"The {d['step']} is done."
        case "charleston_vote":
            return "Stop the Charleston here, or go on to the second one?"
        case "charleston_voted":
            return f"{who} votes to {'stop' if d['stop'] else 'go on'}."
        case "charleston_stopped":
            return f"{who} stops the Charleston."
        case "courtesy":
            return "Courtesy pass: each player may offer 0 to 3 tiles across."
        case "courtesy_offered":
            return f"{who} offers {d['count']} across."
        case "courtesy_exchanged":
            return f"{who} swaps {d['count']} across."
        case "courtesy_received":
            return f"{who} receives {_tiles(d['tiles'])} across."
        case "charleston_done":
            return "The Charleston is over."
        case "play":
            return f"Play begins: East discards first; {d['wall']} tiles in the wall."
        case "turn":
            return f"{who}'s turn."
        case "draw":
            return f"{who} draws ({d['wall']} left)."
        case "drew":
            return f"{who} draws {name(d['tile'])}."
        case "discard":
            return f"{who} discards {name(d['tile'])}."
        case "call_window":
            only = " (Mah Jongg only)" if d["mahjong_only"] else ""
            return f"{name(d['tile'])} may be called{only}."
        case "call":
            return f"{who} calls " + ("for Mah Jongg!" if d["mahjong"] else f"for a group of {d['size']}.")
        case "pass":
            return f"{who} passes on it."
        case "hold":
            return f"{who} says wait."
        case "window_closed":
            return "" if d["claimed"] else "Nobody calls it."
        case "exposure":
            return f"{who} exposes {_tiles(d['tiles'])}."
        case "joker_exchange":
            owner = winds[d["owner"]] if winds else f"seat {d['owner']}"
            return f"{who} gives {name(d['tile'])} for a joker from {owner}'s exposure."
        case "blank_swap":
            return f"{who} swaps a blank for the discarded {name(d['tile'])}."
        case "dead_hand":
            return f"{who}'s hand is dead: {d['reason']}."
        case "false_mahjong":
            return f"{who} declared Mah Jongg in error."
        case "mahjong":
            how = {"self_pick": "self-picked", "discard": "on a discard", "heavenly": "heavenly hand"}[d["how"]]
            bonus = ", jokerless" if d["jokerless"] else ""
            return f"MAH JONGG! {who} wins on {d['line']} ({d['section']}, {d['value']}), {how}{bonus}."
        case "game_over":
            if d["how"] == "wall":
                return "Wall game: the tiles ran out, nobody pays."
            if d["how"] == "no_live_players":
                return "Every hand is dead: the game ends with no payments."
            return "Game over."
    return f"{event.type} {d}"
