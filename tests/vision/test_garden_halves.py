"""Garden single frame: a tile read on two side-by-side spaces only, beside a footprint shown on
all its four cells, is that footprint's tile (babylon_garden._shifted_halves; babylon.build.support:
a tile covers its four spaces, each showing it or carrying a piece on its level)."""

from __future__ import annotations

from companion.vision import labels
from companion.vision.observers.babylon_garden import GHOST_CAP, _shifted_halves
from companion.vision.types import CellReading
from tests.vision.bench_frames import assert_frame_reads_cell_as_laid, bench_reading

REGION = "babylon.garden"


def board(cells: dict[tuple[int, int], CellReading]) -> list[list[CellReading]]:
    recess = CellReading(labels.RECESS, 0.9, {"level": 0})
    return [[cells.get((r, c), recess) for c in range(8)] for r in range(8)]


def space(confidence: float, tile_id: str, level: int = 1) -> CellReading:
    return CellReading(labels.TILE, confidence, {"level": level, "tile": tile_id, "flower": "flower3", "icon": "none"})


def test_a_half_beside_decorations_on_its_level_is_the_tile_they_stand_on():
    # r4c5's upper row (4, 5), (4, 6) reads nothing on level 1 (the board); its lower row's
    # cells read r4c5, and the row below carries a statue and a belvedere on level 1: r5c5
    statue = CellReading(labels.STATUE, 0.97, {"level": 1})
    belvedere = CellReading(labels.BELVEDERE, 0.98, {"level": 1})
    rows = board({(5, 5): space(0.81, "r4c5"), (5, 6): space(0.0, "r4c5"), (6, 5): statue, (6, 6): belvedere,
                  (4, 5): CellReading(labels.RECESS, 0.1, {"level": 0}), (4, 6): CellReading(labels.RECESS, 0.1, {"level": 0})})
    out = _shifted_halves(rows)
    assert [out[5][c].attrs["tile"] for c in (5, 6)] == ["r5c5", "r5c5"]
    assert out[5][5].confidence <= GHOST_CAP
    # the row above carrying pieces on level 1 (read surely) shows r4c5 as much: it stands
    above = [row[:] for row in rows]
    above[4][5] = CellReading(labels.PILLAR2, 0.9, {"level": 3})
    above[4][6] = CellReading(labels.STATUE, 0.9, {"level": 1})
    assert _shifted_halves(above)[5][5].attrs["tile"] == "r4c5"
    # and a row below showing one piece only does not make r5c5
    rows[6][6] = CellReading(labels.RECESS, 0.1, {"level": 0})
    assert _shifted_halves(rows)[5][5].attrs["tile"] == "r4c5"


def test_a_tile_shifted_by_a_row_beside_hidden_cells_is_read_as_laid_on_a_rendered_table():
    # s7 f160: r5c5 (level 1) carries a statue and a belvedere on its lower row; its upper row
    # was read (0.81) as r4c5's, whose upper cells carry another tile's space and a double pillar
    reading = bench_reading(REGION, 7, 160)
    laid = (labels.TILE, {"level": 1, "tile": "r5c5", "flower": "flower3", "icon": "statue"})
    assert_frame_reads_cell_as_laid(reading, (5, 5), laid)
