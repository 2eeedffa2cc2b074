"""A seat's legal actions grouped the way a player chooses them, each group small enough for one Discord
component (at most 25 options), every option carrying its action key (:mod:`bot.service.keys`).

A Charleston pass is not offered as its 60-odd combinations: the player picks 3 tiles from the rack (at most
14 options) and, where allowed, how many to pass blind. A call lists its few possible exposures; a discard
lists the distinct tiles.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from bot.engine.actions import (
    Call,
    CharlestonPass,
    CharlestonVote,
    CourtesyOffer,
    DeclareKong,
    DeclareMahJongg,
    Discard,
    ExchangeJoker,
    Hold,
    PassCall,
    SwapBlank,
)
from bot.engine.tiles import Suit, Tile, code, name, suit_of
from bot.engine.views import SeatView
from bot.engine.wording import group_words

from .errors import ErrorKind, TableError
from .keys import action_key

MAX_OPTIONS = 25  # Discord: options in one select, and our cap for any one group


@dataclass(frozen=True, slots=True)
class Choice:
    """One move: its action key and a short label (at most 80 characters, a button's limit)."""

    key: str
    label: str


@dataclass(frozen=True, slots=True)
class TilePick:
    """Tiles picked from the rack: a Charleston pass or a courtesy offer.

    ``options`` holds one (value, tile) per passable tile in the rack; a second 5 Dot has the value ``5D.2``, so
    every value is distinct. ``blind`` lists the blind counts allowed (``(0,)`` where none is).
    """

    kind: str  # "charleston" or "courtesy"
    step: str  # "first right", ..., "courtesy"
    options: tuple[tuple[str, Tile], ...]
    min_tiles: int
    max_tiles: int
    blind: tuple[int, ...]

    def key_for(self, values: list[str], blind: int = 0) -> str:
        """The action key for the picked option values; a wrong count or an unknown value is a TableError."""
        tiles = dict(self.options)
        if len(set(values)) != len(values) or any(v not in tiles for v in values):
            raise TableError(ErrorKind.BAD_INPUT, "Pick tiles from your rack as it is now.")
        if blind not in self.blind:
            raise TableError(ErrorKind.ILLEGAL, f"No blind pass on the {self.step}: pick 3 of your own tiles."
                             if len(self.blind) == 1 else f"Pass 0 to 3 tiles blind, not {blind}.")
        want = (self.max_tiles - blind) if self.kind == "charleston" else None
        if want is not None and len(values) != want:
            extra = f" plus {blind} blind" if blind else ""
            raise TableError(ErrorKind.ILLEGAL, f"Pass exactly 3 tiles: pick {want}{extra}.")
        if not self.min_tiles <= len(values) <= self.max_tiles:
            raise TableError(ErrorKind.ILLEGAL, f"Offer {self.min_tiles} to {self.max_tiles} tiles.")
        picked = tuple(tiles[v] for v in values)  # in the order picked: the tiles go out in that order
        action = (CharlestonPass(0, picked, blind) if self.kind == "charleston" else CourtesyOffer(0, picked))
        return action_key(action)


@dataclass(frozen=True, slots=True)
class SeatChoices:
    """Everything one seat may do now, grouped; ``token`` names the decision they belong to."""

    token: str | None
    discard: tuple[Choice, ...] = ()
    declare: Choice | None = None  # Mah Jongg on your own turn (or East's dealt hand)
    call_mahjong: Choice | None = None
    calls: tuple[Choice, ...] = ()  # the exposures the live discard can complete
    pass_call: Choice | None = None
    hold: Choice | None = None
    exchanges: tuple[Choice, ...] = ()
    blank_swaps: tuple[tuple[str, tuple[Choice, ...]], ...] = ()  # (suit group, swaps)
    vote: tuple[Choice, ...] = ()
    pick: TilePick | None = None
    kongs: tuple[Choice, ...] = ()  # classical: kongs to lay down on one's own turn (with a replacement draw)

    @property
    def empty(self) -> bool:
        """Whether the seat has nothing to decide now."""
        return not self.keys()

    def keys(self) -> list[str]:
        """Every action key on offer (a Charleston pick counts as none: its key is built from the pick)."""
        singles = [self.declare, self.call_mahjong, self.pass_call, self.hold]
        groups = [*self.discard, *self.calls, *self.exchanges, *self.vote, *self.kongs,
                  *(c for _, swaps in self.blank_swaps for c in swaps)]
        return [c.key for c in [*singles, *groups] if c is not None]


def choices_for(view: SeatView, token: str | None) -> SeatChoices:
    """Group ``view.legal`` into the choices a player makes."""
    legal = view.legal
    table = view.public
    wind = {s.seat: s.wind for s in table.seats}
    discard = tuple(Choice(action_key(a), name(a.tile)) for a in legal if isinstance(a, Discard))
    declare = next((Choice(action_key(a), "Mah Jongg!") for a in legal if isinstance(a, DeclareMahJongg)), None)
    calls = [a for a in legal if isinstance(a, Call)]
    call_mahjong = next((Choice(action_key(a), "Mah Jongg!") for a in calls if a.mahjong), None)
    window_tile = table.window_tile
    exposures = tuple(Choice(action_key(a), _call_label(a, window_tile, view.card.wild)) for a in calls
                      if not a.mahjong and window_tile is not None)
    pass_call = next((Choice(action_key(a), "Pass") for a in legal if isinstance(a, PassCall)), None)
    hold = next((Choice(action_key(a), "Wait") for a in legal if isinstance(a, Hold)), None)
    exchanges = tuple(Choice(action_key(a), f"Give {name(a.tile)} for " + ("your own joker" if a.owner == view.seat
                                                                            else f"{wind[a.owner]}'s joker"))
                      for a in legal if isinstance(a, ExchangeJoker))[:MAX_OPTIONS]
    votes = tuple(Choice(action_key(a), "Stop the Charleston" if a.stop else "Go on to the second Charleston")
                  for a in legal if isinstance(a, CharlestonVote))
    pick = None
    if any(isinstance(a, CharlestonPass) for a in legal):
        step = table.charleston_step or "Charleston"
        pick = TilePick("charleston", step, _rack_options(view.rack), 0, 3, (0, 1, 2, 3) if table.blind_allowed
                        else (0,))
    elif any(isinstance(a, CourtesyOffer) for a in legal):
        pick = TilePick("courtesy", "courtesy", _rack_options(view.rack), 0, 3, (0,))
    swaps = [a for a in legal if isinstance(a, SwapBlank)]
    own = {t for e in view.exposures if len(e) == 3 and len(set(e)) == 1 for t in e}
    kongs = tuple(Choice(action_key(a), f"Kong of {name(a.tile)}" + (" (add to your pung)" if a.tile in own
                                                                       else " (concealed)"))
                  for a in legal if isinstance(a, DeclareKong))
    return SeatChoices(token, discard, declare, call_mahjong, exposures, pass_call, hold, exchanges,
                       _group_swaps(swaps, table.discards), votes, pick, kongs)


def _call_label(call: Call, tile: Tile, wild: Tile | None) -> str:
    """``Pung of 5 Dot``, ``Kong of 7 Dot with 3 flowers`` (1946), ``Chow 4-5-6 Dot`` (classical)."""
    return _capital(group_words([tile, *call.tiles], wild))


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _rack_options(rack: tuple[Tile, ...]) -> tuple[tuple[str, Tile], ...]:
    seen: Counter[Tile] = Counter()
    options = []
    for tile in rack:
        if tile in (Tile.J, Tile.BL):
            continue  # never passed
        seen[tile] += 1
        value = code(tile) if seen[tile] == 1 else f"{code(tile)}.{seen[tile]}"
        options.append((value, tile))
    return tuple(options)


_SWAP_GROUPS = ((Suit.BAM, "Bams"), (Suit.CRAK, "Craks"), (Suit.DOT, "Dots"), (None, "Winds, dragons, flowers"))


def _group_swaps(swaps: list[SwapBlank], discards: tuple[tuple[int, Tile], ...]) -> tuple[
        tuple[str, tuple[Choice, ...]], ...]:
    groups = []
    for suit, label in _SWAP_GROUPS:
        found = [Choice(action_key(a), f"Blank for {name(discards[a.discard][1])}") for a in swaps
                 if suit_of(discards[a.discard][1]) == suit]
        if found:
            groups.append((label, tuple(found)))  # at most 9 number tiles, or 8 honours and flowers
    return tuple(groups)
