"""A hidden recess read as its neighbour's parallax look-alike is not read surely (garden_decide)."""

import pytest

from companion.benchmarking import vision as bench
from companion.sim.render import render
from companion.sim.visibility import visible_share
from companion.vision import labels
from companion.vision.observers.babylon_garden import BABYLON_GARDEN, GHOST_CAP, SURE
from companion.vision.observers.garden_decide import FaceCentres, cap_hidden_twins, face_of
from companion.vision.types import CellReading

REGION = "babylon.garden"


@pytest.fixture(scope="module")
def setup():
    return bench.bench_setup(REGION, 0, 13)


def _read(setup, seed, frame):
    camera, observer = setup
    layout, scene = bench.bench_scene(REGION, seed, frame)
    observation = observer.observe(render(scene, camera, seed=frame))
    return observation, layout.expected(), visible_share(scene.regions[0], camera, layout.top_faces())


def test_a_hidden_recess_read_as_the_tile_whose_top_shows_there_is_not_sure(setup):
    observation, expected, seen = _read(setup, 0, 13)
    # (3, 4) is a recess behind a level-2 tile nearer the camera; its view at level 4 lands on the
    # level-2 tile space beyond it, (4, 4), which is read surely and right.
    assert expected[3][4][0] == labels.RECESS and seen[3, 4] < bench.VISIBLE
    hidden, twin = observation.cell(3, 4), observation.cell(4, 4)
    assert hidden.label == labels.TILE and hidden.confidence <= GHOST_CAP
    assert (twin.label, twin.attrs) == expected[4][4] and twin.confidence >= SURE
    # Every visible cell is still read as before: the cap changes confidences only.
    wrong = [(r, c) for r in range(8) for c in range(8) if seen[r, c] >= bench.VISIBLE
             and (observation.cell(r, c).label, observation.cell(r, c).attrs) != expected[r][c]]
    assert wrong == []


def _twin_cells(faces: FaceCentres, kind_label: str, low: int, high: int):
    """Two cells whose pillar tops at `low` and `high` show at the same place in the frame."""
    kind = face_of(CellReading(kind_label, 1.0, {"level": low}))[0]
    for r in range(1, 7):
        for c in range(1, 7):
            here = faces.px[kind, low, 8 * r + c]
            for r2 in range(r - 2, r + 3):
                for c2 in range(c - 2, c + 3):
                    if (r2, c2) != (r, c) and 0 <= r2 < 8 and 0 <= c2 < 8:
                        there = faces.px[kind, high, 8 * r2 + c2]
                        if ((here - there) ** 2).sum() ** 0.5 < 0.2 * faces.cell_px:
                            return (r, c), (r2, c2)
    raise AssertionError("no twin cells for this camera")


def test_a_look_alike_is_capped_only_beside_a_sure_twin_whose_floor_shows(setup):
    camera, observer = setup
    faces = FaceCentres(observer.sampler.geometry, observer.dims, BABYLON_GARDEN.cell_mm, observer.levels)
    (r, c), (r2, c2) = _twin_cells(faces, labels.PILLAR2, 2, 4)
    board = [[CellReading(labels.RECESS, 0.99, {"level": 0}) for _ in range(8)] for _ in range(8)]
    board[r][c] = CellReading(labels.PILLAR2, 0.95, {"level": 2})

    def capped(twin_confidence: float) -> float:
        rows = [list(row) for row in board]
        rows[r2][c2] = CellReading(labels.PILLAR2, twin_confidence, {"level": 4})
        return cap_hidden_twins(rows, faces, 0.3, 0.3, 0.4, GHOST_CAP)[r][c].confidence

    # The tall pillar's floor shows (nothing else stands round it): it is a piece, and the low
    # reading behind it shows exactly its top, so it is its look-alike.
    assert capped(0.6) == GHOST_CAP
    # A twin read too unsurely to stand does not make the reading doubtful.
    assert capped(0.2) == 0.95
    # Readings themselves are never changed, and nothing else is touched.
    rows = [list(row) for row in board]
    rows[r2][c2] = CellReading(labels.PILLAR2, 0.6, {"level": 4})
    out = cap_hidden_twins(rows, faces, 0.3, 0.3, 0.4, GHOST_CAP)
    assert [(cell.label, cell.attrs) for row in out for cell in row] == [(cell.label, cell.attrs) for row in rows for cell in row]
    assert out[r2][c2].confidence == 0.6
