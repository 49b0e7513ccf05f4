"""Rendering Messages for the screen in the chosen language, nested Messages included."""

from __future__ import annotations

from typing import Any

from ..games.api import Message
from ..i18n import translate

# Each language's name in itself, for the language buttons.
LANGUAGE_NAMES = {"en": "English", "ja": "日本語", "zh_TW": "繁體中文"}


def render(message: Message | str | None, lang: str) -> str:
    """The text of `message` (a Message or a bare msgid) in `lang`. Message.render shows nested
    messages and identifiers (phases, flowers …) in the same language, as the terminal does."""
    if message is None:
        return ""
    if isinstance(message, str):
        return translate(message, lang)
    return message.render(lang)


def tr(msgid: str, lang: str, **params: Any) -> str:
    """Translate a UI msgid (marked with N_ where it is written) and fill in its parameters."""
    return render(Message.of(msgid, **params), lang)
