"""Kinsoku line breaking (companion.ui.kinsoku) on the real Japanese and Chinese catalogues, and on
the labels Kivy actually lays out."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from companion.ui.kinsoku import (
    NBSP,
    NO_LINE_END,
    NO_LINE_START,
    break_lines,
    clusters,
    may_break_before,
)

LOCALE = Path(__file__).resolve().parents[2] / "companion" / "locale"


def width(text: str) -> float:
    """A monospaced stand-in for the font: CJK characters are twice as wide as Latin ones."""
    return sum(2 if ord(ch) >= 0x2E80 else 1 for ch in text)


def translations(lang: str) -> list[str]:
    with (LOCALE / lang / "LC_MESSAGES" / "companion.po").open("rb") as handle:
        catalog = read_po(handle)
    forms = [(m.string,) if isinstance(m.string, str) else tuple(m.string) for m in catalog if m.id]
    return [text for texts in forms for text in texts if text]  # plural entries: each form


def test_the_rules_on_small_examples():
    assert break_lines("これは「例」です。", 6, width) == ["これは", "「例」", "です。"]  # 「 stays with 例
    text = "音量は90%です。"
    assert all("90%" in line or "9" not in line for line in break_lines(text, 6, width))
    assert not may_break_before("3点", 1)  # number and unit
    assert not may_break_before("1\u00a0枚ずつ", 2) and not may_break_before("0.4 px", 4)  # spaced too
    assert not may_break_before("babylon", 3)  # a Latin word
    assert not may_break_before("あっ", 1)  # small kana never starts a line
    assert not may_break_before("（規", 1)  # an opening bracket never ends one
    assert may_break_before("規則", 1)
    assert "".join(clusters("ルール babylon.build.support を見て")) == "ルール babylon.build.support を見て"


@pytest.mark.parametrize("lang", ["ja", "zh_TW"])
def test_every_catalogue_string_breaks_by_the_rules_at_several_widths(lang):
    texts = translations(lang)
    assert len(texts) > 500
    broken = 0
    for text in texts:
        for columns in (14, 22, 36):
            lines = break_lines(text.replace(" ", NBSP), columns, width)
            for number, line in enumerate(lines):
                wide_word = width(line) > columns or (number and width(lines[number - 1]) > columns)
                if line and line[0] in NO_LINE_START and number and not wide_word:
                    raise AssertionError((lang, text, columns, lines))
                if line and line[-1] in NO_LINE_END and number < len(lines) - 1:
                    raise AssertionError((lang, text, columns, lines))
                assert width(line) <= columns or len(line) == 1 or not _cjk(line), (text, columns, lines)
            joined = "".join(lines).replace(NBSP, "").replace(" ", "").replace("\n", "")
            assert joined == text.replace(" ", "").replace("\n", ""), (text, lines)
            broken += len(lines) > 1
    assert broken > 100  # the widths really make lines break


def _cjk(line: str) -> bool:
    return all(ord(ch) >= 0x2E80 for ch in line)


@pytest.mark.ui
@pytest.mark.slow
@pytest.mark.parametrize("lang", ["ja", "zh_TW"])
def test_kivy_lays_out_the_screens_lines_as_broken(lang):
    """On the real screens, Kivy's own lines (what it draws) start and end as the rules say, and
    Kivy adds no break of its own inside a line the rules made."""
    from companion.ui.harness import Harness
    from companion.ui.screenshots import SHOTS
    from companion.ui.widgets import KinsokuText

    harness = Harness(800, 480, lang)
    checked = 0
    try:
        names = ("home", "setup", "live", "ruling", "question", "hints", "score", "kana", "confirm")
        for name in names if lang == "ja" else ("ruling", "question", "hints", "setup", "live"):
            if name not in SHOTS:
                continue
            prepare, screen = SHOTS[name]
            prepare(harness)
            harness.app.go(screen)
            harness.frame(3)
            for widget in harness.widgets():
                if not isinstance(widget, KinsokuText) or "\n" not in widget.text:
                    continue
                widget.texture_update()
                drawn = ["".join(word.text for word in line.words) for line in widget._label._cached_lines]
                drawn = [line for line in drawn if line]
                assert len(drawn) == widget.text.count("\n") + 1, (widget.plain, drawn)
                for line in drawn[1:]:
                    assert line[0] not in NO_LINE_START, (widget.plain, drawn)
                for line in drawn[:-1]:
                    assert line[-1] not in NO_LINE_END, (widget.plain, drawn)
                checked += 1
    finally:
        harness.close()
    assert checked >= (5 if lang == "ja" else 1)  # Chinese sentences are shorter
