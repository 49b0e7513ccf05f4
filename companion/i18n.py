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
    """Translate a msgid and fill in its {named} parameters (parameters are never translated here)."""
    text = translation(lang).gettext(msgid)
    if not params:
        return text
    try:
        return text.format(**params)
    except (KeyError, IndexError, ValueError):
        # A translator's typo must not hide the ruling: fall back to the English template.
        return msgid.format(**params)


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
