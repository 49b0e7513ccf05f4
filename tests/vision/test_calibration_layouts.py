"""The calibration layouts the player follows (vision/calibration/layouts.py) are the ones the twin
builds for its own calibration (sim), cell by cell: what the command asks for is what the
benchmarks and tests calibrate on."""

from __future__ import annotations

import pytest

from companion.sim import boards, garden
from companion.vision.boards import REGIONS
from companion.vision.calibration.layouts import LAYOUTS, layout_for

TWIN = {
    "babylon.garden": garden.calibration_layout,
    "babylon.quarry": boards.calibration_quarry,
    "reclamation": boards.calibration_reclamation,
    "babel": boards.calibration_babel,
    "baubylon": boards.calibration_baubylon,
}


@pytest.mark.parametrize("region", sorted(TWIN))
def test_layout_matches_the_twins_calibration_layout(region):
    twin = TWIN[region]()
    ours = layout_for(region)
    truth = twin.calibration_truth() if hasattr(twin, "calibration_truth") else twin.expected()
    assert ours.truth() == [list(row) for row in truth]
    assert ours.expected() == [list(row) for row in twin.expected()]
    assert ours.size == (REGIONS[region].rows, REGIONS[region].cols)


def test_every_region_has_a_layout_and_instructions():
    assert set(LAYOUTS) == set(REGIONS)
    lines = layout_for("reclamation").instructions()
    assert lines[0] == "row 1, column 1: 1 stone, flower up"
    assert "row 3, column 3: 3 stones, vine up (gardener)" in lines
    with pytest.raises(KeyError, match="no calibration layout"):
        layout_for("chess")


def test_truth_is_a_fresh_copy():
    layout = layout_for("baubylon")
    layout.truth()[1][1][1]["pawns"].append("x")
    assert layout.truth()[1][1][1]["pawns"] == ["red"]


@pytest.mark.parametrize("region", sorted(LAYOUTS))
def test_texts_are_translatable_pairs_that_match_the_english(region):
    from companion.i18n import translate

    layout = layout_for(region)
    for text_row, english_row in zip(layout.texts(), layout.descriptions(), strict=True):
        for text, english in zip(text_row, english_row, strict=True):
            if text is None:
                assert english == ""
                continue
            msgid, params = text
            assert translate(msgid, "en", params) == english != ""
