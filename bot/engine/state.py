"""The complete state of one game, and its lossless JSON form.

The state is plain data: racks, the wall, the discard pool, the phase, and the pending parts of a Charleston
pass or a call window. All rules live in :mod:`bot.engine.game`; randomness comes only from ``seed`` and
``rng_counter`` (see :meth:`GameState.rng`), so a state restored from JSON continues exactly as the original.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from .notation import parse_tile
from .rules import TableRules, rules_from_dict
from .tiles import code


class Phase(StrEnum):
    CHARLESTON = "charleston"  # collecting one pass from every seat
    CHARLESTON_VOTE = "charleston_vote"  # stop after the first Left, or go on (CH3)
    COURTESY = "courtesy"  # collecting courtesy offers (CH4)
    PLAY = "play"  # ``turn`` must draw (``needs_draw``) or else exchange, declare or discard
    CALL_WINDOW = "call_window"  # the latest discard may be claimed
    FINISHED = "finished"


def _codes(tiles: list[int]) -> list[str]:
    return [code(t) for t in tiles]


def _kinds(codes: list[str]) -> list[int]:
    return [int(parse_tile(c)) for c in codes]


@dataclass(slots=True)
class Exposure:
    tile: int  # the tile the group is made of
    tiles: list[int]  # as it lies on the rack, jokers included
    called_from: int  # the seat that discarded the called tile

    def to_json(self) -> dict[str, Any]:
        return {"tile": code(self.tile), "tiles": _codes(self.tiles), "called_from": self.called_from}

    @staticmethod
    def from_json(data: dict[str, Any]) -> Exposure:
        return Exposure(int(parse_tile(data["tile"])), _kinds(data["tiles"]), data["called_from"])


@dataclass(slots=True)
class Seat:
    rack: list[int] = field(default_factory=list)  # concealed tiles
    exposures: list[Exposure] = field(default_factory=list)
    dead: bool = False
    dead_reason: str = ""
    empty: bool = False  # no player here (three-player tables)

    def to_json(self) -> dict[str, Any]:
        return {"rack": _codes(self.rack), "exposures": [e.to_json() for e in self.exposures],
                "dead": self.dead, "dead_reason": self.dead_reason, "empty": self.empty}

    @staticmethod
    def from_json(data: dict[str, Any]) -> Seat:
        return Seat(_kinds(data["rack"]), [Exposure.from_json(e) for e in data["exposures"]], data["dead"],
                    data["dead_reason"], data["empty"])

    @property
    def tile_count(self) -> int:
        return len(self.rack) + sum(len(e.tiles) for e in self.exposures)


@dataclass(slots=True)
class Claim:
    seat: int
    tiles: list[int]  # rack tiles completing the group; empty for Mah Jongg
    mahjong: bool

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "tiles": _codes(self.tiles), "mahjong": self.mahjong}

    @staticmethod
    def from_json(data: dict[str, Any]) -> Claim:
        return Claim(data["seat"], _kinds(data["tiles"]), data["mahjong"])


@dataclass(slots=True)
class CallWindow:
    discarder: int
    tile: int
    claims: list[Claim] = field(default_factory=list)
    passed: list[int] = field(default_factory=list)
    held: list[int] = field(default_factory=list)
    mahjong_only: bool = False  # hot wall, or the wall is empty (TR1, §11.5)

    def to_json(self) -> dict[str, Any]:
        return {"discarder": self.discarder, "tile": code(self.tile), "claims": [c.to_json() for c in self.claims],
                "passed": list(self.passed), "held": list(self.held), "mahjong_only": self.mahjong_only}

    @staticmethod
    def from_json(data: dict[str, Any]) -> CallWindow:
        return CallWindow(data["discarder"], int(parse_tile(data["tile"])),
                          [Claim.from_json(c) for c in data["claims"]], list(data["passed"]), list(data["held"]),
                          data["mahjong_only"])


@dataclass(slots=True)
class CharlestonState:
    stage: int = 0  # index into the table's pass sequence
    passes: dict[int, tuple[list[int], int]] = field(default_factory=dict)  # seat -> (own tiles, blind count)
    votes: dict[int, bool] = field(default_factory=dict)  # seat -> wants to stop
    offers: dict[int, list[int]] = field(default_factory=dict)  # courtesy offers
    bob_out: list[list[int]] = field(default_factory=list)  # the "Bob" dummy's prepared passes (CH8)
    bob_in: list[int] = field(default_factory=list)  # tiles passed to Bob

    def to_json(self) -> dict[str, Any]:
        return {"stage": self.stage,
                "passes": {str(s): {"tiles": _codes(t), "blind": b} for s, (t, b) in self.passes.items()},
                "votes": {str(s): v for s, v in self.votes.items()},
                "offers": {str(s): _codes(t) for s, t in self.offers.items()},
                "bob_out": [_codes(p) for p in self.bob_out], "bob_in": _codes(self.bob_in)}

    @staticmethod
    def from_json(data: dict[str, Any]) -> CharlestonState:
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
    tiles: list[list[int]] = field(default_factory=list)  # the winning hand laid out group by group

    @property
    def self_pick(self) -> bool:
        return self.how in ("self_pick", "heavenly")

    def to_json(self) -> dict[str, Any]:
        return {"how": self.how, "winner": self.winner, "line": self.line, "value": self.value,
                "east_value": self.east_value, "discarder": self.discarder, "jokerless": self.jokerless,
                "singles_and_pairs": self.singles_and_pairs, "tiles": [_codes(g) for g in self.tiles]}

    @staticmethod
    def from_json(data: dict[str, Any]) -> Result:
        return Result(data["how"], data["winner"], data["line"], data["value"], data["east_value"],
                      data["discarder"], data["jokerless"], data["singles_and_pairs"],
                      [_kinds(g) for g in data["tiles"]])


@dataclass(slots=True)
class Penalty:
    payer: int
    payee: int
    amount: int
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"payer": self.payer, "payee": self.payee, "amount": self.amount, "reason": self.reason}

    @staticmethod
    def from_json(data: dict[str, Any]) -> Penalty:
        return Penalty(data["payer"], data["payee"], data["amount"], data["reason"])


@dataclass(slots=True)
class GameState:
    rules: TableRules
    card_id: str
    seed: int
    east: int
    seats: list[Seat]
    wall: list[int]
    phase: Phase
    turn: int  # the seat to act in PLAY; the discarder during a call window
    game_no: int = 1
    rng_counter: int = 0
    needs_draw: bool = False
    drawn: int | None = None  # the tile drawn this turn, for display
    turn_source: str = "deal"  # how the turn's 14th tile came: deal, draw or call
    called_from: int | None = None  # after a call: who discarded the called tile
    exchanged: bool = False  # a joker exchange happened this turn
    east_has_discarded: bool = False
    discards: list[tuple[int, int]] = field(default_factory=list)  # (seat, tile), oldest first
    window: CallWindow | None = None
    late_window: CallWindow | None = None  # 1946: the last discard, still claimable during the next turn
    charleston: CharlestonState | None = None
    result: Result | None = None
    penalties: list[Penalty] = field(default_factory=list)
    turns: int = 0  # discards made so far
    deal: dict[str, Any] | None = None  # an explicit deal (replay form) when the game did not shuffle
    log: list[dict[str, Any]] = field(default_factory=list)  # every applied action, in replay form

    def rng(self) -> random.Random:
        """A generator for the next random choice; each call advances the stored counter."""
        self.rng_counter += 1
        return random.Random(f"{self.seed}:{self.game_no}:{self.rng_counter}")

    @property
    def live_seats(self) -> list[int]:
        return [s for s, seat in enumerate(self.seats) if not seat.empty and not seat.dead]

    @property
    def players(self) -> list[int]:
        return [s for s, seat in enumerate(self.seats) if not seat.empty]

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules.to_dict(), "card": self.card_id, "seed": self.seed, "east": self.east,
            "game_no": self.game_no, "rng_counter": self.rng_counter,
            "seats": [s.to_json() for s in self.seats], "wall": _codes(self.wall), "phase": self.phase.value,
            "turn": self.turn, "needs_draw": self.needs_draw,
            "drawn": code(self.drawn) if self.drawn is not None else None,
            "turn_source": self.turn_source, "called_from": self.called_from, "exchanged": self.exchanged,
            "east_has_discarded": self.east_has_discarded,
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
        return GameState(
            rules=rules_from_dict(data["rules"]), card_id=data["card"], seed=data["seed"], east=data["east"],
            seats=[Seat.from_json(s) for s in data["seats"]], wall=_kinds(data["wall"]),
            phase=Phase(data["phase"]), turn=data["turn"], game_no=data["game_no"],
            rng_counter=data["rng_counter"], needs_draw=data["needs_draw"],
            drawn=int(parse_tile(data["drawn"])) if data["drawn"] is not None else None,
            turn_source=data["turn_source"], called_from=data["called_from"], exchanged=data["exchanged"],
            east_has_discarded=data["east_has_discarded"],
            discards=[(s, int(parse_tile(t))) for s, t in data["discards"]],
            window=CallWindow.from_json(data["window"]) if data["window"] else None,
            late_window=CallWindow.from_json(data["late_window"]) if data["late_window"] else None,
            charleston=CharlestonState.from_json(data["charleston"]) if data["charleston"] else None,
            result=Result.from_json(data["result"]) if data["result"] else None,
            penalties=[Penalty.from_json(p) for p in data["penalties"]], turns=data["turns"],
            deal=data["deal"], log=list(data["log"]),
        )
