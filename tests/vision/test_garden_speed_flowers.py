"""The flower dots' colours in view, per tile space and corner, made in one compiled loop
(garden_kernels_flowers.corner_means) are numpy's per-space means, bit for bit."""

from __future__ import annotations

import numpy as np
import pytest

from companion.sim.camera import region_geometry
from companion.vision.boards import BABYLON_GARDEN
from companion.vision.observers.dimensions import GARDEN
from companion.vision.observers.garden_flowers import SeenDots, dot_points
from companion.vision.observers.garden_kernels_flowers import corner_means
from tests.sim.helpers import GAMES, camera_for


def numpy_colours(points, corner, cell_mm, sample, cells, seen):
    """SeenDots.colours as numpy did it, space by space (before the compiled loop)."""
    n = len(cells)
    means, counts = np.zeros((n, 4, 3)), np.zeros((n, 4), int)
    xyz = []
    for (r, c, level), keep in zip(cells, seen, strict=True):
        p = points[keep]
        xyz.append(np.column_stack([p[:, 0] + c * cell_mm, p[:, 1] + r * cell_mm, np.full(len(p), GARDEN.tile_top(level))]))
    lab = np.asarray(sample(np.concatenate(xyz)), float)
    start = 0
    for i, keep in enumerate(seen):
        corners = corner[keep]
        part = lab[start : start + len(corners)]
        start += len(corners)
        for k in range(4):
            mine = corners == k
            counts[i, k] = int(mine.sum())
            if counts[i, k]:
                means[i, k] = part[mine].mean(axis=0)
    return means, counts


def frame_like(xyz):
    """Lab-like float32 values that vary from point to point (as sample_points gives)."""
    return (np.sin(xyz @ np.array([[0.7, 1.3, -0.4], [1.1, -0.6, 0.9], [0.3, 0.2, 0.5]])) * 60 + 50).astype(np.float32)


@pytest.mark.parametrize("seed", range(4))
def test_corner_means_are_numpys_means(seed):
    rng = np.random.default_rng(seed)
    points, corner = dot_points(BABYLON_GARDEN.cell_mm)
    n = 12
    seen = rng.random((n, len(points))) < rng.uniform(0.05, 1.0, (n, 1))
    seen[0] = False  # a space with nothing in view
    seen[1] = corner == 2  # one corner only
    seen[2, :] = True
    lab = rng.normal(50, 30, (int(seen.sum()), 3)).astype(np.float32).astype(float)
    means, counts = np.empty((n, 4, 3)), np.empty((n, 4), np.int64)
    corner_means(lab, seen, corner, means, counts)
    at = 0
    for i in range(n):
        part, corners = lab[at : at + seen[i].sum()], corner[seen[i]]
        at += seen[i].sum()
        for k in range(4):
            assert counts[i, k] == (corners == k).sum()
            want = part[corners == k].mean(axis=0) if counts[i, k] else np.zeros(3)
            np.testing.assert_array_equal(means[i, k], want)
    assert (counts[0] == 0).all() and (means[0] == 0).all()
    assert counts[1].tolist() == [0, 0, (corner == 2).sum(), 0]


def test_seen_dots_colours_are_the_space_by_space_numbers():
    camera = camera_for(GAMES["babylon.garden"])
    seen_dots = SeenDots(region_geometry(camera), GARDEN, BABYLON_GARDEN.cell_mm, [1, 2, 3, 4, 5])
    rng = np.random.default_rng(7)
    cells = [(int(r), int(c), int(k)) for r, c, k in zip(rng.integers(0, 8, 10), rng.integers(0, 8, 10),
                                                         rng.integers(1, 6, 10), strict=True)]
    hidden = rng.random((len(cells), len(seen_dots.points))) < 0.6
    hidden[3] = True  # all hidden
    means, counts = seen_dots.colours(frame_like, cells, hidden)
    want_means, want_counts = numpy_colours(seen_dots.points, seen_dots.corner, BABYLON_GARDEN.cell_mm, frame_like,
                                            cells, ~hidden)
    np.testing.assert_array_equal(counts, want_counts)
    np.testing.assert_array_equal(means, want_means)
    assert (counts[3] == 0).all() and counts.sum() > 0
