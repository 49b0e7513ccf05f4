"""The hardware buttons answer the referee through the same controls as the touchscreen."""

from __future__ import annotations

from companion.config import load_config
from companion.referee.controls import LiveControls
from companion.referee.live import feedback_sink


class RecordingSession:
    """Stands in for a RefereeSession: records the commands the controls queue for the loop."""

    def __init__(self) -> None:
        self.queued: list[tuple[str, object]] = []
        self.commands = self

    def put(self, command: tuple[str, object]) -> None:
        self.queued.append(command)


def test_confirm_and_undo_buttons_reach_the_referee():
    controls = LiveControls()
    session = RecordingSession()
    controls.attach(session)
    said: list[str] = []
    feedback = feedback_sink(load_config(), said.append, [], controls)
    assert feedback is not None, said
    try:
        factory = feedback.devices.pin_factory  # gpiozero's MockFactory off a Pi
        confirm, undo = factory.pin(23), factory.pin(24)  # the default pin map
        confirm.drive_low()
        confirm.drive_high()
        undo.drive_low()
        undo.drive_high()
        assert session.queued == [("choose", 0), ("undo", None)]
    finally:
        feedback.close()


def test_without_controls_the_buttons_do_nothing_but_feedback_still_works():
    said: list[str] = []
    feedback = feedback_sink(load_config(), said.append, [])
    assert feedback is not None, said
    try:
        feedback.devices.pin_factory.pin(23).drive_low()  # no callback: nothing to reach, nothing raised
    finally:
        feedback.close()
