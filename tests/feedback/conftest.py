"""Fixtures: a fake clock shared by gpiozero's mock pins and the pattern player, so the pin times
the patterns produce are exact (no sleeping, no flakiness on a loaded machine)."""

from __future__ import annotations

import threading

import pytest

from companion.config import load_config
from companion.feedback import Feedback
from companion.feedback.pins import PinFactoryChoice, mock_factory


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0
        self.waits: list[float] = []
        self.gate: threading.Event | None = None  # when set up, the first wait blocks on it
        self.entered = threading.Event()

    def monotonic(self) -> float:
        return self.now

    def wait(self, seconds: float) -> bool:
        self.waits.append(seconds)
        if self.gate is not None and len(self.waits) == 1:
            self.entered.set()
            self.gate.wait(5)
        self.now += seconds
        return False


@pytest.fixture
def clock(monkeypatch):
    import gpiozero.pins.mock

    fake = FakeClock()
    monkeypatch.setattr(gpiozero.pins.mock, "monotonic", fake.monotonic)
    return fake


@pytest.fixture
def config():
    return load_config(None)


@pytest.fixture
def make_feedback(clock, config):
    made: list[Feedback] = []

    def make(now=None, real_time=False, on_confirm=None, on_undo=None, **feedback_keys):
        config.values["feedback"].update(feedback_keys)
        factory = mock_factory()
        feedback = Feedback.from_config(
            config, pins=PinFactoryChoice(factory, True, "test"), now=now,
            wait=None if real_time else clock.wait, on_confirm=on_confirm, on_undo=on_undo,
        )
        feedback.factory = factory
        made.append(feedback)
        return feedback

    yield make
    for feedback in made:
        feedback.close()


def pin(feedback, number):
    return feedback.factory.pin(number)
