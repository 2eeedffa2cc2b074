"""Events in plain English: the one phrasebook for every face of the program (the command line's replay and
demo, and the Discord thread and DMs).

``describe(event, who)`` gives one short sentence for any event; ``who(seat)`` names a seat ("East", or "Ruth
(East)"). With ``you`` the sentence is told to that seat ("You receive ...", "Your turn."); with ``card`` a
winning line is named as the card prints it ("Any Like Numbers #3"). A private event describes concealed tiles:
show its sentence only to its seat (:func:`private_notes` gives a seat hers).

Each family of kinds has its sentence-maker, a match over the family's payload classes (the tiles seen by one
seat, the Charleston, turns, calls, the end, the table); :func:`_sentence` hands each payload to its family. Every
match ends in ``assert_never``, so mypy checks that every kind has its sentence and no family takes a stranger.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import assert_never

from bot.engine.card import Card
from bot.engine.events import Event, EventKind
from bot.engine.payloads import (
    Away,
    Back,
    BlankSwap,
    Call,
    CallWindow,
    Charleston,
    CharlestonDone,
    CharlestonPassed,
    CharlestonReceived,
    CharlestonStepDone,
    CharlestonStopped,
    CharlestonVote,
    CharlestonVoted,
    ComputerAdded,
    Courtesy,
    CourtesyExchanged,
    CourtesyOffered,
    CourtesyReceived,
    DeadHand,
    Deal,
    Discard,
    Draw,
    DrawReturned,
    Drew,
    Exposure,
    FalseMahjong,
    GameOver,
    Hold,
    Joined,
    JokerExchange,
    Kong,
    Left,
    Mahjong,
    Pass,
    Payload,
    Play,
    Rack,
    Replacement,
    TableClosed,
    TableOpened,
    Turn,
    WindowClosed,
)
from bot.engine.tiles import Tile, name
from bot.engine.wording import call_words, chips, group_words, line_called, plural

Namer = Callable[[int], str]

# What a table's channel is told, one line each: discards, calls, exposures, exchanges, dead hands, the end.
NOTABLE = frozenset({EventKind.DISCARD, EventKind.CALL, EventKind.EXPOSURE, EventKind.KONG, EventKind.JOKER_EXCHANGE,
                     EventKind.BLANK_SWAP, EventKind.DEAD_HAND, EventKind.FALSE_MAHJONG, EventKind.MAHJONG,
                     EventKind.GAME_OVER, EventKind.CHARLESTON_STOPPED, EventKind.AWAY, EventKind.BACK,
                     EventKind.JOINED, EventKind.LEFT, EventKind.COMPUTER_ADDED, EventKind.TABLE_CLOSED,
                     EventKind.DRAW_RETURNED})

HOW = {"self_pick": "self-picked", "discard": "on a discard", "heavenly": "with the heavenly hand"}
WINDS = ("East", "South", "West", "North")

# The families of kinds, each told by one sentence-maker below.
_Private = Rack | Drew | CharlestonReceived | CourtesyReceived
_Passes = (Charleston | CharlestonPassed | CharlestonStepDone | CharlestonVote | CharlestonVoted
           | CharlestonStopped | Courtesy | CourtesyOffered | CourtesyExchanged | CharlestonDone)
_Turns = Play | Turn | Draw | DrawReturned | Discard | Kong | Replacement
_Calls = CallWindow | Call | Pass | Hold | WindowClosed | Exposure | JokerExchange | BlankSwap
_End = Mahjong | DeadHand | FalseMahjong | GameOver
_Table = Deal | TableOpened | Joined | Left | ComputerAdded | TableClosed | Away | Back


def tiles_text(tiles: Iterable[Tile]) -> str:
    """Tiles by name: "5 Dot", "5 Dot and North", "5 Dot, North and Joker"; "nothing" for none."""
    names = [name(t) for t in tiles]
    if not names:
        return "nothing"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def count_text(count: int, what: str = "tile") -> str:
    """``no tiles``, ``1 tile``, ``3 tiles``."""
    return f"{count or 'no'} {what}{'' if count == 1 else 's'}"


@dataclass(frozen=True, slots=True)
class _Told:
    """Who an event is about, told to whom: ``me`` is its subject in words ("You", "Ruth (East)", "The table")."""

    me: str
    mine: bool  # the event is about the seat it is told to
    seat: int | None  # the seat the event is about, as the event has it
    who: Namer
    you: int | None
    card: Card | None

    def verb(self, plain: str, third: str | None = None) -> str:
        """The verb for the subject: "pass" for you, "passes" for anyone else."""
        return plain if self.mine else (third or plain + "s")

    @property
    def whose(self) -> str:
        """The subject's possessive: "Your", "Ruth (East)'s"."""
        return "Your" if self.mine else f"{self.me}'s"

    @property
    def subject(self) -> str:
        """The subject after a heading: "you", or the seat's name."""
        return self.me.lower() if self.mine else self.me

    def name_of(self, seat: int) -> str:
        """Another seat in words, "you" for the seat told."""
        return "you" if seat == self.you else self.who(seat)


def describe(event: Event, who: Namer, *, you: int | None = None, card: Card | None = None) -> str:
    """One sentence for ``event``, told to seat ``you`` where it is about her."""
    seat = event.seat if event.seat is not None and event.seat >= 0 else None
    mine = seat is not None and seat == you
    me = "You" if mine else (who(seat) if seat is not None else "The table")
    return _sentence(event.payload, _Told(me, mine, event.seat, who, you, card))


def _sentence(payload: Payload, t: _Told) -> str:
    """The payload's sentence, from the sentence-maker of its family."""
    match payload:
        case Rack() | Drew() | CharlestonReceived() | CourtesyReceived():
            return _private(payload, t)
        case (Charleston() | CharlestonPassed() | CharlestonStepDone() | CharlestonVote()
              | CharlestonVoted() | CharlestonStopped() | Courtesy() | CourtesyOffered()
              | CourtesyExchanged() | CharlestonDone()):
            return _passes(payload, t)
        case Play() | Turn() | Draw() | DrawReturned() | Discard() | Kong() | Replacement():
            return _turns(payload, t)
        case (CallWindow() | Call() | Pass() | Hold() | WindowClosed() | Exposure()
              | JokerExchange() | BlankSwap()):
            return _calls(payload, t)
        case Mahjong() | DeadHand() | FalseMahjong() | GameOver():
            return _end(payload, t)
        case (Deal() | TableOpened() | Joined() | Left() | ComputerAdded() | TableClosed()
              | Away() | Back()):
            return _table(payload, t)
        case _:
            assert_never(payload)


def _private(p: _Private, t: _Told) -> str:
    """The tiles a seat was dealt, drew or received."""
    match p:
        case Rack(tiles=tiles):
            return f"{t.me} {t.verb('are', 'is')} dealt {tiles_text(tiles)}."
        case Drew(tile=tile):
            return f"{t.me} {t.verb('draw')} {name(tile)}."
        case CharlestonReceived(tiles=tiles, step=step):
            if not tiles:
                return f"{step.capitalize()}: {t.subject} {t.verb('receive')} nothing; what came went on blind."
            return f"{step.capitalize()}: {t.subject} {t.verb('receive')} {tiles_text(tiles)}."
        case CourtesyReceived(tiles=tiles):
            if not tiles:
                return ("Courtesy pass: nothing comes across, as one of the pair offered no tiles (the smaller offer "
                        "is swapped).")
            return f"Courtesy pass: {t.subject} {t.verb('receive')} {tiles_text(tiles)}."
        case _:
            assert_never(p)


def _passes(p: _Passes, t: _Told) -> str:
    """The Charleston and the courtesy pass, as the table sees them."""
    match p:
        case Charleston(step=step, blind_allowed=blind_allowed):
            blind = "; a blind pass is allowed" if blind_allowed else ""
            return f"Charleston, {step}: pass 3 tiles{blind}."
        case CharlestonPassed(blind=blind):
            return f"{t.me} {t.verb('pass', 'passes')}" + (f", {blind} blind." if blind else ".")
        case CharlestonStepDone(step=step):
            return f"The {step} is done."
        case CharlestonVote():
            return "Stop the Charleston here, or go on to the second one?"
        case CharlestonVoted(stop=stop):
            return f"{t.me} {t.verb('vote')} to {'stop' if stop else 'go on'}."
        case CharlestonStopped():
            return f"{t.me} {t.verb('stop')} the Charleston."
        case Courtesy():
            return "Courtesy pass: each player may offer 0 to 3 tiles across."
        case CourtesyOffered(count=count):
            return f"{t.me} {t.verb('offer')} {count_text(count)} across."
        case CourtesyExchanged(partner=partner, count=count):
            return f"{t.me} and {'Bob' if partner is None else t.name_of(partner)} swap {count_text(count)}."
        case CharlestonDone():
            return "The Charleston is over."
        case _:
            assert_never(p)


def _turns(p: _Turns, t: _Told) -> str:
    """Play, turns and draws, discards and (classical) kongs."""
    match p:
        case Play(wall=wall):
            return f"Play begins: East discards first. {plural(wall, 'tile')} in the wall."
        case Turn():
            return "Your turn." if t.mine else f"{t.me} to play."
        case Draw(wall=wall):
            return f"{t.me} {t.verb('draw')} a tile; {wall} left."
        case DrawReturned():
            return f"{t.whose} drawn tile goes back to the wall."
        case Discard(tile=tile):
            return f"{t.me} {t.verb('discard')} {name(tile)}."
        case Kong(tile=tile, concealed=concealed):
            if concealed:
                return f"{t.me} {t.verb('lay')} down a concealed kong of {name(tile)}."
            return f"{t.me} {t.verb('add')} the fourth {name(tile)} to a pung, making a kong."
        case Replacement(wall=wall):
            return f"{t.me} {t.verb('draw')} a replacement tile from the end of the wall; {wall} left."
        case _:
            assert_never(p)


def _calls(p: _Calls, t: _Told) -> str:
    """A discard's call window and its answers, the exposures they make, and the exchanges with exposures."""
    match p:
        case CallWindow(tile=tile, mahjong_only=mahjong_only):
            only = ", for Mah Jongg only" if mahjong_only else ""
            return f"{name(tile)} may be called{only}."
        case Call(mahjong=mahjong, size=size, chow=chow):
            if mahjong:
                return f"{t.me} {t.verb('call')} it for Mah Jongg!"
            if chow:
                return f"{t.me} {t.verb('call')} it for a chow."
            assert size is not None, "a call for an exposure names its size"
            return f"{t.me} {t.verb('call')} it for {call_words(size)}."
        case Pass():
            return f"{t.me} {t.verb('pass', 'passes')} on it."
        case Hold():
            return f"{t.me} {t.verb('ask')} the table to wait."
        case WindowClosed(claimed=claimed, winner=winner):
            if not claimed:
                return "Nobody calls it."
            if winner == t.you:
                return "You take it."
            assert winner is not None, "a claimed window names its winner"
            return f"{t.who(winner)} takes it."
        case Exposure(tile=tile, tiles=tiles):
            wild = Tile.F if Tile.F in tiles and tile != Tile.F else Tile.J
            return f"{t.me} {t.verb('expose')} a {group_words(tiles, wild)}."
        case JokerExchange(owner=owner, tile=tile):
            return f"{t.me} {t.verb('give')} {name(tile)} for a joker from {_exposure_of(owner, t)} exposure."
        case BlankSwap(tile=tile):
            return f"{t.me} {t.verb('swap')} a blank for the discarded {name(tile)}."
        case _:
            assert_never(p)


def _exposure_of(owner: int, t: _Told) -> str:
    """Whose exposure a joker came from: "your own", "their own", "your", "Ruth (East)'s"."""
    if owner == t.seat:
        return "your own" if t.mine and owner == t.you else "their own"
    return "your" if owner == t.you else f"{t.who(owner)}'s"


def _end(p: _End, t: _Told) -> str:
    """How a hand or the game ends."""
    match p:
        case Mahjong():
            return _mahjong(p, t.me, t.card)
        case DeadHand(reason=reason):
            return f"{t.whose} hand is dead: {reason}."
        case FalseMahjong():
            return f"{t.me} declared Mah Jongg in error."
        case GameOver(how="wall"):
            return "The wall is empty: a wall game, nobody pays."
        case GameOver(how="no_live_players"):
            return "Every hand is dead: the game ends and nobody pays."
        case GameOver():
            return "Game over."
        case _:
            assert_never(p)


def how_won(how: str, discarder: int | None = None) -> str:
    """How a Mah Jongg was made, in words: "self-picked", "on a discard", "with the heavenly hand"; a discard
    finished by redeeming a joker from an exposure (M3) is paid as a self-pick, and says so."""
    if how == "self_pick" and discarder is not None:
        return "on a discard, finished with a joker from an exposure (paid as self-picked)"
    return HOW.get(how, how.replace("_", " "))


def _mahjong(p: Mahjong, me: str, card: Card | None) -> str:
    how = how_won(p.how, p.discarder)
    if p.line == "classical":
        return f"Mah Jongg! {me} {'go' if me == 'You' else 'goes'} out with four sets and a pair, {how}, " \
               f"worth {chips(p.value)}."
    line = line_called(card, p.line, p.section) if card is not None else f"a line of {p.section}"
    bonus = ", jokerless" if p.jokerless else ""
    return f"Mah Jongg! {me} {'win' if me == 'You' else 'wins'} with {line}, {how}{bonus}: {chips(p.value)}."


def _table(p: _Table, t: _Told) -> str:
    """The deal, and the table and its seats as the service tells them."""
    match p:
        case Deal(wall=wall, game_no=game_no):
            return f"Game {game_no} is dealt. {plural(wall, 'tile')} in the wall."
        case Away():
            if t.mine:
                return "A computer plays for you until you are back: use /back."
            return f"A computer plays for {t.me} until they are back."
        case Back():
            return "You are back." if t.mine else f"{t.me} is back."
        case Joined(name=player):
            return f"{player or t.me} sits down."
        case Left(name=player):
            return f"{player or t.me} leaves the table."
        case ComputerAdded(level=level):
            return f"A {level} computer player sits down."
        case TableOpened(table_id=table_id):
            return f"Table {table_id} is open."
        case TableClosed():
            return "The table is closed."
        case _:
            assert_never(p)


def private_notes(events: Iterable[Event], seat: int, who: Namer, card: Card | None = None) -> list[str]:
    """The seat's own private events in words for her (tiles dealt, tiles received in each pass), the tile drawn
    left out (her rack shows it)."""
    return [describe(e, who, you=seat, card=card) for e in events
            if e.private and e.seat == seat and not isinstance(e.payload, Drew)]


def seat_name(name_of: str | None, wind: str | None, *, computer: bool = False, level: str | None = None) -> str:
    """How the table names a seat, with no brackets inside brackets: "Ruth (East)", "East (computer)", in the
    lobby "Ruth" or "Computer (normal)"."""
    if computer:
        return f"{wind} (computer)" if wind else (f"Computer ({level})" if level else "Computer")
    who = name_of or "Someone"
    return f"{who} ({wind})" if wind else who
