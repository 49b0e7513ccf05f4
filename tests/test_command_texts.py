"""The setup commands speak the configured language where vision says what is wrong:
`companion calibrate camera` with views it cannot use, `companion recognise` on a picture with no
board, the observation's header, and the font lookup the screen needs."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.errors import CompanionError
from companion.vision.calibration import charuco
from companion.vision.types import CellReading, Observation
from tests.test_error_texts import english_left
from tests.vision.test_calibration import POSES, sheet_views


def test_calibrate_camera_says_which_views_it_refused_and_what_is_missing_in_japanese(tmp_path, capsys):
    for i, image in enumerate(sheet_views(charuco.SHEETS["a4"], POSES[:3])):
        cv2.imwrite(str(tmp_path / f"view{i}.png"), image)
    cv2.imwrite(str(tmp_path / "view8_blank.png"), np.full((720, 960, 3), 255, np.uint8))
    cv2.imwrite(str(tmp_path / "view9_small.png"), np.full((480, 640, 3), 128, np.uint8))
    assert main(["--lang", "ja", "calibrate", "camera", "--images", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "シートのコーナーが 0 個しか見つかりません（8 個必要）" in out
    assert "画像は 640×480 ですが、ほかの写真は 960×720 です" in out
    assert "写真が 3 枚です。8 枚ほしいところです" in out
    for line in out.splitlines():
        assert english_left(line, "view8_blank.png", "view9_small.png", *(f"view{i}.png" for i in range(3)),
                            "px", "save-anyway") == [], line


def test_recognise_without_a_board_in_view_says_why_in_traditional_chinese(tmp_path, capsys):
    image = tmp_path / "table.png"
    cv2.imwrite(str(image), np.full((720, 960, 3), 90, np.uint8))
    assert main(["--lang", "zh_TW", "recognise", "--game", "babylon", str(image)]) == 2
    err = capsys.readouterr().err
    assert "只找到 0 個標記" in err and "左上" in err and "；" in err  # the two regions parted by "；"
    commands = [f"companion calibrate board --region {r} --corners ... IMAGE" for r in ("babylon.garden", "babylon.quarry")]
    assert english_left(err, *commands, "babylon.garden", "babylon.quarry", "companion recognise") == [], err


def test_the_observation_header_is_in_the_language():
    from companion.commands.recognise import format_observation

    observation = Observation("grid", 1, 2, ((CellReading("black", 0.9), CellReading("empty", 0.4)),))
    assert format_observation(observation)[0] == "grid (1x2), lowest confidence 0.40"
    header = format_observation(observation, "ja")[0]
    assert header.startswith("grid（1x2）") and "0.40" in header
    assert english_left(header, "grid") == [], header


def test_a_missing_font_is_said_in_the_language(tmp_path, monkeypatch):
    from companion.ui import fonts

    monkeypatch.setenv(fonts.FONT_ENV, str(tmp_path / "none.ttf"))
    with pytest.raises(CompanionError) as caught:
        fonts.find_cjk_font()
    assert str(caught.value) == f"COMPANION_FONT={tmp_path / 'none.ttf'}: no such font file"
    for lang in ("ja", "zh_TW"):
        assert english_left(caught.value.render(lang), f"COMPANION_FONT={tmp_path / 'none.ttf'}") == []
    monkeypatch.delenv(fonts.FONT_ENV)
    monkeypatch.setattr(fonts, "CANDIDATES", (str(tmp_path / "a.ttc"),))
    with pytest.raises(CompanionError) as caught:
        fonts.find_cjk_font()
    text = caught.value.render("ja")
    assert "fonts-noto-cjk" in text and "COMPANION_FONT" in text
    assert english_left(text, str(tmp_path / "a.ttc"), "fonts-noto-cjk", "make system-deps", "COMPANION_FONT",
                        ".ttc/.otf/.ttf", "CJK") == [], text


def test_a_mat_too_large_for_the_paper_is_said_in_the_language(tmp_path, capsys):
    assert main(["--lang", "ja", "calibrate", "mat", "--region", "reclamation", "--paper", "a4", "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "箱庭の国" in err and "240×240 mm" in err and "A4" in err
    assert english_left(err, "companion calibrate", "--paper a4", "--paper a3", "--stickers", "A4") == [], err
