"""Rendering Messages for the screen in the chosen language, nested Messages included."""

from __future__ import annotations

from typing import Any

from ..games.api import Message
from ..i18n import N_, translate

# Each language's name in itself, for the language buttons.
LANGUAGE_NAMES = {"en": "English", "ja": "日本語", "zh_TW": "繁體中文"}


# Identifiers the engines put into sentences as parameters ("Not now: this is the {stage} phase.",
# "A {material} tile shows …"): shown by name in the player's language, never as the identifier.
# Keyed by parameter name, so a player called "pink" keeps her name.
PHASE_NAMES = {  # nouns that read well in "the {stage} phase"
    "trim": N_("trim"), "quarry": N_("quarry"), "build": N_("build"), "store": N_("storage"),
    "reveal": N_("reveal"), "over": N_("game end"), "appoint": N_("appointment"), "name_master": N_("master-naming"),
    "seal": N_("seal"), "punishment": N_("punishment"), "messenger": N_("messenger"), "roll": N_("roll"),
    "move": N_("move"), "turn": N_("turn"),
}
MATERIAL_NAMES = {"clay": N_("clay"), "granite": N_("granite"), "basalt": N_("basalt"), "start": N_("starting")}
FLOWER_NAMES = {"white": N_("White"), "pink": N_("Pink"), "yellow": N_("Yellow"), "blue": N_("Blue")}
ICON_NAMES = {"stairs": N_("stairs"), "fountain": N_("fountain"), "bridge": N_("bridge"), "statue": N_("statue"),
              "none": N_("no icon")}
COLOUR_NAMES = {  # pawns and blocks (Baubylon, the calibration layouts)
    "red": N_("red"), "blue": N_("blue"), "green": N_("green"), "yellow": N_("yellow"), "black": N_("black"),
    "white": N_("white"), "purple": N_("purple"), "orange": N_("orange"),
}
IDENTIFIER_NAMES: dict[str, dict[str, str]] = {
    "stage": PHASE_NAMES, "phase": PHASE_NAMES, "material": MATERIAL_NAMES, "flower": FLOWER_NAMES,
    "icon": ICON_NAMES, "colour": COLOUR_NAMES, "color": COLOUR_NAMES,
}


def parameter(key: str, value: Any, lang: str) -> Any:
    """A message parameter as shown in `lang`: nested messages and known identifiers translated."""
    if isinstance(value, Message):
        return render(value, lang)
    names = IDENTIFIER_NAMES.get(key)
    if names is not None and isinstance(value, str) and value in names:
        return translate(names[value], lang)
    if key == "flower" and isinstance(value, str) and value[:6] == "flower" and value[6:].isdigit():
        # the calibration layouts' flower slots ("flower0": whichever flower the first board has)
        return translate(N_("flower {n}"), lang, {"n": int(value[6:]) + 1})
    return value


def render(message: Message | str | None, lang: str) -> str:
    """The text of `message` in `lang`; Message parameters are themselves rendered in `lang`.

    (Message.render would turn a nested Message into English through str(); a ruling whose
    parameters are texts, like a rulebook section, must read in one language throughout.)
    """
    if message is None:
        return ""
    if isinstance(message, str):
        return translate(message, lang)
    params: dict[str, Any] = {key: parameter(key, value, lang) for key, value in message.params}
    return translate(message.msgid, lang, params)


def tr(msgid: str, lang: str, **params: Any) -> str:
    """Translate a UI msgid (marked with N_ where it is written) and fill in its parameters."""
    return render(Message.of(msgid, **params), lang)
