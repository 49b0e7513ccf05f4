"""The garden read with history (garden_history): what a frame reads unsurely is read with what was
seen there before; a clear view wins. Hand-made readings of a few cells on a board of recesses."""

from __future__ import annotations

import json
from dataclasses import replace
from functools import partial

import pytest

from companion.benchmarking import vision as bench
from companion.sim import garden
from companion.sim.garden import GardenLayout
from companion.sim.render import render
from companion.sim.scene import TableScene
from companion.vision import labels
from companion.vision.observers.babylon_garden import with_history
from companion.vision.observers.garden_history import KEY, RECALL_CAP, Memory
from companion.vision.types import CellReading, Observation
from tests.vision.bench_frames import bench_frame, wrong_cells

REGION = "babylon.garden"
RECESS = CellReading(labels.RECESS, 0.9, {"level": 0})
FOOTPRINT = ((2, 2), (2, 3), (3, 2), (3, 3))


def board(cells: dict[tuple[int, int], CellReading], default: CellReading = RECESS) -> Observation:
    rows = tuple(tuple(cells.get((r, c), default) for c in range(8)) for r in range(8))
    return Observation("babylon.garden", 8, 8, rows)


def tile(confidence: float, level: int = 1, tile_id: str = "r2c2", flower: str = "flower1", icon: str = "none") -> CellReading:
    return CellReading(labels.TILE, confidence, {"level": level, "tile": tile_id, "flower": flower, "icon": icon})


def pillar(label: str, level: int, confidence: float) -> CellReading:
    return CellReading(label, confidence, {"level": level})


def piece(label: str, level: int, confidence: float) -> CellReading:
    return CellReading(label, confidence, {"level": level})


def chain(*scenes: Observation) -> Observation:
    """Each scene read with the reading of the one before, as the live reader and the in-play
    bench do; the last reading."""
    reading = scenes[0]
    for scene in scenes[1:]:
        reading = with_history(scene, reading)
    return reading


def test_a_tile_seen_keeps_its_flower_when_no_space_of_it_shows_it_now():
    seen = board({cell: tile(0.9, flower="flower1") for cell in FOOTPRINT})
    hidden = board({cell: tile(0.3, flower="flower2") for cell in FOOTPRINT})
    read = with_history(hidden, seen)
    for r, c in FOOTPRINT:
        cell = read.cell(r, c)
        assert cell.attrs["flower"] == "flower1"
        # says it is from history: no surer than the reading remembered, never confident, the
        # frame's own kept first
        assert cell.confidence <= min(0.9, RECALL_CAP)
        assert cell.alternatives[0][1]["flower"] == "flower2"


def test_a_flower_seen_before_a_decoration_covered_two_spaces_is_still_known():
    seen = board({cell: tile(0.9, flower="flower3") for cell in FOOTPRINT})
    covered = board({**{cell: piece(labels.FOUNTAIN, 1, 0.95) for cell in FOOTPRINT[2:]},
                     **{cell: tile(0.6, flower="flower3") for cell in FOOTPRINT[:2]}})
    hidden = board({**{cell: piece(labels.FOUNTAIN, 1, 0.95) for cell in FOOTPRINT[2:]},
                    **{cell: tile(0.2, flower="flower0") for cell in FOOTPRINT[:2]}})
    read = chain(seen, covered, hidden)
    assert [read.cell(r, c).attrs["flower"] for r, c in FOOTPRINT[:2]] == ["flower3", "flower3"]
    assert [read.cell(r, c).label for r, c in FOOTPRINT[2:]] == [labels.FOUNTAIN, labels.FOUNTAIN]


def test_a_clear_view_wins_over_memory():
    seen = board({cell: tile(0.9, flower="flower1") for cell in FOOTPRINT})
    now = board({cell: tile(0.7, flower="flower2") for cell in FOOTPRINT})
    assert with_history(now, seen).cells == now.cells  # the flower is seen otherwise now
    gone = board({})  # the tile taken back: the recesses are seen
    assert with_history(gone, seen).cells == gone.cells


def test_a_piece_taken_back_is_forgotten():
    seen = board({(4, 4): pillar(labels.PILLAR1, 1, 0.95)})
    gone = board({})
    doubt = board({(4, 4): tile(0.2, tile_id="r4c4")})
    read = chain(seen, gone, doubt)
    # the board was seen again at (4, 4): a tile read unsurely there with no other space of it
    # shown is the board seen before, not a tile on a pillar that is no longer there
    assert read.cell(4, 4).label == labels.RECESS


def test_nothing_gets_lower_than_what_was_seen():
    seen = board({cell: tile(0.9, level=2) for cell in FOOTPRINT})
    now = board({**{cell: tile(0.9, level=2) for cell in FOOTPRINT[1:]}, FOOTPRINT[0]: tile(0.3, level=1)})
    read = with_history(now, seen)
    assert read.cell(*FOOTPRINT[0]).attrs["level"] == 2
    assert read.cell(*FOOTPRINT[0]).confidence <= RECALL_CAP
    assert read.cell(*FOOTPRINT[0]).alternatives[0] == (labels.TILE, now.cell(*FOOTPRINT[0]).attrs, 0.3)


def test_a_tile_read_higher_on_the_same_footprint_is_the_tile_seen_there():
    seen = board({cell: tile(0.95, level=1, icon="statue") for cell in FOOTPRINT})
    now = board({**{cell: tile(0.9, level=1, icon="statue") for cell in FOOTPRINT[1:]},
                 FOOTPRINT[0]: tile(0.2, level=2, flower="flower2")})
    # babylon.build.no_exact_cover: no tile lies right on one of the same footprint
    assert with_history(now, seen).cell(*FOOTPRINT[0]).attrs == seen.cell(*FOOTPRINT[0]).attrs


def test_the_same_tile_keeps_its_footprint_and_icon_where_read_unsurely():
    seen = board({cell: tile(0.95, icon="statue") for cell in FOOTPRINT})
    now = board({**{cell: tile(0.9, icon="statue") for cell in FOOTPRINT[1:]},
                 FOOTPRINT[0]: tile(0.4, tile_id="r1c2", icon="bridge")})
    read = with_history(now, seen)
    assert read.cell(*FOOTPRINT[0]).attrs == {"level": 1, "tile": "r2c2", "flower": "flower1", "icon": "statue"}


def test_a_new_pillar_stands_on_what_was_seen_there():
    seen = board({(5, 5): tile(0.9, level=2, tile_id="r5c5"), (5, 6): tile(0.9, level=2, tile_id="r5c5")})
    now = board({(5, 5): pillar(labels.PILLAR1, 1, 0.4), (5, 6): pillar(labels.PILLAR2, 2, 0.3)})
    read = with_history(now, seen)
    # a pillar read no higher than the level-2 tile space seen there stands on it
    assert (read.cell(5, 5).label, read.cell(5, 5).attrs) == (labels.PILLAR1, {"level": 3})
    assert (read.cell(5, 6).label, read.cell(5, 6).attrs) == (labels.PILLAR2, {"level": 4})
    assert read.cell(5, 6).confidence <= 0.3


def test_a_pillar_too_high_for_the_surface_seen_there_stands_only_on_a_tile_read_round_it():
    seen = board({})
    lone = board({(3, 1): pillar(labels.PILLAR1, 5, 0.45)})
    # babylon.build.pillars: a single pillar on the board tops level 1; level 5 needs tiles beneath
    assert with_history(lone, seen).cell(3, 1).label == labels.RECESS
    carried = board({(3, 1): pillar(labels.PILLAR1, 2, 0.45), (3, 0): tile(0.9, tile_id="r3c0"),
                     (4, 0): tile(0.9, tile_id="r3c0"), (4, 1): tile(0.9, tile_id="r3c0")})
    assert with_history(carried, seen).cell(3, 1) == carried.cell(3, 1)  # on tile r3c0 laid since
    direct = board({(3, 1): pillar(labels.PILLAR2, 2, 0.3)})
    assert with_history(direct, seen).cell(3, 1) == direct.cell(3, 1)  # a double pillar on the board


def test_a_decoration_stands_at_the_level_of_the_tile_seen_under_it():
    seen = board({cell: tile(0.9, level=2) for cell in FOOTPRINT})
    now = board({**{cell: tile(0.9, level=2) for cell in FOOTPRINT[1:]}, FOOTPRINT[0]: piece(labels.STATUE, 1, 0.35)})
    read = with_history(now, seen)
    assert (read.cell(*FOOTPRINT[0]).label, read.cell(*FOOTPRINT[0]).attrs) == (labels.STATUE, {"level": 2})


def test_what_cannot_stand_on_the_bare_board_is_the_board_seen_there():
    now = board({(6, 6): tile(0.3, tile_id="r6c6"), (1, 1): piece(labels.STATUE, 2, 0.4),
                 (1, 6): piece(labels.BELVEDERE, 1, 0.4)})
    read = with_history(now, board({}))
    assert read.cell(6, 6).label == labels.RECESS  # a lone tile space over the board: a look-alike
    assert read.cell(1, 1).label == labels.RECESS  # a statue stands on a tile space
    assert read.cell(1, 6).label == labels.BELVEDERE  # a tile's open space may lie over the board


def test_a_lone_tile_space_read_over_a_tile_space_seen_there_is_that_space():
    seen = board({cell: tile(0.9, level=1, tile_id="r5c3") for cell in ((5, 3), (5, 4), (6, 3), (6, 4))})
    now = board({**{cell: tile(0.9, level=1, tile_id="r5c3") for cell in ((5, 3), (6, 3), (6, 4))},
                 (5, 4): tile(0.45, level=2, tile_id="r5c4")})
    assert with_history(now, seen).cell(5, 4).attrs == seen.cell(5, 4).attrs


def test_a_new_tile_shown_on_its_other_spaces_stands():
    now = board({**{cell: tile(0.8) for cell in FOOTPRINT[1:]}, FOOTPRINT[0]: tile(0.2)})
    read = with_history(now, board({}))
    assert read.cells == now.cells


def test_a_new_tile_whose_other_spaces_carry_pieces_on_its_level_stands():
    # tile r2c2 at level 2 laid with its pillars in one move, then pieces on three of its spaces
    now = board({FOOTPRINT[0]: tile(0.4, level=2), FOOTPRINT[1]: pillar(labels.PILLAR2, 4, 0.9),
                 FOOTPRINT[2]: pillar(labels.PILLAR1, 3, 0.45), FOOTPRINT[3]: piece(labels.STATUE, 2, 0.8)})
    assert with_history(now, board({})).cells == now.cells
    elsewhere = board({**now_cells(now), FOOTPRINT[1]: pillar(labels.PILLAR2, 2, 0.9),
                       FOOTPRINT[2]: RECESS, FOOTPRINT[3]: RECESS})
    assert with_history(elsewhere, board({})).cell(*FOOTPRINT[0]).label == labels.RECESS  # on the board: not its level


def now_cells(observation: Observation) -> dict[tuple[int, int], CellReading]:
    return {(r, c): observation.cell(r, c) for r in range(8) for c in range(8)}


def test_a_new_tile_lies_at_the_level_of_the_pillar_tops_seen_beneath_it():
    pillars = board({cell: pillar(labels.PILLAR2, 2, 0.9) for cell in FOOTPRINT[:3]})
    now = board({cell: tile(0.3, level=1) for cell in FOOTPRINT})
    read = with_history(now, pillars)
    assert [read.cell(r, c).attrs["level"] for r, c in FOOTPRINT] == [2, 2, 2, 2]
    assert all(read.cell(r, c).confidence <= 0.3 for r, c in FOOTPRINT)


def test_an_unsure_new_piece_above_what_was_seen_stands():
    seen = board({cell: tile(0.9, level=1) for cell in FOOTPRINT})
    now = board({**{cell: tile(0.9, level=1) for cell in FOOTPRINT[1:]}, FOOTPRINT[0]: pillar(labels.PILLAR2, 3, 0.3)})
    assert with_history(now, seen).cells == now.cells


def test_the_memory_keeps_what_lies_beneath_and_the_surer_of_two_readings_alike():
    memory = Memory()
    memory.see(board({(2, 2): pillar(labels.PILLAR1, 1, 0.9)}).cells, [[True] * 8 for _ in range(8)])
    memory.see(board({(2, 2): tile(0.95)}).cells, [[True] * 8 for _ in range(8)])
    memory.see(board({(2, 2): tile(0.6, tile_id="r1c2")}).cells, [[True] * 8 for _ in range(8)])
    assert [rec[0] for rec in memory.stacks[18]] == [labels.PILLAR1, labels.TILE]
    assert memory.top(2, 2)[1]["tile"] == "r2c2"  # 0.95 beats 0.6 at the same height
    memory.see(board({}).cells, [[True] * 8 for _ in range(8)])  # the board seen again: all gone
    assert [rec[0] for rec in memory.stacks[18]] == [labels.RECESS]


def test_the_memory_travels_in_the_reading_as_plain_json():
    read = chain(board({cell: tile(0.9) for cell in FOOTPRINT}), board({cell: tile(0.2, flower="flower0") for cell in FOOTPRINT}))
    carried = replace(read, extras=json.loads(json.dumps(read.extras)))
    later = board({cell: tile(0.3, flower="flower2") for cell in FOOTPRINT})
    assert with_history(later, carried).cells == with_history(later, read).cells
    assert [later_cell.attrs["flower"] for later_cell in with_history(later, carried).cells[2][2:4]] == ["flower1"] * 2
    assert read.extras["tiles"] == ["r2c2"]


@pytest.mark.slow
def test_a_tile_seen_then_covered_is_read_right_with_history_on_a_rendered_table():
    """Bench frame 70 of seed 0: a fountain on two spaces of tile r5c5 hides its flower dots, and
    the single frame reads the flower wrong at (5, 5). Read after the same table without its
    decorations (the tile seen before the fountain came), the flower is read right, and nothing
    the single frame read right is read wrong."""
    layout, image, observer = bench_frame(REGION, 0, 70)
    camera = bench.bench_camera(REGION, 0, 70)
    _, scene = bench.bench_scene(REGION, 0, 70)
    earlier = GardenLayout(layout.pillars, layout.tiles, ())
    earlier_scene = TableScene((garden.region_scene(earlier),), lighting=scene.lighting, imaging=scene.imaging)
    before = observer.observe(render(earlier_scene, camera, seed=71))
    single = observer.observe(image)
    read = observer.observe(image, previous=before)
    expected = layout.expected()
    wrong = partial(wrong_cells, expected=expected)

    assert (5, 5) in wrong(single)
    assert (5, 5) not in wrong(read)
    assert wrong(read) < wrong(single)
    assert observer.observe(image).cells == single.cells  # history left the observer as it was


def test_a_reading_of_another_board_is_not_history():
    now = board({cell: tile(0.2, flower="flower0") for cell in FOOTPRINT})
    other = replace(board({cell: tile(0.9) for cell in FOOTPRINT}), region="babylon.quarry")
    assert with_history(now, other) is now
    odd = replace(board({cell: tile(0.9) for cell in FOOTPRINT}), extras={KEY: {"cells": []}})
    assert with_history(now, odd).cell(2, 2).attrs["flower"] == "flower1"  # its own cells remembered


def test_stairs_are_never_taken_for_lower_than_their_higher_step():
    seen = board({(6, 4): pillar(labels.PILLAR2, 2, 0.93)})
    now = board({(6, 4): CellReading(labels.STAIRS, 0.3, {"level": [1, 2]})})
    # a tile laid on the pillar (level 2) and stairs on it: their step here may be the level-2 one
    assert with_history(now, seen).cells == now.cells
