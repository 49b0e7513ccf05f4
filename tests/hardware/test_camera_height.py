"""hardware/camera_height.py: the mounting-height formula, checked against a plain pinhole projection."""

from __future__ import annotations

import importlib.util
import math
import sys
from pathlib import Path

import pytest

from companion.vision.boards import BABYLON_GARDEN, BABYLON_QUARRY

PATH = Path(__file__).resolve().parents[2] / "hardware" / "camera_height.py"
spec = importlib.util.spec_from_file_location("camera_height", PATH)
ch = importlib.util.module_from_spec(spec)
sys.modules.setdefault("camera_height", ch)  # dataclasses look their module up there
spec.loader.exec_module(ch)


def project(lens, height, x, z):
    """Normalised image coordinate of a point x off-axis at height z, seen from the camera at height."""
    return x / (height - z) / math.tan(math.radians(lens.hfov_deg) / 2)


def test_a_90_degree_lens_covers_twice_its_height():
    lens = ch.Lens("test", 90.0, 90.0, 1.0, 0.0)
    assert ch.footprint_mm(lens, 300.0) == pytest.approx((600.0, 600.0))
    flat = ch.Target("flat", 400.0, 400.0, 0.0, 25.0, margin_mm=0.0)
    assert ch.min_height_mm(lens, flat) == pytest.approx(200.0)


@pytest.mark.parametrize("lens", ch.LENSES, ids=lambda lens: lens.name)
@pytest.mark.parametrize("target", ch.TARGETS, ids=lambda t: t.name)
def test_at_the_minimum_height_the_tallest_edge_piece_just_touches_the_picture_edge(lens, target):
    h = ch.min_height_mm(lens, target)
    half_w = target.width_mm / 2 + target.margin_mm
    half_d = target.depth_mm / 2 + target.margin_mm
    across = project(lens, h, half_w, target.tallest_mm)
    along = half_d / (h - target.tallest_mm) / math.tan(math.radians(lens.vfov_deg) / 2)
    assert max(across, along) == pytest.approx(1.0)  # the limiting side sits exactly on the edge
    assert across <= 1.0 + 1e-9 and along <= 1.0 + 1e-9
    lower = h - 10.0
    assert max(half_w / (lower - target.tallest_mm) / math.tan(math.radians(lens.hfov_deg) / 2),
               half_d / (lower - target.tallest_mm) / math.tan(math.radians(lens.vfov_deg) / 2)) > 1.0


def test_pixels_per_cell_fall_with_height_and_max_height_gives_exactly_the_wanted_pixels():
    lens, target = ch.CAMERA_MODULE_3, ch.TARGETS[0]
    assert ch.px_per_cell(lens, target, 400, 1280) > ch.px_per_cell(lens, target, 800, 1280)
    h = ch.max_height_mm(lens, target, 1280, 30.0)
    assert ch.px_per_cell(lens, target, h, 1280) == pytest.approx(30.0)


def test_the_wide_lens_hangs_lower_than_the_standard_one():
    for target in ch.TARGETS:
        assert ch.min_height_mm(ch.CAMERA_MODULE_3_WIDE, target) < ch.min_height_mm(ch.CAMERA_MODULE_3, target)


def test_published_fields_of_view_agree_with_focal_length_and_sensor():
    # IMX708: 4608 px × 1.4 µm = 6.45 mm wide. Pinhole FOV from the focal length lands within a few
    # degrees of the published figure (the difference is lens distortion).
    sensor_w = 4608 * 1.4e-3
    for lens in ch.LENSES:
        pinhole = math.degrees(2 * math.atan(sensor_w / 2 / lens.focal_mm))
        assert abs(pinhole - lens.hfov_deg) < 4.0, lens.name


def test_targets_use_the_board_geometry_the_vision_code_uses():
    garden, quarry = ch.TARGETS[0], ch.TARGETS[1]
    assert garden.width_mm == BABYLON_GARDEN.width_mm and garden.cell_mm == BABYLON_GARDEN.cell_mm
    assert BABYLON_GARDEN.level_mm == ch.BABYLON_LEVEL_MM
    assert quarry.width_mm == BABYLON_QUARRY.width_mm


def test_the_script_prints_a_row_per_target_and_lens(capsys):
    assert ch.main(["--width", "1280"]) == 0
    out = capsys.readouterr().out
    assert out.count("Camera Module 3 Wide") == len(ch.TARGETS)
    assert "Babylon garden" in out and "Whole table" in out
