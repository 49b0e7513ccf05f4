"""The base of every screen: rebuilt from the app's state whenever it comes forward, the language
changes or an event arrives, so no screen ever shows a stale or half-translated text."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from ...errors import CompanionError
from ...games.api import Message
from ...i18n import N_
from .. import theme
from ..text import render, tr
from ..widgets import Btn, Panel, Txt

if TYPE_CHECKING:
    from ..app import CompanionApp

log = logging.getLogger(__name__)


class CompanionScreen(Screen):
    screen_name = ""
    uses_session = False  # re-render when an event arrives while showing

    def __init__(self, app: CompanionApp, **kwargs):
        super().__init__(name=self.screen_name, **kwargs)
        self.app = app

    # --- helpers the screens share ---------------------------------------------------------------
    @property
    def s(self) -> theme.Sizes:
        return self.app.sizes

    def t(self, msgid: str, **params: Any) -> str:
        return tr(msgid, self.app.lang, **params)

    def r(self, message: Message | str | None) -> str:
        return render(message, self.app.lang)

    def label(self, text: str, size: float | None = None, **kwargs) -> Txt:
        return Txt(text, size or self.s.body, **kwargs)

    def button(self, text: str, on_tap, **kwargs) -> Btn:
        kwargs.setdefault("height", self.s.touch)
        kwargs.setdefault("size", self.s.body)
        return Btn(text, on_tap, **kwargs)

    def heading(self, text: str) -> Txt:
        return Txt(text, self.s.large, bold=True)

    # --- life cycle ----------------------------------------------------------------------------
    def on_pre_enter(self, *args):
        self.render()

    def on_leave(self, *args):
        self.stop_updates()

    def render(self) -> None:
        self.stop_updates()
        self.clear_widgets()
        root = Panel(theme.BACKGROUND, orientation="vertical", padding=self.s.pad, spacing=self.s.pad)
        try:
            root.add_widget(self.build_content())
        except Exception as exc:  # a kiosk must not die on one screen's bad data: say so, keep going
            log.exception("screen %s could not be shown", self.name)
            root.add_widget(self.heading(self.t(N_("This screen could not be shown."))))
            root.add_widget(self.label(self._failure_text(exc), self.s.small, color=theme.MUTED))
            root.add_widget(Widget())
            root.add_widget(self.button(self.t(N_("Back to the game")), lambda: self.app.go("live")))
        self.add_widget(root)
        if self.manager is not None and self.manager.current == self.name:
            self.start_updates()

    def build_content(self) -> Widget:
        raise NotImplementedError

    def _failure_text(self, exc: Exception) -> str:
        """Why the screen failed: an error made for the player in their language; a bug's own
        (English) words only as a detail for whoever is told about it."""
        if isinstance(exc, CompanionError):
            return exc.render(self.app.lang)
        return self.t(N_("Details for the person looking after the kiosk: {detail}"), detail=f"{type(exc).__name__}: {exc}")

    def start_updates(self) -> None:
        """Screens showing the camera start their refresh clock here."""

    def stop_updates(self) -> None:
        """... and stop it here."""
