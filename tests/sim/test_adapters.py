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


def test_a_whole_babylon_table_and_an_illegal_tile_drawn_on_it():
    from companion.games.babylon.moves import PlaceDecoration, PlaceTile
    from companion.games.babylon.selfplay import play_random_game
    from companion.sim.adapters import babylon_layouts

    initial, moves, _ = play_random_game(players=2, seed=3)
    state = initial
    for move in moves[:36]:  # a tile just taken, in hand
        state = state.apply(move)
    layouts = babylon_layouts(state)
    assert set(layouts) == {"babylon.quarry", "babylon.garden.0", "babylon.garden.1"}
    region = f"babylon.garden.{state.turn_of}"
    floating = PlaceTile("new", 6, 6, 2, icons=("stairs", None, None, "statue"))  # no pillars under it
    drawn = babylon_layouts(state, floating)[region]
    assert len(drawn.tiles) == len(layouts[region].tiles) + 1
    tile = drawn.tiles[-1]
    assert (tile.row, tile.col, tile.level) == (6, 6, 2) and tile.icons == ("stairs", "none", "statue", "none")
    bridge = PlaceDecoration("bridge", ((0, 0), (0, 2)))
    deco = babylon_layouts(state, bridge)[region].decorations[-1]
    assert deco.kind == "bridge" and deco.cells == ((0, 0), (0, 1), (0, 2))


def test_baubylon_board_shows_every_piece_and_reads_as_the_view_expects():
    from companion.games.baubylon import moves as mv
    from companion.games.baubylon.state import new_game
    from companion.referee.views.baubylon import REGION, BaubylonView
    from companion.sim.adapters import baubylon_layout

    state = new_game(("Ann", "Ben"))
    state = state.apply(mv.Roll(3))
    step = next(m for m in state.legal_moves() if isinstance(m, mv.Step))
    layout = baubylon_layout(state, step)
    assert len(layout.cells) == 12 and len(layout.cells[0]) == 12
    after = state.apply(step)
    expected = BaubylonView().expected(after)[REGION]
    drawn = layout.expected()
    for r, row in enumerate(expected):
        for c, cell in enumerate(row):
            label, attrs = drawn[r][c]
            assert label == cell.label
            assert (attrs["height"], tuple(attrs["pawns"])) == (cell.attr("height"), cell.attr("pawns"))
