"""Baubylon: of two stack tops seen in one place, the one whose block shows something standing on
its middle is the stack. A pawn's top at one space and height and a pawn's top (or its side)
farther away and lower look the same along one ray; nothing farther from the camera can hide the
middle of a block top read nearer, so where that middle shows a pawn's colour, something stands
on that block. Frame 159 of the benchmark's seed 1: a blue pawn on a lying block, fully in view,
was given to the space beyond it (its top there one pawn high, on the table, where another blue
pawn stands three quarters hidden behind it), and the block read bare."""

from __future__ import annotations

import pytest

from .bench_frames import bench_frame, sure_and_wrong


@pytest.fixture(scope="module")
def frame():
    layout, image, observer = bench_frame("baubylon", 1, 159)
    return layout.expected(), observer.observe(image)


def test_the_pawn_on_the_block_keeps_its_top(frame):
    expected, observation = frame
    assert expected[10][2][1] == {"height": 2, "pawns": ["blue"]}
    assert expected[11][2][1] == {"height": 0, "pawns": ["blue"]}  # behind it, mostly hidden
    assert observation.cell(10, 2).attrs == expected[10][2][1]


def test_no_reading_in_that_frame_is_sure_and_wrong(frame):
    expected, observation = frame
    assert sure_and_wrong(observation, expected) == []
