"""The garden observer's use of history: a tile lies on the pillar tops seen before it came."""

from __future__ import annotations

from companion.vision import labels
from companion.vision.observers.babylon_garden import with_history
from companion.vision.types import CellReading, Observation


def _observation(cells: dict[tuple[int, int], CellReading]) -> Observation:
    recess = CellReading(labels.RECESS, 0.9, {"level": 0})
    rows = tuple(tuple(cells.get((r, c), recess) for c in range(8)) for r in range(8))
    return Observation("babylon.garden", 8, 8, rows)


def _tile(level: int, confidence: float) -> CellReading:
    return CellReading(labels.TILE, confidence, {"level": level, "tile": "r2c2", "flower": "flower0", "icon": "none"})


FOOTPRINT = ((2, 2), (2, 3), (3, 2), (3, 3))


def test_unsure_tile_level_is_taken_from_the_pillar_tops_beneath():
    before = _observation({cell: CellReading(labels.PILLAR2, 0.9, {"level": 2}) for cell in FOOTPRINT[:3]})
    now = _observation({cell: _tile(1, 0.2) for cell in FOOTPRINT})
    fixed = with_history(now, before)
    for r, c in FOOTPRINT:
        assert fixed.cell(r, c).attrs["level"] == 2
        assert fixed.cell(r, c).alternatives[0][1]["level"] == 1  # the parallax reading is kept


def test_a_sure_reading_or_unclear_history_is_left_alone():
    before = _observation({cell: CellReading(labels.PILLAR1, 0.9, {"level": 1}) for cell in FOOTPRINT})
    sure = _observation({cell: _tile(2, 0.9) for cell in FOOTPRINT})
    assert with_history(sure, before).cells == sure.cells
    mixed = _observation({FOOTPRINT[0]: CellReading(labels.PILLAR1, 0.9, {"level": 1}),
                          FOOTPRINT[1]: CellReading(labels.PILLAR2, 0.9, {"level": 2})})
    unsure = _observation({cell: _tile(3, 0.1) for cell in FOOTPRINT})
    assert with_history(unsure, mixed).cells == unsure.cells
