"""Baubylon: the observer reads block tops as high as fields built from the box's blocks reach
(baubylon.units: a lying block adds 2 pawn heights, a standing one 4; a staircase of standing
blocks on lying ones rises above 8). A frame of the benchmark's built fields (`baubylon.built`,
a tuned seed) whose goal (baubylon.goal) stands 12 pawn heights high: with tops only up to 8 it
could not be read."""

from __future__ import annotations

from .bench_frames import assert_space_read_as_laid, bench_frame


def _goal(layout) -> tuple[tuple[int, int], int]:
    top = max(h for row in layout.cells for h, _ in row)
    return next((r, c) for r, row in enumerate(layout.cells) for c, (h, _) in enumerate(row) if h == top), top


def test_a_goal_twelve_pawn_heights_high_is_read_from_one_frame():
    layout, _, _ = bench_frame("baubylon.built", 0, 2)
    space, top = _goal(layout)
    assert top == 12
    assert_space_read_as_laid("baubylon.built", 0, 2, space, layout.expected()[space[0]][space[1]][1])
