"""The kiosk app: a navigation bar over a ScreenManager, driven by the referee's event feed.

Call `kivy_env.prepare()` before importing this module (window size, font). The referee pushes
events into an `EventFeed` from its own thread; `poll_feed` drains it on the Kivy clock, updates the
`Session` and brings forward the screen an event asks for (a violation interrupts the live view).
"""

from __future__ import annotations

import logging

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.properties import StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import NoTransition, ScreenManager

from ..i18n import LANGUAGES, N_, normalise_language
from . import theme
from .controller import Answer, EventFeed, GameSetup, RefereeControls
from .fonts import register_default_font
from .names import NameBook
from .screens import SCREENS
from .screens.base import CompanionScreen
from .session import Session
from .text import LANGUAGE_NAMES, tr
from .widgets import Btn, Panel

log = logging.getLogger(__name__)

POLL_SECONDS = 0.05


class CompanionApp(App):
    lang = StringProperty("en")

    def __init__(self, controls: RefereeControls, feed: EventFeed, lang: str = "en", state_dir=None, **kwargs):
        super().__init__(**kwargs)
        self.controls = controls
        self.names = NameBook(state_dir)  # names used before at this table (none kept without a state folder)
        self.feed = feed
        self.session = Session()
        self.setup: GameSetup | None = None
        self.lang = normalise_language(lang)
        self.title = "Table Companion"
        self.screens: dict[str, CompanionScreen] = {}
        self.manager: ScreenManager | None = None
        self.nav: BoxLayout | None = None
        self._poll_event = None

    @property
    def sizes(self) -> theme.Sizes:
        return theme.sizes_for(Window.height)

    def build(self):
        register_default_font()  # again, in case the caller skipped kivy_env.prepare: never tofu
        Window.clearcolor = theme.BACKGROUND
        root = BoxLayout(orientation="vertical")
        self.nav = Panel(theme.PANEL, size_hint_y=None, height=self.sizes.bar, spacing=2, padding=2)
        self.manager = ScreenManager(transition=NoTransition())
        for screen_type in SCREENS:
            screen = screen_type(self)
            self.screens[screen.name] = screen
            self.manager.add_widget(screen)
        root.add_widget(self.nav)
        root.add_widget(self.manager)
        self.manager.bind(current=lambda *_: self.render_nav())
        Window.bind(size=self._on_resize)
        self.render_nav()
        if not self.current_screen.children:  # adding the first screen may already have shown it
            self.current_screen.render()
        self._poll_event = Clock.schedule_interval(lambda _dt: self.poll_feed(), POLL_SECONDS)
        return root

    def on_stop(self):
        if self._poll_event is not None:
            self._poll_event.cancel()
        Window.unbind(size=self._on_resize)

    def _on_resize(self, *_):
        self.refresh()

    # --- navigation ------------------------------------------------------------------------------
    @property
    def current_screen(self) -> CompanionScreen:
        return self.screens[self.manager.current]

    def go(self, name: str) -> None:
        if self.manager.current == name:
            self.current_screen.render()
        else:
            self.manager.current = name

    NAV = (
        ("home", N_("Home")),
        ("live", N_("Live")),
        ("hints", N_("Hints")),
        ("score", N_("Score")),
        ("editors", N_("Editors")),
        ("settings", N_("Settings")),
    )

    def render_nav(self) -> None:
        if self.nav is None:
            return
        self.nav.clear_widgets()
        self.nav.height = self.sizes.bar
        current = self.manager.current if self.manager else ""
        for name, msgid in self.NAV:
            self.nav.add_widget(
                Btn(tr(msgid, self.lang), lambda n=name: self.go(n), height=self.sizes.bar - 4,
                    size=self.sizes.body, selected=current == name)
            )
        if self.session.pending_violation is not None or self.session.question is not None:
            self.nav.add_widget(
                Btn(tr(N_("Ruling"), self.lang), lambda: self.go("ruling"), height=self.sizes.bar - 4,
                    size=self.sizes.body, color=theme.BAD, selected=current == "ruling")
            )
        self.nav.add_widget(
            Btn(LANGUAGE_NAMES[self.next_language()], lambda: self.set_language(self.next_language()),
                height=self.sizes.bar - 4, size=self.sizes.body, color=theme.PANEL_LIGHT)
        )

    def refresh(self) -> None:
        """Rebuild the bar and the showing screen (after a language or window size change)."""
        self.render_nav()
        if self.manager is not None:
            self.current_screen.render()

    # --- language ------------------------------------------------------------------------------
    def next_language(self) -> str:
        return LANGUAGES[(LANGUAGES.index(self.lang) + 1) % len(LANGUAGES)]

    def set_language(self, lang: str) -> None:
        self.lang = normalise_language(lang)
        self.refresh()

    # --- the referee ------------------------------------------------------------------------------
    def start_game(self, setup: GameSetup) -> Answer:
        """Ask the referee for a new game; the screens start over only when it goes ahead."""
        waiting = self.feed.drain(limit=10_000)  # the ended game's last events must not show on the new one
        answer = self.controls.start_game(setup)
        if not isinstance(answer, Answer):  # an older referee answers nothing: it went ahead
            answer = Answer(True)
        if not answer.done:
            for event in waiting:  # the game goes on: nothing of it is lost
                self.feed.push(event)
            self.poll_feed()
            return answer
        self.setup = setup
        self.session.reset(setup.game, setup.players)
        if answer.message is not None:
            self.session.note(answer.message)
        self.poll_feed()
        return answer

    @property
    def game_under_way(self) -> bool:
        """A game the players would lose by starting another (it stays in the journal, but still)."""
        return self.session.state is not None and not self.session.over

    def act(self, command, *args) -> None:
        """Call a RefereeControls method, then show its answer at once (no wait for the clock)."""
        command(*args)
        self.poll_feed()

    def poll_feed(self) -> int:
        """Apply waiting events; re-render what they change. Returns how many were applied."""
        events = self.feed.drain()
        if not events:
            return 0
        target = None
        had_game = self.session.game is not None
        revision = self.session.revision
        for event in events:
            try:
                target = self.session.apply(event) or target
            except Exception:  # one malformed event must not take the kiosk down
                log.exception("could not show event %r", event)
        if self.manager is None or self.session.revision == revision:
            return len(events)
        self.render_nav()
        if target is None and not had_game and self.manager.current == "home":
            target = "live"  # the referee began (or resumed) a game: show it
        if target and target != self.manager.current:
            self.go(target)
        elif self.current_screen.uses_session:
            self.current_screen.render()
        return len(events)
