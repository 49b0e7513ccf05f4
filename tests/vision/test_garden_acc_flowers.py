"""A tile's flower is read from the part of its dots the camera sees (garden_flowers)."""

import numpy as np
import pytest

from companion.benchmarking import vision as bench
from companion.vision import labels
from companion.vision.observers.babylon_garden import FLOWER_CLASSES, GHOST_CAP, TILE_BASE, UNCLEAR
from companion.vision.observers.garden_flowers import SeenDots, seen_dot_support, seen_flowers
from companion.vision.observers.garden_tiles import dot_models
from companion.vision.types import CellReading
from tests.vision.bench_frames import bench_frame, bench_seen, visible_and_wrong

REGION = "babylon.garden"


@pytest.fixture(scope="module")
def frame():
    """Bench seed 0, frame 24: the level-1 tile r5c4 shows one space, (6, 4), whose dots a pillar
    and a higher tile in front hide in part (flower1, blue; the hidden part's mix read as flower2)."""
    layout, image, observer = bench_frame(REGION, 0, 24)
    return layout, image, observer


def _recesses():
    return [[CellReading(labels.RECESS, 0.99, {"level": 0}) for _ in range(8)] for _ in range(8)]


def _tile(level: int, tile: str, flower: str = "flower0", confidence: float = 0.9) -> CellReading:
    return CellReading(labels.TILE, confidence, {"level": level, "tile": tile, "flower": flower, "icon": "none"})


def test_a_partly_hidden_dot_is_read_from_its_part_in_view(frame):
    layout, image, observer = frame
    observation = observer.observe(image)
    expected = layout.expected()
    seen = bench_seen(REGION, 0, 24, layout)
    assert expected[6][4][1]["flower"] == "flower1" and seen[6, 4] >= bench.VISIBLE
    assert observation.cell(6, 4).attrs == expected[6][4][1]
    assert visible_and_wrong(observation, expected, seen) == []


def _occluded_space(seen: SeenDots):
    """A level-1 tile space and a neighbour whose level-3 pillar top hides part of its dots."""
    for r in range(1, 7):
        for c in range(1, 7):
            for dr, dc in ((1, 0), (0, 1), (0, -1), (-1, 0)):
                rows = _recesses()
                rows[r][c] = _tile(1, f"r{r}c{c}")
                rows[r + dr][c + dc] = CellReading(labels.PILLAR2, 0.9, {"level": 3})
                hidden = seen.hidden(rows, [(r, c, 1)])[0]
                if 0 < hidden.mean() < 1:
                    return rows, (r, c), (r + dr, c + dc), hidden
    raise AssertionError("no neighbour hides part of a space's dots for this camera")


def test_only_neighbours_read_surely_enough_hide_a_dot(frame):
    _, image, observer = frame
    observer.observe(image)
    seen = SeenDots(observer.sampler.geometry, observer.dims, 25.0, observer.levels)
    rows, (r, c), (r2, c2), hidden = _occluded_space(seen)
    models = dot_models(observer.profile, FLOWER_CLASSES, TILE_BASE)
    # The hidden points' corners are judged again from what shows; corners all in view are not.
    again = seen_dot_support(rows, seen, observer.sampler.sample_points, observer.profile, FLOWER_CLASSES,
                             TILE_BASE, models, UNCLEAR)
    corner_hidden = [bool(hidden[seen.corner == k].any()) for k in range(4)]
    assert list(again) == [(r, c, 1)] and again[(r, c, 1)][1].tolist() == corner_hidden
    # A neighbour read unsurely is no evidence that anything is out of view.
    rows[r2][c2] = CellReading(labels.PILLAR2, UNCLEAR / 2, {"level": 3})
    assert seen_dot_support(rows, seen, observer.sampler.sample_points, observer.profile, FLOWER_CLASSES,
                            TILE_BASE, models, UNCLEAR) == {}


class _AllHidden(SeenDots):
    def hidden(self, rows, cells, standing=None):
        return np.ones((len(cells), len(self.points)), bool)


def test_a_tile_none_of_whose_dots_shows_keeps_its_first_flower_unsure(frame):
    _, image, observer = frame
    observer.observe(image)
    seen = _AllHidden(observer.sampler.geometry, observer.dims, 25.0, observer.levels)
    rows = _recesses()
    rows[2][2], rows[2][3] = _tile(1, "r2c2", "flower3"), _tile(1, "r2c2", "flower3", 0.3)
    first = np.zeros((4, len(FLOWER_CLASSES)))
    first[1, 2] = 0.9  # the first look: flower2's dot in the top-right corner
    models = dot_models(observer.profile, FLOWER_CLASSES, TILE_BASE)
    out = seen_flowers(rows, lambda level, r, c: first, seen, observer.sampler.sample_points, observer.profile,
                       FLOWER_CLASSES, TILE_BASE, models, UNCLEAR, GHOST_CAP)
    assert [out[2][c].attrs["flower"] for c in (2, 3)] == ["flower2", "flower2"]
    assert [out[2][c].confidence for c in (2, 3)] == [GHOST_CAP, 0.3]
    # The same dots in view: the first look's flower, confidences untouched.
    shown = SeenDots(observer.sampler.geometry, observer.dims, 25.0, observer.levels)
    out = seen_flowers(rows, lambda level, r, c: first, shown, observer.sampler.sample_points, observer.profile,
                       FLOWER_CLASSES, TILE_BASE, models, UNCLEAR, GHOST_CAP)
    assert [(out[2][c].attrs["flower"], out[2][c].confidence) for c in (2, 3)] == [("flower2", 0.9), ("flower2", 0.3)]


def test_a_tile_whose_dots_show_no_flower_anywhere_is_read_unsure(frame, monkeypatch):
    """As measured on bench seed 0, frame 37: the level-1 tile r6c3 shows one space, (6, 3); its dot's corner is
    behind the level-3 tile in front, the corners in view show the tile and its stairs icon. Their
    supports are not zero but ~1e-9 (the tile's colour read against the flowers): no flower shows,
    so the tile's flower is a guess, read no surer than the cap (garden_flowers.DOT_SEEN)."""
    from companion.vision.observers import garden_flowers

    _, image, observer = frame
    observer.observe(image)
    seen = SeenDots(observer.sampler.geometry, observer.dims, 25.0, observer.levels)
    rows = _recesses()
    rows[6][3] = _tile(1, "r6c3", "flower2", 0.9)
    first = np.full((4, len(FLOWER_CLASSES)), 1e-12)
    first[3, 2] = 1e-9  # flower2 in a corner in view: the colour of the stairs icon beside it
    hidden_corners = np.array([False, True, True, False])
    again = np.where(hidden_corners[:, None], 0.0, first)

    def judged(support: np.ndarray):
        monkeypatch.setattr(garden_flowers, "seen_dot_support",
                            lambda *args, **kwargs: {(6, 3, 1): (support, hidden_corners)})
        return seen_flowers(rows, lambda level, r, c: support, seen, observer.sampler.sample_points,
                            observer.profile, FLOWER_CLASSES, TILE_BASE, None, UNCLEAR, GHOST_CAP)[6][3]

    out = judged(again)
    assert (out.attrs["flower"], out.confidence) == ("flower2", GHOST_CAP)
    # A dot that shows at all (even faintly: partly in view, blurred) is evidence: not capped.
    again[3, 2] = 0.01
    out = judged(again)
    assert (out.attrs["flower"], out.confidence) == ("flower2", 0.9)
