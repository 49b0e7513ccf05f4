"""The Babylon quarry observer (sparse square tests) under cameras from steep to nearly overhead:
every layer reads back, and a reading's alternatives are the other layers."""

from __future__ import annotations

import pytest

from companion.sim.camera import CameraModel
from companion.sim.render import render
from companion.sim.scene import Imaging, Lighting
from companion.vision import labels
from companion.vision.observers.babylon_quarry import LAYERS
from tests.sim.helpers import GAMES, Score, calibrated, read_and_score, rng

GAME = GAMES["babylon.quarry"]


@pytest.mark.parametrize("tilt, distance", [(12.0, 480.0), (30.0, 640.0)])
def test_every_layer_reads_back(tilt, distance):
    camera = CameraModel(target_mm=(100.0, 100.0, 0.0), distance_mm=distance, tilt_deg=tilt, azimuth_deg=-100.0)
    observer = calibrated(GAME, camera)
    score = Score()
    for seed in range(2):
        read_and_score(GAME, observer, camera, GAME.random(rng(seed + 30)), seed=seed,
                       lighting=Lighting(gain=0.85, gradient=(-0.1, 0.06), colour_gains=(1.05, 1.0, 0.95)),
                       imaging=Imaging(noise_sigma=3.5, blur_sigma=0.9, jpeg_quality=75), score=score)
    assert score.wrong == 0, score


def test_readings_name_the_other_layers_as_alternatives():
    camera = CameraModel(target_mm=(100.0, 100.0, 0.0), distance_mm=560.0, tilt_deg=20.0)
    observer = calibrated(GAME, camera)
    layout = GAME.calibration()
    _, scene = GAME.scene(layout)
    observation = observer.observe(render(scene, camera, seed=5))
    layers = set(labels.BABYLON_QUARRY_LABELS)
    for r, row in enumerate(layout.expected()):
        for c, (label, attrs) in enumerate(row):
            cell = observation.cell(r, c)
            assert (cell.label, cell.attrs) == (label, attrs)
            assert 0.0 <= cell.confidence <= 1.0
            others = {alt for alt, _, _ in cell.alternatives}
            assert len(cell.alternatives) == 2 and others <= layers - {label}
            assert all(LAYERS[alt_attrs["layers"]] == alt for alt, alt_attrs, _ in cell.alternatives)
