"""Choose the gpiozero pin factory: the Pi's own, or the mock one off a Pi.

The mock factory uses PWM-capable mock pins, because the RGB LED dims by PWM and a passive buzzer
plays tones by PWM. Nothing here touches gpiozero's global `Device.pin_factory`: devices get the
factory passed in, so tests and the app never share pin state by accident.
"""

from __future__ import annotations

import logging
import os
import warnings
from dataclasses import dataclass
from typing import Any

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class PinFactoryChoice:
    factory: Any  # a gpiozero Factory
    mock: bool
    reason: str  # why this one, for logs and `companion doctor`


def mock_factory() -> Any:
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    return MockFactory(pin_class=MockPWMPin)


def choose_pin_factory(log_fallback: bool = True) -> PinFactoryChoice:
    """$GPIOZERO_PIN_FACTORY=mock → mock; otherwise gpiozero's default, falling back to mock
    (logged as a warning unless the caller reports it itself, as `companion doctor` does)."""
    from gpiozero import Device
    from gpiozero.exc import BadPinFactory

    wanted = os.environ.get("GPIOZERO_PIN_FACTORY", "")
    if wanted.lower() == "mock":
        return PinFactoryChoice(mock_factory(), True, "GPIOZERO_PIN_FACTORY=mock")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # gpiozero warns once per factory it skips
            factory = Device._default_pin_factory()
    except (BadPinFactory, ImportError, OSError, RuntimeError, ValueError) as exc:
        reason = f"no usable GPIO: not a Pi, or no access to /dev/gpiochip* ({exc})"
        if log_fallback:
            log.warning("feedback: %s; using gpiozero's mock pins", reason)
        return PinFactoryChoice(mock_factory(), True, reason)
    name = type(factory).__name__
    return PinFactoryChoice(factory, name == "MockFactory", f"gpiozero {name}")
