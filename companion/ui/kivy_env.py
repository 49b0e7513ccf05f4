"""Kivy settings that must be in place before Kivy opens its window or builds a widget."""

from __future__ import annotations

import os
from pathlib import Path


def configured_fullscreen() -> bool:
    """[ui] fullscreen of the configuration (true by default: the kiosk); a window if unreadable."""
    from ..config import load_config
    from ..errors import CompanionError

    try:
        return bool(load_config().get("ui", "fullscreen"))
    except CompanionError:
        return False


def prepare(width: int = 800, height: int = 480, fullscreen: bool | None = None) -> Path:
    """Set window size and input options, keep Kivy off our command line, register the CJK font.

    `fullscreen=None` follows the configuration's [ui] fullscreen. Returns the font file in use.
    Call once, before importing companion.ui.app.
    """
    if fullscreen is None:
        fullscreen = configured_fullscreen()
    os.environ.setdefault("KIVY_NO_ARGS", "1")  # our CLI (and pytest) own sys.argv, not Kivy
    os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")  # Kivy logs to its file; our log stays readable
    # Kivy's default log mode takes over the root logger (reformatting everyone's log lines, and
    # pytest's caplog for the tests after ours); MIXED keeps its handlers on its own logger.
    os.environ.setdefault("KIVY_LOG_MODE", "MIXED")
    from kivy.config import Config

    Config.set("graphics", "width", str(width))
    Config.set("graphics", "height", str(height))
    Config.set("graphics", "fullscreen", "auto" if fullscreen else "0")
    Config.set("graphics", "show_cursor", "0" if fullscreen else "1")
    Config.set("kivy", "exit_on_escape", "0" if fullscreen else "1")
    # A right click must not leave red multitouch dots on a kiosk screen.
    Config.set("input", "mouse", "mouse,disable_multitouch")
    # A kiosk has no keyboard: player names are typed on Kivy's on-screen keyboard.
    Config.set("kivy", "keyboard_mode", "systemanddock" if fullscreen else "system")
    from .fonts import register_default_font

    return register_default_font()
