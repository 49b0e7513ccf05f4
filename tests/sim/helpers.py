"""Round trips through the twin: calibrate an observer on a known layout, read another layout."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import numpy as np

from companion.sim import boards, garden
from companion.sim.camera import CameraModel, region_geometry
from companion.sim.render import render
from companion.sim.scene import Imaging, Lighting, TableScene
from companion.sim.visibility import visible_share
from companion.vision.appearance import AppearanceProfile
from companion.vision.observers.babel import BabelObserver
from companion.vision.observers.babylon_garden import GardenObserver
from companion.vision.observers.babylon_quarry import QuarryObserver
from companion.vision.observers.baubylon import BaubylonObserver
from companion.vision.observers.dimensions import BAUBYLON as BAUBYLON_DIMS
from companion.vision.observers.reclamation import ReclamationObserver


@dataclass(frozen=True)
class Game:
    region: str
    observer: type
    random: object  # rng -> layout
    calibration: object  # () -> layout
    target: tuple[float, float]
    distance: float

    def truth_for_calibration(self, layout):
        return layout.calibration_truth() if hasattr(layout, "calibration_truth") else layout.expected()

    def scene(self, layout, lighting=None, imaging=None):
        region = layout.region_scene() if hasattr(layout, "region_scene") else garden.region_scene(layout)
        return region, TableScene((region,), lighting=lighting or Lighting(), imaging=imaging or Imaging())


GAMES = {
    "babylon.garden": Game("babylon.garden", GardenObserver, garden.random_layout, garden.calibration_layout, (100, 100), 560),
    "babylon.quarry": Game("babylon.quarry", QuarryObserver, boards.random_quarry, boards.calibration_quarry, (100, 100), 560),
    "reclamation": Game("reclamation", ReclamationObserver, boards.random_reclamation, boards.calibration_reclamation, (90, 90), 500),
    "babel": Game("babel", BabelObserver, boards.random_babel, boards.calibration_babel, (60, 60), 360),
    "baubylon": Game("baubylon", partial(BaubylonObserver, dims=BAUBYLON_DIMS.for_field(max(boards.RANDOM_BAUBYLON_HEIGHTS))),
                     boards.random_baubylon, boards.calibration_baubylon, (144, 144), 640),  # as bench vision's
}


def calibrated(game: Game, camera: CameraModel, frames: int = 2, seed: int = 0):
    observer = game.observer(region_geometry(camera))
    layout = game.calibration()
    samples: dict[str, list] = {}
    for k in range(frames):
        _, scene = game.scene(layout)
        image = render(scene, camera, seed=seed * 31 + k)
        for name, vectors in observer.calibration_samples(image, game.truth_for_calibration(layout)).items():
            samples.setdefault(name, []).extend(vectors)
    observer.profile = AppearanceProfile.learn(game.region, samples)
    return observer


@dataclass
class Score:
    visible: int = 0
    wrong: int = 0
    hidden: int = 0
    confident_wrong: int = 0
    right_confidence: float = 0.0
    wrong_confidence: float = 0.0


def read_and_score(game: Game, observer, camera: CameraModel, layout, seed: int, lighting=None, imaging=None,
                   score: Score | None = None) -> Score:
    score = score or Score()
    region, scene = game.scene(layout, lighting, imaging)
    observation = observer.observe(render(scene, camera, seed=seed))
    seen = visible_share(region, camera, layout.top_faces())
    expected = layout.expected()
    for r in range(observation.rows):
        for c in range(observation.cols):
            cell = observation.cell(r, c)
            if seen[r, c] < 0.6:
                score.hidden += 1
                continue
            score.visible += 1
            if (cell.label, cell.attrs) != expected[r][c]:
                score.wrong += 1
                score.wrong_confidence += cell.confidence
                score.confident_wrong += cell.confidence > 0.8
            else:
                score.right_confidence += cell.confidence
    return score


def camera_for(game: Game, tilt: float = 24.0, azimuth: float = -90.0) -> CameraModel:
    return CameraModel(target_mm=(*game.target, 0.0), distance_mm=game.distance, tilt_deg=tilt, azimuth_deg=azimuth)


def rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)
