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
