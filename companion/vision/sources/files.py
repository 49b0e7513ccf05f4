"""Frames from an image folder or a video file, replayed at their own pace or as fast as possible."""

from __future__ import annotations

import time
from pathlib import Path

import cv2
import numpy as np

from ...i18n import N_
from .base import FrameSource, log, source_error

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")


class FileSource(FrameSource):
    def __init__(self, path: str | Path, realtime: bool = False, fps: float = 5.0):
        super().__init__()
        self.path = Path(path).expanduser()
        self.realtime = realtime
        self.fps = fps  # pace of an image folder in real time; a video uses its own
        self.name = f"files:{self.path}"
        self.skipped: list[Path] = []
        self._images: list[Path] = []
        self._capture: cv2.VideoCapture | None = None
        self._next_due = 0.0

    def _open(self) -> None:
        if not self.path.exists():
            raise source_error(N_("{path}: no such image folder or video file"), path=str(self.path))
        if self.path.is_dir():
            self._images = sorted(p for p in self.path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
            if not self._images:
                raise source_error(N_("{path}: no images ({suffixes}) in this folder"), path=str(self.path),
                                   suffixes=", ".join(IMAGE_SUFFIXES))
            self._capture = None
        else:
            capture = cv2.VideoCapture(str(self.path))
            if not capture.isOpened():
                raise source_error(N_("{path}: not a video OpenCV can read (expected e.g. {examples})"),
                                   path=str(self.path), examples=".mp4, .avi, .mkv")
            self._capture = capture
            fps = capture.get(cv2.CAP_PROP_FPS)
            if fps and fps > 0:
                self.fps = fps
        self._next_due = time.monotonic()

    def _pace(self) -> None:
        if not self.realtime:
            return
        delay = self._next_due - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        self._next_due = max(self._next_due, time.monotonic() - 1.0) + 1.0 / self.fps

    def _read(self) -> np.ndarray | None:
        if self._capture is not None:
            ok, image = self._capture.read()
            if not ok:
                return None
            self._pace()
            return image
        while self._images:
            path = self._images.pop(0)
            image = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if image is None:
                log.warning("skipping %s: not a readable image", path)
                self.skipped.append(path)
                continue
            self._pace()
            return image
        return None

    def _close(self) -> None:
        if self._capture is not None:
            self._capture.release()
            self._capture = None
