"""Raspberry Pi Camera Module 2/3 through picamera2 (from the OS: python3-picamera2).

The main stream (RGB888, which picamera2 lays out B, G, R in memory: OpenCV's order) is read;
a low-resolution stream feeds the motion gate. Auto exposure and white balance run for
`settle_seconds`, then are frozen at the values they settled on, so the colours the appearance
profiles learned do not drift with every hand that shades the board.
"""

from __future__ import annotations

import time
from typing import Any

import cv2
import numpy as np

from ...i18n import N_
from ..types import Frame
from .base import FrameSource, SourceError, failure, source_error


def load_picamera2() -> Any:
    """The Picamera2 class, or SourceError: off a Pi the import fails, and not always with an
    ImportError (a missing libcamera can raise OSError or RuntimeError)."""
    try:
        from picamera2 import Picamera2  # type: ignore[import-not-found]
    except Exception as exc:  # noqa: BLE001 - any failure means "no Pi camera stack here"
        raise source_error(N_("picamera2 is not available ({detail})"), detail=failure(exc)) from None
    return Picamera2


class Picamera2Source(FrameSource):
    name = "picamera2"

    def __init__(self, width: int = 1280, height: int = 720, settle_seconds: float = 2.0,
                 low_res: tuple[int, int] = (320, 240), camera_class: Any = None):
        super().__init__()
        self.width, self.height = width, height
        self.settle_seconds = settle_seconds
        self.low_res = low_res
        self._camera_class = camera_class  # tests inject a fake; None = the real picamera2
        self._camera: Any = None
        self.frozen_controls: dict[str, Any] = {}
        self._last_lores: np.ndarray | None = None

    def _open(self) -> None:
        camera_class = self._camera_class or load_picamera2()
        try:
            camera = camera_class()
            config = camera.create_video_configuration(
                main={"size": (self.width, self.height), "format": "RGB888"},
                lores={"size": self.low_res, "format": "YUV420"},
            )
            camera.configure(config)
            camera.start()
            time.sleep(self.settle_seconds)
            metadata = camera.capture_metadata()
            self.frozen_controls = {
                "AeEnable": False,
                "AwbEnable": False,
                "ExposureTime": int(metadata["ExposureTime"]),
                "AnalogueGain": float(metadata["AnalogueGain"]),
                "ColourGains": tuple(metadata["ColourGains"]),
            }
            camera.set_controls(self.frozen_controls)
        except SourceError:
            raise
        except Exception as exc:  # noqa: BLE001 - libcamera reports many kinds of failure
            raise source_error(N_("the Pi camera could not be started ({detail})"), detail=failure(exc)) from None
        self._camera = camera

    def _read(self) -> np.ndarray | None:
        try:
            request = self._camera.capture_request()
            try:
                image = request.make_array("main")
                self._last_lores = request.make_array("lores")
            finally:
                request.release()
        except Exception as exc:  # noqa: BLE001
            raise source_error(N_("the Pi camera stopped delivering frames ({detail})"), detail=failure(exc)) from None
        return np.ascontiguousarray(image[..., :3])

    def low_res_grey(self, frame: Frame, width: int = 160) -> np.ndarray:
        if self._last_lores is None:
            return super().low_res_grey(frame, width)
        grey = self._last_lores[: self.low_res[1], : self.low_res[0]]  # the Y plane of YUV420
        return cv2.resize(grey, (width, round(grey.shape[0] * width / grey.shape[1])), interpolation=cv2.INTER_AREA)

    def _close(self) -> None:
        if self._camera is not None:
            try:
                self._camera.stop()
                self._camera.close()
            except Exception:  # noqa: BLE001, S110 - closing a camera that is already gone
                pass
            self._camera = None
