"""The calibration wizard, where the board is located, urges measuring the camera's lens when it is
not measured (docs/calibration.md: a misread marker bends the board about three times as often)."""

from __future__ import annotations

import pytest

from companion import diagnostics


@pytest.mark.ui
@pytest.mark.parametrize("lang", ["en", "ja", "zh_TW"])
def test_the_calibration_screen_shows_the_lens_advice_for_a_real_camera(lang):
    from companion.i18n import translate
    from companion.ui.harness import Harness

    harness = Harness(800, 480, lang)
    try:
        advice = translate(diagnostics.CAMERA_NOT_MEASURED, lang)
        harness.app.go("calibration")
        assert advice not in harness.texts()  # the fake referee plays the simulated table
        harness.fake.camera = "picamera2"
        harness.app.screens["calibration"].render()
        assert advice in harness.texts()
    finally:
        harness.close()
