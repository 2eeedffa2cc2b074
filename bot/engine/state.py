"""The complete state of one game, and its lossless JSON form.

The state is plain data: racks, the wall, the discard pool, the phase, the turn, and the pending parts of a
Charleston pass or a call window. The rules that change it live in :mod:`bot.engine.game` and the modules it
calls; randomness comes only from ``seed`` and ``rng_counter`` (see :meth:`GameState.rng`), so a state
restored from JSON continues exactly as the original.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from .notation import parse_tile
from .rules import TableRules, rules_from_dict
from .tiles import Tile, code


class Phase(StrEnum):
    """Where the game stands: what the table is collecting or waiting for."""

    CHARLESTON = "charleston"  # collecting one pass from every seat
    CHARLESTON_VOTE = "charleston_vote"  # stop after the first Left, or go on (CH3)
    COURTESY = "courtesy"  # collecting courtesy offers (CH4)
    PLAY = "play"  # the seat on turn must draw (``Turn.needs_draw``) or else exchange, declare or discard
    CALL_WINDOW = "call_window"  # the latest discard may be claimed
    FINISHED = "finished"


def _codes(tiles: Iterable[Tile]) -> list[str]:
    """Tile kinds as codes."""
    return [code(t) for t in tiles]


def _kinds(codes: list[str]) -> list[Tile]:
    """Tile codes as kinds."""
    return [parse_tile(c) for c in codes]


@dataclass(slots=True)
class Exposure:
    """A group on a rack made with a called discard."""

    tile: Tile  # the tile the group is made of (the called tile of a classical chow)
    tiles: list[Tile]  # as it lies on the rack, jokers included
    called_from: int  # the seat that discarded the called tile (its owner, for a classical concealed kong)
    concealed: bool = False  # classical: a kong declared from the rack, laid down but never called

    def to_json(self) -> dict[str, Any]:
        """The exposure as plain JSON."""
        data = {"tile": code(self.tile), "tiles": _codes(self.tiles), "called_from": self.called_from}
        if self.concealed:
            data["concealed"] = True  # only when set: older snapshots and replays stay as they were
        return data

    @staticmethod
    def from_json(data: dict[str, Any]) -> Exposure:
        """The exposure saved by :meth:`to_json`."""
        return Exposure(parse_tile(data["tile"]), _kinds(data["tiles"]), data["called_from"],
                        bool(data.get("concealed", False)))


@dataclass(slots=True)
class Seat:
    """One chair: its concealed rack, its exposures, and whether its hand is dead or the chair empty."""

    rack: list[Tile] = field(default_factory=list)  # concealed tiles
    exposures: list[Exposure] = field(default_factory=list)
    dead: bool = False
    dead_reason: str = ""
    empty: bool = False  # no player here (three-player tables)

    def to_json(self) -> dict[str, Any]:
        """The seat as plain JSON."""
        return {"rack": _codes(self.rack), "exposures": [e.to_json() for e in self.exposures],
                "dead": self.dead, "dead_reason": self.dead_reason, "empty": self.empty}

    @staticmethod
    def from_json(data: dict[str, Any]) -> Seat:
        """The seat saved by :meth:`to_json`."""
        return Seat(_kinds(data["rack"]), [Exposure.from_json(e) for e in data["exposures"]], data["dead"],
                    data["dead_reason"], data["empty"])

    @property
    def tile_count(self) -> int:
        """Tiles held, concealed and exposed."""
        return len(self.rack) + sum(len(e.tiles) for e in self.exposures)


@dataclass(slots=True)
class Claim:
    """A seat's call on the discard of a call window."""

    seat: int
    tiles: list[Tile]  # rack tiles completing the group; empty for Mah Jongg
    mahjong: bool

    def to_json(self) -> dict[str, Any]:
        """The claim as plain JSON."""
        return {"seat": self.seat, "tiles": _codes(self.tiles), "mahjong": self.mahjong}

    @staticmethod
    def from_json(data: dict[str, Any]) -> Claim:
        """The claim saved by :meth:`to_json`."""
        return Claim(data["seat"], _kinds(data["tiles"]), data["mahjong"])


@dataclass(slots=True)
class CallWindow:
    """A discard that may be claimed, and the answers (claims, passes, holds) given so far."""

    discarder: int
    tile: Tile
    claims: list[Claim] = field(default_factory=list)
    passed: list[int] = field(default_factory=list)
    held: list[int] = field(default_factory=list)
    mahjong_only: bool = False  # hot wall, or the wall is empty (TR1, §11.5)

    def answered(self, seat: int) -> bool:
        """Whether ``seat`` has answered this discard, by a pass or a claim."""
        return seat in self.passed or any(c.seat == seat for c in self.claims)

    def to_json(self) -> dict[str, Any]:
        """The window as plain JSON."""
        return {"discarder": self.discarder, "tile": code(self.tile), "claims": [c.to_json() for c in self.claims],
                "passed": list(self.passed), "held": list(self.held), "mahjong_only": self.mahjong_only}

    @staticmethod
    def from_json(data: dict[str, Any]) -> CallWindow:
        """The window saved by :meth:`to_json`."""
        return CallWindow(data["discarder"], parse_tile(data["tile"]),
                          [Claim.from_json(c) for c in data["claims"]], list(data["passed"]), list(data["held"]),
                          data["mahjong_only"])


@dataclass(slots=True)
class CharlestonState:
    """The Charleston under way: which pass, and the passes, votes and offers collected for it."""

    stage: int = 0  # index into the table's pass sequence
    passes: dict[int, tuple[list[Tile], int]] = field(default_factory=dict)  # seat -> (own tiles, blind count)
    votes: dict[int, bool] = field(default_factory=dict)  # seat -> wants to stop
    offers: dict[int, list[Tile]] = field(default_factory=dict)  # courtesy offers
    bob_out: list[list[Tile]] = field(default_factory=list)  # the "Bob" dummy's prepared passes (CH8)
    bob_in: list[Tile] = field(default_factory=list)  # tiles passed to Bob

    def to_json(self) -> dict[str, Any]:
        """The Charleston's state as plain JSON."""
        return {"stage": self.stage,
                "passes": {str(s): {"tiles": _codes(t), "blind": b} for s, (t, b) in self.passes.items()},
                "votes": {str(s): v for s, v in self.votes.items()},
                "offers": {str(s): _codes(t) for s, t in self.offers.items()},
                "bob_out": [_codes(p) for p in self.bob_out], "bob_in": _codes(self.bob_in)}

    @staticmethod
    def from_json(data: dict[str, Any]) -> CharlestonState:
        """The Charleston's state saved by :meth:`to_json`."""
        return CharlestonState(
            data["stage"],
            {int(s): (_kinds(p["tiles"]), p["blind"]) for s, p in data["passes"].items()},
            {int(s): v for s, v in data["votes"].items()},
            {int(s): _kinds(t) for s, t in data["offers"].items()},
            [_kinds(p) for p in data["bob_out"]], _kinds(data["bob_in"]))


@dataclass(slots=True)
class Result:
    """How a game ended. ``how`` is one of: self_pick, discard, heavenly, wall, no_live_players."""

    how: str
    winner: int | None = None
    line: str | None = None
    value: int = 0
    east_value: int | None = None
    discarder: int | None = None
    jokerless: bool = False
    singles_and_pairs: bool = False
    tiles: list[list[Tile]] = field(default_factory=list)  # the winning hand laid out group by group
    tile: Tile | None = None  # the tile that won it: the discard taken, the tile drawn (None: the heavenly hand)

    @property
    def self_pick(self) -> bool:
        """Whether the winner completed her hand herself (everyone pays double under SC2)."""
        return self.how in ("self_pick", "heavenly")

    def to_json(self) -> dict[str, Any]:
        """The result as plain JSON."""
        return {"how": self.how, "winner": self.winner, "line": self.line, "value": self.value,
                "east_value": self.east_value, "discarder": self.discarder, "jokerless": self.jokerless,
                "singles_and_pairs": self.singles_and_pairs, "tiles": [_codes(g) for g in self.tiles],
                "tile": code(self.tile) if self.tile is not None else None}

    @staticmethod
    def from_json(data: dict[str, Any]) -> Result:
        """The result saved by :meth:`to_json`."""
        return Result(data["how"], data["winner"], data["line"], data["value"], data["east_value"],
                      data["discarder"], data["jokerless"], data["singles_and_pairs"],
                      [_kinds(g) for g in data["tiles"]],
                      parse_tile(data["tile"]) if data.get("tile") else None)  # results saved before it: None


@dataclass(frozen=True, slots=True)
class Payout:
    """One transfer of chips or cents: a penalty during the game, or a payment when it ends (docs/rules.md §7)."""

    payer: int
    payee: int
    amount: int
    reason: str

    def to_json(self) -> dict[str, Any]:
        """The transfer as plain JSON: ``{"from", "to", "amount", "reason"}``."""
        return {"from": self.payer, "to": self.payee, "amount": self.amount, "reason": self.reason}

    @staticmethod
    def from_json(data: dict[str, Any]) -> Payout:
        """A transfer saved by :meth:`to_json`, or in the older ``payer``/``payee`` form of saved penalties."""
        if "from" in data:
            return Payout(data["from"], data["to"], data["amount"], data["reason"])
        return Payout(data["payer"], data["payee"], data["amount"], data["reason"])


class TurnStage(StrEnum):
    """Where the seat on turn stands."""

    MUST_DRAW = "must_draw"  # she holds 13 and must draw first
    DEALT = "deal"  # East with the 14 tiles she was dealt, before her first discard (a heavenly hand is open)
    DREW = "draw"  # she drew her 14th tile from the wall
    CALLED = "call"  # she called a discard for an exposure
    OVER = "over"  # her turn is over (she discarded, or lost it); the table settles what follows


@dataclass(slots=True)
class Turn:
    """Whose turn it is and how it stands. Each change makes a new one with the named constructors (none is
    edited in place; it is not frozen only because a frozen one costs three times as much to make, on the
    hottest path of the engine)."""

    seat: int  # the seat to act in PLAY; the discarder during a call window
    stage: TurnStage
    drawn: Tile | None = None  # the tile drawn this turn, for display
    called_from: int | None = None  # after a call: who discarded the called tile
    exchanged: bool = False  # she exchanged a joker this turn

    @staticmethod
    def dealt(east: int) -> Turn:
        """East's first turn, holding the tiles she was dealt (and got in the Charleston)."""
        return Turn(east, TurnStage.DEALT)

    @staticmethod
    def must_draw(seat: int) -> Turn:
        """A new turn for ``seat``, who must draw first."""
        return Turn(seat, TurnStage.MUST_DRAW)

    @staticmethod
    def after_draw(seat: int, tile: Tile) -> Turn:
        """``seat`` has drawn ``tile`` from the wall."""
        return Turn(seat, TurnStage.DREW, drawn=tile)

    @staticmethod
    def after_call(seat: int, discarder: int) -> Turn:
        """``seat`` called the discard of ``discarder`` for an exposure and now plays on."""
        return Turn(seat, TurnStage.CALLED, called_from=discarder)

    @staticmethod
    def over(seat: int) -> Turn:
        """``seat``'s turn is over: she discarded, or her turn was cut short; the next turn is not made yet."""
        return Turn(seat, TurnStage.OVER)

    def with_exchange(self) -> Turn:
        """This turn, after a joker exchange."""
        return replace(self, exchanged=True)

    @property
    def needs_draw(self) -> bool:
        """Whether the seat on turn must draw before anything else."""
        return self.stage == TurnStage.MUST_DRAW

    def to_json(self) -> dict[str, Any]:
        """The turn as plain JSON."""
        return {"seat": self.seat, "stage": self.stage.value,
                "drawn": code(self.drawn) if self.drawn is not None else None,
                "called_from": self.called_from, "exchanged": self.exchanged}

    @staticmethod
    def from_json(data: dict[str, Any]) -> Turn:
        """The turn saved by :meth:`to_json`."""
        drawn = data["drawn"]
        return Turn(data["seat"], TurnStage(data["stage"]), parse_tile(drawn) if drawn is not None else None,
                    data["called_from"], data["exchanged"])

    @staticmethod
    def from_flat_json(data: dict[str, Any]) -> Turn:
        """The turn of a snapshot saved before turns were one object: ``turn`` (a seat), ``needs_draw``,
        ``drawn``, ``turn_source``, ``called_from``, ``exchanged`` and ``east_has_discarded`` side by side."""
        seat = data["turn"]
        if data["needs_draw"]:
            return Turn.must_draw(seat)
        # The old fields kept a stale source after a discard; the stages they stood for were these.
        if data["phase"] == Phase.CALL_WINDOW or (data["turn_source"] == "deal" and data["east_has_discarded"]):
            return Turn.over(seat)
        return Turn.from_json({"seat": seat, "stage": data["turn_source"], "drawn": data["drawn"],
                               "called_from": data["called_from"], "exchanged": data["exchanged"]})


@dataclass(slots=True)
class GameState:
    """Everything about one game: enough to continue it exactly, and to show every seat its own view."""

    rules: TableRules
    card_id: str
    seed: int
    east: int
    seats: list[Seat]
    wall: list[Tile]
    phase: Phase
    turn_state: Turn
    game_no: int = 1
    rng_counter: int = 0
    discards: list[tuple[int, Tile]] = field(default_factory=list)  # (seat, tile), oldest first
    window: CallWindow | None = None
    late_window: CallWindow | None = None  # 1946: the last discard, still claimable during the next turn
    charleston: CharlestonState | None = None
    result: Result | None = None
    penalties: list[Payout] = field(default_factory=list)
    turns: int = 0  # discards made so far
    deal: dict[str, Any] | None = None  # an explicit deal (replay form) when the game did not shuffle
    log: list[dict[str, Any]] = field(default_factory=list)  # every applied action, in replay form

    def rng(self) -> random.Random:
        """A generator for the next random choice; each call advances the stored counter."""
        self.rng_counter += 1
        return random.Random(f"{self.seed}:{self.game_no}:{self.rng_counter}")

    @property
    def turn(self) -> int:
        """The seat on turn (the discarder during a call window)."""
        return self.turn_state.seat

    @property
    def live_seats(self) -> list[int]:
        """Seats with a player whose hand is not dead."""
        return [s for s, seat in enumerate(self.seats) if not seat.empty and not seat.dead]

    @property
    def players(self) -> list[int]:
        """Seats with a player (every seat but an empty chair)."""
        return [s for s, seat in enumerate(self.seats) if not seat.empty]

    def to_json(self) -> dict[str, Any]:
        """The whole state as plain JSON, loadable by :meth:`from_json`."""
        return {
            "rules": self.rules.to_dict(), "card": self.card_id, "seed": self.seed, "east": self.east,
            "game_no": self.game_no, "rng_counter": self.rng_counter,
            "seats": [s.to_json() for s in self.seats], "wall": _codes(self.wall), "phase": self.phase.value,
            "turn": self.turn_state.to_json(),
            "discards": [[s, code(t)] for s, t in self.discards],
            "window": self.window.to_json() if self.window else None,
            "late_window": self.late_window.to_json() if self.late_window else None,
            "charleston": self.charleston.to_json() if self.charleston else None,
            "result": self.result.to_json() if self.result else None,
            "penalties": [p.to_json() for p in self.penalties], "turns": self.turns,
            "deal": self.deal, "log": list(self.log),
        }

    @staticmethod
    def from_json(data: dict[str, Any]) -> GameState:
        """A state saved by :meth:`to_json`, or by an older build that kept the turn in flat fields."""
        turn = Turn.from_json(data["turn"]) if isinstance(data["turn"], dict) else Turn.from_flat_json(data)
        return GameState(
            rules=rules_from_dict(data["rules"]), card_id=data["card"], seed=data["seed"], east=data["east"],
            seats=[Seat.from_json(s) for s in data["seats"]], wall=_kinds(data["wall"]),
            phase=Phase(data["phase"]), turn_state=turn, game_no=data["game_no"],
            rng_counter=data["rng_counter"],
            discards=[(s, parse_tile(t)) for s, t in data["discards"]],
            window=CallWindow.from_json(data["window"]) if data["window"] else None,
            late_window=CallWindow.from_json(data["late_window"]) if data["late_window"] else None,
            charleston=CharlestonState.from_json(data["charleston"]) if data["charleston"] else None,
            result=Result.from_json(data["result"]) if data["result"] else None,
            penalties=[Payout.from_json(p) for p in data["penalties"]], turns=data["turns"],
            deal=data["deal"], log=list(data["log"]),
        )
