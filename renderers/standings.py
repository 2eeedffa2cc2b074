"""Standings charts: a week as a ranked table with a bar of net chips per player, and a season as cumulative
net chips week by week.

Losses never rely on colour: a negative bar grows to the left of the zero line, is hatched, and its number
carries a minus sign. In the season chart every player has a marker shape as well as a colour, and the legend
pairs both with the name.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from PIL import ImageDraw

from . import fonts
from .common import BAM_GREEN, CRAK_RED, INK, RGB, WHITE, Rendered, canvas, counted, ellipsize, finish


class Standing(Protocol):
    """The fields of :class:`bot.store.standings.Standing` drawn here; a protocol, so that rendering does not
    import the store (and with it aiosqlite)."""

    @property
    def player_id(self) -> int:
        """The player's Discord id."""

    @property
    def name(self) -> str:
        """The player's display name."""

    @property
    def net(self) -> int:
        """Net chips over the period."""

    @property
    def games(self) -> int:
        """Games played over the period."""

    @property
    def wins(self) -> int:
        """Games won over the period."""


WIDTH = 824
MARGIN = 18
PAPER: RGB = (255, 253, 246)
STRIPE: RGB = (244, 240, 228)
GREY: RGB = (92, 92, 100)
RULE: RGB = (200, 194, 180)
GOLD: RGB = (232, 164, 0)
HEADER_H = 92
ROW_H = 58
MAX_ROWS = 20
NAME_X = MARGIN + 52
BAR_LEFT = 400
BAR_RIGHT = WIDTH - MARGIN

# Okabe-Ito colours (distinguishable with every common colour-vision deficiency), each with its own marker.
SERIES: tuple[tuple[RGB, str], ...] = (
    ((0, 114, 178), "circle"), ((213, 94, 0), "square"), ((0, 158, 115), "triangle"), ((204, 121, 167), "diamond"),
    ((86, 180, 233), "down"), ((230, 159, 0), "cross"), ((0, 0, 0), "plus"), ((120, 94, 60), "star"),
)


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "0"  # a real minus sign, as wide as the plus


def _games(row: Standing) -> str:
    return f"{row.games} game{'s' if row.games != 1 else ''}, {row.wins} win{'s' if row.wins != 1 else ''}"


def render_weekly(label: str, rows: Sequence[Standing], *, title: str = "Weekly standings",
                  unit: str = "net chips") -> Rendered:
    """The standings chart: players ranked by net chips (or by what ``unit`` names, carried in ``net``: a league
    scoring tournament points), with bars."""
    shown = list(rows[:MAX_ROWS])
    body = max(1, len(shown)) * ROW_H + (34 if len(rows) > MAX_ROWS else 0)
    image, draw = canvas(WIDTH, HEADER_H + body + MARGIN, PAPER)
    _title(draw, f"{title} · {label}", unit if rows else "")
    if not rows:
        draw.text((WIDTH // 2, HEADER_H + ROW_H // 2), "No games this week", font=fonts.bold(28), fill=GREY,
                  anchor="mm")
        return finish(image, f"{title}, {label}: no games this week.")
    top_value = max(1, max(r.net for r in shown))
    bottom_value = max(0, -min(r.net for r in shown))
    span = BAR_RIGHT - BAR_LEFT - 120  # leave room for the numbers at the bar ends
    zero = BAR_LEFT + 60 + round(span * bottom_value / (top_value + bottom_value))
    scale = span / (top_value + bottom_value)
    for rank, row in enumerate(shown, start=1):
        y = HEADER_H + (rank - 1) * ROW_H
        if rank % 2 == 0:
            draw.rectangle((0, y, WIDTH, y + ROW_H), fill=STRIPE)
        _rank(draw, rank, y)
        name_font = fonts.bold(24)
        draw.text((NAME_X, y + 6), ellipsize(fonts.printable(row.name), name_font, BAR_LEFT - NAME_X - 12),
                  font=name_font, fill=INK)
        draw.text((NAME_X, y + 35), _games(row), font=fonts.regular(20), fill=GREY)
        _bar(draw, row.net, zero, scale, y)
    draw.line((zero, HEADER_H - 6, zero, HEADER_H + len(shown) * ROW_H), fill=INK, width=2)
    if len(rows) > MAX_ROWS:
        draw.text((MARGIN, HEADER_H + len(shown) * ROW_H + 6), f"and {len(rows) - MAX_ROWS} more players",
                  font=fonts.regular(20), fill=GREY)
    return finish(image, weekly_alt(title, label, rows, unit))


def _title(draw: ImageDraw.ImageDraw, text: str, right: str) -> None:
    draw.text((MARGIN, 18), ellipsize(text, fonts.bold(30), WIDTH - 2 * MARGIN), font=fonts.bold(30), fill=INK)
    if right:
        draw.text((BAR_RIGHT, 70), right, font=fonts.regular(20), fill=GREY, anchor="rm")
    draw.line((MARGIN, HEADER_H - 8, WIDTH - MARGIN, HEADER_H - 8), fill=RULE, width=2)


def _rank(draw: ImageDraw.ImageDraw, rank: int, y: int) -> None:
    box = (MARGIN, y + 10, MARGIN + 38, y + 48)
    draw.ellipse(box, fill=GOLD if rank == 1 else WHITE, outline=INK, width=2)
    draw.text(((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), str(rank), font=fonts.bold(20 if rank < 10 else 16),
              fill=INK, anchor="mm")


def _bar(draw: ImageDraw.ImageDraw, net: int, zero: int, scale: float, y: int) -> None:
    top, bottom = y + 14, y + ROW_H - 14
    length = round(abs(net) * scale)
    number = fonts.bold(22)
    text = _signed(net)
    if net >= 0:
        if length:
            draw.rectangle((zero, top, zero + length, bottom), fill=BAM_GREEN)
        draw.text((zero + length + 8, (top + bottom) // 2), text, font=number, fill=INK, anchor="lm")
        return
    left = zero - length
    draw.rectangle((left, top, zero, bottom), fill=(250, 222, 222), outline=CRAK_RED, width=2)
    for x in range(left - (bottom - top), zero, 9):  # diagonal hatching marks a loss without colour
        a = (max(x, left), top + max(0, left - x))
        b = (min(x + (bottom - top), zero), bottom - max(0, x + (bottom - top) - zero))
        if a[0] < b[0]:
            draw.line((a, b), fill=CRAK_RED, width=2)
    draw.text((left - 8, (top + bottom) // 2), text, font=number, fill=CRAK_RED, anchor="rm")


def weekly_alt(title: str, label: str, rows: Sequence[Standing], unit: str = "net chips") -> str:
    """The alt text of the standings chart: every player's rank, chips (or points) and games."""
    parts = [f"{title}, {label}, {counted(len(rows), 'player')}, ranked by {unit}."]
    for rank, row in enumerate(rows, start=1):
        net = f"up {row.net}" if row.net > 0 else f"down {-row.net}" if row.net < 0 else "even"
        parts.append(f"{rank}. {fonts.printable(row.name)}: {net}, {_games(row)}.")
    return " ".join(parts)


def render_season(label: str, weeks: Sequence[tuple[str, Sequence[Standing]]], *, top: int = 8,
                  title: str = "Season", unit: str = "net chips") -> Rendered:
    """Cumulative net chips (or what ``unit`` names, carried in ``net``) after each week for the ``top`` players by
    season total (at most 8 series)."""
    top = min(top, len(SERIES))
    totals: dict[int, int] = {}
    names: dict[int, str] = {}
    for _, rows in weeks:
        for row in rows:
            totals[row.player_id] = totals.get(row.player_id, 0) + row.net
            names[row.player_id] = fonts.printable(row.name)
    leaders = sorted(totals, key=lambda p: (-totals[p], names[p].lower()))[:top]
    height = 560
    image, draw = canvas(WIDTH, height, PAPER)
    _title(draw, f"{title} · {label}", f"cumulative {unit}" if leaders else "")
    if not leaders or not weeks:
        draw.text((WIDTH // 2, height // 2), "No games this season", font=fonts.bold(28), fill=GREY, anchor="mm")
        return finish(image, f"{title}, {label}: no games.")
    series = {p: _cumulative(p, weeks) for p in leaders}
    values = [v for s in series.values() for v in s] + [0]
    low, high = min(values), max(values)
    if low == high:
        high = low + 1
    legend_w = 250
    plot = (MARGIN + 64, HEADER_H + 20, WIDTH - MARGIN - legend_w - 16, height - 70)

    def at(i: int, value: int) -> tuple[float, float]:
        x = plot[0] + (plot[2] - plot[0]) * (i / max(1, len(weeks) - 1) if len(weeks) > 1 else 0.5)
        y = plot[3] - (plot[3] - plot[1]) * (value - low) / (high - low)
        return x, y

    _axes(draw, plot, low, high, [w for w, _ in weeks])
    small = fonts.bold(20)
    for k, player in enumerate(leaders):
        colour, shape = SERIES[k]
        points = [at(i, v) for i, v in enumerate(series[player])]
        if len(points) > 1:
            draw.line(points, fill=colour, width=4)
        for point in points:
            _marker(draw, shape, point, 8, colour)
        ly = plot[1] + k * 44
        lx = WIDTH - MARGIN - legend_w
        _marker(draw, shape, (lx + 12, ly + 14), 9, colour)
        draw.text((lx + 30, ly + 14), ellipsize(names[player], small, legend_w - 110), font=small, fill=INK,
                  anchor="lm")
        draw.text((WIDTH - MARGIN, ly + 14), _signed(totals[player]), font=small,
                  fill=INK if totals[player] >= 0 else CRAK_RED, anchor="rm")
    alt = [f"{title}, {label}: cumulative {unit} over {counted(len(weeks), 'week')} for the top "
           f"{counted(len(leaders), 'player')}."]
    alt += [f"{k + 1}. {names[p]}: {_signed(totals[p]).replace('−', 'minus ')} after {counted(len(weeks), 'week')}."
            for k, p in enumerate(leaders)]
    return finish(image, " ".join(alt))


def _cumulative(player: int, weeks: Sequence[tuple[str, Sequence[Standing]]]) -> list[int]:
    running, out = 0, []
    for _, rows in weeks:
        running += sum(r.net for r in rows if r.player_id == player)
        out.append(running)
    return out


def _axes(draw: ImageDraw.ImageDraw, plot: tuple[int, int, int, int], low: int, high: int,
          labels: Sequence[str]) -> None:
    x0, y0, x1, y1 = plot
    small = fonts.regular(20)
    for value in sorted({low, 0, high}):
        y = y1 - (y1 - y0) * (value - low) / (high - low)
        draw.line((x0, y, x1, y), fill=INK if value == 0 else RULE, width=2 if value == 0 else 1)
        draw.text((x0 - 8, y), _signed(value), font=small, fill=GREY, anchor="rm")
    step = max(1, -(-len(labels) // 6))  # at most about six week labels, so they never overlap
    for i in range(0, len(labels), step):
        x = x0 + (x1 - x0) * (i / max(1, len(labels) - 1) if len(labels) > 1 else 0.5)
        draw.text((x, y1 + 12), short_week(labels[i]), font=small, fill=GREY, anchor="mt")


def short_week(label: str) -> str:
    """A week on the season chart's axis: ``week of 23 Nov 2026`` as ``23 Nov``; an ISO label as ``W48``."""
    if label.startswith("week of "):
        return " ".join(label.removeprefix("week of ").split()[:2])
    return label.split("-")[-1]


def _marker(draw: ImageDraw.ImageDraw, shape: str, c: tuple[float, float], r: float, colour: RGB) -> None:
    x, y = c
    if shape == "circle":
        draw.ellipse((x - r, y - r, x + r, y + r), fill=colour, outline=WHITE)
    elif shape == "square":
        draw.rectangle((x - r, y - r, x + r, y + r), fill=colour, outline=WHITE)
    elif shape == "triangle":
        draw.polygon([(x, y - r * 1.2), (x + r * 1.1, y + r * 0.8), (x - r * 1.1, y + r * 0.8)], fill=colour)
    elif shape == "down":
        draw.polygon([(x, y + r * 1.2), (x + r * 1.1, y - r * 0.8), (x - r * 1.1, y - r * 0.8)], fill=colour)
    elif shape == "diamond":
        draw.polygon([(x, y - r * 1.3), (x + r * 1.1, y), (x, y + r * 1.3), (x - r * 1.1, y)], fill=colour)
    elif shape == "cross":
        draw.line((x - r, y - r, x + r, y + r), fill=colour, width=4)
        draw.line((x - r, y + r, x + r, y - r), fill=colour, width=4)
    elif shape == "plus":
        draw.line((x - r, y, x + r, y), fill=colour, width=4)
        draw.line((x, y - r, x, y + r), fill=colour, width=4)
    else:
        draw.regular_polygon((x, y, r * 1.2), 5, fill=colour)
