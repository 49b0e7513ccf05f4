"""The physical feedback devices, built from the [feedback] config section.

- an RGB status LED (three PWM legs, common cathode),
- a buzzer: active (on/off, its own fixed pitch) or passive/tonal (we choose pitch and, through the
  PWM duty cycle, loudness),
- optional confirm and undo buttons (pin -1 = not fitted), wired to ground with the Pi's pull-ups.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, time
from typing import Any

from ..errors import ConfigError, ErrorText, got
from ..i18n import N_
from .patterns import OFF, Colour
from .quiet import QuietHours

log = logging.getLogger(__name__)

NO_PIN = -1
BUTTON_BOUNCE_SECONDS = 0.05


@dataclass(frozen=True)
class FeedbackSettings:
    led_pins: tuple[int, int, int]
    buzzer_pin: int
    buzzer_tonal: bool
    confirm_pin: int
    undo_pin: int
    volume: float
    quiet: QuietHours

    @classmethod
    def from_config(cls, config: Any, check: bool = True) -> FeedbackSettings:
        """The [feedback] section; `check=False` leaves a bad pin map for the caller to report."""
        s = config.section("feedback")
        settings = cls(
            led_pins=(s["led_red"], s["led_green"], s["led_blue"]),
            buzzer_pin=s["buzzer"],
            buzzer_tonal=s["buzzer_tonal"],
            confirm_pin=s["button_confirm"],
            undo_pin=s["button_undo"],
            volume=s["volume"],
            quiet=QuietHours.from_config(s["quiet_start"], s["quiet_end"]),
        )
        if check:
            settings.check(str(getattr(config, "path", None) or "config"))
        return settings

    def check(self, source: str) -> None:
        """Refuse a pin map that cannot work, naming the key: two devices on one pin, or a pin
        that is not one of the header's GPIO0-27."""
        seen: dict[int, str] = {}
        for role, pin in self.used_pins().items():
            if not 0 <= pin <= 27:
                raise ConfigError(source, f"[feedback] {role}",
                                  got(N_("expected a BCM GPIO number from 0 to 27 (or -1 for none)"), pin))
            if pin in seen:
                raise ConfigError(source, f"[feedback] {role}", ErrorText.of(
                    N_("GPIO{pin} is already {role}; give each device its own pin"), pin=pin, role=seen[pin]))
            seen[pin] = role

    def used_pins(self) -> dict[str, int]:
        """Role → BCM pin for every fitted device (for wiring checks and `companion doctor`)."""
        pins = {"led_red": self.led_pins[0], "led_green": self.led_pins[1], "led_blue": self.led_pins[2],
                "buzzer": self.buzzer_pin, "button_confirm": self.confirm_pin, "button_undo": self.undo_pin}
        return {role: pin for role, pin in pins.items() if pin != NO_PIN}


class Sounder:
    """The buzzer behind volume and quiet hours: `sound(hz)` / `silence()`."""

    def __init__(self, settings: FeedbackSettings, pin_factory: Any,
                 now: Callable[[], time] = lambda: datetime.now().time()):
        from gpiozero import Buzzer, TonalBuzzer
        from gpiozero.tones import Tone

        self.tonal = settings.buzzer_tonal
        self.volume = settings.volume
        self.quiet = settings.quiet
        self._now = now
        if self.tonal:
            # A4 ± 2 octaves covers every note in patterns.py (110-1760 Hz).
            self.device = TonalBuzzer(settings.buzzer_pin, mid_tone=Tone("A4"), octaves=2,
                                      pin_factory=pin_factory)
        else:
            self.device = Buzzer(settings.buzzer_pin, pin_factory=pin_factory)

    def muted(self) -> bool:
        return self.volume <= 0.0 or self.quiet.contains(self._now())

    def sound(self, hz: float) -> None:
        if self.muted():
            self.silence()
            return
        if self.tonal:
            # Loudness of a piezo follows the PWM duty cycle up to 50 %: volume 1.0 = 50 % duty.
            pwm = self.device.pwm_device
            pwm.frequency = hz
            pwm.value = 0.5 * self.volume
        else:
            self.device.on()

    def silence(self) -> None:
        if self.tonal:
            self.device.stop()
        else:
            self.device.off()

    def close(self) -> None:
        self.device.close()


class FeedbackDevices:
    """LED, sounder and buttons on one pin factory; `close()` releases every pin."""

    def __init__(self, settings: FeedbackSettings, pin_factory: Any,
                 on_confirm: Callable[[], None] | None = None,
                 on_undo: Callable[[], None] | None = None,
                 now: Callable[[], time] | None = None):
        from gpiozero import RGBLED, Button

        self.settings = settings
        self.pin_factory = pin_factory
        self._closables: list[Any] = []
        try:
            self.led = RGBLED(*settings.led_pins, pwm=True, pin_factory=pin_factory)
            self._closables.append(self.led)
            kwargs = {"now": now} if now is not None else {}
            self.sounder = Sounder(settings, pin_factory, **kwargs)
            self._closables.append(self.sounder)
            self.buttons: dict[str, Any] = {}
            for role, pin, callback in (("confirm", settings.confirm_pin, on_confirm),
                                        ("undo", settings.undo_pin, on_undo)):
                if pin == NO_PIN:
                    continue
                button = Button(pin, pull_up=True, bounce_time=BUTTON_BOUNCE_SECONDS,
                                pin_factory=pin_factory)
                self._closables.append(button)
                button.when_pressed = _guarded(role, callback)
                self.buttons[role] = button
        except Exception:
            self.close()
            raise

    def show(self, colour: Colour, tone: float | None) -> None:
        self.led.value = colour
        if tone is None:
            self.sounder.silence()
        else:
            self.sounder.sound(tone)

    def led_pins(self) -> list[Any]:
        """The red, green and blue legs' pin objects (mock pins record their states and times)."""
        return [self.pin_factory.pin(number) for number in self.settings.led_pins]

    def rest(self, colour: Colour = OFF) -> None:
        self.show(colour, None)

    def close(self) -> None:
        for device in reversed(self._closables):
            try:
                device.close()
            except Exception:  # closing must release every other pin even if one fails
                log.exception("feedback: could not close %r", device)
        self._closables.clear()


def _guarded(role: str, callback: Callable[[], None] | None) -> Callable[[], None]:
    """A button callback that logs instead of killing gpiozero's event thread when it fails."""

    def pressed() -> None:
        log.info("feedback: %s button pressed", role)
        if callback is None:
            return
        try:
            callback()
        except Exception:
            log.exception("feedback: the %s button's callback failed", role)

    return pressed
