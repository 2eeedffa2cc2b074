"""The table image: the four seats, the discard pool and the wall, from a :class:`PublicView` only.

Seats are stacked in turn order from East rather than drawn around a square: on a phone a square table leaves
each seat's exposures a quarter of the width, too small to read. Whose turn it is, dead hands and the latest
discard are each marked by a ring or frame *and* a word, never by colour alone.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from bot.engine.state import Phase
from bot.engine.tiles import Tile, name
from bot.engine.views import PublicSeat, PublicView

from . import fonts, palette
from .common import (
    ALERT,
    ALT_LIMIT,
    CREAM,
    FELT,
    FELT_DARK,
    FELT_LIGHT,
    HIGHLIGHT,
    INK,
    MUTED,
    WHITE,
    Rendered,
    canvas,
    describe_group,
    draw_centered,
    ellipsize,
    finish,
    pill,
    spoken,
    text_width,
    wrap_groups,
)
from .tiles import paste_back, paste_tile, tile_size

WIDTH = 824
MARGIN = 18
TILE_W = 50
TILE_GAP = 3
GROUP_GAP = 14
HEADER_H = 106
PANEL_HEAD = 48
PANEL_PAD = 10
RING = 4
TILE_H = tile_size(TILE_W)[1]
PER_ROW = (WIDTH - 2 * MARGIN + TILE_GAP) // (TILE_W + TILE_GAP + 2)


def render_table(view: PublicView, names: Sequence[str | None] | None = None, *, wild: int | None = Tile.J) -> Rendered:
    """The table for everyone: ``names[seat]`` are the players' display names (default "Seat N", N = 0-3)."""
    labels = [_seat_name(names, s.seat) for s in view.seats]
    order = [view.seats[(view.east + k) % len(view.seats)] for k in range(len(view.seats))]
    panel_heights = [_panel_height(seat) for seat in order]
    result_tiles = _winning_groups(view)
    discard_rows = max(1, -(-len(view.discards) // PER_ROW))
    height = (MARGIN + HEADER_H + sum(h + 10 for h in panel_heights) + 44 + discard_rows * (TILE_H + 8) + 40
              + (TILE_H + 56 if result_tiles else 0) + MARGIN)
    image, draw = canvas(WIDTH, height, FELT)

    y = _header(image, draw, view, labels)
    for seat, panel_h in zip(order, panel_heights, strict=True):
        _panel(image, draw, view, seat, labels[seat.seat], y, panel_h)
        y += panel_h + 10
    y = _discards(image, draw, view, labels, y)
    if result_tiles:
        _winning_hand(image, draw, result_tiles, _winning_caption(view), y)
    return finish(image, table_alt(view, labels, wild), palette.shared())


def _seat_name(names: Sequence[str | None] | None, seat: int) -> str:
    given = names[seat] if names is not None and seat < len(names) else None
    # Seats are numbered 0-3 everywhere (replays, the engine's messages, the command line).
    return fonts.printable(given, f"Seat {seat}") if given else f"Seat {seat}"


def _status(view: PublicView, labels: Sequence[str]) -> str:
    wind = view.seats[view.turn].wind
    if view.phase == Phase.CHARLESTON:
        return f"Charleston: {view.charleston_step or 'passing'}"
    if view.phase == Phase.CHARLESTON_VOTE:
        return "Charleston: stop or go on?"
    if view.phase == Phase.COURTESY:
        return "Courtesy pass"
    if view.phase == Phase.CALL_WINDOW and view.window_tile is not None:
        return f"{name(view.window_tile)} may be called"
    if view.phase == Phase.FINISHED:
        return _result_text(view, labels)
    return f"{wind} ({labels[view.turn]}) to {'draw' if view.needs_draw else 'discard'}"


def _result_text(view: PublicView, labels: Sequence[str]) -> str:
    result = view.result
    winner = result.winner if result is not None else None
    if result is None or winner is None:
        return "Wall game: no winner" if result is not None and result.how == "wall" else "Game over"
    how = "self-picked" if result.self_pick else "on a discard"
    return f"Mah Jongg! {view.seats[winner].wind} ({labels[winner]}), {how}"


def _header(image: Image.Image, draw: ImageDraw.ImageDraw, view: PublicView, labels: Sequence[str]) -> int:
    """Two lines: what is happening now (the line a player looks for), then the game number and the wall."""
    top = MARGIN
    draw.rounded_rectangle((MARGIN, top, WIDTH - MARGIN, top + HEADER_H - 10), radius=12, fill=FELT_DARK)
    status_font = fonts.bold(28)
    status = ellipsize(_status(view, labels), status_font, WIDTH - 2 * MARGIN - 28)
    draw.text((MARGIN + 14, top + 26), status, font=status_font, fill=WHITE, anchor="lm")
    small = fonts.bold(22)
    line2 = top + 68
    draw.text((MARGIN + 14, line2), f"Game {view.game_no}", font=small, fill=MUTED, anchor="lm")
    wall_text = f"{view.wall} tiles left in the wall"
    right = WIDTH - MARGIN - 14
    draw.text((right, line2), wall_text, font=small, fill=CREAM, anchor="rm")
    icon_x = right - text_width(small, wall_text) - 12 - 2 * 12 - 22
    for k in range(3):  # a short stack of tile backs stands for the wall
        paste_back(image, (icon_x + k * 12, line2 - 15), 22)
    return top + HEADER_H


def _panel_height(seat: PublicSeat) -> int:
    if not seat.exposures:
        return PANEL_HEAD + 34 + PANEL_PAD
    return PANEL_HEAD + len(_exposure_lines(seat.exposures)) * (TILE_H + 6) + PANEL_PAD


def _exposure_lines(exposures: Sequence[Sequence[int]]) -> list[list[Sequence[int]]]:
    return wrap_groups(exposures, WIDTH - 2 * MARGIN - 2 * PANEL_PAD, lambda g: len(g) * (TILE_W + TILE_GAP),
                       GROUP_GAP)


def _panel(image: Image.Image, draw: ImageDraw.ImageDraw, view: PublicView, seat: PublicSeat, label: str, top: int,
           height: int) -> None:
    left, right = MARGIN, WIDTH - MARGIN
    to_play = view.phase in (Phase.PLAY, Phase.CALL_WINDOW) and seat.seat == view.turn and not seat.empty
    winner = view.result is not None and view.result.winner == seat.seat
    fill = FELT_DARK if seat.dead or seat.empty else FELT_LIGHT
    outline, width = (HIGHLIGHT, 5) if to_play or winner else ((ALERT, 3) if seat.dead else (FELT_DARK, 2))
    draw.rounded_rectangle((left, top, right, top + height), radius=12, fill=fill, outline=outline, width=width)

    badge = 38
    bx, by = left + PANEL_PAD, top + (PANEL_HEAD - badge) // 2 + 2
    draw.ellipse((bx, by, bx + badge, by + badge), fill=CREAM, outline=INK, width=2)
    draw_centered(draw, (bx, by, bx + badge, by + badge), seat.wind[0], fonts.bold(24), INK)

    tags: list[tuple[str, tuple[int, int, int], tuple[int, int, int]]] = []
    if winner:
        tags.append(("MAH JONGG", HIGHLIGHT, INK))
    elif to_play:
        tags.append(("▶ TO PLAY", HIGHLIGHT, INK))
    if seat.dead:
        tags.append(("DEAD HAND", ALERT, WHITE))
    if seat.seat in view.waiting_for and not to_play and view.phase != Phase.FINISHED:
        tags.append(("waiting", MUTED, INK))
    tag_font = fonts.bold(20)
    x = right - PANEL_PAD
    for text, back, ink in tags:
        x -= text_width(tag_font, text) + 16
        pill(draw, (x, top + 12), text, tag_font, back, ink)
        x -= 8
    count = "empty seat" if seat.empty else f"{seat.tiles} tiles"
    count_font = fonts.regular(22)
    x -= text_width(count_font, count)
    draw.text((x, top + PANEL_HEAD // 2 + 2), count, font=count_font, fill=CREAM, anchor="lm")
    name_x = bx + badge + 12
    name_font = fonts.bold(26)
    text = ellipsize(f"{seat.wind} · {label}", name_font, x - name_x - 16)
    draw.text((name_x, top + PANEL_HEAD // 2 + 2), text, font=name_font, fill=WHITE, anchor="lm")

    y = top + PANEL_HEAD
    if not seat.exposures:
        draw.text((left + PANEL_PAD, y + 4), "no exposures", font=fonts.regular(20), fill=MUTED)
        return
    for line in _exposure_lines(seat.exposures):
        x = left + PANEL_PAD
        for group in line:
            for tile in group:
                paste_tile(image, tile, (x, y), TILE_W)
                x += TILE_W + TILE_GAP
            x += GROUP_GAP
        y += TILE_H + 6


def _discards(image: Image.Image, draw: ImageDraw.ImageDraw, view: PublicView, labels: Sequence[str],
              top: int) -> int:
    caption = fonts.bold(24)
    count = len(view.discards)
    title = f"Discards ({count}), oldest first" if count else "Discards"
    draw.text((MARGIN, top + 20), title, font=caption, fill=CREAM, anchor="lm")
    y = top + 44
    if not count:
        draw.text((MARGIN, y + 8), "No discards yet.", font=fonts.regular(22), fill=MUTED)
        return y + TILE_H + 8 + 40
    for i, (_, tile) in enumerate(view.discards):
        x = MARGIN + RING + (i % PER_ROW) * (TILE_W + TILE_GAP + 2)
        ty = y + (i // PER_ROW) * (TILE_H + 8)
        if i == count - 1:
            draw.rounded_rectangle((x - RING, ty - RING, x + TILE_W + RING, ty + TILE_H + RING), radius=8,
                                   fill=HIGHLIGHT)
        paste_tile(image, tile, (x, ty), TILE_W)
    rows = -(-count // PER_ROW)
    y += rows * (TILE_H + 8)
    seat, tile = view.discards[-1]
    note = f"Latest (ringed): {name(tile)} from {view.seats[seat].wind} ({labels[seat]})"
    if view.window_tile is not None:
        note += " · may be called"
    draw.text((MARGIN, y + 16), ellipsize(note, fonts.bold(22), WIDTH - 2 * MARGIN), font=fonts.bold(22),
              fill=HIGHLIGHT, anchor="lm")
    return y + 40


def _winning_groups(view: PublicView) -> list[list[int]]:
    if view.result is None or view.result.winner is None:
        return []
    return [list(group) for group in view.result.tiles if group]


def _winning_hand(image: Image.Image, draw: ImageDraw.ImageDraw, groups: list[list[int]], caption: str,
                  top: int) -> None:
    result_font = fonts.bold(24)
    draw.text((MARGIN, top + 22), caption, font=result_font, fill=HIGHLIGHT, anchor="lm")
    x, y = MARGIN, top + 44
    gap = 8 if sum(len(g) for g in groups) * (TILE_W + TILE_GAP) + len(groups) * 8 < WIDTH - 2 * MARGIN else 2
    for group in groups:
        for tile in group:
            paste_tile(image, tile, (x, y), TILE_W)
            x += TILE_W + TILE_GAP
        x += gap


def _winning_caption(view: PublicView) -> str:
    result = view.result
    if result is None:
        return "Winning hand"
    what = "four sets and a pair" if result.line == "classical" else f"line {result.line or '?'}"
    text = f"Winning hand: {what}, {result.value} points"
    if result.jokerless:
        text += ", jokerless"
    return text


def table_alt(view: PublicView, labels: Sequence[str], wild: int | None = Tile.J) -> str:
    """The alt text of the table image: status, wall, exposures and discards, in words (no concealed tile)."""
    parts = [f"Mah Jongg table, game {view.game_no}. {_status(view, labels)}. {view.wall} tiles left in the wall."]
    winning = _winning_groups(view)
    if winning:
        parts.append(f"{_winning_caption(view)}: {'; '.join(spoken(g) for g in winning)}.")
    for k in range(len(view.seats)):
        seat = view.seats[(view.east + k) % len(view.seats)]
        who = f"{seat.wind} ({labels[seat.seat]})"
        if seat.empty:
            parts.append(f"{seat.wind}: empty seat.")
            continue
        exposed = " and ".join(describe_group(g, wild) for g in seat.exposures)
        marks = ", dead hand" if seat.dead else ""
        if seat.seat in view.waiting_for and view.phase != Phase.FINISHED:
            marks += ", to play" if view.phase == Phase.PLAY else ", waiting"
        parts.append(f"{who}{marks}: {seat.tiles} concealed tiles, " + (f"exposed {exposed}." if exposed else
                                                                       "no exposures."))
    if not view.discards:
        return " ".join([*parts, "No discards yet."])
    by, tile = view.discards[-1]
    count = len(view.discards)
    parts.append(f"{count} discard{'s' if count != 1 else ''}; the latest is {name(tile)} from "
                 f"{view.seats[by].wind}.")
    head = " ".join(parts)
    # Keep the newest discards that fit: the alt text has a hard limit, and recent ones matter most.
    shown = [t for _, t in view.discards]
    while shown and len(head) + len(spoken(shown)) + 40 > ALT_LIMIT:
        shown = shown[1:]
    if shown:
        lead = "Discards, oldest first" if len(shown) == count else f"The last {len(shown)}, oldest first"
        parts.append(f"{lead}: {spoken(shown)}.")
    return " ".join(parts)
