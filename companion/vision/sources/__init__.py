"""Frame sources: Pi camera (picamera2), USB webcam (OpenCV), image folder or video, simulated table.

`open_source(config)` picks one by [camera] source; "auto" tries picamera2, then OpenCV, then the
simulated table, and says which it took and why the others were passed over.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ...errors import ErrorText, listed
from ...i18n import N_
from .base import FrameSource, SourceError, log, source_error
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
    tried: list[tuple[str, SourceError]] = field(default_factory=list)  # (kind, why it was passed over)

    def describe(self) -> ErrorText:
        """Which camera was taken and why the others were passed over (`render(lang)`)."""
        if not self.tried:
            return ErrorText.of(N_("camera: {name}"), name=self.source.name)
        return ErrorText.of(N_("camera: {name} (passed over: {passed})"), name=self.source.name,
                            passed=_passed_over(self.tried))


def _passed_over(tried: list[tuple[str, SourceError]]) -> ErrorText | str:
    return listed(ErrorText.of(N_("{kind}: {reason}"), kind=kind, reason=why) for kind, why in tried)


def open_source(config: Any, simulated: Callable[[], FrameSource] | None = None) -> OpenedSource:
    """Open the configured source. `simulated` makes the simulated table (the demo passes it in)."""
    camera = config.section("camera")
    kind = camera["source"]
    order = ["picamera2", "opencv", "sim"] if kind == "auto" else [kind]
    tried: list[tuple[str, SourceError]] = []
    for candidate in order:
        try:
            source = _make(candidate, camera, simulated)
            source.open()
        except SourceError as exc:
            tried.append((candidate, exc))
            log.info("camera source %s not used: %s", candidate, exc)
            continue
        opened = OpenedSource(source, tried)
        log.info(opened.describe())
        return opened
    raise source_error(N_("no camera source could be opened ({reasons})"), reasons=_passed_over(tried))


def _make(kind: str, camera: dict[str, Any], simulated) -> FrameSource:
    if kind == "picamera2":
        return Picamera2Source(camera["width"], camera["height"], camera["settle_seconds"])
    if kind == "opencv":
        return OpenCVSource(camera["device"], camera["width"], camera["height"])
    if kind == "files":
        if not camera["path"]:
            raise source_error(N_("{setting} needs {path} (an image folder or a video file)"),
                               setting='[camera] source = "files"', path="[camera] path")
        return FileSource(camera["path"])
    if kind == "sim":
        if simulated is None:
            raise source_error(N_("the simulated table is only available from the companion command (demo)"))
        return simulated()
    raise source_error(N_("unknown camera source {value}; expected auto, picamera2, opencv, files or sim"),
                       value=repr(kind))
