"""Game states → twin layouts: what the twin draws is what the engine says is seen from above."""

from __future__ import annotations

from companion.games.babylon.model import Board, Decoration, Pillar, PlacedTile, Tile
from companion.games.babylon.quarry import Quarry
from companion.games.babylon.topview import top_view
from companion.sim.adapters import garden_from_board, quarry_from_state
from companion.vision import labels


def _board() -> Board:
    tile = Tile("t1", "granite", "pink", ("stairs", None, "statue", "fountain"))
    placed = PlacedTile(tile, 2, 2, 1, ("stairs", None, "statue", "fountain"), 1)
    pillars = tuple(Pillar(f"p{i}", cell, 0, "single") for i, cell in enumerate(placed.cells))
    bare = Pillar("d1", (0, 0), 0, "double")
    statue = Decoration("s1", "statue", ((3, 3),), (1,), 1)
    return Board((placed,), (*pillars, bare), (statue,))


def test_garden_layout_shows_what_the_engine_sees_from_above():
    board = _board()
    layout = garden_from_board(board)
    expected = layout.expected()
    engine = top_view(board)
    for r in range(8):
        for c in range(8):
            item = engine[r][c]
            label, attrs = expected[r][c]
            if item.kind == "pillar":
                assert label == (labels.PILLAR1 if item.height == 1 else labels.PILLAR2)
                assert attrs["level"] == item.level + item.height
            else:
                assert label == item.kind, (r, c)
                assert attrs["level"] == item.level
            if item.kind == "tile":
                assert attrs["icon"] == (item.icon or "none")
                assert attrs["tile"] == "r2c2" and attrs["flower"] == "flower1"  # pink is flower 1


def test_tile_icons_change_from_clockwise_to_row_major():
    layout = garden_from_board(_board())
    (tile,) = layout.tiles
    assert tile.icons == ("stairs", "none", "fountain", "statue")  # TL, TR, BL, BR


def test_quarry_layers_from_the_engine():
    quarry = Quarry().take((0, 0)).take((0, 0)).take((1, 2))
    layout = quarry_from_state(quarry)
    assert layout.layers[0][0] == 1 and layout.layers[1][2] == 2 and layout.layers[3][3] == 3
    assert layout.expected()[0][0][0] == labels.QUARRY_BASALT
