"""Baubylon: under a stack's top, a block one level higher (two pawns fewer) is preferred when the
two fit alike. A block top two pawn heights lower shows an outline too (a joint between lying
blocks, the pawns' own feet), and from one frame the two fit within a few hundredths. Frames of
the benchmark's seed 1 where a single pawn on a block was read as three pawns on a block one level
lower."""

from __future__ import annotations

import pytest

from .bench_frames import bench_frame, sure_and_wrong


@pytest.mark.parametrize(("frame", "space"), [(163, (0, 8)), (143, (9, 1))])
def test_a_single_pawn_on_a_block_is_not_three_on_a_lower_one(frame, space):
    layout, image, observer = bench_frame("baubylon", 1, frame)
    expected = layout.expected()
    r, c = space
    truth = expected[r][c][1]
    assert len(truth["pawns"]) == 1 and truth["height"] >= 4
    observation = observer.observe(image)
    assert observation.cell(r, c).attrs == truth
    assert sure_and_wrong(observation, expected) == []
