"""`companion recognise --game` end to end on the digital twin: mat markers → locator → observer.

The observer's appearance profile is learnt on the twin with the true camera; the picture is then
read twice, once through the true camera geometry and once through the CLI (the camera
calibration file, the play mat's markers, the located board). The two readings must agree: what
the locator adds must not change what is read.
"""

from __future__ import annotations

import dataclasses
import json

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.config import load_config
from companion.sim.camera import CameraModel
from companion.sim.mat import mat_marks
from companion.sim.render import render
from companion.vision.calibration import files
from companion.vision.calibration.intrinsics import Intrinsics
from tests.sim.helpers import GAMES, calibrated


@pytest.mark.slow
@pytest.mark.parametrize("region_name", ["reclamation", "babylon.garden"])
def test_cli_reading_through_the_markers_matches_the_true_geometry(region_name, tmp_path, capsys):
    game = GAMES[region_name]
    camera = CameraModel(target_mm=(*game.target, 0.0), distance_mm=game.distance + 60, tilt_deg=15.0)
    observer = calibrated(game, camera)
    state = load_config().state_dir()
    observer.profile.save(files.calibration_dir(state) / f"appearance-{region_name}.json")
    files.save_intrinsics(files.camera_path(state), Intrinsics(
        (camera.width, camera.height), tuple(map(tuple, camera.matrix)), tuple(float(v) for v in camera.dist_coeffs)))

    layout = game.random(np.random.default_rng(3))
    region, scene = game.scene(layout)
    image = render(dataclasses.replace(scene, mat_marks=mat_marks(region)), camera, seed=5)
    truth = observer.observe(image)
    photo = tmp_path / "table.png"
    cv2.imwrite(str(photo), image)

    game_id = region_name.split(".")[0]
    code = main(["recognise", "--game", game_id, str(photo), "--json"])
    out = capsys.readouterr().out
    readings = {o["region"]: o for o in json.loads(out)} if out.strip() else {}
    assert region_name in readings, capsys.readouterr().err
    cli = readings[region_name]["cells"]
    same = sum(cli[r][c]["label"] == truth.cell(r, c).label for r in range(truth.rows) for c in range(truth.cols))
    assert same >= 0.95 * truth.rows * truth.cols, (same, truth.rows * truth.cols)
    assert code in (0, 2)  # babylon's quarry is not in this picture: reported, not a crash
