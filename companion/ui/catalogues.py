"""Keep the gettext catalogues in step with the code (run from the repository root).

    python -m companion.ui.catalogues update   # extract N_/_ msgids from companion/, merge into each .po
    python -m companion.ui.catalogues check    # untranslated msgids and placeholder mismatches; exit 1 if any

The template is companion/locale/companion.pot; translations live in
companion/locale/<lang>/LC_MESSAGES/companion.po (en stays empty: English is the msgid itself).
Compiling to .mo is `python -m companion.i18n compile` (the Makefile's `catalogues` target).
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

from ..i18n import DOMAIN, LANGUAGES, LOCALE_DIR

PACKAGE_DIR = LOCALE_DIR.parent
TEMPLATE = LOCALE_DIR / f"{DOMAIN}.pot"
KEYWORDS = {"N_": None, "_": None, "NP_": (1, 2)}  # NP_(singular, plural): companion.i18n
TRANSLATED_LANGUAGES = tuple(lang for lang in LANGUAGES if lang != "en")
_PLACEHOLDER = re.compile(r"\{(\w*)[^{}]*\}")


def po_path(lang: str, locale_dir: Path = LOCALE_DIR) -> Path:
    return locale_dir / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def extract(source_dir: Path = PACKAGE_DIR):
    """A babel Catalog of every msgid marked in the package, with its source locations."""
    from babel.messages.catalog import Catalog
    from babel.messages.extract import extract_from_dir

    catalog = Catalog(project="Table Companion", charset="utf-8")
    for filename, lineno, message, comments, context in extract_from_dir(
        str(source_dir), method_map=[("**.py", "python")], keywords=KEYWORDS
    ):
        if isinstance(message, tuple) and not all(message):
            continue  # an NP_ call without two literal forms: nothing to translate
        if message:
            catalog.add(message, None, [(f"companion/{filename}", lineno)], auto_comments=comments, context=context)
    return catalog


def read(path: Path):
    from babel.messages.pofile import read_po

    with path.open("rb") as handle:
        return read_po(handle)


def write(catalog, path: Path) -> None:
    from babel.messages.pofile import write_po

    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as handle:
        write_po(handle, catalog, width=0, sort_by_file=False, include_previous=False)


def update(source_dir: Path = PACKAGE_DIR, locale_dir: Path = LOCALE_DIR) -> dict[str, int]:
    """Re-extract and merge; returns the number of untranslated msgids per language."""
    from babel.messages.catalog import Catalog

    template = extract(source_dir)
    write(template, locale_dir / f"{DOMAIN}.pot")
    missing = {}
    for lang in LANGUAGES:
        path = po_path(lang, locale_dir)
        catalog = read(path) if path.exists() else Catalog(locale=lang, project="Table Companion", charset="utf-8")
        # No fuzzy matching: a guessed translation of a changed ruling text is worse than English.
        catalog.update(template, no_fuzzy_matching=True)
        write(catalog, path)
        missing[lang] = sum(1 for m in catalog if m.id and not all(forms(m.string)))
    return missing


def placeholders(text: str) -> set[str]:
    return set(_PLACEHOLDER.findall(text))


def forms(text: str | tuple[str, ...] | list[str] | None) -> tuple[str, ...]:
    """A msgid or msgstr as a tuple of its forms (one for a plain entry, one per plural form)."""
    if text is None:
        return ("",)
    return (text,) if isinstance(text, str) else tuple(text)


def plural_msgid(message_id: str | tuple[str, ...]) -> str:
    """The form whose placeholders every translation keeps: a plural entry's plural."""
    return forms(message_id)[-1]


@dataclass(frozen=True)
class Problem:
    lang: str
    msgid: str
    what: str

    def __str__(self) -> str:
        return f"{self.lang}: {self.msgid!r}: {self.what}"


def check(locale_dir: Path = LOCALE_DIR, template=None) -> list[Problem]:
    """Every msgid of the template translated in ja and zh_TW, with the same {placeholders}."""
    template = template if template is not None else read(locale_dir / f"{DOMAIN}.pot")
    problems: list[Problem] = []
    for lang in TRANSLATED_LANGUAGES:
        path = po_path(lang, locale_dir)
        if not path.exists():
            problems.append(Problem(lang, "", f"{path} is missing"))
            continue
        catalog = read(path)
        for message in template:
            if not message.id:
                continue
            found = catalog.get(message.id)
            label = forms(message.id)[0]
            if found is None or not all(forms(found.string)):
                problems.append(Problem(lang, label, "not translated"))
            elif found.fuzzy:
                problems.append(Problem(lang, label, "marked fuzzy: not used until checked"))
            elif isinstance(message.id, tuple) != isinstance(found.id, tuple):
                problems.append(Problem(lang, label, "plural in one file, not in the other"))
            else:
                expected = placeholders(plural_msgid(message.id))
                for text in forms(found.string):
                    if placeholders(text) != expected:
                        problems.append(Problem(lang, label, f"placeholders differ: {text!r}"))
    return problems


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["update"]:
        for lang, count in update().items():
            print(f"{lang}: {count} untranslated")
        return 0
    if args[:1] == ["check"]:
        problems = check()
        for problem in problems:
            print(problem)
        print(f"{len(problems)} problem(s)")
        return 1 if problems else 0
    print("usage: python -m companion.ui.catalogues update|check", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
