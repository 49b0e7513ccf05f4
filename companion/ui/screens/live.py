"""The live view: the camera with overlays, whose turn, what to do now, the last ruling."""

from __future__ import annotations

from kivy.clock import Clock
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.scrollview import ScrollView

from ...i18n import N_
from .. import theme
from ..topdown import picture_for
from ..widgets import BoardPicture, CameraPicture, Panel
from .base import CompanionScreen

CAMERA_SECONDS = 0.2
SOURCE_TEXT = {
    "lost": N_("The camera is lost; retrying."),
    "retrying": N_("Reconnecting to the camera…"),
    "busy": N_("Hands over the board: waiting for a still scene."),
}


class LiveScreen(CompanionScreen):
    screen_name = "live"
    uses_session = True

    def __init__(self, app, **kwargs):
        super().__init__(app, **kwargs)
        self.camera: CameraPicture | None = None
        self._clock = None

    def start_updates(self) -> None:
        if self._clock is None:
            self._clock = Clock.schedule_interval(lambda _dt: self.refresh_camera(), CAMERA_SECONDS)

    def stop_updates(self) -> None:
        if self._clock is not None:
            self._clock.cancel()
            self._clock = None

    def refresh_camera(self) -> None:
        if self.camera is not None:
            self.camera.show(self.app.controls.camera_view())

    def build_content(self):
        s = self.s
        session = self.app.session
        body = BoxLayout(spacing=s.pad)
        view = self.app.controls.camera_view()
        if view is None and session.state is not None:
            # No picture from the camera (a simulated table, or the camera is away): show the
            # referee's own top-down view of the position instead, the last ruling's cells lit.
            self.camera = None
            board = picture_for(session.state, None, session.game)
            ruling = session.last_ruling
            where = [name for v in ruling.violations for name in v.where] if ruling is not None else []
            body.add_widget(BoardPicture(board, board.locate(where)[0], font=s.small * 0.8, size_hint_x=0.5))
        else:
            self.camera = CameraPicture(size_hint_x=0.55)
            self.camera.show(view)
            body.add_widget(self.camera)

        side = Panel(theme.PANEL, orientation="vertical", spacing=s.pad, padding=s.pad)
        if session.game is None:
            side.add_widget(self.heading(self.t(N_("No game yet."))))
            side.add_widget(self.label(self.t(N_("Choose a game and the players on the home screen.")), s.body))
            side.add_widget(BoxLayout())
            side.add_widget(self.button(self.t(N_("Home")), lambda: self.app.go("home")))
            body.add_widget(side)
            return body
        scroll = ScrollView(do_scroll_x=False)
        info = BoxLayout(orientation="vertical", spacing=s.pad, size_hint_y=None)
        info.bind(minimum_height=info.setter("height"))
        if session.over:
            info.add_widget(self.heading(self.t(N_("The game is over."))))
        elif session.current_player is not None and session.current_player < len(session.players):
            info.add_widget(self.label(self.t(N_("{name}'s turn"), name=session.players[session.current_player]),
                                       s.huge, bold=True, color=theme.seat_colour(session.current_player)))
        if session.preparing is not None:  # the readers' build (start-up, camera switch): large, not a warning
            info.add_widget(self.heading(self.r(session.preparing)))
        if session.source_status in SOURCE_TEXT:  # the referee's own words when it gives them
            status = self.r(session.source_detail) if session.source_detail else self.t(SOURCE_TEXT[session.source_status])
            info.add_widget(self.label(status, s.body, color=theme.WARN))
        if session.save_problem is not None:
            info.add_widget(self.label(self.r(session.save_problem), s.body, color=theme.BAD))
        if session.guidance:
            info.add_widget(self.label(self.t(N_("What to do now")), s.small, color=theme.MUTED))
            info.add_widget(self.label(self.r(session.guidance[0]), s.large))
        info.add_widget(self._last_ruling())
        scroll.add_widget(info)
        side.add_widget(scroll)
        if session.pending_violation is not None or session.question is not None:
            side.add_widget(self.button(self.t(N_("Open the ruling")), lambda: self.app.go("ruling"), color=theme.BAD))
        buttons = BoxLayout(spacing=s.pad, size_hint_y=None, height=s.touch)
        buttons.add_widget(self.button(self.t(N_("Undo")), lambda: self.app.act(self.app.controls.undo)))
        buttons.add_widget(self.button(self.t(N_("End game")), lambda: self.app.act(self.app.controls.end_game), color=theme.WARN))
        side.add_widget(buttons)
        body.add_widget(side)
        return body

    def _last_ruling(self):
        s = self.s
        ruling = self.app.session.last_ruling
        box = BoxLayout(orientation="vertical", size_hint_y=None, spacing=2)
        box.bind(minimum_height=box.setter("height"))
        if ruling is None:
            return box
        box.add_widget(self.label(self.t(N_("Last ruling")), s.small, color=theme.MUTED))
        if ruling.accepted:
            box.add_widget(self.label("✓ " + self.t(N_("Accepted: {move}"), move=self.r(ruling.move.describe())), s.body, color=theme.OK))
            for note in ruling.notes[:2]:
                box.add_widget(self.label(self.r(note), s.small))
        else:
            for violation in ruling.violations[:2]:
                box.add_widget(self.label("× " + self.r(violation.message), s.body, color=theme.BAD))
                box.add_widget(self.label(self.t(N_("Rule {rule}"), rule=violation.rule_id), s.small, color=theme.MUTED))
        return box
