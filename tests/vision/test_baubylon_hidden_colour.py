"""Baubylon: a pawn partly behind a taller stack nearer the camera is its own stack when its colour
differs. What a taller stack nearer the camera shows where it would hide a lower top is its own
side, in its own colour: a top of that colour there is taken for that side (one top, one stack),
but a top of another colour cannot be. Frame 160 of the benchmark's seed 2: a black pawn on the
table, three quarters in view behind a green pawn on a lying block, was read as bare table."""

from __future__ import annotations

import pytest

from .bench_frames import bench_frame, sure_and_wrong


@pytest.fixture(scope="module")
def frame():
    layout, image, observer = bench_frame("baubylon", 2, 160)
    return layout.expected(), observer.observe(image)


def test_a_pawn_of_another_colour_behind_a_taller_stack_is_read(frame):
    expected, observation = frame
    assert expected[9][4][1] == {"height": 2, "pawns": ["green"]}  # nearer the camera, taller
    assert expected[10][4][1] == {"height": 0, "pawns": ["black"]}
    assert observation.cell(9, 4).attrs == expected[9][4][1]
    assert observation.cell(10, 4).attrs == expected[10][4][1]


def test_no_reading_in_that_frame_is_sure_and_wrong(frame):
    expected, observation = frame
    assert sure_and_wrong(observation, expected) == []
