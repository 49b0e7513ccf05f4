"""The live camera loop: frames through the motion gate, the camera dropping out and coming back."""

from __future__ import annotations

import threading

import numpy as np

from companion.errors import CompanionError
from companion.referee import camera_run
from companion.referee.frames import BoardReader
from companion.vision.types import CellReading, Frame, Observation


class FlakySource:
    """Frames, then a cable pulled for two reads, then frames again."""

    name = "flaky"

    def __init__(self, script):
        self.script = list(script)
        self.index = 0
        self.reopened = 0

    def read(self):
        if not self.script:
            return None
        item = self.script.pop(0)
        if item == "fail":
            raise CompanionError("camera unplugged")
        self.index += 1
        return Frame(np.full((120, 160, 3), item, np.uint8), float(self.index), "flaky", self.index)

    def open(self):
        self.reopened += 1
        return self

    def close(self):
        pass


class FixedObserver:
    def observe(self, image, frame_index=0, timestamp=0.0, previous=None):
        cell = CellReading("empty", 0.9)
        return Observation("reclamation", 1, 1, ((cell,),), frame_index, timestamp)


def test_camera_loss_is_reported_retried_and_recovered(monkeypatch, tmp_path):
    monkeypatch.setattr(camera_run, "RETRY_SECONDS", 0.0)
    source = FlakySource([100] * 6 + ["fail", "fail"] + [100] * 6)
    reader = BoardReader("reclamation", tmp_path)
    reader.observers["reclamation"] = FixedObserver()
    stop = threading.Event()
    errors = []
    items = camera_run.frames_with_reconnect(source, stop, errors.append)
    kinds = []
    for scene in camera_run.camera_scenes(items, reader, lambda: False):
        kinds.append(scene.kind)
        if len(kinds) > 40:
            break
    lost = kinds.index("lost")
    assert kinds[:lost].count("still") == 1  # the settled table is read once
    assert "retrying" in kinds[lost:] and "ok" in kinds[lost:]
    back = kinds.index("ok")
    assert "still" in kinds[back:]  # read again once the camera is back and the view settles
    assert [str(e) for e in errors] == ["camera unplugged", "camera unplugged"]
    assert source.reopened >= 1
