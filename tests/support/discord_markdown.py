"""Discord's message markdown, drawn the way its dark theme shows it, for the README's pictures of the bot's
messages (tests/support/screenshots.py).

What it draws as Discord does: **bold**, *italics* and _italics_, __underline__, ~~strike~~, `inline code` and
``` code blocks (monospace, on a darker block, so a table in one lines up), > quotes, -# subtext, # headings,
- lists, backslash escapes, mentions (<@id> as @name, <#id> as #name, <@&id> as @role), custom emoji (as
:name:, the picture itself is not at hand), and timestamps <t:UNIX:STYLE> in every documented style.

Choices where a real client depends on its reader: a timestamp reads as Discord's own documentation writes its
examples (English, 24-hour clock: t 16:20, T 16:20:30, d 20/04/2021, D 20 April 2021, f 20 April 2021 16:20,
F Tuesday, 20 April 2021 16:20, s 20/04/2021, 16:20, S 20/04/2021, 16:20:30) for a reader in UTC; a relative
one (R) is counted from the message's own time (its last edit, else its sending), so a picture says what a
reader saw the moment the message changed ("in 49 minutes", "2 hours ago"), in the largest unit that is at least
one, rounded to the nearest whole one as Discord rounds (seconds are shown as seconds, as Discord now counts the
last minute down). Italics are the regular face slanted (the bundled fonts have no italic; no message uses them).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from functools import cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from renderers import fonts

MONO_FILE = Path(fonts.FONTS_DIR) / "DejaVuSansMono-subset.ttf"
TEXT, MUTED, WHITE = (219, 222, 225), (148, 155, 164), (242, 243, 245)
QUOTE_BAR, CODE_BACK, CODE_EDGE, CODE_TEXT = (78, 80, 88), (43, 45, 49), (30, 31, 34), (219, 222, 225)
PILL_BACK, MENTION_BACK, MENTION_TEXT = (64, 66, 73), (60, 66, 112), (201, 205, 251)
BODY, CODE, SUBTEXT = 15, 13, 12
LINE, CODE_LINE, SUB_LINE = 21, 18, 17
HEADINGS = {"# ": (24, 32), "## ": (20, 28), "### ": (16, 23)}
Names = Callable[[str, int], str | None]  # ("@" | "#" | "@&", id) -> the name Discord would show, or None


@cache
def mono(size: int) -> fonts.Font:
    """The bundled monospace font (data/fonts) at ``size`` points."""
    return ImageFont.truetype(str(MONO_FILE), size)


# -- timestamps -------------------------------------------------------------------------------------------------

def relative(seconds: float) -> str:
    """How Discord words a moment ``seconds`` away (negative: past): "in 49 minutes", "2 hours ago"."""
    span = abs(seconds)
    amount, unit = 0, "second"
    for name, size, limit in (("second", 1, 60), ("minute", 60, 60), ("hour", 3600, 24), ("day", 86400, 30),
                              ("month", 2629800, 12), ("year", 31557600, 0)):
        amount, unit = round(span / size), name
        if amount < limit or not limit:
            break
    words = f"{amount} {unit}{'' if amount == 1 else 's'}"
    return f"{words} ago" if seconds < 0 else f"in {words}"


def moment(unix: int, style: str, now: datetime) -> str:
    """A ``<t:unix:style>`` as Discord shows it (its documented styles; ``f`` when none is given)."""
    if style == "R":
        return relative(unix - now.timestamp())
    at = datetime.fromtimestamp(unix, UTC)
    date_long, date_short = f"{at.day} {at:%B %Y}", f"{at:%d/%m/%Y}"
    return {"t": f"{at:%H:%M}", "T": f"{at:%H:%M:%S}", "d": date_short, "D": date_long,
            "f": f"{date_long} {at:%H:%M}", "F": f"{at:%A}, {date_long} {at:%H:%M}",
            "s": f"{date_short}, {at:%H:%M}", "S": f"{date_short}, {at:%H:%M:%S}"}[style]


# -- parsing ----------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Run:
    """A stretch of text in one style."""

    text: str
    bold: bool = False
    italic: bool = False
    underline: bool = False
    strike: bool = False
    pill: str = ""  # "code", "mention" or "time": drawn on a background of their own


@dataclass(frozen=True)
class Block:
    """A line of text (with its kind: "text", "subtext", "bullet", "# "...) or a code block ("code")."""

    kind: str
    runs: tuple[Run, ...] = ()
    code: tuple[str, ...] = ()
    quoted: bool = False


INLINE = re.compile(r"\\(?P<escaped>[^\w\s])|`(?P<code>[^`]+)`|<t:(?P<unix>-?\d+)(?::(?P<style>[tTdDfFsSR]))?>"
                    r"|<(?P<kind>@!?|#|@&)(?P<id>\d+)>|<a?:(?P<emoji>\w+):\d+>|(?P<mark>\*\*|__|~~|\*|_)")
MARKS = {"**": "bold", "__": "underline", "~~": "strike", "*": "italic", "_": "italic"}


def _closes(text: str, start: int, mark: str) -> bool:
    """Whether ``mark`` opened at ``start`` is closed later on the line (else Discord shows it as it is)."""
    end = text.find(mark, start + len(mark))
    return end > start + len(mark) and not text[start + len(mark)].isspace()


def _toggled(style: Run, field: str) -> Run:
    """``style`` with one emphasis (bold, italic, underline, strike) turned on or off."""
    return Run("", style.bold ^ (field == "bold"), style.italic ^ (field == "italic"),
               style.underline ^ (field == "underline"), style.strike ^ (field == "strike"))


def inline(text: str, now: datetime, names: Names) -> tuple[Run, ...]:
    """One line's runs: markers taken away, pills (code, mentions, times) resolved."""
    runs: list[Run] = []
    style = Run("")
    open_marks: set[str] = set()
    position = 0

    def add(piece: str, pill: str = "") -> None:
        if piece:
            runs.append(replace(style, text=piece, pill=pill))

    for match in INLINE.finditer(text):
        add(text[position:match.start()])
        position = match.end()
        if match["escaped"]:
            add(match["escaped"])
        elif match["code"]:
            add(match["code"], pill="code")
        elif match["unix"]:
            add(moment(int(match["unix"]), match["style"] or "f", now), pill="time")
        elif match["id"]:
            sigil = "@" if match["kind"].startswith("@") else "#"
            shown = names(match["kind"].rstrip("!"), int(match["id"]))
            add(f"{sigil}{shown or ('unknown' if sigil == '#' else 'Unknown User')}", pill="mention")
        elif match["emoji"]:
            add(f":{match['emoji']}:")
        else:
            mark = match["mark"]
            if mark in open_marks or _closes(text, match.start(), mark):
                open_marks ^= {mark}
                style = _toggled(style, MARKS[mark])
            else:
                add(mark)
    add(text[position:])
    return tuple(runs)


def parse(content: str, now: datetime, names: Names) -> list[Block]:
    """A message's content as Discord lays it out: lines of text and code blocks."""
    blocks: list[Block] = []
    lines = content.split("\n")
    index = 0
    while index < len(lines):
        line = lines[index]
        quoted = line.startswith("> ")
        body = line[2:] if quoted else line
        if body.startswith("```") and len(body) > 6 and body.rstrip().endswith("```"):
            blocks.append(Block("code", code=(body.rstrip()[3:-3],), quoted=quoted))
            index += 1
            continue
        if body.startswith("```"):
            closing = next((n for n in range(index + 1, len(lines)) if lines[n].rstrip().endswith("```")), None)
            if closing is not None:
                code = lines[index + 1:closing + 1]
                code[-1] = code[-1].rstrip()[:-3]
                blocks.append(Block("code", code=tuple(c for c in code[:-1]) + ((code[-1],) if code[-1] else ()),
                                    quoted=quoted))
                index = closing + 1
                continue
        kind = "text"
        for prefix in ("-# ", *HEADINGS, "- ", "* "):
            if body.startswith(prefix):
                kind = {"-# ": "subtext", "- ": "bullet", "* ": "bullet"}.get(prefix, prefix)
                body = body[len(prefix):]
                break
        blocks.append(Block(kind, inline(body, now, names), quoted=quoted))
        index += 1
    while blocks and blocks[-1].kind == "text" and not blocks[-1].runs:
        blocks.pop()  # Discord trims the content's trailing blank lines
    return blocks


# -- layout and drawing -----------------------------------------------------------------------------------------

def _font(run: Run, size: int) -> fonts.Font:
    if run.pill == "code":
        return mono(CODE if size == BODY else size)
    return fonts.bold(size) if run.bold else fonts.regular(size)


def _drawable(text: str) -> str:
    """``text`` without the characters the bundled fonts lack (emoji, CJK), spacing kept."""
    return "".join(c for c in text if fonts.covered(c))


@dataclass
class Piece:
    """One word (or space) placed on the picture."""

    run: Run
    text: str
    x: float
    y: int
    width: float
    size: int
    colour: tuple[int, int, int]


def _pieces(runs: tuple[Run, ...], size: int, colour: tuple[int, int, int], left: int, right: int,
            y: int, step: int, measure: ImageDraw.ImageDraw) -> tuple[list[Piece], int]:
    """Words laid out left to right, wrapped at spaces (a word wider than the line broken anywhere)."""
    placed: list[Piece] = []
    x = float(left)
    for run in runs:
        font = _font(run, size)
        text = _drawable(run.text)
        words = [text] if run.pill in ("time", "mention") else re.findall(r" +|[^ ]+", text)
        for word in words:  # a time or a mention is one pill, kept on one line as Discord keeps it
            width = measure.textlength(word, font=font)
            if word.startswith(" "):
                if x > left:
                    placed.append(Piece(run, word, x, y, width, size, colour))
                    x += width
                continue
            while x + width > right and word:
                if x > left:
                    while placed and placed[-1].text.startswith(" "):
                        placed.pop()
                    x, y = float(left), y + step
                    continue
                cut = max(1, max(n for n in range(1, len(word) + 1)
                                 if measure.textlength(word[:n], font=font) <= right - left or n == 1))
                placed.append(Piece(run, word[:cut], x, y, measure.textlength(word[:cut], font=font), size, colour))
                word = word[cut:]
                width = measure.textlength(word, font=font)
                x, y = float(left), y + step
            if word:
                placed.append(Piece(run, word, x, y, width, size, colour))
                x += width
    return placed, y + step


def _code_lines(code: tuple[str, ...], columns: int) -> list[str]:
    """A code block's lines, long ones wrapped at the block's edge as Discord wraps them."""
    out: list[str] = []
    for line in code:
        line = _drawable(line)
        out.extend([line[n:n + columns] for n in range(0, len(line), columns)] or [""])
    return out


class Layout:
    """The message's text laid out in a column: measured first (``height``), then drawn (``draw``)."""

    def __init__(self, blocks: list[Block], left: int, width: int, edited: bool = False) -> None:
        self.left, self.width = left, width
        self.pieces: list[Piece] = []
        self.bars: list[tuple[int, int]] = []  # a quote's bar, from y to y
        self.code: list[tuple[int, int, int, list[str]]] = []  # a code block: x, top, bottom, its lines
        measure = ImageDraw.Draw(Image.new("RGB", (1, 1)))
        y = 0
        for number, block in enumerate(blocks):
            top = y
            x = left + 12 if block.quoted else left
            if block.kind == "code":
                columns = int((left + width - x - 16) // mono(CODE).getlength("M"))
                lines = _code_lines(block.code, columns)
                bottom = y + 4 + 16 + CODE_LINE * len(lines)
                self.code.append((x, y + 4, bottom, lines))
                y = bottom + 4
            else:
                runs = block.runs
                if edited and number == len(blocks) - 1:
                    runs = (*runs, Run(" (edited)", pill="edited"))
                size, step, colour = BODY, LINE, TEXT
                if block.kind == "subtext":
                    size, step, colour = SUBTEXT, SUB_LINE, MUTED
                elif block.kind in HEADINGS:
                    size, step = HEADINGS[block.kind]
                    runs = tuple(replace(r, bold=True) for r in runs)
                    colour = WHITE
                indent = 18 if block.kind == "bullet" else 0
                if indent:
                    self.pieces.append(Piece(Run("•"), "•", x + 4, y, 0, size, colour))
                placed, y = _pieces(runs, size, colour, x + indent, left + width, y, step, measure)
                self.pieces.extend(placed)
            if block.quoted:
                self.bars.append((top, y))  # consecutive quoted lines make one bar
        self.height = y

    def draw(self, image: Image.Image, top: int) -> None:
        """Draw the laid-out text with its top at ``top``."""
        draw = ImageDraw.Draw(image)
        for start, end in self.bars:
            draw.rounded_rectangle((self.left, top + start, self.left + 3, top + end), 1, fill=QUOTE_BAR)
        for x, start, end, lines in self.code:
            draw.rounded_rectangle((x, top + start, self.left + self.width, top + end), 4, fill=CODE_BACK,
                                   outline=CODE_EDGE)
            for number, line in enumerate(lines):
                draw.text((x + 8, top + start + 8 + CODE_LINE * number), line, font=mono(CODE), fill=CODE_TEXT)
        for piece in self.pieces:
            _draw_piece(image, draw, piece, top)


def _draw_piece(image: Image.Image, draw: ImageDraw.ImageDraw, piece: Piece, top: int) -> None:
    run, y = piece.run, top + piece.y
    font = _font(run, piece.size)
    colour = piece.colour
    if run.pill == "edited":
        font, colour, y = fonts.regular(10), MUTED, y + 4
    elif run.pill:
        back = {"code": CODE_BACK, "mention": MENTION_BACK, "time": PILL_BACK}[run.pill]
        edge = CODE_EDGE if run.pill == "code" else back
        draw.rounded_rectangle((piece.x - 1, y, piece.x + piece.width + 1, y + piece.size + 4), 3, fill=back,
                               outline=edge)
        colour = MENTION_TEXT if run.pill == "mention" else colour
        y += 2 if run.pill == "code" else 0
    if run.italic:
        _draw_slanted(image, (int(piece.x), y), piece.text, font, colour)
    else:
        draw.text((piece.x, y), piece.text, font=font, fill=colour)
    baseline = y + piece.size + 2
    if run.underline:
        draw.line((piece.x, baseline, piece.x + piece.width, baseline), fill=colour)
    if run.strike:
        middle = y + piece.size * 0.6
        draw.line((piece.x, middle, piece.x + piece.width, middle), fill=colour)


def _draw_slanted(image: Image.Image, at: tuple[int, int], text: str, font: fonts.Font,
                  colour: tuple[int, int, int]) -> None:
    """Italic by slanting the upright face (the bundled fonts have no italic): about 12 degrees, as an oblique."""
    width, height = int(font.getlength(text)) + 6, int(font.size) + 8
    layer = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    ImageDraw.Draw(layer).text((0, 0), text, font=font, fill=(*colour, 255))
    slant = 0.2
    layer = layer.transform(layer.size, Image.Transform.AFFINE, (1, slant, -slant * height * 0.75, 0, 1, 0),
                            resample=Image.Resampling.BICUBIC)
    image.paste(layer, at, layer)
