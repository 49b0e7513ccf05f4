"""The referee's side of companion.referee.interface.RefereeControls for `companion run`.

Game commands go to the running session (queued for the referee thread). Calibration, camera and
editor requests belong to pieces that are not wired into the live run on this build: they answer
plainly that they are not available here instead of pretending.
"""

from __future__ import annotations

from typing import Any

from ..games.api import Message, Move
from ..i18n import N_
from .session import RefereeSession


class LiveControls:
    def __init__(self) -> None:
        self.session: RefereeSession | None = None
        self.sound = (True, 1.0)

    def attach(self, session: RefereeSession) -> None:
        self.session = session

    def _send(self, name: str, arg: Any = None) -> None:
        if self.session is not None:
            self.session.commands.put((name, arg))

    def start_game(self, setup: Any) -> None:
        pass  # the simulated table plays its recorded game; a camera run starts from the journal

    def accept_correction(self) -> None:
        self._send("accept_correction")

    def override(self) -> None:
        self._send("override")

    def correct(self, move: Move) -> None:
        self._send("correct", move)

    def choose(self, index: int) -> None:
        self._send("choose", index)

    def undo(self) -> None:
        self._send("undo")

    def end_game(self) -> None:
        self._send("end_game")

    def play(self, move: Move) -> None:
        self._send("play", move)

    def camera_view(self) -> Any:
        return None  # the simulated table at the observation level has no picture

    def start_calibration(self) -> None:
        pass

    def calibration_progress(self) -> Any:
        from .interface import CalibrationProgress

        return CalibrationProgress(0.0, verdict=Message.of(N_("Calibration is not available during this run")), ok=False)

    def device_status(self) -> Any:
        from .interface import DeviceStatus

        return DeviceStatus(camera="sim", volume=self.sound[1], sound=self.sound[0])

    def set_sound(self, enabled: bool, volume: float) -> None:
        self.sound = (enabled, volume)

    def set_camera(self, source: str) -> None:
        pass

    def save_editor_data(self, kind: str, data: dict[str, Any]) -> Message:
        return Message.of(N_("Editing {kind} is not available during this run"), kind=kind)
