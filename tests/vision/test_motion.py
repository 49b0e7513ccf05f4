"""The motion and hand gate on the twin's scripted table: a hand enters, moves pieces, leaves."""

from __future__ import annotations

import numpy as np
import pytest

from companion.sim import garden
from companion.sim.camera import CameraModel
from companion.sim.render import render
from companion.sim.scene import Hand, TableScene
from companion.sim.table import ScriptedTable
from companion.vision.motion import Gate, MotionGate

CAMERA = CameraModel(width=640, height=360, target_mm=(100.0, 100.0, 0.0))


def _scenes():
    empty = garden.GardenLayout()
    tile = garden.Tile(3, 3, 1, 2)
    built = garden.GardenLayout(tuple(garden.supported(tile, (0, 0, 0, 0))), (tile,))
    return [TableScene((garden.region_scene(layout),)) for layout in (empty, built)]


@pytest.fixture(scope="module")
def decisions():
    table = ScriptedTable(_scenes(), CAMERA, still_frames=6, hand_frames=6, seed=2)
    gate = MotionGate(still_frames=3)
    out = []
    n = 0
    while (image := table(n)) is not None:
        index, hand = table.state(n)
        out.append((index, hand, gate.update(image)))
        n += 1
    return out


def test_reads_once_per_still_scene_and_never_with_a_hand(decisions):
    reads = [(i, index) for i, (index, hand, d) in enumerate(decisions) if d.read]
    assert [index for _, index in reads] == [0, 1]  # one read of each scene
    for _index, hand, decision in decisions:
        if hand is not None:
            assert not decision.read


def test_read_waits_for_n_still_frames_after_the_hand_leaves(decisions):
    first_after_hand = next(i for i, (index, hand, _) in enumerate(decisions) if index == 1 and hand is None)
    read_at = next(i for i, (_, _, d) in enumerate(decisions) if d.read and i > first_after_hand - 1)
    assert read_at - first_after_hand >= 2  # the first still frame has no predecessor that is still
    gates = [d.gate for _, hand, d in decisions if hand is not None]
    assert Gate.MOVING in gates


def test_a_hand_holding_still_over_the_board_blocks_reading():
    scene = _scenes()[0]
    gate = MotionGate(still_frames=2)
    for seed in range(4):
        gate.update(render(scene, CAMERA, seed=seed))
    assert gate.update(render(scene, CAMERA, seed=9)).gate is Gate.UNCHANGED
    hand = Hand(tip=(100.0, 90.0, 90.0), entry=(100.0, -400.0, 160.0))
    held = TableScene(scene.regions, hand=hand)
    gates = [gate.update(render(held, CAMERA, seed=20 + k)).gate for k in range(5)]
    assert gates[0] is Gate.MOVING
    assert all(g is Gate.HAND for g in gates[1:]), gates


def test_noise_alone_is_not_motion():
    scene = _scenes()[1]
    gate = MotionGate(still_frames=2)
    gates = [gate.update(render(scene, CAMERA, seed=k)).gate for k in range(6)]
    assert gates[:4] == [Gate.MOVING, Gate.SETTLING, Gate.READ, Gate.UNCHANGED]
    assert set(gates[4:]) == {Gate.UNCHANGED}


def test_grey_low_res_input_is_accepted():
    gate = MotionGate()
    grey = np.full((120, 160), 100, np.uint8)
    assert gate.update(grey).gate is Gate.MOVING
    assert gate.update(grey).gate is Gate.SETTLING


@pytest.mark.parametrize("threshold", [12.0, 12.5, 3.999, 0.0, -1.0, 254.9, 255.0, 300.0])
def test_changed_pixels_are_those_beyond_the_threshold_and_their_share_numpys_mean(threshold):
    # The gate counts with OpenCV's integer threshold; these are the numbers of |a - b| > t in numpy.
    gate = MotionGate(pixel_threshold=threshold)
    rng = np.random.default_rng(0)
    a = rng.integers(0, 256, (90, 160), np.uint8)
    b = np.clip(a.astype(int) + rng.integers(-30, 31, a.shape), 0, 255).astype(np.uint8)
    wanted = np.abs(a.astype(int) - b.astype(int)) > threshold
    assert np.array_equal(gate._changed(a, b), wanted.astype(np.uint8))
    assert gate._changed_share(a, b) == float(wanted.mean())
