"""Provable deals (docs/rules.md, *Provable deals*): the statement a deal's commitment is the SHA-256 of.

At each deal the table service draws a secret salt and publishes ``commitment(deal_statement(...))``; when the game
is over it reveals the seed and the salt. Anyone holding them deals the game again from the seed with this engine,
writes the statement again and compares the hashes. The statement names everything that fixes the deal (the seed,
the game's number, East, the card, the table's rules) and the deal itself (each rack and the wall in drawing
order), so the hash pins the tiles, not only the numbers. The salt is what keeps the commitment from giving the
deal away while the game is played: without it, anyone could hash seed after seed until one matched.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .deal import shuffled_deal
from .rules import rules_from_dict
from .tiles import code

SCHEME = "charleston-deal/1"  # the statement's form; a change of form (or of the shuffle) is a new scheme
SALT = re.compile(r"^[0-9a-f]{32}$")  # 128 bits, as hex
COMMITMENT = re.compile(r"^[0-9a-f]{64}$")  # a SHA-256, as hex


@dataclass(frozen=True, slots=True)
class DealTerms:
    """What fixes a deal: the seed, the game's number at its table, East's seat, the card and the table's rules
    (as stored: a JSON object)."""

    seed: int
    game_no: int
    east: int
    card_id: str
    rules: Mapping[str, Any]


def deal_statement(terms: DealTerms, salt: str) -> str:
    """The text whose SHA-256 is the deal's commitment: one line per item, ending in a newline, so ``sha256sum``
    of the text gives the commitment too. Raises ValueError for terms no deal can be made from (rules that do not
    load, a malformed salt)."""
    if not SALT.match(salt):
        raise ValueError(f"a salt is 32 hexadecimal digits, not {salt[:40]!r}")
    if not 0 <= terms.east <= 3:
        raise ValueError(f"East sits in seat 0, 1, 2 or 3, not {terms.east}")
    rules = rules_from_dict(dict(terms.rules))
    dealt = shuffled_deal(rules, terms.card_id, terms.seed, east=terms.east, game_no=terms.game_no)
    lines = [SCHEME, f"seed {terms.seed}", f"salt {salt}", f"game {terms.game_no}", f"east {terms.east}",
             f"card {terms.card_id}", "rules " + json.dumps(dict(terms.rules), sort_keys=True, separators=(",", ":"))]
    for number, seat in enumerate(dealt.seats):
        lines.append(f"seat {number} " + (" ".join(code(t) for t in sorted(seat.rack)) if not seat.empty else "-"))
    lines.append("wall " + " ".join(code(t) for t in dealt.wall))
    return "\n".join(lines) + "\n"


def commitment(statement: str) -> str:
    """The SHA-256 of a statement, as 64 hexadecimal digits."""
    return hashlib.sha256(statement.encode("utf-8")).hexdigest()


def seal(terms: DealTerms, salt: str) -> str:
    """The commitment to the deal ``terms`` make, with ``salt``."""
    return commitment(deal_statement(terms, salt))


def matches(terms: DealTerms, salt: str, published: str) -> bool:
    """Whether dealing again from ``terms`` with ``salt`` gives the ``published`` commitment (False, never an
    error, for terms no deal can be made from)."""
    try:
        return seal(terms, salt) == published
    except (ValueError, KeyError, TypeError):
        return False
