"""Appearance profiles: few-shot learning, confidence, files (versioned; corrupt → clear error)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from companion.errors import FormatError
from companion.vision.appearance import FEATURES, FORMAT, VERSION, AppearanceProfile


def _samples(rng, centre, n=6, spread=1.0):
    return rng.normal(centre, spread, (n, len(FEATURES)))


@pytest.fixture
def profile():
    rng = np.random.default_rng(0)
    return AppearanceProfile.learn("test", {
        "dark": _samples(rng, [20, 0, 0, 1, 1, 1]),
        "green": _samples(rng, [60, -30, 30, 1, 1, 1]),
        "brown": _samples(rng, [45, 15, 35, 2, 1, 1]),
    })


def test_nearest_class_with_high_confidence_and_low_for_unknown(profile):
    green = profile.read(np.array([61, -29, 31, 1, 1, 1]))
    assert green.label == "green" and green.confidence > 0.9
    stranger = profile.read(np.array([90, 60, -60, 10, 10, 10]))  # like nothing learned
    assert stranger.confidence < 0.1


def test_subset_restricts_the_choice(profile):
    reading = profile.read(np.array([61, -29, 31, 1, 1, 1]), subset=("dark", "brown"))
    assert reading.label in ("dark", "brown")


def test_one_outlying_calibration_sample_is_dropped():
    rng = np.random.default_rng(1)
    rows = _samples(rng, [30, 0, 0, 1, 1, 1], n=8)
    rows[3] = [80, 40, 40, 20, 20, 20]  # a half-hidden piece in the calibration frame
    model = AppearanceProfile.learn("t", {"a": rows}).classes["a"]
    assert abs(model.mean[0] - 30) < 1.5


def test_save_and_load_round_trip(tmp_path, profile):
    path = tmp_path / "profiles" / "garden.json"
    profile.save(path)
    data = json.loads(path.read_text())
    assert data["format"] == FORMAT and data["version"] == VERSION
    again = AppearanceProfile.load(path)
    x = np.array([44, 14, 36, 2, 1, 1])
    assert again.read(x).label == profile.read(x).label == "brown"
    assert again.names == profile.names


_FEATURES = '"features": ["L", "a", "b", "sd_L", "sd_a", "sd_b"], "region": "r"'


@pytest.mark.parametrize(
    ("content", "where", "english"),
    [
        ("{not json", "line 1, column 2", "not valid JSON"),
        ('[1, 2]', "top level", "expected an object"),
        ('{"format": "something.else", "version": 1}', "format", "another kind of file"),
        ('{"format": "companion.appearance", "version": 99}', "version", "expected profile version"),
        ('{"format": "companion.appearance", "version": 1, ' + _FEATURES + ', "classes": {"x": {"mean": [1, 2], "cov": [], "samples": 3}}}',
         "classes.x.mean", "finite numbers"),
        ('{"format": "companion.appearance", "version": 1, ' + _FEATURES + ', "classes": {}}', "classes",
         "one entry per class"),
    ],
)
def test_corrupt_profile_is_a_clear_error_naming_file_and_key(tmp_path, content, where, english):
    """Named in English and in the players' languages, where only the file, key and value stay as written."""
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(FormatError) as info:
        AppearanceProfile.load(path)
    assert str(path) in str(info.value) and where in str(info.value) and english in str(info.value)
    for lang in ("ja", "zh_TW"):
        text = info.value.render(lang)
        assert str(path) in text and english not in text and "expected" not in text
    assert path.read_text() == content  # never overwritten


def test_not_positive_definite_covariance_is_refused(tmp_path, profile):
    data = profile.to_json()
    data["classes"]["dark"]["cov"] = [[0.0] * len(FEATURES) for _ in FEATURES]
    path = tmp_path / "p.json"
    path.write_text(json.dumps(data))
    with pytest.raises(FormatError, match=r"classes\.dark\.cov"):
        AppearanceProfile.load(path)


def test_a_failed_save_keeps_the_old_profile(tmp_path, profile, monkeypatch):
    path = tmp_path / "garden.json"
    profile.save(path)
    before = path.read_text()

    def broken_dump(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(json, "dump", broken_dump)
    with pytest.raises(OSError):
        profile.save(path)
    assert path.read_text() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["garden.json"]


def test_missing_file_is_a_clear_error(tmp_path):
    with pytest.raises(FormatError, match="no such file"):
        AppearanceProfile.load(tmp_path / "none.json")
