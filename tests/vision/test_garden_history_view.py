"""Which garden readings have no view of their own (garden_history_view.FaceView), and history
reading such a cell with the top remembered there even when the frame reads it surely."""

from __future__ import annotations

import numpy as np

from companion.benchmarking import vision as bench
from companion.sim.camera import region_geometry
from companion.sim.visibility import visible_share
from companion.vision import labels
from companion.vision.observers.babylon_garden import with_history
from companion.vision.observers.dimensions import GARDEN
from companion.vision.observers.garden_history_view import FaceView
from companion.vision.types import CellReading, Observation

REGION = "babylon.garden"


def test_the_hidden_faces_are_the_cells_the_bench_counts_hidden():
    """On bench frames' true layouts, a top at least 40 % hidden by its neighbours is the bench's
    hidden cell (under 60 % in sight) for nearly every cell (the face tested is a pillar's section,
    the bench's each kind's own)."""
    agree = []
    for n in (0, 3, 7):
        camera = bench.bench_camera(REGION, 0, n)
        layout, scene = bench.bench_scene(REGION, 0, n)
        view = FaceView(region_geometry(camera), GARDEN, 25.0, GARDEN.max_level)
        rows = [[CellReading(label, 1.0, attrs) for label, attrs in row] for row in layout.expected()]
        hidden = view.hidden(rows, [(r, c, rows[r][c]) for r in range(8) for c in range(8)]).reshape(8, 8)
        seen = visible_share(scene.regions[0], camera, layout.top_faces())
        agree.append(((hidden >= 0.4) == (seen < bench.VISIBLE)).mean())
        assert (hidden[seen >= 0.99] < 0.4).all()  # a top all in sight is never taken for hidden
    assert np.mean(agree) >= 0.95


class Blind:
    """A stand-in FaceView: every face hidden by this share."""

    def __init__(self, share: float):
        self.share = share

    def hidden(self, rows, faces):
        return np.full(len(faces), self.share)


def board(cells: dict[tuple[int, int], CellReading]) -> Observation:
    recess = CellReading(labels.RECESS, 0.9, {"level": 0})
    return Observation(REGION, 8, 8, tuple(tuple(cells.get((r, c), recess) for c in range(8)) for r in range(8)))


def tile(confidence: float, icon: str, level: int = 1) -> CellReading:
    return CellReading(labels.TILE, confidence, {"level": level, "tile": "r6c2", "flower": "flower0", "icon": icon})


def test_a_sure_reading_with_no_view_of_its_own_is_the_top_remembered():
    seen = board({(6, 2): tile(0.98, "none")})
    now = board({(6, 2): tile(0.64, "bridge")})  # a taller neighbour's side over the space's middle
    read = with_history(now, seen, Blind(0.6))
    assert read.cell(6, 2).attrs["icon"] == "none"
    assert read.cell(6, 2).confidence <= 0.75
    assert read.cell(6, 2).alternatives[0] == (labels.TILE, now.cell(6, 2).attrs, 0.64)


def test_a_sure_reading_in_view_or_higher_than_remembered_stands():
    seen = board({(6, 2): tile(0.98, "none")})
    now = board({(6, 2): tile(0.64, "bridge")})
    assert with_history(now, seen, Blind(0.2)).cells == now.cells  # in view: the frame wins
    assert with_history(now, seen).cells == now.cells  # no geometry: the frame wins
    higher = board({(6, 2): CellReading(labels.PILLAR1, 0.9, {"level": 2})})
    assert with_history(higher, seen, Blind(0.6)).cells == higher.cells  # a new piece may stand there


def test_a_decoration_read_too_high_stands_on_the_tile_space_seen_there():
    seen = board({cell: tile(0.9, "statue", level=2) for cell in ((1, 4), (1, 5), (2, 4), (2, 5))})
    now = board({**{cell: tile(0.9, "statue", level=2) for cell in ((1, 5), (2, 4), (2, 5))},
                 (1, 4): CellReading(labels.BELVEDERE, 0.45, {"level": 4})})
    # no tile read at level 4 round it: it stands on the level-2 space seen there
    assert with_history(now, seen, Blind(0.2)).cell(1, 4).attrs == {"level": 2}
    assert with_history(now, seen).cell(1, 4).attrs == {"level": 2}
    # that space out of view: the reading is no view of it, the space stands
    assert with_history(now, seen, Blind(0.6)).cell(1, 4).label == labels.TILE


def test_a_pillar_read_no_higher_than_a_surface_out_of_view_is_that_surface():
    seen = board({(5, 5): tile(0.9, "none", level=2)})
    now = board({(5, 5): CellReading(labels.PILLAR1, 0.4, {"level": 1})})
    assert with_history(now, seen, Blind(0.2)).cell(5, 5).attrs == {"level": 3}  # on the space, in view
    assert with_history(now, seen, Blind(0.6)).cell(5, 5).label == labels.TILE  # no view of it


def test_a_lone_tile_space_over_the_board_in_view_is_the_pillar_the_frame_also_saw():
    # a bare double pillar's top passes for a level-4 tile space by parallax; the frame's
    # alternatives hold the pillar's top at level 2 (on the board: a double pillar)
    now = board({(3, 2): CellReading(labels.TILE, 0.03, {"level": 4, "tile": "r3c1", "flower": "flower2", "icon": "none"},
                                     (("pillar", {"level": 2}, 0.02), ("tile", {"level": 3}, 0.01)))})
    read = with_history(now, board({}), Blind(0.2))
    assert (read.cell(3, 2).label, read.cell(3, 2).attrs) == (labels.PILLAR2, {"level": 2})
    assert read.cell(3, 2).confidence <= 0.03
    assert with_history(now, board({}), Blind(0.6)).cell(3, 2).label == labels.RECESS  # the board out of view
