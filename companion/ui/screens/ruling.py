"""A ruling: the broken rule in the player's language with its id and rulebook place, a picture of
the offending spot, and what to do (accept the correction, override, undo); or a question with the
candidate moves to choose from."""

from __future__ import annotations

import itertools
import logging

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.scrollview import ScrollView

from ...games.api import Violation
from ...i18n import N_
from .. import theme
from ..controller import crop_to_marks, mark_cells
from ..rulebook import location, rule_title
from ..topdown import picture_for
from ..widgets import BoardPicture, CameraPicture, Panel
from .base import CompanionScreen

CORRECTIONS = 12  # legal moves offered when the camera misread; more would not fit a finger's patience
log = logging.getLogger(__name__)


class RulingScreen(CompanionScreen):
    screen_name = "ruling"
    uses_session = True

    def __init__(self, app, **kwargs):
        super().__init__(app, **kwargs)
        self.correcting = False  # showing the moves the players can pick when the camera misread

    def on_pre_enter(self, *args):
        self.correcting = False
        super().on_pre_enter(*args)

    def build_content(self):
        session = self.app.session
        if session.question is not None:
            return self._question()
        if session.pending_violation is not None:
            return self._corrections() if self.correcting else self._violation()
        box = BoxLayout(orientation="vertical", spacing=self.s.pad)
        box.add_widget(self.heading(self.t(N_("No open ruling."))))
        box.add_widget(BoxLayout())
        box.add_widget(self.button(self.t(N_("Back to the game")), lambda: self.app.go("live")))
        return box

    def _violation(self):
        s = self.s
        session = self.app.session
        ruling = session.pending_violation
        body = BoxLayout(spacing=s.pad)
        left = BoxLayout(orientation="vertical", spacing=s.pad)
        scroll = ScrollView(do_scroll_x=False)
        text = BoxLayout(orientation="vertical", spacing=s.pad, size_hint_y=None)
        text.bind(minimum_height=text.setter("height"))
        text.add_widget(self.label("× " + self.t(N_("Not allowed")), s.huge, bold=True, color=theme.BAD))
        where: list[str] = []
        for violation in ruling.violations:
            text.add_widget(self._violation_text(violation))
            where.extend(violation.where)
        scroll.add_widget(text)
        left.add_widget(scroll)
        buttons = BoxLayout(spacing=s.pad, size_hint_y=None, height=s.touch)
        controls = self.app.controls
        buttons.add_widget(self.button(self.t(N_("We'll put it right")), lambda: self.app.act(controls.accept_correction), color=theme.OK))
        buttons.add_widget(self.button(self.t(N_("Override: the move stands")), lambda: self.app.act(controls.override), color=theme.WARN))
        buttons.add_widget(self.button(self.t(N_("Undo")), lambda: self.app.act(controls.undo)))
        left.add_widget(buttons)
        body.add_widget(left)

        board = picture_for(session.state, None, session.game)
        cells, others = board.locate(where)
        picture = Panel(theme.PANEL, orientation="vertical", padding=s.pad, spacing=s.pad, size_hint_x=0.38)
        picture.add_widget(self.label(self.t(N_("Where")), s.small, color=theme.MUTED))
        view = self.app.controls.camera_view()
        if view is not None and cells:  # the offending cells, where the camera view can place them
            view = mark_cells(view, cells)
        spot = crop_to_marks(view) if view is not None else None
        if spot is not None:  # what the camera saw there, next to the engine's picture of the board
            camera = CameraPicture()
            camera.show(spot)
            picture.add_widget(camera)
        picture.add_widget(BoardPicture(board, cells, font=s.small * 0.8))
        if session.state is not None:  # beside the pictures: what the camera saw may be wrong
            picture.add_widget(self.button(self.t(N_("The camera misread: choose what happened")), self._start_correcting,
                                           size=s.small, height=s.touch))
        if others:
            picture.add_widget(self.label(", ".join(others), s.small))
        body.add_widget(picture)
        return body

    def _violation_text(self, violation: Violation):
        s = self.s
        box = Panel(theme.PANEL, orientation="vertical", padding=s.pad, spacing=4, size_hint_y=None)
        box.bind(minimum_height=box.setter("height"))
        box.add_widget(self.label(self.r(violation.message), s.large))
        if violation.fix is not None:
            box.add_widget(self.label("→ " + self.r(violation.fix), s.body, color=theme.OK))
        title = rule_title(violation.rule_id)
        if title:
            box.add_widget(self.label(self.t(title), s.body, bold=True, color=theme.WARN))
        box.add_widget(self.label(self.t(N_("Rule {rule}"), rule=violation.rule_id), s.small, bold=True, color=theme.WARN))
        box.add_widget(self.label(self.r(location(violation.rule_id)), s.small, color=theme.MUTED))
        return box

    def _start_correcting(self) -> None:
        self.correcting = True
        self.render()

    def _corrections(self):
        """The legal moves from the confirmed position: the players tap the one they really made."""
        s = self.s
        box = BoxLayout(orientation="vertical", spacing=s.pad)
        box.add_widget(self.label(self.t(N_("What really happened?")), s.huge, bold=True, color=theme.WARN))
        scroll = ScrollView(do_scroll_x=False)
        moves = BoxLayout(orientation="vertical", spacing=s.pad, size_hint_y=None)
        moves.bind(minimum_height=moves.setter("height"))
        for move in self._candidate_moves():
            moves.add_widget(self.button(self.r(move.describe()), lambda m=move: self.app.act(self.app.controls.correct, m),
                                         color=theme.ACCENT))
        scroll.add_widget(moves)
        box.add_widget(scroll)
        box.add_widget(self.button(self.t(N_("Back")), self._stop_correcting))
        return box

    def _candidate_moves(self) -> list:
        state = self.app.session.state
        try:
            return list(itertools.islice(state.legal_moves(), CORRECTIONS))
        except Exception:  # an engine bug must not hide the ruling's other buttons
            log.exception("legal_moves failed")
            return []

    def _stop_correcting(self) -> None:
        self.correcting = False
        self.render()

    def _question(self):
        s = self.s
        question = self.app.session.question
        box = BoxLayout(orientation="vertical", spacing=s.pad)
        box.add_widget(self.label("? " + self.r(question.text), s.huge, bold=True, color=theme.WARN))
        box.add_widget(self.label(self.t(N_("The camera is not sure. Tap what really happened.")), s.body, color=theme.MUTED))
        for index, move in enumerate(question.candidates):
            text = self.r(move.describe())
            if index < len(question.confidences):
                text = self.t(N_("{move} ({percent}% sure)"), move=text, percent=round(100 * question.confidences[index]))
            box.add_widget(self.button(text, lambda i=index: self.app.act(self.app.controls.choose, i), color=theme.ACCENT))
        box.add_widget(BoxLayout())
        box.add_widget(self.button(self.t(N_("None of these: undo")), lambda: self.app.act(self.app.controls.undo)))
        return box
