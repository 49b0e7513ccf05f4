"""Translations: every player-visible string is an English msgid looked up in gettext catalogues.

Rules engines stay pure Python: they only *mark* strings with `N_` and carry parameters separately,
so a ruling made once can be shown in Japanese, Traditional Chinese or English at display time.
Catalogues live in companion/locale/<lang>/LC_MESSAGES/companion.po and are compiled to .mo by
`python -m companion.i18n compile` (run by the Makefile).
"""

from __future__ import annotations

import gettext
import sys
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

DOMAIN = "companion"
LOCALE_DIR = Path(__file__).with_name("locale")
LANGUAGES = ("en", "ja", "zh_TW")
DEFAULT_LANGUAGE = "en"


def N_(message: str) -> str:  # noqa: N802 - the conventional gettext marker name
    """Mark a string for extraction without translating it now."""
    return message


# A plural msgid is its two English forms joined by NUL, as gettext's .mo files store them: it
# travels through Message, JSON and the journal as one string, and `translate` picks the form.
PLURAL_SEPARATOR = "\x00"
COUNT_PARAMETER = "count"  # the parameter whose number chooses the form


def NP_(singular: str, plural: str) -> str:  # noqa: N802 - extracted like ngettext (keyword NP_:1,2)
    """Mark a count-bearing text: `Message.of(NP_("{count} set", "{count} sets"), count=n)`.
    The form is chosen by the `count` parameter when shown (ja and zh_TW have a single form)."""
    return f"{singular}{PLURAL_SEPARATOR}{plural}"


def plural_forms(msgid: str) -> tuple[str, str] | None:
    """(singular, plural) of a msgid made by NP_, else None."""
    singular, separator, plural = msgid.partition(PLURAL_SEPARATOR)
    return (singular, plural) if separator else None


def normalise_language(lang: str | None) -> str:
    """Accept 'zh-TW', 'zh_TW', 'ja_JP.UTF-8' and the like; fall back to English."""
    if not lang:
        return DEFAULT_LANGUAGE
    code = lang.split(".")[0].replace("-", "_")
    if code in LANGUAGES:
        return code
    base = code.split("_")[0]
    if base == "zh":
        return "zh_TW"
    return base if base in LANGUAGES else DEFAULT_LANGUAGE


@cache
def translation(lang: str | None) -> gettext.NullTranslations:
    code = normalise_language(lang)
    return gettext.translation(DOMAIN, localedir=LOCALE_DIR, languages=[code], fallback=True)


def translate(msgid: str, lang: str | None = None, params: Mapping[str, Any] | None = None) -> str:
    """Translate a msgid and fill in its {named} parameters (parameters are never translated here).
    A plural msgid (NP_) takes the form its `count` parameter asks for in that language."""
    forms = plural_forms(msgid)
    if forms is None:
        text = translation(lang).gettext(msgid)
        english = msgid
    else:
        count = _count(params)
        text = translation(lang).ngettext(forms[0], forms[1], count)
        english = forms[0] if count == 1 else forms[1]
    if not params:
        return text
    try:
        return text.format(**params)
    except (KeyError, IndexError, ValueError):
        # A translator's typo must not hide the ruling: fall back to the English template.
        return english.format(**params)


def _count(params: Mapping[str, Any] | None) -> int:
    value = (params or {}).get(COUNT_PARAMETER)
    try:
        return int(value)
    except (TypeError, ValueError):
        return 2  # no number: the plural reads best ("{count} tiles" with count "?" or "many")


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
REGION_NAMES = {  # the board regions a camera reads (vision/boards.py)
    "babylon.garden": N_("Babylon gardens"), "babylon.quarry": N_("Babylon quarry"),
    "reclamation": N_("Reclamation field"), "babel": N_("Babel building sites"), "baubylon": N_("Baubylon field"),
}
GAME_TITLES = {"babylon": N_("Babylon"), "reclamation": N_("The Reclamation"), "babel": N_("Babel Builders"),
               "baubylon": N_("Baubylon")}  # the registry's titles
IDENTIFIER_NAMES: dict[str, dict[str, str]] = {
    "game": GAME_TITLES,
    "stage": PHASE_NAMES, "phase": PHASE_NAMES, "material": MATERIAL_NAMES, "flower": FLOWER_NAMES,
    "icon": ICON_NAMES, "colour": COLOUR_NAMES, "color": COLOUR_NAMES, "region": REGION_NAMES,
    "regions": REGION_NAMES,
}


def identifier_name(key: str, value: Any, lang: str | None) -> Any:
    """A message parameter as shown in `lang`: a known identifier by its name in that language
    (looked up by the parameter's name, so a player called "pink" keeps her name); anything that
    renders itself (an error carrying a Message, a nested text) in that language; else unchanged."""
    render = getattr(value, "render", None)
    if callable(render) and not isinstance(value, type):
        return render(lang)
    if isinstance(value, (list, tuple)) and (key in IDENTIFIER_NAMES or all(hasattr(v, "render") for v in value)):
        # "{regions}", "{missing}": identifiers or texts, listed in the language's own way
        return translate(N_(", "), lang).join(str(identifier_name(key, v, lang)) for v in value)
    names = IDENTIFIER_NAMES.get(key)
    if names is not None and isinstance(value, str) and value in names:
        return translate(names[value], lang)
    if key == "flower" and isinstance(value, str) and value[:6] == "flower" and value[6:].isdigit():
        # the calibration layouts' flower slots ("flower0": whichever flower the first board has)
        return translate(N_("flower {n}"), lang, {"n": int(value[6:]) + 1})
    return value


def compile_catalogues(locale_dir: Path = LOCALE_DIR) -> list[Path]:
    """Compile every .po under locale_dir into a .mo beside it (only when the .po is newer)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    written = []
    for po_path in sorted(locale_dir.glob("*/LC_MESSAGES/*.po")):
        mo_path = po_path.with_suffix(".mo")
        if mo_path.exists() and mo_path.stat().st_mtime >= po_path.stat().st_mtime:
            continue
        with po_path.open("rb") as po_file:
            catalog = read_po(po_file)
        with mo_path.open("wb") as mo_file:
            write_mo(mo_file, catalog)
        written.append(mo_path)
    translation.cache_clear()
    return written


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["compile"]:
        for path in compile_catalogues():
            print(f"compiled {path}")
        return 0
    print("usage: python -m companion.i18n compile", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
