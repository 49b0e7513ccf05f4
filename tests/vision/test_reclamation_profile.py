"""The Reclamation observer's calibration edge bias travels in the appearance profile: a profile
written to disk and read back by a fresh observer (companion calibrate appearance → profile file →
companion run / recognise) reads a frame with too few stacks to learn its own bias exactly as the
observer that saw the calibration capture."""

from __future__ import annotations

import pytest

from companion.sim.camera import region_geometry
from companion.sim.render import render
from companion.sim.scene import Imaging, TableScene
from companion.vision.appearance import AppearanceProfile
from companion.vision.observers.reclamation import EDGE_BIAS_CLASSES, ReclamationObserver
from tests.sim.helpers import GAMES, calibrated
from tests.vision.test_reclamation_heights import OVERHEAD, _stack


@pytest.fixture(scope="module")
def calibrated_observer():
    return calibrated(GAMES["reclamation"], OVERHEAD)


def _lone_stacks():
    for at in ((0, 2), (1, 3)):
        for height in (1, 2, 3):
            layout = _stack(height, "flower", at)
            image = render(TableScene((layout.region_scene(),), imaging=Imaging(noise_sigma=3.0, jpeg_quality=85)),
                           OVERHEAD, seed=height)
            yield at, height, image


def test_the_profile_keeps_the_edge_bias_as_measurements(calibrated_observer):
    profile = calibrated_observer.profile
    for name in EDGE_BIAS_CLASSES.values():
        assert name in profile.names
        assert profile.classes[name].samples >= 6  # one per clear side of the capture's stacks
        assert abs(profile.classes[name].mean[0]) < 1.0  # mm: a bias, not a stone height (6 mm)


def test_a_profile_read_back_from_disk_reads_as_the_calibrated_observer(calibrated_observer, tmp_path):
    path = tmp_path / "appearance-reclamation.json"
    calibrated_observer.profile.save(path)
    fresh = ReclamationObserver(region_geometry(OVERHEAD), AppearanceProfile.load(path))
    # The same observer without the saved bias (a profile learned before it was kept).
    kept = calibrated_observer.profile.classes
    bare = ReclamationObserver(region_geometry(OVERHEAD), AppearanceProfile(
        "reclamation", {n: c for n, c in kept.items() if n not in EDGE_BIAS_CLASSES.values()}))
    differs = 0
    for at, height, image in _lone_stacks():
        expected = calibrated_observer.observe(image)
        got = fresh.observe(image)
        cell = got.cell(*at)
        assert (cell.label, cell.attrs) == ("flower", {"height": height, "gardener": height == 3})
        for r in range(6):
            for c in range(6):
                want, have = expected.cell(r, c), got.cell(r, c)
                assert (have.label, have.attrs) == (want.label, want.attrs)
                assert have.confidence == pytest.approx(want.confidence, abs=1e-6)
        differs += bare.observe(image).cell(*at).confidence != pytest.approx(cell.confidence, abs=1e-3)
    assert differs  # the bias read back is in use: without it these frames read otherwise
