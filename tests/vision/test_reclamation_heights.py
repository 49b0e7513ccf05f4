"""The Reclamation observer's stack heights where parallax is small (camera nearly overhead), and
the sparse sampling it is built on (observers/square_tops.py)."""

from __future__ import annotations

import numpy as np
import pytest

from companion.benchmarking import vision as bench
from companion.sim import boards
from companion.sim.camera import CameraModel, region_geometry
from companion.sim.render import render
from companion.sim.scene import Imaging, Lighting, TableScene
from companion.vision.boards import RECLAMATION
from companion.vision.observers.common import reading
from companion.vision.observers.dimensions import STONES
from companion.vision.observers.square_tops import EdgeProfiles, SquareLayout, SquareTops, readings
from tests.sim.helpers import GAMES, Score, calibrated, read_and_score, rng

# Nearly overhead: one stone level (6 mm) moves a top face by well under a millimetre on the rows
# nearest the camera, less than the area test's ring gap.
OVERHEAD = CameraModel(target_mm=(90.0, 90.0, 0.0), distance_mm=430.0, tilt_deg=12.0, azimuth_deg=-90.0)


def _stack(height: int, face: str = "vine", at=(2, 2)) -> boards.ReclamationLayout:
    rows = [[(0, "flower")] * 6 for _ in range(6)]
    rows[at[0]][at[1]] = (height, face)
    return boards.ReclamationLayout(tuple(tuple(row) for row in rows))


def test_every_height_reads_back_under_a_nearly_overhead_camera():
    game = GAMES["reclamation"]
    observer = calibrated(game, OVERHEAD)
    score = Score()
    for seed in range(3):
        read_and_score(game, observer, OVERHEAD, game.random(rng(seed + 70)), seed=seed,
                       lighting=Lighting(gain=0.9, gradient=(0.08, -0.05), colour_gains=(0.95, 1.0, 1.05)),
                       imaging=Imaging(noise_sigma=3.0, blur_sigma=0.8, jpeg_quality=85), score=score)
    assert score.wrong == 0, score


@pytest.mark.slow
def test_benchmark_frames_with_small_parallax_are_read_exactly():
    """The benchmark's first camera set-up (the old observer misread two stack heights there)."""
    result = bench.accuracy("reclamation", 10, seed=0)
    assert result["cell_error_rate"] == 0.0, result["confusion"]
    assert result["boards_exact"] == 1.0


@pytest.mark.parametrize("height", [1, 2, 3])
def test_edges_lie_on_the_footprint_at_the_true_height_only(height):
    """The edge profiles place a lone stone's sides where its footprint is at its own height, and
    one level off they move the way parallax says (the far side out when the view is too low)."""
    geometry = region_geometry(OVERHEAD)
    heights = [h * STONES.stone_height_mm for h in range(1, 4)]
    edges = EdgeProfiles(geometry, RECLAMATION, heights, STONES.stone_mm)
    tops = SquareTops(geometry, RECLAMATION, heights, SquareLayout.square(30.0, 24.0, 0.6, (0.6, 2.2), 2.0, 2.0))
    image = render(TableScene((_stack(height).region_scene(),)), OVERHEAD, seed=3)
    offsets, contrast = edges.offsets(image, tops.fit(image).colour)
    r, c = 2, 2
    assert (contrast[height - 1, r, c] > 20).all()  # a lone stone shows all four edges
    spread = np.sqrt((offsets[:, r, c] ** 2).mean(axis=-1))  # per view height
    assert spread.argmin() == height - 1, spread
    # The camera is at y− (azimuth −90°): in a view below the face, the face moves away from it.
    if height > 1:
        below = offsets[height - 2, r, c]
        assert below[2] > offsets[height - 1, r, c, 2] + 0.3  # the far side (y+) further out
        assert below[0] < offsets[height - 1, r, c, 0] - 0.3  # the near side (y−) further in


def test_square_tops_weights_cover_each_cell_once():
    """Cells that drop points (a near side) repeat others to fill the board's array; the weights
    undo the repeats, so a uniform picture gives each test exactly its full share."""
    geometry = region_geometry(OVERHEAD)
    near = np.zeros((6, 6, 4), bool)
    near[1:, :, 0] = True  # every cell but the first row drops its y− side
    tops = SquareTops(geometry, RECLAMATION, [0.0, 6.0], SquareLayout.square(30.0, 24.0, 0.6, (0.6, 2.2), 2.0, 2.0),
                      near)
    np.testing.assert_allclose(tops.inside_weight.sum(axis=1), 1.0, rtol=1e-5)
    fit = tops.fit(np.full((720, 1280, 3), (90, 160, 80), np.uint8))
    np.testing.assert_allclose(fit.inside, 1.0, rtol=1e-5)
    np.testing.assert_allclose(fit.sides[:, 0, :, 0], 1.0, rtol=1e-5)  # the first row keeps its y− ring
    np.testing.assert_allclose(fit.sides[:, 1:, :, 0], 0.0)  # the others have none there
    np.testing.assert_allclose(fit.features[..., 3:], 0.0, atol=0.05)  # no spread in a flat colour


def test_readings_match_the_per_cell_rule():
    candidates = [("empty", {"height": 0}), ("flower", {"height": 1}), ("vine", {"height": 1}), ("vine", {"height": 2})]
    scores = np.random.default_rng(4).random((3, 5, len(candidates)))
    scores[0, 0] = [0.5, 0.5, 0.2, -0.1]  # a tie keeps the first candidate, negative scores show as 0
    rows = readings(scores, candidates)
    for r in range(3):
        for c in range(5):
            scored = sorted(((float(s), *candidates[i]) for i, s in enumerate(scores[r, c])), key=lambda s: -s[0])
            expected = reading(scored[0][1], scored[0][2], scored)
            got = rows[r][c]
            assert (got.label, got.attrs) == (expected.label, expected.attrs)
            assert got.confidence == pytest.approx(expected.confidence)
            assert [(lab, att) for lab, att, _ in got.alternatives] == [(lab, att) for lab, att, _ in expected.alternatives]
            assert [s for *_, s in got.alternatives] == pytest.approx([s for *_, s in expected.alternatives])


@pytest.mark.parametrize("at", [(0, 2), (1, 3)])
def test_a_lone_stack_near_the_camera_reads_its_height(at):
    """Too few stacks to learn a frame's edge bias: the bias seen on the calibration capture is used."""
    observer = calibrated(GAMES["reclamation"], OVERHEAD)
    for height in (1, 2, 3):
        layout = _stack(height, "flower", at)
        image = render(TableScene((layout.region_scene(),), imaging=Imaging(noise_sigma=3.0, jpeg_quality=85)),
                       OVERHEAD, seed=height)
        cell = observer.observe(image).cell(*at)
        assert (cell.label, cell.attrs) == ("flower", {"height": height, "gardener": height == 3})
