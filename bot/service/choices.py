"""A seat's legal actions grouped the way a player chooses them, each group small enough for one Discord
component (at most 25 options), every option carrying its action key (:mod:`bot.service.keys`).

A Charleston pass is not offered as its 60-odd combinations: the player picks 3 tiles from the rack (at most
14 options) and, where allowed, how many to pass blind. A call lists its few possible exposures; a discard
lists the distinct tiles.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from bot.engine.actions import (
    Action,
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

_A = TypeVar("_A", bound=Action)


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
    """Group ``view.legal`` into the choices a player makes: one small step per group."""
    legal = view.legal
    return SeatChoices(token, discard=_discards(legal), declare=_first(legal, DeclareMahJongg, "Mah Jongg!"),
                       call_mahjong=_call_mahjong(legal), calls=_exposures(view),
                       pass_call=_first(legal, PassCall, "Pass"), hold=_first(legal, Hold, "Wait"),
                       exchanges=_exchanges(view), blank_swaps=_swaps(view), vote=_votes(legal), pick=_pick(view),
                       kongs=_kongs(view))


def _of(legal: Sequence[Action], kind: type[_A]) -> list[_A]:
    """The legal actions of one kind, in the engine's order."""
    return [a for a in legal if isinstance(a, kind)]


def _first(legal: Sequence[Action], kind: type[Action], label: str) -> Choice | None:
    """The one action of a kind that is offered at most once (Mah Jongg on one's turn, pass, wait), labelled."""
    return next((Choice(action_key(a), label) for a in _of(legal, kind)), None)


def _discards(legal: Sequence[Action]) -> tuple[Choice, ...]:
    """A choice per tile that may be thrown."""
    return tuple(Choice(action_key(a), name(a.tile)) for a in _of(legal, Discard))


def _call_mahjong(legal: Sequence[Action]) -> Choice | None:
    """Calling the discard for Mah Jongg."""
    return next((Choice(action_key(a), "Mah Jongg!") for a in _of(legal, Call) if a.mahjong), None)


def _exposures(view: SeatView) -> tuple[Choice, ...]:
    """The exposures the live discard can complete, each named as the group it makes."""
    tile = view.public.window_tile
    if tile is None:
        return ()
    return tuple(Choice(action_key(a), _call_label(a, tile, view.card.wild)) for a in _of(view.legal, Call)
                 if not a.mahjong)


def _exchanges(view: SeatView) -> tuple[Choice, ...]:
    """The joker exchanges, naming whose exposure each joker lies in."""
    wind = {s.seat: s.wind for s in view.public.seats}

    def label(a: ExchangeJoker) -> str:
        whose = "your own joker" if a.owner == view.seat else f"{wind[a.owner]}'s joker"
        return f"Give {name(a.tile)} for {whose}"

    return tuple(Choice(action_key(a), label(a)) for a in _of(view.legal, ExchangeJoker))[:MAX_OPTIONS]


def _swaps(view: SeatView) -> tuple[tuple[str, tuple[Choice, ...]], ...]:
    """The blank swaps, grouped by suit."""
    return _group_swaps(_of(view.legal, SwapBlank), view.public.discards)


def _votes(legal: Sequence[Action]) -> tuple[Choice, ...]:
    """Stopping the Charleston, or going on."""
    return tuple(Choice(action_key(a), "Stop the Charleston" if a.stop else "Go on to the second Charleston")
                 for a in _of(legal, CharlestonVote))


def _pick(view: SeatView) -> TilePick | None:
    """The tiles to pick for a Charleston pass (blind counts where allowed) or a courtesy offer."""
    table = view.public
    if _of(view.legal, CharlestonPass):
        blind = (0, 1, 2, 3) if table.blind_allowed else (0,)
        return TilePick("charleston", table.charleston_step or "Charleston", _rack_options(view.rack), 0, 3, blind)
    if _of(view.legal, CourtesyOffer):
        return TilePick("courtesy", "courtesy", _rack_options(view.rack), 0, 3, (0,))
    return None


def _kongs(view: SeatView) -> tuple[Choice, ...]:
    """Classical: the kongs to lay down, each saying whether it adds to a pung or is concealed."""
    own = {t for e in view.exposures if len(e) == 3 and len(set(e)) == 1 for t in e}
    return tuple(Choice(action_key(a), f"Kong of {name(a.tile)}" + (" (add to your pung)" if a.tile in own
                                                                      else " (concealed)"))
                 for a in _of(view.legal, DeclareKong))


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
