"""The plain grid reader on synthetic photos: exact tokens at several angles, sizes and lightings."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision.boards import grid_board
from companion.vision.grid import classify, parse_grid_size, read_grid
from companion.vision.locate import synthetic as sy


def expected(spec, stones):
    return tuple(tuple(stones.get((r, c), ".") for c in range(spec.cols)) for r in range(spec.rows))


@pytest.mark.slow
@pytest.mark.parametrize(("tilt", "turn", "fill", "seed"), [(20, 5, 0.3, 1), (40, -20, 0.5, 2)])
def test_19x19_reads_exactly(tilt, turn, fill, seed):
    spec = grid_board(19, 19, True)
    stones = sy.random_position(spec, np.random.default_rng(seed), fill=fill)
    view = sy.go_board_photo(spec, stones, seed=seed, tilt_deg=tilt, turn_deg=turn)
    reading = read_grid(view.image, 19, 19)
    assert reading.tokens == expected(spec, stones)
    lines = reading.text().splitlines()
    assert len(lines) == 19 and all(len(line.split(" ")) == 19 for line in lines)


@pytest.mark.parametrize(
    ("tilt", "turn", "fill", "seed"), [(0, 0, 0.4, 3), (35, 15, 0.5, 4), (25, -30, 0.2, 5), (30, -40, 0.6, 14)]
)
def test_9x9_reads_exactly(tilt, turn, fill, seed):
    spec = grid_board(9, 9, True)
    stones = sy.random_position(spec, np.random.default_rng(seed), fill=fill)
    view = sy.go_board_photo(spec, stones, seed=seed, tilt_deg=tilt, turn_deg=turn)
    assert read_grid(view.image, 9, 9).tokens == expected(spec, stones)


def test_cells_board_reads_exactly():
    spec = grid_board(8, 8, False)
    stones = sy.random_position(spec, np.random.default_rng(6), fill=0.5)
    view = sy.go_board_photo(spec, stones, seed=6, tilt_deg=30, turn_deg=-10)
    assert read_grid(view.image, 8, 8, on_points=False).tokens == expected(spec, stones)


def test_empty_board_is_all_empty_with_confidence():
    view = sy.go_board_photo(grid_board(9, 9, True), {}, seed=7, tilt_deg=20, turn_deg=5)
    reading = read_grid(view.image, 9, 9)
    assert {t for row in reading.tokens for t in row} == {"."}
    assert min(min(row) for row in reading.confidence) > 0.2


def test_rows_follow_the_image_not_the_board():
    """A board turned a quarter: the top row printed is the board's column as the image shows it."""
    spec = grid_board(9, 9, True)
    stones = {(0, 0): "B", (0, 8): "W", (8, 8): "B"}  # board frame
    view = sy.go_board_photo(spec, stones, seed=8, tilt_deg=10, turn_deg=90)
    tokens = read_grid(view.image, 9, 9).tokens
    found = {(r, c): t for r, row in enumerate(tokens) for c, t in enumerate(row) if t != "."}
    # The true board points, seen in the picture, sorted into the image's own rows and columns.
    image_of = {rc: view.project(np.array([spec.cell_centre(*rc)]))[0] for rc in stones}
    top_left_first = sorted(image_of, key=lambda rc: (round(image_of[rc][1] / 40), image_of[rc][0]))
    assert len(found) == 3
    assert [stones[rc] for rc in top_left_first] == [found[k] for k in sorted(found)]


def test_lighting_does_not_matter_only_contrast_with_the_board_does():
    """The same features scaled as a darker room would give the same classes."""
    rng = np.random.default_rng(9)
    features = np.zeros((5, 5, 2))
    features[..., 0] = rng.normal(-0.02, 0.02, (5, 5))
    features[1, 1] = (-1.2, -0.1)
    features[3, 3] = (0.35, -0.4)
    tokens, confidence = classify(features)
    assert tokens[1][1] == "B" and tokens[3][3] == "W"
    assert sum(t != "." for row in tokens for t in row) == 2


def test_no_pieces_means_no_classes_even_with_noise():
    features = np.random.default_rng(10).normal(0, 0.02, (9, 9, 2))
    tokens, _ = classify(features)
    assert {t for row in tokens for t in row} == {"."}


@pytest.mark.parametrize("text", ["19", "19x", "x19", "1x19", "19x19x19", "big"])
def test_bad_grid_sizes_are_refused(text):
    with pytest.raises(ValueError, match="expected"):
        parse_grid_size(text)


def test_grid_sizes_parse():
    assert parse_grid_size("19x19") == (19, 19)
    assert parse_grid_size("9×13") == (9, 13)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("n", "fill", "photo"),
    [
        (19, 0.45, {"wood": (40, 75, 110)}),  # dark walnut: faint lines, dark board next to black stones
        (13, 0.45, {"blur": 0.8, "jpeg_quality": 75}),  # soft focus and JPEG blocks
        (19, 0.7, {}),  # a dense end game: most lines hidden, rows of stones suggest diagonals
    ],
)
def test_harder_photos_read_exactly(n, fill, photo):
    spec = grid_board(n, n, True)
    stones = sy.random_position(spec, np.random.default_rng(n), fill=fill)
    view = sy.go_board_photo(spec, stones, seed=n, tilt_deg=25, turn_deg=-6, **photo)
    assert read_grid(view.image, n, n).tokens == expected(spec, stones)
