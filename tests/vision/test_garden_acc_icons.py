"""A tile space's icon where a neighbour as read hides its middle (babylon_garden._occluded_icons)."""

from companion.vision import labels
from tests.vision.bench_frames import bench_frame, bench_seen, visible_and_wrong

REGION = "babylon.garden"


def test_a_middle_of_the_tiles_own_colour_keeps_no_icon_when_read_as_hidden():
    """Bench seed 1, frame 143: (6, 2) is a bare space (no icon) of the level-1 tile r6c2, in full
    view. The cell in front of it, (5, 2), is an empty recess hidden behind a level-2 tile and read
    (barely: nothing fits there) as a level-2 tile space, which would hide all of (6, 2)'s middle.
    The first look saw that middle all of the tile's own colour: nothing there to take back, so the
    wider window (which reaches the space's dark frame and read a bridge there) is not asked."""
    layout, image, observer = bench_frame(REGION, 1, 143)
    seen = bench_seen(REGION, 1, 143, layout)
    expected = layout.expected()
    observation = observer.observe(image)
    assert expected[6][2] == (labels.TILE, {"level": 1, "tile": "r6c2", "flower": "flower0", "icon": "none"})
    assert seen[6, 2] == 1.0
    rows = [list(row) for row in observation.cells]
    # The situation the rule is about: the neighbours as read hide every point of the middle.
    assert rows[5][2].label == labels.TILE and rows[5][2].attrs["level"] == 2
    assert observer.occlusion.hidden(rows, [(6, 2, 1)]).all()
    cell = observation.cell(6, 2)
    assert (cell.label, cell.attrs) == expected[6][2]
    assert visible_and_wrong(observation, expected, seen) == []


def test_what_shows_of_a_hidden_middle_unlike_any_icon_is_no_icon():
    """Bench seed 4, frame 48: (3, 5) is a bare space (no icon) of the level-2 tile r3c4; the
    level-4 double pillar in front, (2, 5), hides part of its middle. What is left in view still
    holds pixels unlike the tile (the pillar's blurred edge), but they look like no icon's print
    (glyph supports summing to ~0.005): not an icon. It was read as a bridge, the nearest colour."""
    layout, image, observer = bench_frame(REGION, 4, 48)
    seen = bench_seen(REGION, 4, 48, layout)
    expected = layout.expected()
    observation = observer.observe(image)
    assert expected[3][5] == (labels.TILE, {"level": 2, "tile": "r3c4", "flower": "flower2", "icon": "none"})
    assert seen[3, 5] >= 0.6
    rows = [list(row) for row in observation.cells]
    assert rows[2][5].label == labels.PILLAR2 and rows[2][5].attrs["level"] == 4
    hidden = observer.occlusion.hidden(rows, [(3, 5, 2)])[0]
    assert 0 < hidden.mean() < 1  # partly hidden: read again from what shows
    cell = observation.cell(3, 5)
    assert (cell.label, cell.attrs) == expected[3][5]
    assert visible_and_wrong(observation, expected, seen) == []


def test_the_tiles_colour_is_taken_from_an_even_strip_not_one_half_in_shade():
    """Bench seed 1, frame 80: (6, 1) is a bare space (no icon) of the level-1 tile r5c1, in full
    view; its middle is the lit tile's colour (L ~75). Its right edge strip catches something darker
    along part of it (L 54 on average, its lightness spread 7 against the tile's ~0.6): as a mean
    colour it is nearer the learned tile colour (L 64, between lit and shaded tiles) than the three
    even lit strips, so it was taken as the tile's colour and the whole middle read unlike it (a
    stairs icon). Judged on colour and evenness together (all six of a strip's features against the
    tile's model) an even lit strip is the tile's colour, and the middle has no icon."""
    layout, image, observer = bench_frame(REGION, 1, 80)
    seen = bench_seen(REGION, 1, 80, layout)
    expected = layout.expected()
    observation = observer.observe(image)
    assert expected[6][1] == (labels.TILE, {"level": 1, "tile": "r5c1", "flower": "flower1", "icon": "none"})
    assert seen[6, 1] == 1.0
    cell = observation.cell(6, 1)
    assert (cell.label, cell.attrs) == expected[6][1]
    assert visible_and_wrong(observation, expected, seen) == []


def test_an_uneven_strip_beside_a_bare_middle_is_not_the_tiles_colour():
    """Bench seed 5, frame 56: (4, 5), a bare space of the level-1 tile r3c5 in full view, read as a
    stairs icon the same way (its left strip L 56 with lightness spread 7, the other three even and
    lit at L 73)."""
    layout, image, observer = bench_frame(REGION, 5, 56)
    seen = bench_seen(REGION, 5, 56, layout)
    expected = layout.expected()
    observation = observer.observe(image)
    assert expected[4][5] == (labels.TILE, {"level": 1, "tile": "r3c5", "flower": "flower0", "icon": "none"})
    assert seen[4, 5] == 1.0
    cell = observation.cell(4, 5)
    assert (cell.label, cell.attrs) == expected[4][5]
    assert visible_and_wrong(observation, expected, seen) == []
