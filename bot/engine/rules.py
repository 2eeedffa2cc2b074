"""Table rules: a validated set of options with the presets ``nmjl`` (default), ``nmjl-1946`` and ``classical``
(docs/rules.md: the table options, the decisions for online play of §11, and the classical game of §9).

Build one with :func:`table_rules`, which names any unknown option or out-of-range value in plain words, or
with :func:`rules_for_card` for the preset a card is played with.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from functools import cache
from typing import Any, Literal

from .card import Card
from .errors import EngineError

Declarations = Literal["friendly", "strict"]
BlankTiming = Literal["own_turn", "any_time", "not_own_turn"]
ThreePlayerCharleston = Literal["none", "bob"]


class RulesError(EngineError, ValueError):
    """An unknown option or a value out of range."""


@dataclass(frozen=True, slots=True)
class TableRules:
    """Every option of a table, from a preset with some options changed."""

    preset: str = "nmjl"
    card: str = "practice"
    players: int = 4  # 2, 3 or 4 (CH8, CH9, §11.4)
    call_window_seconds: int = 8  # §11.2: 3-30
    hold_seconds: int = 20  # P11: the cap on one hold
    declarations: Declarations = "friendly"  # §11.1
    charleston: bool = True
    second_charleston: bool = True  # CH3: allowed at all (any player may still stop it)
    courtesy_pass: bool = True  # CH4
    three_player_charleston: ThreePlayerCharleston = "none"  # CH8: none, or the "Bob" dummy
    hot_wall: int = 0  # TR1: when this many tiles or fewer remain, calls only for Mah Jongg; 0 = off
    blanks: int = 0  # T6/TR2: 0 = no blanks, else 2-8
    blank_timing: BlankTiming = "own_turn"  # TR2 (a), (b), (c)
    min_call_size: int = 3  # P5: a pung; the 1946 rules need a kong
    east_double: bool = False  # H5: East pays and receives the East column
    east_keeps_deal_on_wall_game: bool = False  # S5 [1946]
    discard_flowers: bool = True  # P13: the 1946 rules forbid discarding a flower
    flowers_wild: bool = False  # §11.7: the 1946 set, flowers are the wild tiles
    window_until_next_discard: bool = False  # §11.7 (1946): a discard stays claimable until the next discard
    false_mahjong_penalty: int = 0  # §11.7: chips to each intact player in strict mode (1946: 30)
    winner_pays_double_rules: bool = True  # SC1/SC2: discarder double, self-pick double, jokerless bonus
    first_exposed_wins: bool = False  # P10(c): between exposure claims the first made wins, not the nearest
    dead_hand_draws: bool = False  # M7 [CLASSIC]: a dead hand keeps drawing and throws each drawn tile
    base: int = 10  # the classical game (§9): the value of a win, in chips

    @property
    def classical(self) -> bool:
        """Whether this is the classical chow/pung game (§9): no card, no jokers, four sets and a pair."""
        return self.preset == "classical"

    def to_dict(self) -> dict[str, Any]:
        """The rules as plain JSON, loadable by :func:`rules_from_dict`."""
        return dict(_as_dict(self))

    @property
    def uses_bob(self) -> bool:
        """Whether a three-player table passes with the "Bob" dummy in the empty chair (CH8)."""
        return self.players == 3 and self.charleston and self.three_player_charleston == "bob"

    @property
    def has_charleston(self) -> bool:
        """Whether this table plays a Charleston at all (three players need Bob for one)."""
        return self.charleston and (self.players == 4 or self.uses_bob)


@cache
def _as_dict(rules: TableRules) -> tuple[tuple[str, Any], ...]:
    # Rules are immutable and saved with every snapshot, so their plain form is worked out once.
    return tuple(asdict(rules).items())


PRESETS: dict[str, dict[str, Any]] = {
    "nmjl": {},
    "nmjl-1946": {
        "card": "nmjl-1946",
        "courtesy_pass": False,
        "min_call_size": 4,
        "east_double": True,
        "east_keeps_deal_on_wall_game": True,
        "discard_flowers": False,
        "flowers_wild": True,
        "window_until_next_discard": True,
        "false_mahjong_penalty": 30,
        "winner_pays_double_rules": False,
    },
    "classical": {
        "card": "classical",
        "charleston": False,
        "second_charleston": False,
        "courtesy_pass": False,
        "dead_hand_draws": True,
    },
}
CLASSICAL_CARD = "classical"  # the built-in "card" of the classical game: four sets and a pair

_CHOICES: dict[str, tuple[Any, ...]] = {
    "declarations": ("friendly", "strict"),
    "blank_timing": ("own_turn", "any_time", "not_own_turn"),
    "three_player_charleston": ("none", "bob"),
    "players": (2, 3, 4),
    "min_call_size": (3, 4),
}
_RANGES: dict[str, tuple[int, int]] = {
    "call_window_seconds": (3, 30),
    "hold_seconds": (5, 60),
    "hot_wall": (0, 40),
    "false_mahjong_penalty": (0, 1000),
    "base": (1, 1000),
}


def table_rules(preset: str = "nmjl", **options: Any) -> TableRules:
    """The preset's rules with ``options`` changed; raises :class:`RulesError` naming any bad option."""
    if not isinstance(preset, str) or preset not in PRESETS:
        raise RulesError(f"Unknown rules preset {preset!r:.40}. Choose one of: {', '.join(PRESETS)}.")
    known = {f.name: f for f in fields(TableRules)}
    values: dict[str, Any] = {"preset": preset, **PRESETS[preset]}
    for key, value in options.items():
        if key not in known or key == "preset":
            raise RulesError(f"Unknown table option {key!r:.40}. Options: "
                             f"{', '.join(sorted(set(known) - {'preset'}))}.")
        values[key] = value
    rules = TableRules(**values)
    _validate(rules, known)
    return rules


def rules_for_card(card: Card, **options: Any) -> TableRules:
    """The rules of the preset ``card`` is played with (its ruleset), for that card, with ``options`` changed."""
    return table_rules(card.ruleset, card=card.id, **options)


def rules_from_dict(data: dict[str, Any]) -> TableRules:
    """Rebuild rules saved with :meth:`TableRules.to_dict` (every option is checked again)."""
    data = dict(data)
    preset = data.pop("preset", "nmjl")
    return table_rules(preset, **data)


def _validate(rules: TableRules, known: dict[str, Any]) -> None:
    defaults = TableRules()
    for name in known:
        value = getattr(rules, name)
        expected = type(getattr(defaults, name))
        if expected is bool and not isinstance(value, bool):
            raise RulesError(f"Option '{name}' must be true or false, not {value!r:.40}.")
        if expected is int and (not isinstance(value, int) or isinstance(value, bool)):
            raise RulesError(f"Option '{name}' must be a whole number, not {value!r:.40}.")
        if expected is str and not isinstance(value, str):
            raise RulesError(f"Option '{name}' must be text, not {value!r:.40}.")
        if name in _CHOICES and value not in _CHOICES[name]:
            allowed = ", ".join(str(c) for c in _CHOICES[name])
            raise RulesError(f"Option '{name}' must be one of {allowed}, not {value!r:.40}.")
        if name in _RANGES:
            low, high = _RANGES[name]
            if not low <= value <= high:
                raise RulesError(f"Option '{name}' must be between {low} and {high}, not {value}.")
    if rules.blanks and not 2 <= rules.blanks <= 8:
        raise RulesError(f"Option 'blanks' must be 0 (none) or between 2 and 8, not {rules.blanks}.")
    if rules.flowers_wild and rules.blanks:
        raise RulesError("Blanks cannot be used with the 1946 set (flowers wild).")
    if rules.classical:
        _validate_classical(rules)
    elif rules.card == CLASSICAL_CARD:
        raise RulesError("The classical game has no card: choose the rules preset 'classical' to play it.")


def _validate_classical(rules: TableRules) -> None:
    """The classical game (§9) has its own tile set and no Charleston; options that make no sense there are
    refused rather than ignored."""
    if rules.card != CLASSICAL_CARD:
        raise RulesError(f"The classical game is played without a card, not with '{rules.card}'.")
    for option, why in (("charleston", "there is no Charleston"), ("blanks", "the set has no blanks"),
                        ("flowers_wild", "the set has no flowers"), ("east_double", "East is paid like anyone")):
        if getattr(rules, option):
            raise RulesError(f"Option '{option}' does not apply to the classical game: {why}.")
    if rules.min_call_size != 3:
        raise RulesError("Option 'min_call_size' does not apply to the classical game: chows and pungs are called.")


def with_options(rules: TableRules, **options: Any) -> TableRules:
    """A copy of ``rules`` with some options changed, validated again."""
    merged = {**rules.to_dict(), **options}
    return rules_from_dict(merged) if merged else replace(rules)
