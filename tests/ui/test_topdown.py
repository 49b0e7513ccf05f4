"""Top-down pictures from the engines' own states, and cell names / piece ids located on them."""

from __future__ import annotations

import pytest

from companion.games import registry
from companion.ui.fake import DemoState, babylon_scenario
from companion.ui.topdown import Picture, letter_number, picture_for


@pytest.mark.parametrize(
    ("name", "cell"),
    [("a1", (0, 0)), ("c4", (3, 2)), ("H8", (7, 7)), ("B2", (1, 1)), ("r3c4", (3, 4)), ("tile:r2c3", (2, 3))],
)
def test_cell_names(name, cell):
    assert letter_number(name) == cell


@pytest.mark.parametrize("name", ["hand", "north", "storage", "c", "44"])
def test_names_that_are_not_cells(name):
    assert letter_number(name) is None


def test_locate_keeps_names_off_the_grid_as_words():
    picture = Picture(8, 8, pieces={"t1": frozenset({(0, 0), (0, 1)})})
    cells, others = picture.locate(("t1", "c4", "i9", "hand"))
    assert cells == {(0, 0), (0, 1), (3, 2)}
    assert others == ["i9", "hand"]


def test_a_state_without_an_adapter_gets_a_plain_grid():
    picture = picture_for(DemoState(), None, "babylon")  # the fake's state has no Babylon boards
    assert (picture.rows, picture.cols, picture.looks) == (8, 8, {})
    assert picture_for(None, None, "babel").rows == 3


@pytest.mark.slow
def test_babylon_score_pieces_light_the_cells_the_engine_scored():
    scenario = babylon_scenario()
    final = scenario.final
    sheet = final.score_sheet()
    for player in range(len(sheet.players)):
        picture = picture_for(final, player)
        top = final.seats[player].board.top
        for line in sheet.lines_for(player):
            cells, others = picture.locate(line.pieces)
            assert others == [], (line.category, others)  # every scoring piece is visible somewhere
            for cell in cells:
                item = top.at(cell)
                assert item.piece_id in line.pieces or item.tile_id in line.pieces
        looks = {look.fill for look in picture.looks.values()}
        assert "recess" in looks or top.visible_recesses() == 0
        assert any(fill.startswith("tile") for fill in looks)


@pytest.mark.slow
def test_babylon_violation_where_is_on_the_board():
    scenario = babylon_scenario()
    ruling = scenario.before.check(scenario.illegal)
    assert ruling.violations
    picture = picture_for(scenario.before)
    for violation in ruling.violations:
        cells, others = picture.locate(violation.where)
        assert cells and not others


def test_reclamation_flower_plays_from_the_bottom_edge():
    state = registry.get("reclamation").new_game(("Flower player", "Vine player"))
    picture = picture_for(state)
    assert picture.looks[(5, 5)].fill == "flower_gardener"  # f1: Flower's front right, drawn bottom right
    assert picture.looks[(0, 0)].fill == "vine_gardener"  # a6: Vine's front right, seen from across
    assert picture.looks[(5, 5)].label == "3"
    assert picture.locate(["f1", "a6"])[0] == {(5, 5), (0, 0)}


def test_babel_towers_show_their_cube_counts():
    spec = registry.get("babel")
    state = spec.new_game(tuple(f"P{n}" for n in range(5)))
    picture = picture_for(state)
    assert (picture.rows, picture.cols) == (3, 3)
    assert {look.label for look in picture.looks.values()} == {"0"}
    assert picture.locate(["A1", "C3"])[0] == {(0, 0), (2, 2)}
