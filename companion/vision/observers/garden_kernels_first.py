"""Compiled: every garden cell's candidates in decision order and its first reading's numbers.

babylon_garden's first reading of a cell (GardenObserver._reading of its candidates, best first)
is a few comparisons and one exponential per cell; in Python, with a tuple per candidate, it cost
~1 ms a read. Here one loop over the 64 cells does the numbers: the candidates' order
(garden_speed_candidates.candidate_order is its numpy reference), the confidence from the best
score and the margin to the runner-up, and what the best candidate's supports say (which pillar,
which decoration, which flower in which corner). The Python left per cell builds the reading.

The same float operations in the same order as _reading's Python (a sum of a few supports runs
left to right from 0, as Python's sum; ties go to the first, as max and np.argmax): the numbers
are _reading's bit for bit (tests/vision/test_garden_speed_first.py). The exponential is the
compiled float64 exp, which is libm's, as math.exp.
"""

from __future__ import annotations

import math

import numpy as np

from ..jit import kernel

RECESS, PILLAR, DECO, TILE = 0, 1, 2, 3  # a column's kind (garden_speed_candidates)


@kernel
def best_columns(scores, order):
    """order (cells, W): each row's W best columns of scores (cells, C), W <= C, as
    np.argsort(-scores, axis=1, kind="stable")[:, :W] gives them: by -score ascending, NaN after
    everything, equal scores in column order. An insertion into the W kept so far per row (C is
    ~40, W 8: numpy's full stable sort of every row cost ~70 us a read)."""
    cells, columns = scores.shape
    width = order.shape[1]
    keys = np.empty(width)
    for i in range(cells):
        n = 0
        for j in range(columns):
            v = -scores[i, j]
            # Where v goes: after every kept key not above it (equal keys keep column order).
            at = n
            while at > 0 and (v < keys[at - 1] or (v == v and keys[at - 1] != keys[at - 1])):
                at -= 1
            if at >= width:
                continue
            end = n if n < width else width - 1
            for k in range(end, at, -1):
                keys[k] = keys[k - 1]
                order[i, k] = order[i, k - 1]
            keys[at] = v
            order[i, at] = j
            if n < width:
                n += 1


@kernel
def first_readings(scores, order, chosen_tile, kind, group, level, position, tie_floor, tie,
                   pillar, pillar_at, deco, single_at, span_at, dots,
                   columns, count, runner, confidence, choice, share):
    """scores (cells, C) float64; order (cells, W) each row's best columns (stable, descending);
    chosen_tile (cells,) the tile column a cell's siblings chose; kind, group, level, position (C,)
    per column. Supports of the best candidate: pillar (K, 8, 8, S) with pillar_at = (single,
    double) class positions; deco (K - 1, 8, 8, S) with single_at / span_at the one-space and
    spanning decorations' class positions; dots (K, 8, 8, corners, flowers).

    Out, per cell: columns (cells, W + 1) best first, -1 past the last, and count; runner the
    first column of another (kind, level) group than the first (-1 if none); confidence as
    _reading's before a tile's icon share; choice: a pillar's 0 (single) or 1 (double), a
    decoration's index into single_at or span_at (its position 1 spans), a tile's flower;
    share: a tile's flower share (its dots' best corner)."""
    cells, width = order.shape
    for i in range(cells):
        n = 0
        for k in range(width):
            j = order[i, k]
            if scores[i, j] > -np.inf:  # NaN and -inf sort last: the kept ones are a prefix
                columns[i, n] = j
                n += 1
        for k in range(n, width + 1):
            columns[i, k] = -1
        if n >= 2 and kind[columns[i, 0]] == RECESS and kind[columns[i, 1]] == DECO:
            s0 = scores[i, columns[i, 0]] - tie
            floor = s0 if s0 > tie_floor else tie_floor  # max(tie_floor, s0)
            if scores[i, columns[i, 1]] >= floor:
                j = columns[i, 0]
                columns[i, 0] = columns[i, 1]
                columns[i, 1] = j
        if n >= 1 and kind[columns[i, 0]] == TILE:
            chosen = chosen_tile[i]
            at = n
            for k in range(n):
                if columns[i, k] == chosen:
                    at = k
                    break
            if at == n:
                n += 1  # put in front of the others
            for k in range(min(at, n - 1), 0, -1):
                columns[i, k] = columns[i, k - 1]
            columns[i, 0] = chosen
        count[i] = n
        best = columns[i, 0]
        runner[i] = -1
        for k in range(1, n):
            if group[columns[i, k]] != group[best]:
                runner[i] = columns[i, k]
                break
        b = scores[i, best]
        margin = b - (scores[i, runner[i]] if runner[i] >= 0 else 0.0)
        low = 0.0 if b < 0.0 else b  # min(max(b, 0.0), 1.0), as Python's max and min
        high = 1.0 if low > 1.0 else low
        m = 0.0 if margin < 0.0 else margin
        conf = high * (1.0 - math.exp(-m / 0.15))
        r, c = i // 8, i % 8
        lv = level[best]
        choice[i] = 0
        share[i] = 0.0
        if kind[best] == PILLAR:
            p1 = pillar[lv, r, c, pillar_at[0]]
            p2 = pillar[lv, r, c, pillar_at[1]]
            if lv < 2:
                p2 = 0.0  # a double pillar's top is at level 2 at least
            choice[i] = 0 if p1 >= p2 else 1
            top = p2 if p2 > p1 else p1
            total = p1 + p2
            conf *= top / (1e-9 if total < 1e-9 else total)
        elif kind[best] == DECO:
            at = span_at if position[best] == 1 else single_at
            pick = 0
            total = 0.0
            for k in range(len(at)):
                v = deco[lv - 1, r, c, at[k]]
                total += v
                if v > deco[lv - 1, r, c, at[pick]]:
                    pick = k
            choice[i] = pick
            conf *= deco[lv - 1, r, c, at[pick]] / (1e-9 if total < 1e-9 else total)
        elif kind[best] == TILE:
            corners, flowers = dots.shape[3], dots.shape[4]
            corner = 0
            best_total = 0.0
            for q in range(corners):
                total = 0.0
                for f in range(flowers):
                    total += dots[lv, r, c, q, f]
                if q == 0 or total > best_total:
                    corner, best_total = q, total
            flower = 0
            for f in range(1, flowers):
                if dots[lv, r, c, corner, f] > dots[lv, r, c, corner, flower]:
                    flower = f
            choice[i] = flower
            share[i] = dots[lv, r, c, corner, flower] / (1e-9 if best_total < 1e-9 else best_total)
        confidence[i] = conf


def warm() -> None:
    """Compile (or load from the disk cache) first_readings for the types a read passes."""
    if _WARM:
        return
    i8, f8 = np.int64, np.float64
    first_readings(np.zeros((1, 2)), np.zeros((1, 2), i8), np.zeros(1, i8), np.zeros(2, i8), np.zeros(2, i8),
                   np.zeros(2, i8), np.zeros(2, i8), 0.8, 0.05, np.zeros((1, 8, 8, 2)), np.zeros(2, i8),
                   np.zeros((1, 8, 8, 2)), np.zeros(1, i8), np.zeros(1, i8), np.zeros((1, 8, 8, 1, 1)),
                   np.empty((1, 3), i8), np.empty(1, i8), np.empty(1, i8), np.empty(1, f8), np.empty(1, i8),
                   np.empty(1, f8))
    best_columns(np.zeros((1, 2)), np.empty((1, 1), i8))
    _WARM.append(True)


_WARM: list[bool] = []
