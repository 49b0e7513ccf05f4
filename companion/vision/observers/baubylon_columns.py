"""Baubylon: a stack's side and its block's near edge seen as a stack one space nearer (issue #5).

A pawn is its own colour all round, so a stack shows its colour down its side, along its upright
column in the frame. Seen from the camera, the space one step nearer shares an edge with the
stack's space: at the level the stack's block stands, that edge is the stack's block's near top
edge, an outline, and it is also where a block of that level on the nearer space would show its
far side. So a stack top on the nearer space, one pawn or more higher, of the same colour, whose
block would stand at that same level, lying in the frame on the farther stack's column (the
upright axis from its foot on the table to its top, within half a pawn's width and 3 mm: the
table the hiding tests use), is made of what the farther stack shows: its pawn's side (the
colour), its block's near edge (the stand). It is not a second stack; the farther one, whose
top shows whole, is kept.

The observer runs it compiled (baubylon_kernels.columns_drop, the same pairs); seen_on_columns is
its numpy formulation and the kernel's reference (tests/vision/test_baubylon_speed_loops.py).
"""

from __future__ import annotations

import numpy as np


def seen_on_columns(best: np.ndarray, found: np.ndarray, kinds: np.ndarray, others: np.ndarray,
                    beside: np.ndarray, depth: np.ndarray, under: np.ndarray, on_column: np.ndarray) -> np.ndarray:
    """(S,) bool: the stack tops read to drop.

    `best` (S,): each space's top (pawn-height index, top − 1); `found` (S,) bool: where a stack
    top is read; `kinds` (S, T): each candidate top's colour index; `others` (S, K): the spaces
    near each (BaubylonObserver.hiding_other); `beside` (S, 4): each space's neighbour across
    each side (the spaces' count off the field); `depth` (S,): each space's distance from the
    camera's nadir; `under` (T,): the highest block level (pawn heights) under each top;
    `on_column` (S, K, T + 1, T + 1): whether a space's top at a height (pawn heights) lies
    within half a pawn and 3 mm of the column of the stack at its k-th other space with its top
    at a height (BaubylonObserver.hiding_pawn)."""
    drop = np.zeros(len(best), bool)
    spaces = np.flatnonzero(found)
    if len(spaces) < 2:
        return drop
    near = others[spaces]  # (F, K): every pair at once (a few dozen stacks a frame at most)
    top = best[spaces] + 1
    near_top = best[near] + 1
    pairs = (found[near] & (near != spaces[:, None]) & (depth[near] > depth[spaces][:, None])
             & (beside[spaces][:, :, None] == near[:, None, :]).any(axis=1)
             & (near_top < top[:, None])
             & (kinds[near, best[near]] == kinds[spaces, best[spaces]][:, None])
             & (under[best[near]] == under[best[spaces]][:, None]))
    pairs &= on_column[spaces[:, None], np.arange(near.shape[1])[None, :], top[:, None], near_top]
    drop[spaces] = pairs.any(axis=1)
    return drop
