"""What the learned player sees of a rack: a few numbers read off the card-reading measure (:mod:`bot.ai.outlook`).

A decision leads to a rack (after a discard, a pass, a call and the discard after it, a joker exchange). The
learned player scores each such rack from its *line features*: the chances of its best lines (each line by its
best variant), what those lines pay, how much the line's other variants add, and ``normal``'s own worth of the
rack. The chances are plain chances (no value weighting): the fitted model decides how much value counts.

Features are worked out for many candidate racks at once, as the ``(C, V')`` log chances
:meth:`~bot.ai.outlook.Outlook.after_removal` returns, or as one row for a single rack.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from bot.engine.card import Card

from .outlook import LINE_SLACK, VARIANT_SLACK, CardTables, FloatArray, IntArray, worth

# The line features, in order: see :func:`line_features`.
LINE_FEATURES = ("best", "second", "third_fourth", "best_ev", "sum_ev", "log_best", "others", "ev_of_best",
                 "normal_worth")
NORMAL_VALUE_WEIGHT = 0.3  # normal's value exponent (bot.ai.strategy.LEVEL_SETTINGS["normal"])
NORMAL_LINES, NORMAL_SECONDARY, NORMAL_WITHIN = 4, 0.35, 0.2


@lru_cache(maxsize=64)
def value_scale(card: Card) -> float:
    """A card's typical line value (the median): line values are read in these units, so cards of different
    scales (the 1946 card pays about twice the practice card) give comparable features."""
    return float(np.median([max(1, line.value) for line in card.lines]))


def line_features(tables: CardTables, log_chance: FloatArray, keep: IntArray | None, scale: float) -> FloatArray:
    """``(C, len(LINE_FEATURES))`` for ``C`` racks given by their variants' plain log chances (``(C, V')`` over
    the variants ``keep``, or ``(V,)`` for one rack over all of them).

    best, second, third_fourth: the chances of the best lines (each by its best variant), the third and fourth
    summed; best_ev: the most any line is worth (chance times value, in the card's typical values); sum_ev: the
    same summed over the lines; log_best: the log of the best chance (floored at 1e-4); others: the summed
    chances of each line's other variants; ev_of_best: the best line's chance times its value; normal_worth:
    ``normal``'s measure of the rack (its chances with value**0.3, four lines), as a log.
    """
    rows = np.atleast_2d(log_chance)
    if keep is None:
        keep = np.arange(rows.shape[1])
        starts = tables.line_starts
        line_ids = tables.line_of[tables.line_starts]
    else:
        lines_of = tables.line_of[keep]
        change = np.ones(len(lines_of), dtype=bool)
        np.not_equal(lines_of[1:], lines_of[:-1], out=change[1:])
        starts = np.flatnonzero(change)
        line_ids = lines_of[starts]
    chance = np.exp(rows)
    best_of_line = np.maximum.reduceat(chance, starts, axis=1)  # (C, L)
    others = (np.add.reduceat(chance, starts, axis=1) - best_of_line).sum(axis=1)
    value = np.exp(tables.log_value[tables.line_starts[line_ids]]) / scale  # (L,)
    ev = best_of_line * value[None, :]
    order = np.argsort(-best_of_line, axis=1)
    ranked = np.take_along_axis(best_of_line, order, axis=1)
    padded = np.zeros((rows.shape[0], 4))
    padded[:, :min(4, ranked.shape[1])] = ranked[:, :4]
    ev_of_best = padded[:, 0] * value[order[:, 0]]
    normal = worth(tables, rows + NORMAL_VALUE_WEIGHT * tables.log_value[keep], NORMAL_LINES, NORMAL_SECONDARY,
                   NORMAL_WITHIN, keep)
    features = np.column_stack([
        padded[:, 0], padded[:, 1], padded[:, 2] + padded[:, 3], ev.max(axis=1), ev.sum(axis=1),
        np.log(padded[:, 0] + 1e-4), others, ev_of_best, np.log(np.atleast_1d(normal) + 1e-4),
    ])
    return features


def near_variants(tables: CardTables, log_chance: FloatArray, lines: int) -> IntArray:
    """The variants that can matter to a rack's measure, chosen as
    :meth:`~bot.ai.outlook.Outlook.after_removal` chooses them (the best few lines, each near its best
    variant): one rack's features are then read over the same kind of set as a discard's."""
    line_best = np.maximum.reduceat(log_chance, tables.line_starts)
    cut = np.sort(line_best)[-min(len(line_best), lines + LINE_SLACK)]
    best_of_variant = line_best[tables.line_of]
    keep: IntArray = np.flatnonzero((best_of_variant >= cut) & (log_chance >= best_of_variant - VARIANT_SLACK))
    return keep


def rack_features(tables: CardTables, log_chance: FloatArray, lines: int, scale: float) -> FloatArray:
    """One rack's line features, ``(1, len(LINE_FEATURES))``, from its variants' plain log chances."""
    keep = near_variants(tables, log_chance, lines)
    return line_features(tables, log_chance[keep][None, :], keep, scale)
