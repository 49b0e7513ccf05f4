"""Frame sources: files (with a corrupt image), video, simulated table, picamera2 and OpenCV missing."""

from __future__ import annotations

import logging
from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from companion.config import load_config
from companion.errors import CompanionError
from companion.vision.sources import (
    FileSource,
    OpenCVSource,
    Picamera2Source,
    SimulatedSource,
    SourceError,
    open_source,
)
from companion.vision.sources.picamera2 import load_picamera2


def _image(value: int) -> np.ndarray:
    return np.full((48, 64, 3), value, np.uint8)


def test_image_folder_in_name_order_skipping_a_corrupt_file(tmp_path, caplog):
    cv2.imwrite(str(tmp_path / "b.png"), _image(20))
    cv2.imwrite(str(tmp_path / "a.png"), _image(10))
    (tmp_path / "c.jpg").write_bytes(b"not a jpeg at all")
    cv2.imwrite(str(tmp_path / "d.png"), _image(40))
    (tmp_path / "notes.txt").write_text("ignored")
    with caplog.at_level(logging.WARNING, logger="companion.vision.sources"), FileSource(tmp_path) as source:
        frames = list(source)
    assert [int(f.image[0, 0, 0]) for f in frames] == [10, 20, 40]
    assert [f.index for f in frames] == [0, 1, 2]
    assert source.skipped == [tmp_path / "c.jpg"]
    assert "c.jpg" in caplog.text and "not a readable image" in caplog.text
    assert source.status == "closed"


def test_video_file_is_replayed(tmp_path):
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10.0, (64, 48))
    if not writer.isOpened():
        pytest.skip("this OpenCV build cannot write MJPG video")
    for value in (30, 90, 150):
        writer.write(_image(value))
    writer.release()
    frames = list(FileSource(path))
    assert len(frames) == 3
    assert abs(int(frames[1].image.mean()) - 90) < 8


def test_missing_path_and_empty_folder_are_clear_errors(tmp_path):
    with pytest.raises(SourceError, match="no such image folder or video file"):
        FileSource(tmp_path / "nowhere").open()
    with pytest.raises(SourceError, match="no images"):
        FileSource(tmp_path).open()
    assert issubclass(SourceError, CompanionError)


def test_simulated_source_renders_until_the_script_ends():
    source = SimulatedSource(lambda n: _image(n) if n < 4 else None, name="sim:test")
    frames = list(source)
    assert [int(f.image[0, 0, 0]) for f in frames] == [0, 1, 2, 3]
    assert frames[0].source == "sim:test" and source.status == "ended"


def test_a_failing_renderer_is_a_source_error_and_can_be_retried():
    calls = {"n": 0}

    def flaky(n: int):
        calls["n"] += 1
        if calls["n"] == 2:
            raise RuntimeError("boom")
        return _image(1)

    source = SimulatedSource(flaky)
    assert source.read() is not None
    with pytest.raises(SourceError, match="frame 1"):
        source.read()
    assert source.status.startswith("failed")
    assert source.read() is not None  # re-opened on the next read
    assert source.status == "open"


def test_missing_opencv_device_is_a_clear_error():
    with pytest.raises(SourceError, match="no camera at OpenCV device 97"):
        OpenCVSource(device=97).open()


def test_picamera2_missing_off_a_pi():
    try:
        load_picamera2()
    except SourceError as exc:
        assert "picamera2 is not available" in str(exc)
    else:  # pragma: no cover - only on a Pi
        pytest.skip("picamera2 is installed here")


def test_picamera2_import_failure_that_is_not_an_import_error(monkeypatch):
    import builtins

    real_import = builtins.__import__

    def broken(name, *args, **kwargs):
        if name == "picamera2":
            raise OSError("libcamera.so.0.3: cannot open shared object file")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", broken)
    with pytest.raises(SourceError, match="OSError"):
        load_picamera2()


class FakePicamera2:
    """Records what the source asks of the camera; delivers BGR frames and a Y plane."""

    instances: list[FakePicamera2] = []

    def __init__(self):
        self.controls: list[dict] = []
        self.started = False
        FakePicamera2.instances.append(self)

    def create_video_configuration(self, main, lores):
        return {"main": main, "lores": lores}

    def configure(self, config):
        self.config = config

    def start(self):
        self.started = True

    def capture_metadata(self):
        return {"ExposureTime": 12000, "AnalogueGain": 2.5, "ColourGains": (1.8, 1.4)}

    def set_controls(self, controls):
        self.controls.append(dict(controls))

    def capture_request(self):
        width, height = self.config["main"]["size"]
        lw, lh = self.config["lores"]["size"]
        arrays = {"main": np.full((height, width, 3), 77, np.uint8), "lores": np.full((lh * 3 // 2, lw), 99, np.uint8)}
        return SimpleNamespace(make_array=lambda name: arrays[name], release=lambda: None)

    def stop(self):
        self.started = False

    def close(self):
        pass


def test_picamera2_freezes_exposure_and_white_balance_after_settling():
    source = Picamera2Source(width=64, height=48, settle_seconds=0.0, camera_class=FakePicamera2)
    frame = source.read()
    camera = FakePicamera2.instances[-1]
    assert camera.config["main"] == {"size": (64, 48), "format": "RGB888"}
    assert camera.controls == [
        {"AeEnable": False, "AwbEnable": False, "ExposureTime": 12000, "AnalogueGain": 2.5, "ColourGains": (1.8, 1.4)}
    ]
    assert frame.image.shape == (48, 64, 3) and frame.source == "picamera2"
    grey = source.low_res_grey(frame, width=80)
    assert grey.shape == (60, 80) and int(grey.mean()) == 99  # from the low-res stream
    source.close()
    assert not camera.started


def _config(tmp_path, text: str):
    path = tmp_path / "config.toml"
    path.write_text(text)
    return load_config(path)


def test_auto_falls_back_to_the_simulated_table_and_says_why(tmp_path):
    config = _config(tmp_path, "[camera]\nsource = \"auto\"\ndevice = 97\n")
    opened = open_source(config, simulated=lambda: SimulatedSource(lambda n: _image(5), name="sim:demo"))
    assert opened.source.name == "sim:demo"
    assert [kind for kind, _ in opened.tried] == ["picamera2", "opencv"]
    text = str(opened.describe())
    assert "picamera2 is not available" in text and "no camera at OpenCV device 97" in text
    opened.source.close()


def test_nothing_to_open_is_one_clear_error(tmp_path):
    config = _config(tmp_path, "[camera]\nsource = \"auto\"\ndevice = 97\n")
    with pytest.raises(SourceError, match="no camera source could be opened.*simulated table"):
        open_source(config)
    files = _config(tmp_path, "[camera]\nsource = \"files\"\n")
    with pytest.raises(SourceError, match=r"needs \[camera\] path"):
        open_source(files)


def test_the_demo_table_source_renders_the_twin():
    from companion.sim.demo import simulated_source

    source = simulated_source(fps=0.0)
    frame = source.read()
    assert frame.image.shape == (720, 1280, 3) and frame.source == "sim:babylon.garden"
