"""Writing an imported card as TOML (docs/card-format.md), with comments that keep the source's own words and
say what the import could not carry."""

from __future__ import annotations

import re

from .draft import Draft, DraftLine

_CONTROL = re.compile("[\x00-\x08\x0a-\x1f\x7f]")
_SLUG = re.compile(r"[^a-z0-9]+")
RULE = "# " + "-" * 64


def toml_string(text: str) -> str:
    """A TOML basic string holding ``text`` exactly."""
    out = []
    for char in text:
        if char in '"\\':
            out.append("\\" + char)
        elif char == "\t" or not _CONTROL.match(char):
            out.append(char)
        else:
            out.append(f"\\u{ord(char):04x}")
    return '"' + "".join(out) + '"'


def comment(text: str) -> str:
    """``text`` as one comment line (a comment may hold no line break or control character)."""
    return ("# " + _CONTROL.sub(" ", text)).rstrip()


def slug(text: str) -> str:
    """Letters, digits and '-' from a section's name, for a line's id: ``Any Like Numbers`` is ``any-like-numbers``."""
    return _SLUG.sub("-", text.lower()).strip("-")[:30].strip("-") or "line"


def card_table(card_id: str, name: str, year: int | None, ruleset: str, wild: str) -> str:
    """The ``[card]`` table."""
    rows = ["[card]", f"id = {toml_string(card_id)}", f"name = {toml_string(name)}"]
    if year is not None:
        rows.append(f"year = {year}")
    rows += [f"ruleset = {toml_string(ruleset)}", f"wild = {toml_string(wild)}"]
    return "\n".join(rows) + "\n"


def hand_table(line: DraftLine) -> str:
    """The line's ``[[hand]]`` table (a TOML source's own, as written)."""
    if line.block is not None:
        return line.block.rstrip("\n") + "\n"
    rows = ["[[hand]]", f"id = {toml_string(line.hand_id)}", f"section = {toml_string(line.section)}"]
    if len(line.patterns) == 1:
        rows.append(f"pattern = {toml_string(line.patterns[0])}")
    else:
        rows.append("pattern = [")
        rows += [f"    {toml_string(p)}," for p in line.patterns]
        rows.append("]")
    if line.shift is not None:
        rows.append(f"shift = {toml_string(line.shift) if isinstance(line.shift, str) else line.shift}")
    rows.append(f"exposed = {'true' if line.exposed else 'false'}")
    rows.append(f"value = {line.value}")
    if line.note:
        rows.append(f"note = {toml_string(line.note)}")
    if line.singles_and_pairs:
        rows.append("singles_and_pairs = true")
    return "\n".join(rows) + "\n"


def assign_ids(lines: list[DraftLine]) -> None:
    """Give each line without one an id from its section and number ("2468-3"), unique in the card."""
    taken = {line.hand_id for line in lines if line.hand_id}
    counts: dict[str, int] = {}
    for line in lines:
        counts[line.section] = counts.get(line.section, 0) + 1
        if line.hand_id:
            continue
        base = f"{slug(line.section)}-{line.number if line.number is not None else counts[line.section]}"
        candidate, extra = base, 1
        while candidate in taken:
            extra += 1
            candidate = f"{base}-{extra}"
        line.hand_id = candidate
        taken.add(candidate)


def write(draft: Draft, source: str, card_id: str, table: str, placeholder_values: bool) -> str:
    """The whole card file: a header saying where it came from, the ``[card]`` table, then every line (those left
    out as comments, with the reason)."""
    out = [comment(f"Imported by 'charleston card import' from {source} ({draft.fmt})."),
           comment("Check every line against the printed card: 'charleston card proof --card FILE --out DIR' "
                   "draws them with a winning hand each.")]
    if placeholder_values:
        out.append(comment("The source gives no values: each line says 'value = 25' until you type the printed one."))
    if draft.header:
        out.append("#")
        out += [comment(text) for text in draft.header]
    out += ["", table]
    if draft.after_table:
        out += [comment(text) for text in draft.after_table] + [""]
    section = None
    for line in draft.lines:
        if line.section != section and line.block is None:
            section = line.section
            out += [RULE + " " + _CONTROL.sub(" ", section), ""]
        words = [comment(f"{draft.fmt} line {line.source_line}: {text}") if n == 0 else comment("  " + text)
                 for n, text in enumerate(line.wording)] if line.block is None else []
        if line.fatal:
            out += [*words, comment("LEFT OUT by the import: " + "; ".join(line.fatal))]
            if line.block is not None:  # kept, commented out, to be mended where it stands
                out += [comment(row) for row in line.block.rstrip("\n").splitlines()]
            out.append("")
            continue
        out += words + [comment("import: " + reason) for reason in line.reasons]
        out += [hand_table(line)]
    return "\n".join(out).rstrip("\n") + "\n"
