"""Events in plain English: the one phrasebook for every face of the program (the command line's replay and
demo, and the Discord thread).

``describe(event, who)`` gives one sentence for any event; ``who(seat)`` names a seat ("East", or "Ruth (East)").
A private event describes concealed tiles: show its sentence only to its seat.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.engine.events import Event
from bot.engine.tiles import name

Namer = Callable[[int], str]

# What a table's channel is told, one line each: discards, calls, exposures, exchanges, dead hands, the end.
NOTABLE = frozenset({"discard", "call", "exposure", "kong", "joker_exchange", "blank_swap", "dead_hand",
                     "false_mahjong", "mahjong", "game_over", "charleston_stopped", "computer_takes_over", "back",
                     "joined", "left", "computer_added", "table_closed", "draw_returned"})

HOW = {"self_pick": "self-picked", "discard": "on a discard", "heavenly": "with the heavenly hand"}


def tiles_text(tiles: list[int]) -> str:
    """Tiles by name, joined: "5 Dot, 5 Dot, Joker"; "nothing" for none."""
    return ", ".join(name(t) for t in tiles) if tiles else "nothing"


def describe(event: Event, who: Namer) -> str:
    """One sentence for ``event``."""
    d = event.data
    seat = event.seat if event.seat is not None and event.seat >= 0 else None
    me = who(seat) if seat is not None else "The table"
    match event.type:
        case "deal":
            return f"Game {d.get('game_no', 1)}: the tiles are dealt; {d['wall']} stay in the wall."
        case "rack":
            return f"{me} is dealt {tiles_text(d['tiles'])}."
        case "charleston":
            blind = " (blind allowed)" if d.get("blind_allowed") else ""
            return f"Charleston: {d['step']}{blind}."
        case "charleston_passed":
            return f"{me} passes" + (f", {d['blind']} blind." if d["blind"] else ".")
        case "charleston_received":
            return f"{me} receives {tiles_text(d['tiles'])} on the {d['step']}."
        case "charleston_step_done":
            return f"The {d['step']} is done."
        case "charleston_vote":
            return "Stop the Charleston here, or go on to the second one?"
        case "charleston_voted":
            return f"{me} votes to {'stop' if d['stop'] else 'go on'}."
        case "charleston_stopped":
            return f"{me} stops the Charleston."
        case "courtesy":
            return "Courtesy pass: each player may offer 0 to 3 tiles across."
        case "courtesy_offered":
            return f"{me} offers {d['count']} across."
        case "courtesy_exchanged":
            partner = who(d["partner"]) if d.get("partner") is not None else "Bob"
            return f"{me} and {partner} swap {d['count']} tile{'s' if d['count'] != 1 else ''}."
        case "courtesy_received":
            return f"{me} receives {tiles_text(d['tiles'])} across."
        case "charleston_done":
            return "The Charleston is over."
        case "play":
            return f"Play begins: East discards first; {d['wall']} tiles in the wall."
        case "turn":
            return f"{me}'s turn."
        case "draw":
            return f"{me} draws ({d['wall']} left)."
        case "drew":
            return f"{me} draws {name(d['tile'])}."
        case "draw_returned":
            return f"{me}'s drawn tile goes back to the wall."
        case "discard":
            return f"{me} discards {name(d['tile'])}."
        case "call_window":
            only = " (Mah Jongg only)" if d["mahjong_only"] else ""
            return f"{name(d['tile'])} may be called{only}."
        case "call":
            if d["mahjong"]:
                return f"{me} calls for Mah Jongg!"
            return f"{me} calls " + ("for a chow." if d.get("chow") else f"for a group of {d['size']}.")
        case "pass":
            return f"{me} passes on it."
        case "hold":
            return f"{me} says wait."
        case "window_closed":
            return f"{who(d['winner'])} takes it." if d.get("claimed") else "Nobody calls it."
        case "exposure":
            return f"{me} exposes {tiles_text(d['tiles'])}."
        case "kong":
            how = "a concealed kong of" if d["concealed"] else "the fourth tile on her pung of"
            return f"{me} lays down {how} {name(d['tile'])}."
        case "replacement":
            return f"{me} draws a replacement from the end of the wall ({d['wall']} left)."
        case "joker_exchange":
            return f"{me} gives {name(d['tile'])} for a joker from {who(d['owner'])}'s exposure."
        case "blank_swap":
            return f"{me} swaps a blank for the discarded {name(d['tile'])}."
        case "dead_hand":
            return f"{me}'s hand is dead: {d['reason']}."
        case "false_mahjong":
            return f"{me} declared Mah Jongg in error."
        case "mahjong" if d["line"] == "classical":
            return f"MAH JONGG! {me} goes out with four sets and a pair ({d['value']}), {HOW.get(d['how'], d['how'])}."
        case "mahjong":
            bonus = ", jokerless" if d["jokerless"] else ""
            return (f"MAH JONGG! {me} wins on {d['line']} ({d['section']}, {d['value']}), "
                    f"{HOW.get(d['how'], d['how'])}{bonus}.")
        case "game_over":
            if d["how"] == "wall":
                return "The wall is empty: a wall game, nobody pays."
            if d["how"] == "no_live_players":
                return "Every hand is dead: the game ends with no payments."
            return "Game over."
        case "computer_takes_over":
            return f"A computer plays for {me} until they come back (/back)."
        case "back":
            return f"{me} is back."
        case "joined":
            return f"{d.get('name') or me} sits down."
        case "left":
            return f"{d.get('name') or me} leaves the table."
        case "computer_added":
            return f"A {d['level']} computer player takes {me}."
        case "table_opened":
            return f"Table {d['table_id']} is open."
        case "table_closed":
            return "The table is closed."
    return f"{event.type}."
