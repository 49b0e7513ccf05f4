"""docs/screenshots holds a picture of every screen in every language at both sizes, none blank.

`make screenshots` regenerates them (python -m companion.ui.screenshots docs/screenshots).
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.i18n import LANGUAGES
from companion.ui.screenshots import SHOTS, SIZES

DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
EXPECTED = [(name, lang, size) for size in SIZES for lang in LANGUAGES for name in SHOTS]


def blankness(path: Path) -> str | None:
    """Why the picture looks blank, or None when it shows a real screen."""
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        return "not a readable PNG"
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    if grey.std() < 12:
        return f"nearly uniform (std {grey.std():.1f})"
    quantised = (image // 8).astype(np.int32)  # 32 levels per channel, packed into one number
    colours = np.count_nonzero(np.bincount((quantised[..., 0] << 10 | quantised[..., 1] << 5 | quantised[..., 2]).ravel()))
    if colours < 40:
        return f"only {colours} colours"
    text_rows = np.count_nonzero((grey > 200).any(axis=1))  # light text on the dark theme
    if text_rows < image.shape[0] * 0.1:
        return "almost no text"
    return None


@pytest.mark.parametrize(("name", "lang", "size"), EXPECTED, ids=[f"{n}-{lang}-{w}x{h}" for n, lang, (w, h) in EXPECTED])
def test_committed_screenshot_exists_has_the_display_size_and_is_not_blank(name, lang, size):
    path = DOCS / f"{name}-{lang}-{size[0]}x{size[1]}.png"
    assert path.exists(), f"{path} missing: run `make screenshots`"
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    assert image is not None and image.shape[:2] == (size[1], size[0])
    assert blankness(path) is None, blankness(path)


def test_blankness_check_rejects_a_blank_picture(tmp_path):
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((480, 800, 3), 30, np.uint8))
    assert blankness(blank) is not None


@pytest.mark.ui
def test_screenshot_module_writes_a_real_picture(tmp_path):
    from companion.ui.screenshots import take_all

    written = take_all(tmp_path, sizes=((800, 480),), languages=("ja",), shots=["ruling"])
    assert [p.name for p in written] == ["ruling-ja-800x480.png"]
    assert blankness(written[0]) is None


def test_the_index_shows_every_committed_screenshot():
    index = (DOCS / "README.md").read_text(encoding="utf-8")
    for name, lang, (width, height) in EXPECTED:
        assert f"({name}-{lang}-{width}x{height}.png)" in index
