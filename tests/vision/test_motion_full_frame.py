"""The motion gate on full 1280×720 frames (decimated inside the gate) under the benchmark's worst
sensor: strong noise, blur and JPEG must not look like motion, and an arm must still be caught."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.sim import garden
from companion.sim.camera import CameraModel
from companion.sim.render import render
from companion.sim.scene import Hand, Imaging, TableScene
from companion.vision.motion import Gate, MotionGate

CAMERA = CameraModel(target_mm=(100.0, 100.0, 0.0))  # 1280×720
NOISY = Imaging(noise_sigma=4.0, blur_sigma=1.0, jpeg_quality=75)


@pytest.fixture(scope="module")
def board():
    tile = garden.Tile(3, 3, 1, 2)
    layout = garden.GardenLayout(tuple(garden.supported(tile, (0, 0, 0, 0))), (tile,))
    return garden.region_scene(layout)


def test_noise_and_jpeg_on_full_frames_are_not_motion(board):
    scene = TableScene((board,), imaging=NOISY)
    gate = MotionGate(still_frames=2)
    decisions = [gate.update(render(scene, CAMERA, seed=k)) for k in range(6)]
    assert [d.gate for d in decisions[:3]] == [Gate.MOVING, Gate.SETTLING, Gate.READ]
    assert {d.gate for d in decisions[3:]} == {Gate.UNCHANGED}
    assert max(d.moving_share for d in decisions[1:]) < gate.moving_limit / 2


def test_an_arm_over_a_full_frame_is_motion_then_a_hand(board):
    gate = MotionGate(still_frames=2)
    still = TableScene((board,), imaging=NOISY)
    for k in range(3):
        gate.update(render(still, CAMERA, seed=k))
    held = TableScene((board,), imaging=NOISY, hand=Hand(tip=(100.0, 90.0, 90.0), entry=(100.0, -400.0, 160.0)))
    gates = [gate.update(render(held, CAMERA, seed=10 + k)).gate for k in range(3)]
    assert gates[0] is Gate.MOVING
    assert gates[1:] == [Gate.HAND, Gate.HAND]


def test_full_frame_and_its_low_res_stream_agree(board):
    """The decimated full frame and a camera's own small stream give the same small picture."""
    image = render(TableScene((board,)), CAMERA, seed=1)
    gate = MotionGate()
    from_full = gate.prepare(image).astype(float)
    small_stream = cv2.resize(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), (160, 90), interpolation=cv2.INTER_AREA)
    from_small = gate.prepare(small_stream).astype(float)
    assert from_full.shape == from_small.shape == (90, 160)
    assert np.mean(np.abs(from_full - from_small)) < 3.0
