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
