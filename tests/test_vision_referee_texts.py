"""Every text marked in the files converted from English this sitting (vision's locators, ChArUco
calibration and camera sources; the referee's skipped regions, console and journal; the font
lookup, the broken screen, the demo's notes) reads in ja and zh_TW with no English left: each msgid
the template lists at those files is rendered in both languages, its placeholders filled with
nothing, and only the terms the catalogues keep in Latin letters may stay."""

from __future__ import annotations

import re

import pytest

from companion.i18n import PLURAL_SEPARATOR, translate
from companion.ui.catalogues import TEMPLATE, forms, placeholders, read

CONVERTED = (
    "companion/vision/calibration/charuco.py", "companion/vision/calibration/intrinsics.py",
    "companion/vision/calibration/layout_diagram.py", "companion/vision/calibration/targets.py",
    "companion/vision/locate/", "companion/vision/sources/",
    "companion/referee/frames.py", "companion/referee/console.py", "companion/referee/views/__init__.py",
    "companion/referee/journal.py", "companion/ui/fonts.py", "companion/ui/screens/base.py", "companion/demo/records.py",
)
# Kept in Latin letters: commands, options, settings, file kinds, devices, units and product names.
KEPT = ("--corners", "x1,y1,...,x4,y4", ".ttc/.otf/.ttf", "OpenCV", "CJK", "picamera2", "auto", "opencv",
        "files", "sim", "companion", "px", "Pi", "JSON", "SQLite", "GPIO", "ChArUco", "mm", "PNG")
# The keys and values of a file format (recorded scenes), written as the file has them.
FORMAT_KEYS = {"region", "rows", "cols", "cells", "label", "confidence", "attrs", "alternatives", "attributes", "kind",
               "still", "busy", "lost", "player"}
LATIN_WORD = re.compile(r"[A-Za-z]{3,}")


def _converted_msgids() -> list[str]:
    template = read(TEMPLATE)
    found = []
    for message in template:
        if message.id and any(path.startswith(CONVERTED) for path, _line in message.locations):
            found.append(message.id if isinstance(message.id, str) else PLURAL_SEPARATOR.join(message.id))
    return found


MSGIDS = _converted_msgids()


def test_the_converted_files_mark_their_texts():
    assert len(MSGIDS) >= 70  # the sitting's texts are in the template (a file that lost its marks would drop this)
    assert "not located ({reason})" in MSGIDS and "the 4 corners must go round the board: top-left, top-right, " \
        "bottom-right, bottom-left (clockwise on the image), without crossing" in MSGIDS


@pytest.mark.parametrize("lang", ["ja", "zh_TW"])
@pytest.mark.parametrize("msgid", MSGIDS, ids=[m[:50] for m in MSGIDS])
def test_each_converted_text_reads_in_the_language(msgid, lang):
    names = placeholders(forms(msgid.split(PLURAL_SEPARATOR))[-1])
    params = {name: "" for name in names} | ({"count": 2} if "count" in names else {})
    english = translate(msgid, "en", params)
    text = translate(msgid, lang, params)
    if LATIN_WORD.search(english) is None:  # "{marker} ({corner})": nothing to translate but its punctuation
        return
    assert text != english, text
    for term in KEPT:
        text = text.replace(term, "")
    kept_keys = FORMAT_KEYS if "[" in msgid or "kind" in msgid else set()
    assert [w for w in LATIN_WORD.findall(text) if w not in kept_keys] == [], (msgid, text)
