"""Hints: the next step for the player whose turn it is, and moves the rules engine suggests."""

from __future__ import annotations

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.scrollview import ScrollView

from ...i18n import N_
from .. import theme
from ..suggestions import Suggestion, suggestions
from ..widgets import Panel
from .base import CompanionScreen

SUGGESTIONS = 4  # the engines' move lists can be long: a few is a hint, all is noise


class HintsScreen(CompanionScreen):
    screen_name = "hints"
    uses_session = True

    def __init__(self, app, **kwargs):
        super().__init__(app, **kwargs)
        self._cached: tuple[object, list[Suggestion]] | None = None

    def suggestions(self) -> list[Suggestion]:
        """Searched once per position: states are immutable, and a search can take 0.4 s."""
        state = self.app.session.state
        if self._cached is None or self._cached[0] is not state:
            self._cached = (state, suggestions(state, SUGGESTIONS))
        return self._cached[1]

    def declare(self, moves: tuple) -> None:
        """The players made the suggested move (or one the camera cannot see): tell the referee,
        which checks it like any other and answers on the feed."""
        for move in moves:
            self.app.controls.play(move)
        self.app.poll_feed()
        self.app.go("live")

    def build_content(self):
        s = self.s
        session = self.app.session
        scroll = ScrollView(do_scroll_x=False)
        box = BoxLayout(orientation="vertical", spacing=s.pad, size_hint_y=None)
        box.bind(minimum_height=box.setter("height"))
        if session.current_player is not None and session.current_player < len(session.players):
            box.add_widget(self.label(self.t(N_("{name}'s turn"), name=session.players[session.current_player]),
                                      s.large, bold=True, color=theme.seat_colour(session.current_player)))
        box.add_widget(self.heading(self.t(N_("Next step"))))
        steps = Panel(theme.PANEL, orientation="vertical", padding=s.pad, spacing=4, size_hint_y=None)
        steps.bind(minimum_height=steps.setter("height"))
        for number, message in enumerate(session.guidance, 1):
            steps.add_widget(self.label(f"{number}. {self.r(message)}", s.large))
        if not session.guidance:
            steps.add_widget(self.label(self.t(N_("No guidance yet: start a game.")), s.body, color=theme.MUTED))
        box.add_widget(steps)
        found = self.suggestions()
        box.add_widget(self.heading(self.t(N_("Suggestions"))))
        ideas = Panel(theme.PANEL, orientation="vertical", padding=s.pad, spacing=4, size_hint_y=None)
        ideas.bind(minimum_height=ideas.setter("height"))
        for suggestion in found:
            ideas.add_widget(self.label("• " + self.r(suggestion.text), s.body))
            for detail in suggestion.details[:2]:
                ideas.add_widget(self.label("   " + self.r(detail), s.small, color=theme.MUTED))
            if suggestion.rule_id:
                ideas.add_widget(self.label("   " + self.t(N_("Rule {rule}"), rule=suggestion.rule_id), s.small, color=theme.MUTED))
            if suggestion.moves and not session.over:
                ideas.add_widget(self.button(self.t(N_("We made this move")), lambda m=suggestion.moves: self.declare(m),
                                             size=s.small, size_hint_x=None, width=s.touch * 5))
        if not found:
            ideas.add_widget(self.label(self.t(N_("No suggestions right now.")), s.body, color=theme.MUTED))
        box.add_widget(ideas)
        scroll.add_widget(box)
        return scroll
