"""Baubylon: a stack's side and its block's near edge are not a second stack one space nearer
(issue #5; baubylon_columns)."""

from __future__ import annotations

import numpy as np

from companion.vision.observers.baubylon_columns import seen_on_columns
from tests.vision.bench_frames import bench_frame, sure_and_wrong


def _two_spaces(on_column: bool, nearer_top: int = 6, farther_top: int = 5, same_colour: bool = True,
                beside: bool = True):
    """Space 0 (nearer the camera) and space 1 (farther), each with a stack top read."""
    top = 13
    best = np.array([nearer_top - 1, farther_top - 1])
    kinds = np.zeros((2, top), np.intp)
    kinds[1, :] = 0 if same_colour else 1
    others = np.array([[1], [0]])
    neighbours = np.array([[1, 2, 2, 2], [0, 2, 2, 2]]) if beside else np.full((2, 4), 2)
    depth = np.array([100.0, 130.0])
    under = np.array([0, 0, 2, 2, 4, 4, 6, 6, 8, 8, 8, 8, 8])  # the highest level under each top
    column = np.zeros((2, 1, top + 1, top + 1), bool)
    column[0, 0, nearer_top, farther_top] = on_column
    return seen_on_columns(best, np.ones(2, bool), kinds, others, neighbours, depth, under, column)


def test_a_nearer_taller_top_of_one_colour_on_the_farther_column_is_dropped():
    assert _two_spaces(True).tolist() == [True, False]


def test_it_stands_unless_something_differs():
    assert not _two_spaces(False).any()  # not on the farther stack's column
    assert not _two_spaces(True, same_colour=False).any()  # another colour: a stack of its own
    assert not _two_spaces(True, beside=False).any()  # not the space next to it
    assert not _two_spaces(True, nearer_top=7).any()  # its block would stand higher: not that edge
    assert not _two_spaces(True, nearer_top=5, farther_top=5).any()  # not taller


def test_a_stack_seen_one_space_nearer_is_one_stack():
    # Bench frame 80 of seed 0: a white pawn on a 4-high block at (10, 5); at (9, 5), one space
    # nearer the camera, a 2-high block used to read as 4 high with two pawns (a white top).
    layout, image, observer = bench_frame("baubylon", 0, 80)
    expected = layout.expected()
    assert expected[10][5][1] == {"height": 4, "pawns": ["white"]}
    assert expected[9][5][1] == {"height": 2, "pawns": []}
    observation = observer.observe(image)
    assert observation.cell(9, 5).attrs == expected[9][5][1]
    assert observation.cell(10, 5).attrs == expected[10][5][1]
    assert sure_and_wrong(observation, expected) == []
