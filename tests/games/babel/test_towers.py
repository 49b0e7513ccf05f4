"""The 3×3 base and what a camera reads from it."""

import pytest

from companion.games.babel import cube_counts, cube_grid
from companion.games.babel.towers import CELLS, add_cubes, from_grid, from_mapping, tallest_cells

from .helpers import building


def test_cells_are_columns_a_to_c_and_rows_1_to_3():
    assert CELLS == ("A1", "B1", "C1", "A2", "B2", "C2", "A3", "B3", "C3")


def test_camera_view_of_a_state():
    state = building(towers=from_mapping({"C1": 3, "B2": 8, "A3": 1}))
    assert cube_counts(state)["B2"] == 8
    assert cube_counts(state)["A1"] == 0
    assert cube_grid(state) == ((0, 0, 3), (0, 8, 0), (1, 0, 0))
    assert from_grid(cube_grid(state)) == state.towers


def test_tallest_cells_and_removal_never_below_zero():
    towers = from_mapping({"A1": 4, "C3": 4, "B2": 1})
    assert tallest_cells(towers) == ("A1", "C3")
    assert tallest_cells(from_mapping({})) == ()
    assert add_cubes(from_mapping({"B2": 1}), "B2", -2) == from_mapping({})


@pytest.mark.parametrize(
    ("counts", "fragment"),
    [({"D1": 1}, "unknown cell"), ({"A1": -1}, "count ≥ 0"), ({"A1": 20, "B1": 6}, "only 25"), ({"A1": "2"}, "count")],
)
def test_bad_readings_are_refused(counts, fragment):
    with pytest.raises(ValueError, match=fragment):
        from_mapping(counts)


def test_grid_must_be_three_by_three():
    with pytest.raises(ValueError, match="3×3"):
        from_grid([[0, 0], [0, 0]])
