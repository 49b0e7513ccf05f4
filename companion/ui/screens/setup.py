"""The set-up wizard: one step at a time, with this player number's counts and the rule behind them."""

from __future__ import annotations

from kivy.uix.boxlayout import BoxLayout

from ...i18n import GAME_TITLES, N_
from .. import theme
from ..setup_steps import SetupStep, field_check, steps_for
from ..widgets import Panel
from .base import CompanionScreen


class SetupScreen(CompanionScreen):
    screen_name = "setup"

    def __init__(self, app, **kwargs):
        super().__init__(app, **kwargs)
        self.step = 0

    def steps(self) -> tuple[SetupStep, ...]:
        setup = self.app.setup
        if setup is None:
            return ()
        return steps_for(setup.game, len(setup.players), setup.variant)

    def on_pre_enter(self, *args):
        self.step = 0
        super().on_pre_enter(*args)

    def move(self, delta: int) -> None:
        self.step = min(max(self.step + delta, 0), max(len(self.steps()) - 1, 0))
        self.render()

    def build_content(self):
        s = self.s
        box = BoxLayout(orientation="vertical", spacing=s.pad)
        steps = self.steps()
        if not steps:
            box.add_widget(self.heading(self.t(N_("Choose a game on the home screen first."))))
            box.add_widget(BoxLayout())
            box.add_widget(self.button(self.t(N_("Home")), lambda: self.app.go("home")))
            return box
        setup = self.app.setup
        step = steps[self.step]
        box.add_widget(self.label(
            self.t(N_("Set-up for {game}, {count} players · step {step} of {steps}"), game=self.t(GAME_TITLES[setup.game]),
                   count=len(setup.players), step=self.step + 1, steps=len(steps)), s.small, color=theme.MUTED))
        card = Panel(theme.PANEL, orientation="vertical", padding=s.pad * 2, spacing=s.pad)
        card.add_widget(self.label(self.r(step.title), s.huge, bold=True))
        lines = step.lines
        if step.rule_id == "baubylon.field" and self.step == len(steps) - 1:
            lines = lines + (field_check(self.app.session.state) or ())
        for line in lines:
            card.add_widget(self.label("• " + self.r(line), s.large))
        card.add_widget(BoxLayout())
        card.add_widget(self.label(self.t(N_("Rule {rule}"), rule=step.rule_id), s.small, color=theme.MUTED))
        box.add_widget(card)
        buttons = BoxLayout(spacing=s.pad, size_hint_y=None, height=s.touch)
        buttons.add_widget(self.button(self.t(N_("Back")), lambda: self.move(-1), disabled=self.step == 0))
        if self.step + 1 < len(steps):
            buttons.add_widget(self.button(self.t(N_("Next")), lambda: self.move(1), color=theme.ACCENT))
        else:
            buttons.add_widget(self.button(self.t(N_("Calibrate the camera")), lambda: self.app.go("calibration"), color=theme.ACCENT))
            buttons.add_widget(self.button(self.t(N_("Play")), lambda: self.app.go("live"), color=theme.OK))
        box.add_widget(buttons)
        return box
