"""Drive the app without its main loop: build it on a window, draw frames, tap widgets, take
screenshots. Used by `companion.ui.screenshots` and by the UI tests (which need a display)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from .kivy_env import prepare


class Harness:
    """One app on the (single) Kivy window; a new Harness replaces the previous app's widgets."""

    def __init__(self, width: int = 800, height: int = 480, lang: str = "en", controls=None, state_dir=None):
        prepare(width, height, fullscreen=False)
        from kivy.base import EventLoop
        from kivy.core.window import Window

        from .app import CompanionApp
        from .fake import FakeReferee

        EventLoop.ensure_window()
        self.window = Window
        self.eventloop = EventLoop
        for child in list(Window.children):
            Window.remove_widget(child)
        if tuple(Window.size) != (width, height):
            Window.size = (width, height)
        self.fake = controls if controls is not None else FakeReferee()
        self.app = CompanionApp(self.fake, self.fake.feed, lang, state_dir=state_dir)
        self.app.root = self.app.build()
        Window.add_widget(self.app.root)
        self.frame()

    def close(self) -> None:
        self.app.on_stop()
        self.window.remove_widget(self.app.root)

    def frame(self, count: int = 2) -> None:
        """Let the layouts settle and draw (a few ticks of the clock)."""
        for _ in range(count):
            self.eventloop.idle()

    # --- finding and touching widgets ------------------------------------------------------------
    def widgets(self, root=None) -> Iterator:
        stack = [root or self.app.root]
        while stack:
            widget = stack.pop()
            yield widget
            stack.extend(widget.children)

    @staticmethod
    def _plain(widget) -> str | None:
        text = getattr(widget, "plain", None) or getattr(widget, "text", None)  # widgets.KinsokuText
        return text.replace("\u00a0", " ") if isinstance(text, str) else None  # see widgets.breakable

    def find(self, text: str, root=None):
        """The visible widget whose text is exactly `text` (or starts with it, as a second choice)."""
        exact = [w for w in self.widgets(root) if self._plain(w) == text]
        if exact:
            return exact[0]
        loose = [w for w in self.widgets(root) if (self._plain(w) or "").startswith(text)]
        if not loose:
            raise LookupError(f"no widget with text {text!r} on screen {self.app.manager.current!r}")
        return loose[0]

    def texts(self) -> list[str]:
        return [text for w in self.widgets() if (text := self._plain(w))]

    def tap(self, target) -> None:
        """A touch down and up at the middle of a widget (or of the widget with that text)."""
        from kivy.tests.common import UnitTestTouch
        from kivy.uix.scrollview import ScrollView

        self.frame(2)  # nested layouts settle over a couple of frames after a re-render
        widget = self.find(target) if isinstance(target, str) else target
        parent = widget.parent
        for _ in range(100):  # walk up to the window (whose parent is itself)
            if parent is None or isinstance(parent, ScrollView) or parent is parent.parent:
                break
            parent = parent.parent
        if isinstance(parent, ScrollView):  # scrolled out of sight: a player would scroll to it first
            parent.scroll_to(widget, padding=10, animate=False)
            self.frame(2)
        x, y = widget.to_window(widget.center_x, widget.center_y)
        touch = UnitTestTouch(x, y)
        touch.touch_down()
        touch.touch_up()
        self.frame(1)

    # --- pictures ------------------------------------------------------------------------------
    def screenshot(self, path: Path) -> Path:
        """Write the window to `path` (PNG); Kivy numbers screenshot files, so rename after."""
        self.frame(2)
        path.parent.mkdir(parents=True, exist_ok=True)
        written = Path(self.window.screenshot(str(path.with_name(path.stem + "_.png"))))
        written.replace(path)
        return path
