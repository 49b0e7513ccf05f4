"""Reading one frame of the vision benchmark in a test, exactly as `bench vision` reads it."""

from __future__ import annotations

from companion.benchmarking import vision as bench
from companion.sim.render import render
from companion.sim.visibility import visible_share

SURE = 0.8  # the benchmark's "confident wrong" bound


def bench_frame(region: str, seed: int, n: int):
    """Frame n of seed `seed`: its layout, its image and the observer calibrated for it."""
    camera, observer = bench.bench_setup(region, seed, n)
    layout, scene = bench.bench_scene(region, seed, n)
    return layout, render(scene, camera, seed=n), observer


def bench_seen(region: str, seed: int, n: int, layout):
    """The share of each cell's top face the camera of frame n shows, as the benchmark counts it."""
    _, scene = bench.bench_scene(region, seed, n)
    return visible_share(scene.regions[0], bench.bench_camera(region, seed, n), layout.top_faces())


def bench_reading(region: str, seed: int, n: int):
    """Frame n of seed `seed` read as the benchmark reads it: (observation, expected, seen), the
    expected cells from its layout and `seen` as bench_seen gives it."""
    layout, image, observer = bench_frame(region, seed, n)
    return observer.observe(image), layout.expected(), bench_seen(region, seed, n, layout)


def assert_space_read_as_laid(region: str, seed: int, n: int, space: tuple[int, int], attrs: dict) -> None:
    """Frame n of seed `seed` has `attrs` at `space` in its layout (the case is what it says), reads
    them there, and reads no cell surely and wrongly."""
    layout, image, observer = bench_frame(region, seed, n)
    expected = layout.expected()
    r, c = space
    assert expected[r][c][1] == attrs
    observation = observer.observe(image)
    assert observation.cell(r, c).attrs == attrs
    assert sure_and_wrong(observation, expected) == []


def assert_frame_reads_cell_as_laid(reading, space: tuple[int, int], laid, most_sure: float | None = None) -> None:
    """`reading` (bench_reading's (observation, expected, seen)) has `laid` (label, attrs) at `space`
    in its layout (the case is what it says), in view as the benchmark counts it; reads it there,
    no surer than `most_sure` when given (a reading chosen over one that fits better); and reads
    no visible cell wrongly and no cell surely and wrongly."""
    observation, expected, seen = reading
    r, c = space
    assert expected[r][c] == laid
    assert seen[r, c] >= bench.VISIBLE
    cell = observation.cell(r, c)
    assert (cell.label, cell.attrs) == laid
    if most_sure is not None:
        assert cell.confidence <= most_sure
    assert visible_and_wrong(observation, expected, seen) == []
    assert sure_and_wrong(observation, expected) == []


def sure_and_wrong(observation, expected) -> list[tuple[int, int]]:
    """The cells read surely (above SURE) with attributes other than `expected` gives."""
    return [(r, c) for r in range(observation.rows) for c in range(observation.cols)
            if observation.cell(r, c).confidence > SURE and observation.cell(r, c).attrs != expected[r][c][1]]


def visible_and_wrong(observation, expected, seen) -> list[tuple[int, int]]:
    """The cells the camera shows (`seen`: the share in view, as the benchmark counts it) read
    with attributes other than `expected` gives."""
    return [(r, c) for r in range(observation.rows) for c in range(observation.cols)
            if seen[r, c] >= bench.VISIBLE and observation.cell(r, c).attrs != expected[r][c][1]]


def wrong_cells(observation, expected) -> set[tuple[int, int]]:
    """Every cell (in view or not) whose label or attributes differ from `expected`."""
    return {(r, c) for r in range(observation.rows) for c in range(observation.cols)
            if (observation.cell(r, c).label, observation.cell(r, c).attrs) != expected[r][c]}
