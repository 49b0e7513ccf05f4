"""The calibration wizard: lay out the game's calibration pieces (the diagram), then the live view,
progress and a plain verdict while the referee learns the pieces' colours from the camera."""

from __future__ import annotations

from kivy.clock import Clock
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.progressbar import ProgressBar
from kivy.uix.scrollview import ScrollView

from ...games.api import Message
from ...i18n import N_
from .. import theme
from ..controller import CalibrationProgress
from ..setup_steps import camera_lens_notice
from ..widgets import CameraPicture, Panel
from .base import CompanionScreen

POLL_SECONDS = 0.3


def layouts(game: str | None) -> list[tuple[str, list[Message]]]:
    """Per region of the game, what to put where for the calibration capture (the diagram in words:
    a printed diagram's small text cannot be read on the 7-inch display)."""
    if not game:
        return []
    from ...referee.frames import regions_of_game
    from ...vision.calibration.layouts import layout_for

    out = []
    for region in regions_of_game(game):
        try:
            texts = layout_for(region).texts()
        except (KeyError, ValueError):
            continue
        places = [Message.of(N_("Row {row}, column {col}: {what}"), row=r + 1, col=c + 1,
                             what=Message.of(text[0], **text[1]))
                  for r, row in enumerate(texts) for c, text in enumerate(row) if text is not None]
        out.append((region, places))
    return out


class CalibrationScreen(CompanionScreen):
    screen_name = "calibration"

    def __init__(self, app, **kwargs):
        super().__init__(app, **kwargs)
        self.progress: CalibrationProgress | None = None
        self.running = False
        self.show_diagram = False
        self._clock = None

    def lens_notice(self) -> Message | None:
        """Say so when the camera's lens is not measured (`companion calibrate camera`)."""
        status = self.app.controls.device_status()
        return camera_lens_notice(status.camera, status.lens_measured)

    def toggle_diagram(self) -> None:
        self.show_diagram = not self.show_diagram
        self.render()

    def begin(self) -> None:
        self.app.controls.start_calibration()
        self.running = True
        self.progress = None
        self.render()

    def poll(self) -> None:
        """Ask the referee how far the capture is; re-render; stop once there is a verdict."""
        if not self.running:
            return
        self.progress = self.app.controls.calibration_progress()
        if self.progress.ok is not None:  # a verdict per frame while running; `ok` once it is over
            self.running = False
        self.render()

    def on_leave(self, *args):
        """Leaving the wizard before its end lets the referee go on (it paused for the layout)."""
        if self.running:
            self.running = False
            self.app.controls.stop_calibration()
        return super().on_leave(*args)

    def start_updates(self) -> None:
        if self.running and self._clock is None:
            self._clock = Clock.schedule_interval(lambda _dt: self.poll(), POLL_SECONDS)

    def stop_updates(self) -> None:
        if self._clock is not None:
            self._clock.cancel()
            self._clock = None

    def build_content(self):
        s = self.s
        body = BoxLayout(spacing=s.pad)
        left = Panel(theme.PANEL, orientation="vertical", spacing=s.pad, padding=s.pad, size_hint_x=0.5)
        left.add_widget(self.heading(self.t(N_("Calibrate the camera"))))
        scroll = ScrollView(do_scroll_x=False)
        steps = BoxLayout(orientation="vertical", spacing=4, size_hint_y=None)
        steps.bind(minimum_height=steps.setter("height"))
        for line in (
            N_("Lay the marker mat flat under the camera, all four corner markers in view."),
            N_("Put the game's calibration pieces on the mat exactly as the diagram shows."),
            N_("Keep hands and shadows off the board while the bar fills; a refused frame says what to put right."),
        ):
            steps.add_widget(self.label("• " + self.t(line), s.small))
        scroll.add_widget(steps)
        left.add_widget(scroll)
        progress = self.progress
        if progress is not None and progress.step is not None:
            left.add_widget(self.label(self.r(progress.step), s.body, color=theme.WARN))
        bar = ProgressBar(max=100, value=100 * (progress.fraction if progress else 0), size_hint_y=None, height=s.pad * 3)
        left.add_widget(bar)
        if progress is not None and progress.verdict is not None:
            if progress.ok is None:  # the last frame's verdict while the capture runs: room for the step
                left.add_widget(self.label(self.r(progress.verdict), s.body, color=theme.TEXT))
            else:
                colour = theme.OK if progress.ok else theme.BAD
                left.add_widget(self.label(self.r(progress.verdict), s.large, bold=True, color=colour))
        elif self.running:
            left.add_widget(self.label(self.t(N_("Capturing… {percent}%"), percent=round(100 * (progress.fraction if progress else 0))), s.body))
        buttons = BoxLayout(spacing=s.pad, size_hint_y=None, height=s.touch)
        buttons.add_widget(self.button(self.t(N_("Start again") if self.progress else N_("Start")), self.begin, color=theme.ACCENT))
        places = layouts(self.app.session.game)
        if places:
            title = N_("Camera") if self.show_diagram else N_("Diagram")
            buttons.add_widget(self.button(self.t(title), self.toggle_diagram))
        buttons.add_widget(self.button(self.t(N_("Done")), lambda: self.app.go("live"), color=theme.OK))
        left.add_widget(buttons)
        body.add_widget(left)
        if self.show_diagram and places:
            scroll = ScrollView(do_scroll_x=False)
            listing = BoxLayout(orientation="vertical", spacing=2, size_hint_y=None)
            listing.bind(minimum_height=listing.setter("height"))
            for region, lines in places:
                listing.add_widget(self.label(self.t(N_("{region}: printed diagram {file}"), region=region,
                                                     file=f"calibration/layout-{region}.png"), s.small, color=theme.MUTED))
                for line in lines:
                    listing.add_widget(self.label(self.r(line), s.small))
            scroll.add_widget(listing)
            body.add_widget(scroll)
            return body
        camera = CameraPicture()
        view = progress.view if progress is not None else self.app.controls.camera_view()
        camera.show(view)
        right = BoxLayout(orientation="vertical")
        right.add_widget(camera)
        if view is None:
            right.add_widget(self.label(self.t(N_("No camera image yet.")), s.body, color=theme.MUTED))
        lens = self.lens_notice()
        if lens is not None:  # the board is located here: with a measured lens a misread bends it far less
            right.add_widget(self.label(self.r(lens), s.small, color=theme.WARN))
        body.add_widget(right)
        return body
