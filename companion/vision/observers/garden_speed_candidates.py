"""The garden's first readings as arrays: each cell's candidates in the order the decisions take them.

The observer scores every candidate reading of every cell (one row of scores per cell, one column
per candidate: the recess, then per level a pillar top, two decoration shapes and a tile space in
each of its 4 positions). Its decisions want, per cell, the candidates best first, with two
exceptions to plain score order (babylon_garden._observe says why):
- a decoration fitting as well as the recess, when the recess is first, goes first;
- a tile space, when first, gives way to the tile column its siblings chose (which may not be
  among the best few: then it is put in front of them).
Done here for all 64 cells at once, in numpy, so that only the cells a later rule looks at need
their candidates as Python tuples (babylon_garden._LazyCandidates), and the first reading of every
cell is assembled from plain lists (babylon_garden.GardenObserver._first_readings).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

RECESS, PILLAR, DECO, TILE = 0, 1, 2, 3  # a column's kind


class CandidateOrder(NamedTuple):
    """Per cell (rows): the candidates' columns best first (`columns`, -1 past the last) and how many;
    the first candidate of another kind or level than the first (`runner`, -1 if none)."""

    columns: np.ndarray  # (cells, width + 1) int
    count: np.ndarray  # (cells,) int
    runner: np.ndarray  # (cells,) int: a column, or -1


def candidate_order(scores: np.ndarray, order: np.ndarray, chosen_tile: np.ndarray, kind: np.ndarray,
                    group: np.ndarray, tie_floor: float, tie: float = 0.05) -> CandidateOrder:
    """scores (cells, columns); order (cells, width): each row's best columns by score (a stable
    descending sort); chosen_tile (cells,): the tile column a cell's siblings chose; kind and
    group (columns,): each column's kind (RECESS … TILE) and its (kind, level) group.

    As the per-cell loop did: the columns scoring above -inf (NaN and -inf sort last: a prefix);
    a recess first and a decoration second scoring at least max(tie_floor, recess - tie) swap; a
    tile column first gives way to `chosen_tile` (moved to the front, or put there when absent)."""
    cells, width = order.shape
    at = np.arange(cells)
    ranked = np.take_along_axis(scores, order, axis=1)
    valid = ranked > -np.inf
    top = np.where(valid, order, -1)
    if width >= 2:
        swap = (valid[:, 1] & (kind[top[:, 0]] == RECESS) & (kind[top[:, 1]] == DECO)
                & (ranked[:, 1] >= np.maximum(tie_floor, ranked[:, 0] - tie)))
        if swap.any():
            top[swap, :2] = top[swap, 1::-1]
    columns = np.full((cells, width + 1), -1, dtype=np.int64)
    columns[:, :width] = top
    tiles = valid[:, 0] & (kind[top[:, 0]] == TILE)
    if tiles.any():
        rows = top[tiles]
        chosen = chosen_tile[tiles]
        slots = np.arange(width)
        # Where the chosen column is among the row's (width when absent): the others keep their order.
        where = np.where(rows == chosen[:, None], slots, width).min(axis=1)
        padded = np.concatenate([rows, np.full((len(rows), 1), -1)], axis=1)
        moved = np.empty((len(rows), width + 1), dtype=np.int64)
        moved[:, 0] = chosen
        moved[:, 1:] = np.take_along_axis(padded, slots[None, :] + (slots[None, :] >= where[:, None]), axis=1)
        columns[tiles] = moved
    count = (columns >= 0).sum(axis=1)
    groups = np.where(columns >= 0, group[columns], -1)
    other = (columns[:, 1:] >= 0) & (groups[:, 1:] != groups[:, :1])
    first_other = np.argmax(other, axis=1) + 1
    runner = np.where(other.any(axis=1), columns[at, first_other], -1)
    return CandidateOrder(columns, count, runner)
