"""Frame sources: Pi camera (picamera2), USB webcam (OpenCV), image folder or video, simulated table.

`open_source(config)` picks one by [camera] source; "auto" tries picamera2, then OpenCV, then the
simulated table, and says which it took and why the others were passed over.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .base import FrameSource, SourceError, log
from .files import FileSource
from .opencv import OpenCVSource
from .picamera2 import Picamera2Source
from .simulated import SimulatedSource

__all__ = [
    "FileSource", "FrameSource", "OpenCVSource", "OpenedSource", "Picamera2Source", "SimulatedSource",
    "SourceError", "open_source",
]


@dataclass
class OpenedSource:
    source: FrameSource
    tried: list[tuple[str, str]] = field(default_factory=list)  # (kind, why it was passed over)

    def describe(self) -> str:
        passed = "; ".join(f"{kind}: {why}" for kind, why in self.tried)
        return f"camera: {self.source.name}" + (f" (passed over: {passed})" if passed else "")


def open_source(config: Any, simulated: Callable[[], FrameSource] | None = None) -> OpenedSource:
    """Open the configured source. `simulated` makes the simulated table (the demo passes it in)."""
    camera = config.section("camera")
    kind = camera["source"]
    order = ["picamera2", "opencv", "sim"] if kind == "auto" else [kind]
    tried: list[tuple[str, str]] = []
    for candidate in order:
        try:
            source = _make(candidate, camera, simulated)
            source.open()
        except SourceError as exc:
            tried.append((candidate, str(exc)))
            log.info("camera source %s not used: %s", candidate, exc)
            continue
        opened = OpenedSource(source, tried)
        log.info(opened.describe())
        return opened
    reasons = "; ".join(f"{k}: {why}" for k, why in tried)
    raise SourceError(f"no camera source could be opened ({reasons})")


def _make(kind: str, camera: dict[str, Any], simulated) -> FrameSource:
    if kind == "picamera2":
        return Picamera2Source(camera["width"], camera["height"], camera["settle_seconds"])
    if kind == "opencv":
        return OpenCVSource(camera["device"], camera["width"], camera["height"])
    if kind == "files":
        if not camera["path"]:
            raise SourceError("[camera] source = \"files\" needs [camera] path (an image folder or a video file)")
        return FileSource(camera["path"])
    if kind == "sim":
        if simulated is None:
            raise SourceError("the simulated table is only available from the companion command (demo)")
        return simulated()
    raise SourceError(f"unknown camera source {kind!r}; expected auto, picamera2, opencv, files or sim")
