"""A card read from another tool's file, before it is written as TOML: its lines as groups in the card language's
terms (:class:`Piece`), with the source's own words and every reason the import could not carry a line exactly.

:func:`assemble` turns a line's groups into pattern strings and a ``shift`` (docs/card-format.md): numbers that
move together ("any like numbers", "any consecutive numbers") become a shift where the card language can say
exactly the same, and one alternative per starting number where it cannot.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

FIXED = frozenset("NEWSFRG0")  # tiles the card language writes as themselves
WINDS = ("N", "E", "W", "S")
NUMBERS = frozenset("123456789")
MAX_ALTERNATIVES = 1_000  # far above any printed line (the longest known needs 32): a bound on a hostile file


class ImportProblem(ValueError):
    """A file that cannot be imported at all (not the format named, unreadable, nothing in it can be carried):
    the message is one line naming the file and saying what to do."""


@dataclass(frozen=True, slots=True)
class Piece:
    """One group of a line: ``symbol`` is a fixed tile (``N E W S F R G 0``), ``Z`` any wind, ``D`` the dragon of
    ``letter``'s suit, a digit ``1``-``9`` in ``letter``'s suit, or ``X``: the number ``offset`` above the line's
    base number, in ``letter``'s suit. Singles sharing a nonzero ``glue`` are written as one token, as printed
    (``2025a``)."""

    symbol: str
    size: int
    letter: str = ""
    offset: int = 0
    glue: int = 0


Alternative = tuple[Piece, ...]


@dataclass(slots=True)
class DraftLine:
    """One printed line as the source gives it, and what the import makes of it."""

    source_line: int
    name: str  # how the source names the line ("2468 #3", or its printed text)
    section: str
    number: int | None  # its number in its section, if the source gives one
    alternatives: list[Alternative]
    bases: list[list[int]]  # per alternative, the numbers its X groups may start at (empty without X)
    exposed: bool
    value: int | None  # None: the source gives none
    note: str = ""
    singles_and_pairs: bool = False
    independent_winds: bool = True  # each Z group its own wind (riichi_advanced) or every Z the same (mpmahj)
    wording: list[str] = field(default_factory=list)  # the source's words for the line, kept as comments
    reasons: list[str] = field(default_factory=list)  # why it is not carried exactly, or looks wrong
    fatal: list[str] = field(default_factory=list)  # why it cannot be carried at all: it is left out
    patterns: list[str] = field(default_factory=list)  # set by assemble
    shift: str | list[int] | None = None  # set by assemble
    block: str | None = None  # a TOML source's [[hand]] table, kept as written
    hand_id: str = ""  # the id it is written with (a TOML source's own)


@dataclass(slots=True)
class Draft:
    """A whole card read from a source file."""

    fmt: str  # the source format's name, as said in messages
    name: str
    year: int | None
    header: list[str]  # the source's opening comments
    lines: list[DraftLine]
    notices: list[str] = field(default_factory=list)  # warnings about the file as a whole
    after_table: list[str] = field(default_factory=list)  # a TOML source's comments after its [card] table


def glue_runs(pieces: list[Piece], start: int = 0) -> list[Piece]:
    """The pieces with each run of consecutive singles glued into one printed token, as a card prints ``2025`` or
    ``123``: fixed digits and soaps of one suit together, or moving (X) digits of one suit together. A run of one
    piece, or of one repeated digit (``22a`` would read as a pair), stays apart. Glues are numbered from
    ``start`` + 1."""
    out: list[Piece] = []
    run: list[Piece] = []
    glue = max(start, max((p.glue for p in pieces), default=0))

    def flush() -> None:
        nonlocal glue
        chars = {f"{p.symbol}{p.offset}" for p in run}
        if len(run) > 1 and len(chars) > 1 and any(p.symbol != "0" for p in run):
            glue += 1
            out.extend(Piece(p.symbol, 1, p.letter, p.offset, glue) for p in run)
        else:
            out.extend(run)
        run.clear()

    def joins(piece: Piece) -> bool:
        if not run:
            return True
        moving = {p.symbol == "X" for p in run if p.symbol != "0"}
        letters = {p.letter for p in run if p.symbol != "0"}
        if piece.symbol == "0":
            return True not in moving
        if piece.symbol == "X" and any(p.symbol == "0" for p in run):
            return False
        return moving <= {piece.symbol == "X"} and letters <= {piece.letter}

    for piece in pieces:
        single = piece.size == 1 and not piece.glue and (piece.symbol.isdigit() or piece.symbol == "X")
        if single and joins(piece):
            run.append(piece)
            continue
        flush()
        if single:
            run.append(piece)
        else:
            out.append(piece)
    flush()
    return out


def _digit(piece: Piece, base: int) -> str:
    return str(base + piece.offset) if piece.symbol == "X" else piece.symbol


def render(alternative: Alternative, base: int) -> list[str]:
    """The alternative's tokens, its X groups starting at ``base``."""
    tokens: list[str] = []
    i = 0
    while i < len(alternative):
        piece = alternative[i]
        if piece.glue:
            run = list(itertools.takewhile(lambda p, g=piece.glue: p.glue == g, alternative[i:]))  # type: ignore[misc]
            letter = next((p.letter for p in run if p.symbol != "0"), "")
            tokens.append("".join(_digit(p, base) for p in run) + letter)
            i += len(run)
            continue
        if piece.symbol == "D":
            tokens.append("D" * piece.size + piece.letter)
        elif piece.symbol in FIXED or piece.symbol == "Z":
            tokens.append(piece.symbol * piece.size)
        else:
            tokens.append(_digit(piece, base) * piece.size + piece.letter)
        i += 1
    return tokens


def _year_glues(alternative: Alternative) -> set[int]:
    """The glued tokens the card language reads as a year, which a shift leaves alone: four digits, one of them
    the soap (docs/card-format.md)."""
    runs: dict[int, list[Piece]] = {}
    for piece in alternative:
        if piece.glue:
            runs.setdefault(piece.glue, []).append(piece)
    return {glue for glue, run in runs.items()
            if len(run) == 4 and any(p.symbol == "0" for p in run) and all(p.symbol != "X" for p in run)}


def _spec(alternative: Alternative, bases: list[int]) -> str | tuple[int, ...] | None:
    """How the alternative's moving numbers can be said: None (none move), "any", a tuple of offsets for
    ``shift``, or "expand" (fixed numbers sit beside the moving ones, so only one alternative per base is
    exact)."""
    offsets = [p.offset for p in alternative if p.symbol == "X"]
    if not offsets:
        return None
    years = _year_glues(alternative)
    if any(p.symbol in NUMBERS and p.glue not in years for p in alternative):
        return "expand"
    first = bases[0]
    low, high = first + min(offsets), first + max(offsets)
    shifts = tuple(b - first for b in bases)
    return "any" if shifts == tuple(range(1 - low, 10 - high)) else shifts


def _independent_winds(line: DraftLine) -> None:
    """Each Z group of the source its own wind: the card language's Z groups are one wind, so a line with two or
    more becomes one alternative per choice of winds."""
    alternatives: list[Alternative] = []
    bases: list[list[int]] = []
    for alternative, alt_bases in zip(line.alternatives, line.bases, strict=True):
        places = [i for i, p in enumerate(alternative) if p.symbol == "Z"]
        if len(places) < 2:
            alternatives.append(alternative)
            bases.append(alt_bases)
            continue
        for winds in itertools.product(WINDS, repeat=len(places)):
            chosen = list(alternative)
            for place, wind in zip(places, winds, strict=True):
                chosen[place] = Piece(wind, alternative[place].size)
            alternatives.append(tuple(chosen))
            bases.append(alt_bases)
    line.alternatives, line.bases = alternatives, bases


def assemble(line: DraftLine) -> None:
    """Set the line's ``patterns`` and ``shift``, or say in ``fatal`` why it cannot be written."""
    if not line.alternatives:
        line.fatal.append("it has no pattern")
        return
    for n, alternative in enumerate(line.alternatives, start=1):
        total = sum(p.size for p in alternative)
        if total != 14:
            which = f"alternative {n} has" if len(line.alternatives) > 1 else "it has"
            line.fatal.append(f"{which} {total} tiles, not 14")
            return
    if line.independent_winds:
        _independent_winds(line)
    specs = []
    for alternative, bases in zip(line.alternatives, line.bases, strict=True):
        if any(p.symbol == "X" for p in alternative) and not bases:
            line.fatal.append("no number can start its run within 1-9")
            return
        specs.append(_spec(alternative, bases))
    patterns: list[str] = []
    if len(set(specs)) == 1 and specs[0] != "expand":
        spec = specs[0]
        for alternative, bases in zip(line.alternatives, line.bases, strict=True):
            patterns.append(" ".join(render(alternative, bases[0] if bases else 1)))
        line.shift = None if spec is None else spec if isinstance(spec, str) else list(spec)
    else:
        for alternative, bases in zip(line.alternatives, line.bases, strict=True):
            for base in bases or [1]:
                patterns.append(" ".join(render(alternative, base)))
        line.shift = None
    line.patterns = list(dict.fromkeys(patterns))
    if len(line.patterns) > MAX_ALTERNATIVES:
        line.fatal.append(f"it needs {len(line.patterns):,} alternatives; at most {MAX_ALTERNATIVES:,} are "
                          "carried")
