"""The screen's side of the referee contract: re-exported from companion.referee.interface, where it
lives so that the referee never imports the UI (ARCHITECTURE.md: ui → referee)."""

from ..referee.interface import (
    Answer,
    CalibrationProgress,
    CameraSwitch,
    CameraView,
    DeviceStatus,
    EventFeed,
    GameSetup,
    Mark,
    RefereeControls,
    crop_to_marks,
    mark_cells,
)

__all__ = [
    "Answer",
    "EventFeed",
    "GameSetup",
    "Mark",
    "CameraView",
    "crop_to_marks",
    "mark_cells",
    "CalibrationProgress",
    "CameraSwitch",
    "DeviceStatus",
    "RefereeControls",
]
