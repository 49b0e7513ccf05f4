"""Catalogues cover every player-visible string, and the CJK font has a glyph for every character.

The glyph check reads the font's own cmap table (companion.ui.fonts); the `ui` test at the end
cross-checks that reading against what Kivy actually draws (a character outside the cmap renders
exactly like the .notdef box, one inside does not).
"""

from __future__ import annotations

import ast
import warnings
from pathlib import Path

import pytest

from companion.i18n import LANGUAGES
from companion.ui import catalogues
from companion.ui.fonts import covered_codepoints, find_cjk_font, missing_glyphs

UI_DIR = Path(catalogues.PACKAGE_DIR) / "ui"


def test_committed_catalogues_translate_every_template_msgid_with_the_same_placeholders():
    problems = catalogues.check()
    assert problems == [], "\n".join(map(str, problems[:20]))


def test_every_ui_string_is_in_the_template_and_translated():
    template = {m.id for m in catalogues.read(catalogues.TEMPLATE) if m.id}
    ui_msgids = {m.id for m in catalogues.extract(UI_DIR) if m.id}
    assert len(ui_msgids) > 150
    assert ui_msgids <= template, sorted(ui_msgids - template)[:10]


def test_whole_tree_extraction_names_strings_added_since_the_last_translation_pass():
    """Engines may add msgids after the last pass: name them in a warning (run
    `python -m companion.ui.catalogues update`, then translate); a failure would punish their authors."""
    fresh = {m.id for m in catalogues.extract() if m.id}
    template = {m.id for m in catalogues.read(catalogues.TEMPLATE) if m.id}
    assert len(fresh) > 500  # the extraction sees the engines' strings, not just the UI's
    untranslated = sorted(fresh - template, key=str)  # a plural id is a (singular, plural) tuple
    if untranslated:
        warnings.warn(f"{len(untranslated)} msgid(s) not yet in the catalogues, e.g. {untranslated[:3]}", stacklevel=1)


def test_placeholder_check_catches_a_translator_typo(tmp_path):
    from babel.messages.catalog import Catalog

    template = Catalog()
    template.add("Take {count} cards")
    for lang, text in (("ja", "{count} 枚取る"), ("zh_TW", "拿 {cuont} 張牌")):
        catalog = Catalog(locale=lang)
        catalog.add("Take {count} cards", text)
        catalogues.write(catalog, catalogues.po_path(lang, tmp_path))
    problems = catalogues.check(tmp_path, template)
    assert [(p.lang, p.what.split(":")[0]) for p in problems] == [("zh_TW", "placeholders differ")]


def test_font_cmap_reading():
    font = find_cjk_font()
    covered = covered_codepoints(str(font))
    assert len(covered) > 20000
    for ch in "A柱露臺裝飾テラス庭師華蔓×→✓":
        assert ord(ch) in covered, ch
    assert missing_glyphs("\ue000\U0001f600 ok", font) == {"\ue000", "\U0001f600"}


def all_catalogue_text() -> str:
    parts = []
    for lang in LANGUAGES:
        for message in catalogues.read(catalogues.po_path(lang)):
            if message.id:  # plural entries: every form of the msgid and of the translation
                parts += [*catalogues.forms(message.id), *catalogues.forms(message.string)]
    return "".join(parts)


def ui_literals() -> str:
    """Every string literal in companion/ui (symbols like ● ◀ × are drawn with the same font)."""
    parts = []
    for path in UI_DIR.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                parts.append(node.value)
    return "".join(parts)


def test_every_character_of_every_catalogue_has_a_glyph():
    text = all_catalogue_text()
    assert sum(1 for ch in text if ord(ch) > 0x3000) > 5000  # the translations are really there
    assert missing_glyphs(text, find_cjk_font()) == set()


def test_every_character_the_ui_code_shows_has_a_glyph():
    assert missing_glyphs(ui_literals(), find_cjk_font()) == set()


@pytest.mark.ui
def test_kivy_draws_tofu_exactly_for_characters_outside_the_cmap():
    from companion.ui.kivy_env import prepare

    prepare(fullscreen=False)
    from kivy.base import EventLoop
    from kivy.core.text import Label as CoreLabel

    EventLoop.ensure_window()  # textures need the GL context of a window

    def pixels(ch: str) -> bytes:
        label = CoreLabel(text=ch, font_size=32)
        label.refresh()
        return bytes(label.texture.pixels)

    notdef = pixels("\ue000")
    assert pixels("\ue001") == notdef  # two unmapped characters: the same .notdef box
    for ch in "柱臺庭×":
        assert pixels(ch) != notdef, ch
