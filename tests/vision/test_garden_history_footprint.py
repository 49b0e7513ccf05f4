"""Garden history: a tile remembered on a cell, still read surely on another of its spaces, keeps
that cell though the frame reads it surely as a space of another footprint at the same level
(babylon.build.support: a tile covers its four spaces and stays where it is put)."""

from __future__ import annotations

import numpy as np

from companion.benchmarking import vision as bench
from companion.sim.render import render
from companion.vision import labels
from companion.vision.observers.babylon_garden import with_history
from companion.vision.types import CellReading, Observation
from tests.vision.bench_frames import SURE, bench_frame, wrong_cells

REGION = "babylon.garden"


class InView:
    """A stand-in FaceView: every face in view."""

    def hidden(self, rows, faces):
        return np.zeros(len(faces))


def board(cells: dict[tuple[int, int], CellReading]) -> Observation:
    recess = CellReading(labels.RECESS, 0.9, {"level": 0})
    return Observation(REGION, 8, 8, tuple(tuple(cells.get((r, c), recess) for c in range(8)) for r in range(8)))


def space(confidence: float, tile_id: str, level: int = 2) -> CellReading:
    return CellReading(labels.TILE, confidence, {"level": level, "tile": tile_id, "flower": "flower2", "icon": "none"})


SEEN = board({cell: space(0.9, "r5c6") for cell in ((5, 6), (5, 7), (6, 6), (6, 7))})


def read_at(reading: Observation, r: int, c: int) -> tuple[str, dict]:
    cell = reading.cell(r, c)
    return cell.label, cell.attrs


def test_a_space_read_surely_with_another_footprint_is_the_tile_still_shown_round_it():
    now = board({(5, 6): space(0.9, "r5c6"), (5, 7): space(0.9, "r5c6"),
                 (6, 6): space(0.9, "r6c6"), (6, 7): space(0.9, "r6c6")})
    read = with_history(now, SEEN, InView())
    assert read_at(read, 6, 7) == read_at(SEEN, 6, 7)
    assert read.cell(6, 7).confidence <= 0.75  # from memory: never "confident"
    assert read.cell(6, 7).alternatives[0][1]["tile"] == "r6c6"  # the frame's reading kept first


def test_the_other_footprint_stands_where_the_tile_seen_is_not_read_surely_round_it_or_lies_elsewhere():
    # the remembered tile read on none of its other spaces surely (taken back, another laid):
    # the clear view wins
    gone = board({(5, 6): space(0.3, "r5c6"), (6, 6): space(0.9, "r6c6"), (6, 7): space(0.9, "r6c6")})
    assert read_at(with_history(gone, SEEN, InView()), 6, 7)[1]["tile"] == "r6c6"
    # a space at another level (a tile laid on pillars over it since) is not the same height
    higher = board({(5, 6): space(0.9, "r5c6"), (6, 7): space(0.9, "r6c6", level=3)})
    assert read_at(with_history(higher, SEEN, InView()), 6, 7)[1]["level"] == 3


def test_a_tile_edge_read_as_another_footprint_is_the_tile_seen_there_on_a_rendered_table():
    # s11 f80: tile r5c6 (level 2, fountain) read surely on all its spaces in the build's last
    # still scene; in the last frame (6, 7), its lower row's edge beside hidden (7, 6) and (7, 7),
    # is read surely (0.88) as a space of r6c6
    layout, image, observer = bench_frame(REGION, 11, 80)
    camera = bench.bench_camera(REGION, 11, 80)
    history = bench.bench_history(REGION, 11, 80)
    _, earlier = history[-1]
    before = observer.observe(render(earlier, camera, seed=bench.HISTORY_SEEDS + 80 * 64 + len(history) - 1))
    expected = layout.expected()
    assert expected[6][7][1]["tile"] == "r5c6"
    assert read_at(before, 6, 7) == expected[6][7]
    single = observer.observe(image)
    assert read_at(single, 6, 7)[1]["tile"] == "r6c6" and single.cell(6, 7).confidence > SURE
    read = observer.observe(image, previous=before)
    assert read_at(read, 6, 7) == expected[6][7]
    assert wrong_cells(read, expected) <= wrong_cells(single, expected)
