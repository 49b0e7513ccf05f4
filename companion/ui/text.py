"""Rendering Messages for the screen in the chosen language, nested Messages included."""

from __future__ import annotations

from typing import Any

from ..games.api import Message
from ..i18n import translate

# Each language's name in itself, for the language buttons.
LANGUAGE_NAMES = {"en": "English", "ja": "日本語", "zh_TW": "繁體中文"}


def render(message: Message | str | None, lang: str) -> str:
    """The text of `message` in `lang`; Message parameters are themselves rendered in `lang`.

    (Message.render would turn a nested Message into English through str(); a ruling whose
    parameters are texts, like a rulebook section, must read in one language throughout.)
    """
    if message is None:
        return ""
    if isinstance(message, str):
        return translate(message, lang)
    params: dict[str, Any] = {
        key: render(value, lang) if isinstance(value, Message) else value for key, value in message.params
    }
    return translate(message.msgid, lang, params)


def tr(msgid: str, lang: str, **params: Any) -> str:
    """Translate a UI msgid (marked with N_ where it is written) and fill in its parameters."""
    return render(Message.of(msgid, **params), lang)
