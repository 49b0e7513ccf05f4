"""Settings: language, sound and volume, the GPIO pins in use, camera choice, calibration status,
and an about/diagnostics panel."""

from __future__ import annotations

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

from ... import __version__
from ...i18n import LANGUAGES, N_
from .. import theme
from ..text import LANGUAGE_NAMES
from ..widgets import Panel, Txt
from .base import CompanionScreen

VOLUME_STEP = 0.1
PIN_NAMES = {
    "led_red": N_("LED red"),
    "led_green": N_("LED green"),
    "led_blue": N_("LED blue"),
    "buzzer": N_("Buzzer"),
    "button_confirm": N_("Confirm button"),
    "button_undo": N_("Undo button"),
}


def configured_pins() -> tuple[tuple[str, int], ...]:
    """The GPIO pins of the configuration file (or its defaults), for a referee that reports none."""
    from ...config import DEFAULTS, load_config
    from ...errors import CompanionError

    try:
        feedback = load_config().section("feedback")
    except CompanionError:
        feedback = {key: default for key, (default, _help) in DEFAULTS["feedback"].items()}
    return tuple((role, feedback[role]) for role in PIN_NAMES if isinstance(feedback.get(role), int))


class SettingsScreen(CompanionScreen):
    screen_name = "settings"

    def set_sound(self, enabled: bool, volume: float) -> None:
        self.app.controls.set_sound(enabled, round(min(1.0, max(0.0, volume)), 2))
        self.render()

    def set_camera(self, source: str) -> None:
        answer = self.app.controls.set_camera(source)
        self.camera_answer = getattr(answer, "message", None)
        self.camera_ok = bool(getattr(answer, "done", True))
        self.render()

    def build_content(self):

        s = self.s
        status = self.app.controls.device_status()
        body = BoxLayout(spacing=s.pad)
        left = Panel(theme.PANEL, orientation="vertical", spacing=s.pad, padding=s.pad)
        left.add_widget(self.label(self.t(N_("Language")), s.small, color=theme.MUTED))
        langs = BoxLayout(spacing=s.pad, size_hint_y=None, height=s.touch)
        for lang in LANGUAGES:
            langs.add_widget(self.button(LANGUAGE_NAMES[lang], lambda code=lang: self.app.set_language(code), selected=lang == self.app.lang))
        left.add_widget(langs)
        left.add_widget(self.label(self.t(N_("Sound")), s.small, color=theme.MUTED))
        sound = BoxLayout(spacing=s.pad, size_hint_y=None, height=s.touch)
        sound.add_widget(self.button(self.t(N_("On")) if status.sound else self.t(N_("Off")),
                                     lambda: self.set_sound(not status.sound, status.volume), selected=status.sound))
        sound.add_widget(self.button("−", lambda: self.set_sound(status.sound, status.volume - VOLUME_STEP), size=s.huge))
        sound.add_widget(self.label(self.t(N_("Volume {percent}%"), percent=round(status.volume * 100)), s.body, grow=False, halign="center"))
        sound.add_widget(self.button("+", lambda: self.set_sound(status.sound, status.volume + VOLUME_STEP), size=s.huge))
        left.add_widget(sound)
        left.add_widget(self.label(self.t(N_("Camera")), s.small, color=theme.MUTED))
        cameras = BoxLayout(spacing=4, size_hint_y=None, height=s.touch)
        for source in status.cameras:
            cameras.add_widget(self.button(source, lambda src=source: self.set_camera(src), selected=source == status.camera, size=s.small))
        left.add_widget(cameras)
        if getattr(self, "camera_answer", None) is not None:
            left.add_widget(self.label(self.r(self.camera_answer), s.small, color=theme.OK if self.camera_ok else theme.BAD))
        calibration = self.t(N_("Calibrated")) if status.calibrated else self.t(N_("Not calibrated"))
        if status.calibration_detail is not None:
            calibration = f"{calibration}: {self.r(status.calibration_detail)}"
        left.add_widget(self.label(calibration, s.body, color=theme.OK if status.calibrated else theme.WARN))
        left.add_widget(self.button(self.t(N_("Calibrate the camera")), lambda: self.app.go("calibration"), color=theme.ACCENT))
        left.add_widget(BoxLayout())
        body.add_widget(left)

        right = Panel(theme.PANEL, orientation="vertical", spacing=4, padding=s.pad, size_hint_x=0.42)
        right.add_widget(self.label(self.t(N_("Pins (BCM)")), s.small, color=theme.MUTED))
        pins = GridLayout(cols=2, spacing=2, size_hint_y=None)
        pins.bind(minimum_height=pins.setter("height"))
        for role, pin in status.pins or configured_pins():
            pins.add_widget(Txt(self.t(PIN_NAMES.get(role, role)), s.small))
            pins.add_widget(Txt(str(pin) if pin >= 0 else self.t(N_("none")), s.small, halign="right"))
        right.add_widget(pins)
        right.add_widget(self.label(self.t(N_("About")), s.small, color=theme.MUTED))
        right.add_widget(self.label(self.t(N_("Table Companion {version}"), version=status.version or __version__), s.body))
        for name, value in status.extra:
            right.add_widget(self.label(f"{name}: {value}", s.small, color=theme.MUTED))
        right.add_widget(BoxLayout())
        body.add_widget(right)
        return body
