"""A tile space whose clean band a taller neighbour hides shows the tile's colour on its other edges
(babylon_garden._where_tiles_lie, _shows_tile_beside)."""

import pytest

from companion.benchmarking import vision as bench
from companion.vision import labels
from companion.vision.observers.babylon_garden import BAND_SIDES
from companion.vision.types import CellReading
from tests.vision.bench_frames import bench_frame, bench_seen, visible_and_wrong

REGION = "babylon.garden"
STEPS = ((-1, 0), (0, 1), (1, 0), (0, -1))  # top, right, bottom, left


@pytest.fixture(scope="module")
def frame():
    """Bench seed 0, frame 131: (6, 6) is the top-right space of the level-1 tile r6c5, whose
    other spaces carry two belvederes and a pillar; a level-2 tile in front hides its top edge."""
    layout, image, observer = bench_frame(REGION, 0, 131)
    return layout, image, observer


def test_a_space_whose_band_is_hidden_joins_the_tile_its_pieces_stand_on(frame):
    layout, image, observer = frame
    observation = observer.observe(image)
    expected = layout.expected()
    seen = bench_seen(REGION, 0, 131, layout)
    assert expected[6][6] == (labels.TILE, {"level": 1, "tile": "r6c5", "flower": "flower0", "icon": "none"})
    assert seen[6, 6] >= bench.VISIBLE
    assert (observation.cell(6, 6).label, observation.cell(6, 6).attrs) == expected[6][6]
    assert visible_and_wrong(observation, expected, seen) == []


def test_a_band_is_hidden_only_by_a_taller_neighbour_on_the_camera_side(frame):
    _, _, observer = frame
    recess = CellReading(labels.RECESS, 0.99, {"level": 0})
    r, c = 3, 3
    for side, (dr, dc) in enumerate(STEPS):
        rows = [[recess] * 8 for _ in range(8)]
        rows[r + dr][c + dc] = CellReading(labels.TILE, 0.9, {"level": 2, "tile": "r0c0", "flower": "flower0", "icon": "none"})
        # A level-2 tile across the edge facing the camera most hides a level-1 space's strip
        # there; across the opposite edge it hides nothing (the ray runs away from it).
        if observer.near[r, c, side]:
            assert observer._hidden_side(rows, 1, r, c, side)
        if observer.near[r, c, (side + 2) % 4]:
            assert not observer._hidden_side(rows, 1, r, c, side)
        # It does not stand above a level-2 space.
        assert not observer._hidden_side(rows, 2, r, c, side)
        # Nothing across the edge hides nothing.
        assert not observer._hidden_side([[recess] * 8 for _ in range(8)], 1, r, c, side)
    # Each position's clean band runs along an outer edge of the tile: top for the upper spaces.
    assert BAND_SIDES == (0, 0, 2, 2)


def test_a_band_hidden_across_an_edge_the_camera_sees_at_a_slant_still_shows_the_dot():
    """Bench seed 2, frame 75: (2, 7), the top-right space of the level-1 tile r2c6 at the board's
    right edge, whose top edge a level-2 tile (r0c6) hides. The camera faces the space's left
    edge most, its top edge at a slant: the tile in front still hides the band along it. The
    space shows the tile's colour on its open edges and the tile's dot in its corner, so it is
    that tile's space (babylon.build.covered_space: the tile covers its whole footprint), not a
    pillar fitting nothing."""
    layout, image, observer = bench_frame(REGION, 2, 75)
    expected = layout.expected()
    seen = bench_seen(REGION, 2, 75, layout)
    assert expected[2][7] == (labels.TILE, {"level": 1, "tile": "r2c6", "flower": "flower2", "icon": "fountain"})
    assert expected[1][7][1]["level"] == 2
    assert seen[2, 7] >= bench.VISIBLE
    assert not observer.near[2, 7, 0]  # the top edge is not the one facing the camera most ...
    truth = [[CellReading(label, 0.9, attrs) for label, attrs in row] for row in expected]
    assert observer._hidden_sides(truth, 1, 2, 7)[0]  # ... but the tile in front hides it
    observation = observer.observe(image)
    assert (observation.cell(2, 7).label, observation.cell(2, 7).attrs) == expected[2][7]
    assert visible_and_wrong(observation, expected, seen) == []


def test_a_space_whose_siblings_all_carry_pieces_shows_its_dot_so_nothing_stands_on_it():
    """Bench seed 1, frame 154: (1, 7) is the bottom-right space of the level-1 tile r0c6 at the
    board's right edge; its other spaces carry a double pillar, a single pillar and a belvedere.
    Its inner edges run into those pieces, so its outline fits nothing; a single pillar on it
    fits barely more (0.05). It shows the tile's colour and its flower dot at level 1, which a
    pillar standing there would cover (babylon.build.pillars): it is the bare space."""
    layout, image, observer = bench_frame(REGION, 1, 154)
    expected = layout.expected()
    seen = bench_seen(REGION, 1, 154, layout)
    assert expected[1][7] == (labels.TILE, {"level": 1, "tile": "r0c6", "flower": "flower1", "icon": "statue"})
    assert [expected[r][c][0] for r, c in ((0, 6), (0, 7), (1, 6))] == [labels.PILLAR2, labels.PILLAR1, labels.BELVEDERE]
    assert seen[1, 7] >= bench.VISIBLE
    observation = observer.observe(image)
    cell = observation.cell(1, 7)
    assert (cell.label, cell.attrs) == expected[1][7]
    assert cell.confidence < 0.3
