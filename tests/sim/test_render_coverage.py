"""The twin's faces cover their true area: anti-aliased edges neither grow nor shrink a face.

OpenCV's own anti-aliased fill paints about 0.75 px beyond every outline; observers that measure
where an edge lies would learn that bias from the twin and carry it to a real camera."""

from __future__ import annotations

import numpy as np
import pytest

from companion.sim.camera import CameraModel
from companion.sim.render import render
from companion.sim.scene import Box, Imaging, Lighting, RegionScene, TableScene
from companion.vision.boards import BABEL

BOARD, TOP = (200, 200, 200), (40, 40, 40)


def _top_coverage(box: Box, camera: CameraModel) -> tuple[float, float, float]:
    """(area the top face covers in the image, its true projected area, its perimeter), in px."""
    region = RegionScene(BABEL, surface=BOARD, boxes=(box,))
    scene = TableScene((region,), table_colour=BOARD, lighting=Lighting(shadow_strength=0.0),
                       imaging=Imaging(noise_sigma=0.0, blur_sigma=0.0))
    image = render(scene, camera).astype(np.float64)[..., 1]
    covered = float(np.sum((BOARD[1] - image) / (BOARD[1] - TOP[1])))
    corners = np.array([(box.x0, box.y0, box.z1), (box.x1, box.y0, box.z1),
                        (box.x1, box.y1, box.z1), (box.x0, box.y1, box.z1)])
    uv = camera.project(corners)
    x, y = uv[:, 0], uv[:, 1]
    area = 0.5 * abs(float(np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y)))
    perimeter = float(np.sum(np.linalg.norm(uv - np.roll(uv, -1, axis=0), axis=1)))
    return covered, area, perimeter


# Straight down, no lens distortion: the top is the only thing unlike the board. Built once each
# (a camera's distortion maps take seconds).
CAMERAS = {roll: CameraModel(distortion=(0.0, 0.0, 0.0, 0.0, 0.0), target_mm=(60.0, 60.0, 0.0),
                             distance_mm=400.0, tilt_deg=0.0, roll_deg=roll) for roll in (0.0, -41.0)}


@pytest.mark.parametrize("roll, x0", [(0.0, 10.0), (0.0, 10.37), (-41.0, 12.2), (-41.0, 9.9)])
def test_a_face_covers_its_true_area(roll, x0):
    camera = CAMERAS[roll]
    box = Box(x0, 20.0, x0 + 31.3, 47.9, 0.0, 0.0, top=TOP, side=TOP, casts_shadow=False)
    covered, area, perimeter = _top_coverage(box, camera)
    # The mean offset of the outline (excess area per unit of perimeter) is a small fraction of a
    # pixel; OpenCV's LINE_AA fill gave about +0.75 px.
    assert abs(covered - area) / perimeter < 0.05, (covered, area, perimeter)
