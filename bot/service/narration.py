"""Events in plain English: the one phrasebook for every face of the program (the command line's replay and
demo, and the Discord thread and DMs).

``describe(event, who)`` gives one short sentence for any event; ``who(seat)`` names a seat ("East", or "Ruth
(East)"). With ``you`` the sentence is told to that seat ("You receive ...", "Your turn."); with ``card`` a
winning line is named as the card prints it ("Any Like Numbers #3"). A private event describes concealed tiles:
show its sentence only to its seat (:func:`private_notes` gives a seat hers).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from bot.engine.card import Card
from bot.engine.events import Event
from bot.engine.tiles import Tile, name
from bot.engine.wording import call_words, chips, group_words, line_called

Namer = Callable[[int], str]

# What a table's channel is told, one line each: discards, calls, exposures, exchanges, dead hands, the end.
NOTABLE = frozenset({"discard", "call", "exposure", "kong", "joker_exchange", "blank_swap", "dead_hand",
                     "false_mahjong", "mahjong", "game_over", "charleston_stopped", "computer_takes_over", "back",
                     "joined", "left", "computer_added", "table_closed", "draw_returned"})

HOW = {"self_pick": "self-picked", "discard": "on a discard", "heavenly": "with the heavenly hand"}
WINDS = ("East", "South", "West", "North")


def tiles_text(tiles: Iterable[Tile]) -> str:
    """Tiles by name: "5 Dot", "5 Dot and North", "5 Dot, North and Joker"; "nothing" for none."""
    names = [name(t) for t in tiles]
    if not names:
        return "nothing"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def count_text(count: int, what: str = "tile") -> str:
    """``no tiles``, ``1 tile``, ``3 tiles``."""
    return f"{count or 'no'} {what}{'' if count == 1 else 's'}"


def describe(event: Event, who: Namer, *, you: int | None = None, card: Card | None = None) -> str:
    """One sentence for ``event``, told to seat ``you`` where it is about her."""
    seat = event.seat if event.seat is not None and event.seat >= 0 else None
    mine = seat is not None and seat == you
    me = "You" if mine else (who(seat) if seat is not None else "The table")
    told = _private(event, me, mine) or _charleston(event, me, mine, who, you) or _play(event, me, mine, who, you, card)
    return told or _table(event, me, mine)


def _verb(mine: bool, plain: str, third: str | None = None) -> str:
    """The verb for the subject: "pass" for you, "passes" for anyone else."""
    return plain if mine else (third or plain + "s")


def _whose(me: str, mine: bool) -> str:
    return "Your" if mine else f"{me}'s"


def _private(event: Event, me: str, mine: bool) -> str | None:
    d = event.data
    match event.type:
        case "rack":
            return f"{me} {_verb(mine, 'are', 'is')} dealt {tiles_text(d['tiles'])}."
        case "drew":
            return f"{me} {_verb(mine, 'draw')} {name(d['tile'])}."
        case "charleston_received":
            step, subject = str(d["step"]).capitalize(), me.lower() if mine else me
            if not d["tiles"]:
                return f"{step}: {subject} {_verb(mine, 'receive')} nothing; what came went on blind."
            return f"{step}: {subject} {_verb(mine, 'receive')} {tiles_text(d['tiles'])}."
        case "courtesy_received":
            if not d["tiles"]:
                return ("Courtesy pass: nothing comes across, as one of the pair offered no tiles (the smaller offer "
                        "is swapped).")
            subject = me.lower() if mine else me
            return f"Courtesy pass: {subject} {_verb(mine, 'receive')} {tiles_text(d['tiles'])}."
    return None


def _charleston(event: Event, me: str, mine: bool, who: Namer, you: int | None) -> str | None:
    d = event.data
    match event.type:
        case "charleston":
            blind = "; a blind pass is allowed" if d.get("blind_allowed") else ""
            return f"Charleston, {d['step']}: pass 3 tiles{blind}."
        case "charleston_passed":
            return f"{me} {_verb(mine, 'pass', 'passes')}" + (f", {d['blind']} blind." if d["blind"] else ".")
        case "charleston_step_done":
            return f"The {d['step']} is done."
        case "charleston_vote":
            return "Stop the Charleston here, or go on to the second one?"
        case "charleston_voted":
            return f"{me} {_verb(mine, 'vote')} to {'stop' if d['stop'] else 'go on'}."
        case "charleston_stopped":
            return f"{me} {_verb(mine, 'stop')} the Charleston."
        case "courtesy":
            return "Courtesy pass: each player may offer 0 to 3 tiles across."
        case "courtesy_offered":
            return f"{me} {_verb(mine, 'offer')} {count_text(d['count'])} across."
        case "courtesy_exchanged":
            partner = "Bob" if d.get("partner") is None else ("you" if d["partner"] == you else who(d["partner"]))
            return f"{me} and {partner} swap {count_text(d['count'])}."
        case "charleston_done":
            return "The Charleston is over."
    return None


def _play(event: Event, me: str, mine: bool, who: Namer, you: int | None, card: Card | None) -> str | None:
    d = event.data
    match event.type:
        case "play":
            return f"Play begins: East discards first. {d['wall']} tiles in the wall."
        case "turn":
            return "Your turn." if mine else f"{me} to play."
        case "draw":
            return f"{me} {_verb(mine, 'draw')} a tile; {d['wall']} left."
        case "draw_returned":
            return f"{_whose(me, mine)} drawn tile goes back to the wall."
        case "discard":
            return f"{me} {_verb(mine, 'discard')} {name(d['tile'])}."
        case "call_window":
            only = ", for Mah Jongg only" if d["mahjong_only"] else ""
            return f"{name(d['tile'])} may be called{only}."
        case "call":
            if d["mahjong"]:
                return f"{me} {_verb(mine, 'call')} it for Mah Jongg!"
            return f"{me} {_verb(mine, 'call')} it for " + ("a chow." if d.get("chow") else f"{call_words(d['size'])}.")
        case "pass":
            return f"{me} {_verb(mine, 'pass', 'passes')} on it."
        case "hold":
            return f"{me} {_verb(mine, 'ask')} the table to wait."
        case "window_closed":
            if not d.get("claimed"):
                return "Nobody calls it."
            return "You take it." if d.get("winner") == you else f"{who(d['winner'])} takes it."
        case "exposure":
            tiles = list(d["tiles"])
            wild = Tile.F if Tile.F in tiles and d["tile"] != Tile.F else Tile.J
            return f"{me} {_verb(mine, 'expose')} a {group_words(tiles, wild)}."
        case "kong":
            if d["concealed"]:
                return f"{me} {_verb(mine, 'lay')} down a concealed kong of {name(d['tile'])}."
            return f"{me} {_verb(mine, 'add')} the fourth {name(d['tile'])} to a pung, making a kong."
        case "replacement":
            return f"{me} {_verb(mine, 'draw')} a replacement tile from the end of the wall; {d['wall']} left."
        case "joker_exchange":
            owner = d["owner"]
            whose = "your own" if mine and owner == you else "their own" if owner == event.seat else (
                "your" if owner == you else f"{who(owner)}'s")
            return f"{me} {_verb(mine, 'give')} {name(d['tile'])} for a joker from {whose} exposure."
        case "blank_swap":
            return f"{me} {_verb(mine, 'swap')} a blank for the discarded {name(d['tile'])}."
        case "mahjong":
            return _mahjong(d, me, card)
    return None


def how_won(how: str, discarder: int | None = None) -> str:
    """How a Mah Jongg was made, in words: "self-picked", "on a discard", "with the heavenly hand"; a discard
    finished by redeeming a joker from an exposure (M3) is paid as a self-pick, and says so."""
    if how == "self_pick" and discarder is not None:
        return "on a discard, finished with a joker from an exposure (paid as self-picked)"
    return HOW.get(how, how.replace("_", " "))


def _mahjong(d: dict[str, Any], me: str, card: Card | None) -> str:
    how = how_won(d["how"], d.get("discarder"))
    if d["line"] == "classical":
        return f"Mah Jongg! {me} {'go' if me == 'You' else 'goes'} out with four sets and a pair, {how}, " \
               f"worth {chips(d['value'])}."
    line = line_called(card, d["line"], d.get("section")) if card is not None else f"a line of {d['section']}"
    bonus = ", jokerless" if d["jokerless"] else ""
    return f"Mah Jongg! {me} {'win' if me == 'You' else 'wins'} with {line}, {how}{bonus}: {chips(d['value'])}."


def _table(event: Event, me: str, mine: bool) -> str:
    d = event.data
    match event.type:
        case "dead_hand":
            return f"{_whose(me, mine)} hand is dead: {d['reason']}."
        case "false_mahjong":
            return f"{me} declared Mah Jongg in error."
        case "game_over":
            if d["how"] == "wall":
                return "The wall is empty: a wall game, nobody pays."
            if d["how"] == "no_live_players":
                return "Every hand is dead: the game ends and nobody pays."
            return "Game over."
        case "deal":
            return f"Game {d.get('game_no', 1)} is dealt. {d['wall']} tiles in the wall."
        case "computer_takes_over":
            if mine:
                return "A computer plays for you until you are back: use /back."
            return f"A computer plays for {me} until they are back."
        case "back":
            return "You are back." if mine else f"{me} is back."
        case "joined":
            return f"{d.get('name') or me} sits down."
        case "left":
            return f"{d.get('name') or me} leaves the table."
        case "computer_added":
            return f"A {d['level']} computer player sits down."
        case "table_opened":
            return f"Table {d['table_id']} is open."
        case "table_closed":
            return "The table is closed."
    return f"{str(event.type).replace('_', ' ').capitalize()}."


def private_notes(events: Iterable[Event], seat: int, who: Namer, card: Card | None = None) -> list[str]:
    """The seat's own private events in words for her (tiles dealt, tiles received in each pass), the tile drawn
    left out (her rack shows it)."""
    return [describe(e, who, you=seat, card=card) for e in events
            if e.private and e.seat == seat and e.type != "drew"]


def seat_name(name_of: str | None, wind: str | None, *, computer: bool = False, level: str | None = None) -> str:
    """How the table names a seat, with no brackets inside brackets: "Ruth (East)", "East (computer)", in the
    lobby "Ruth" or "Computer (normal)"."""
    if computer:
        return f"{wind} (computer)" if wind else (f"Computer ({level})" if level else "Computer")
    who = name_of or "Someone"
    return f"{who} ({wind})" if wind else who
