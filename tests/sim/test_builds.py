"""sim/builds.py: the still scenes of a layout's build stand up, one after the other, and end at
the layout."""

from __future__ import annotations

import numpy as np
import pytest

from companion.sim import boards, builds, garden
from companion.sim.garden import Decoration, GardenLayout, Pillar, Tile


def _surface(layout: GardenLayout) -> dict[tuple[int, int], int]:
    """The level of what each cell's pieces stand on if put down now (0 in the recess)."""
    level = {}
    for t in layout.tiles:
        for cell in t.cells():
            level[cell] = max(level.get(cell, 0), t.level)
    return level


def _stands(piece, before: GardenLayout) -> bool:
    """Whether `piece` can be put down on `before`: a pillar on the surface of its cell, a tile on
    3 or 4 pillar tops at its level (babylon.build.support), a decoration on tiles at its levels."""
    surface = _surface(before)
    tops = {(p.row, p.col): p.base_level + p.height for p in before.pillars}
    if isinstance(piece, Pillar):
        return surface.get((piece.row, piece.col), 0) == piece.base_level and (piece.row, piece.col) not in {
            (p.row, p.col) for p in before.pillars if p.base_level == piece.base_level}
    if isinstance(piece, Tile):
        return sum(tops.get(cell) == piece.level for cell in piece.cells()) >= 3
    ends = (piece.cells[0], piece.cells[-1])
    return all(surface.get(cell, 0) == level for cell, level in zip(ends, (piece.levels[0], piece.levels[-1]),
                                                                    strict=True))


@pytest.mark.parametrize("seed", range(6))
def test_a_garden_build_puts_each_piece_on_what_is_already_there(seed):
    layout = garden.random_layout(np.random.default_rng(seed))
    order = builds.garden_order(layout, np.random.default_rng(seed + 100))
    assert sorted(map(repr, order)) == sorted(map(repr, (*layout.pillars, *layout.tiles, *layout.decorations)))
    for k, piece in enumerate(order):
        before = builds._garden_layout(order[:k])
        assert _stands(piece, before), f"piece {k} ({piece}) put down before what carries it"


def test_a_tile_comes_after_its_pillars_and_before_the_pillar_on_it():
    under = [Pillar(2, 2, 0, 1), Pillar(2, 3, 0, 1), Pillar(3, 2, 0, 1), Pillar(3, 3, 0, 1)]
    tile = Tile(2, 2, 1, 0)
    on_top = Pillar(2, 2, 1, 2)
    statue = Decoration("statue", ((3, 3),), (1,))
    layout = GardenLayout((*under, on_top), (tile,), (statue,))
    for seed in range(10):
        order = builds.garden_order(layout, np.random.default_rng(seed))
        assert all(order.index(p) < order.index(tile) for p in under)
        assert order.index(tile) < order.index(on_top)
        assert order.index(tile) < order.index(statue)


def test_garden_scenes_grow_to_the_layout():
    layout = garden.random_layout(np.random.default_rng(3))
    states = builds.build_states(layout, np.random.default_rng(0), scenes=10)
    assert len(states) == 10
    sizes = [len(s.pillars) + len(s.tiles) + len(s.decorations) for s in states]
    assert sizes == sorted(sizes) and sizes[0] > 0
    assert states[-1].expected() == layout.expected()
    for earlier, later in zip(states, states[1:], strict=False):  # pieces stay where they are put
        assert set(earlier.pillars) <= set(later.pillars) and set(earlier.tiles) <= set(later.tiles)


@pytest.mark.parametrize("seed", range(4))
def test_baubylon_field_first_then_pawns_bottom_first(seed):
    layout = boards.random_baubylon(np.random.default_rng(seed))
    states = builds.build_states(layout, np.random.default_rng(seed), scenes=10)
    assert len(states) == 10 and states[-1] == layout
    pawns = [sum(len(p) for row in s.cells for _, p in row) for s in states]
    field_done = [all(h == layout.cells[r][c][0] for r, row in enumerate(s.cells) for c, (h, _) in enumerate(row))
                  for s in states]
    assert pawns == sorted(pawns) and pawns[-1] == sum(len(p) for row in layout.cells for _, p in row)
    assert all(field_done[k] for k, n in enumerate(pawns) if n)  # no pawn before the field stands
    assert not field_done[0] and pawns[0] == 0
    for s in states:
        for r, row in enumerate(s.cells):
            for c, (h, stack) in enumerate(row):
                final_h, final_stack = layout.cells[r][c]
                assert h <= final_h and h % 2 == final_h % 2
                assert final_stack[:len(stack)] == stack  # a stack's lower pawn comes first


def test_other_boards_have_no_modelled_build():
    assert builds.build_states(boards.random_babel(np.random.default_rng(0)), np.random.default_rng(0)) is None
