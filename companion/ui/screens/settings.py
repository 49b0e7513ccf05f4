"""Settings: language, sound and volume, the GPIO pins in use, camera choice, calibration status,
and an about/diagnostics panel."""

from __future__ import annotations

from kivy.clock import Clock
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

from ... import __version__
from ...i18n import LANGUAGES, N_
from .. import theme
from ..text import LANGUAGE_NAMES
from ..widgets import Panel, Txt
from .base import CompanionScreen

VOLUME_STEP = 0.1
SWITCH_POLL_SECONDS = 0.5  # how often a camera switch under way is looked at (cheap: no re-render)
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

    def __init__(self, app, **kwargs):
        super().__init__(app, **kwargs)
        self.camera_answer = None  # the referee's answer to the last camera it went ahead with
        self.camera_refused = None  # ... and to the last one it refused (cleared when a switch ends)
        self.camera_asked: str | None = None  # the camera of that switch
        self._switch_shown = None  # what the camera lines showed of that switch
        self._clock = None

    def set_sound(self, enabled: bool, volume: float) -> None:
        self.app.controls.set_sound(enabled, round(min(1.0, max(0.0, volume)), 2))
        self.render()

    def set_camera(self, source: str) -> None:
        """Answered at once; the new camera's readers are built in the background (their kernels
        may compile for a minute), the old camera running meanwhile: the screen looks again every
        SWITCH_POLL_SECONDS and shows how it ended."""
        answer = self.app.controls.set_camera(source)
        message = getattr(answer, "message", None)
        if getattr(answer, "done", True):
            self.camera_answer, self.camera_refused, self.camera_asked = message, None, source
        else:
            self.camera_refused = message
        self.render()

    # --- a camera switch under way ------------------------------------------------------------------
    def _switch_state(self, switch=None):
        """What the camera lines show of the switch asked here (None: no switch of ours)."""
        switch = switch if switch is not None else getattr(self.app.controls.device_status(), "switch", None)
        if switch is None or switch.source != self.camera_asked:
            return None
        return switch, self.app.session.preparing

    def start_updates(self) -> None:
        state = self._switch_shown
        if self._clock is None and state is not None and state[0].done is None:
            self._clock = Clock.schedule_interval(lambda _dt: self.poll_switch(), SWITCH_POLL_SECONDS)

    def stop_updates(self) -> None:
        if self._clock is not None:
            self._clock.cancel()
            self._clock = None

    def poll_switch(self) -> None:
        """Re-render only when the switch moved on (built, failed) or the preparing line changed."""
        self.app.poll_feed()  # the readers' "preparing" line comes as an event
        state = self._switch_state()
        if state != self._switch_shown:
            if state is not None and state[0].done is not None:
                self.camera_refused = None  # "still switching": no longer true
            self.render()

    def _camera_lines(self, status) -> list[tuple[str, tuple]]:
        """(text, colour) under the camera buttons, one line high where it can (the screen has no
        room to spare): a refusal; a switch under way with its readers' build; how it ended; or the
        answer to a switch that needs no build (the simulated table)."""
        state = self._switch_shown = self._switch_state(getattr(status, "switch", None))
        if self.camera_refused is not None:  # the old camera goes on (or the switch under way)
            return [(self.r(self.camera_refused), theme.BAD)]
        if state is None:
            return [(self.r(self.camera_answer), theme.OK)] if self.camera_answer is not None else []
        switch, preparing = state
        if switch.done is None:
            text = (self.r(self.camera_answer) if self.camera_answer is not None  # the referee's words
                    else self.t(N_("Switching to camera {source}…"), source=switch.source))
            if preparing is not None:
                text = self.t(N_("{switching} {preparing}"), switching=text, preparing=self.r(preparing))
            return [(text, theme.WARN)]
        return [(self.r(switch.message), theme.OK if switch.done else theme.BAD)] if switch.message else []

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
        for text, colour in self._camera_lines(status):
            left.add_widget(self.label(text, s.small, color=colour))
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
