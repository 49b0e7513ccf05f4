#!/usr/bin/env python3
"""How high the camera must hang, per lens, to see a Babylon garden, a quarry, or the whole table,
and how many pixels each cell then gets.

    .venv/bin/python hardware/camera_height.py [--width 1280] [--min-px-per-cell 30]

Model: a pinhole camera looking straight down from height h (lens above the table), horizontal and
vertical fields of view HFOV, VFOV. A point at height z, a horizontal distance x off the optical axis,
is inside the picture when x / (h - z) <= tan(FOV / 2). The target is a w × d rectangle (board plus
a margin for the markers around it) whose tallest pieces reach z_max and may stand at its edge, so

    h_min = z_max + max( (w/2) / tan(HFOV/2),  (d/2) / tan(VFOV/2) )        (long side along HFOV)

At height h the table footprint is W = 2 h tan(HFOV/2) wide, so the mean sampling is
px_per_mm = image_width_px / W, and a cell of c mm gets c * px_per_mm pixels. The highest mount
that still gives the wanted pixels per cell is h_max = image_width_px * c / (2 tan(HFOV/2) * px).
The fields of view are the published Camera Module 3 figures (they include lens distortion).
"""

from __future__ import annotations

import argparse
import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Lens:
    name: str
    hfov_deg: float
    vfov_deg: float
    focal_mm: float
    min_focus_mm: float  # nearest sharp distance (autofocus)


# Raspberry Pi Camera Module 3 (Sony IMX708, 4608×2592, 1.4 µm, 16:9): published figures.
CAMERA_MODULE_3 = Lens("Camera Module 3 (standard)", 66.0, 41.0, 4.74, 100.0)
CAMERA_MODULE_3_WIDE = Lens("Camera Module 3 Wide", 102.0, 67.0, 2.75, 50.0)
LENSES = (CAMERA_MODULE_3, CAMERA_MODULE_3_WIDE)


@dataclass(frozen=True)
class Target:
    name: str
    width_mm: float  # the long side, laid along the picture's long side
    depth_mm: float
    tallest_mm: float  # highest piece that may stand at the edge of the target
    cell_mm: float  # smallest thing the observers must read (a garden cell, a quarry space)
    margin_mm: float = 20.0  # each side: markers on the mat and a little slack in the aim


BABYLON_LEVEL_MM = 22.0  # companion/vision/boards.py BABYLON_GARDEN.level_mm
TARGETS = (
    # 8×8 cells of 25 mm; up to 4 levels of pillars and tiles plus a decoration on top.
    Target("Babylon garden (8×8 × 25 mm)", 200.0, 200.0, 4 * BABYLON_LEVEL_MM + 25.0, 25.0),
    # 4×4 tile places of 50 mm, each tile 2×2 icon spaces of 25 mm; a few tiles stacked.
    Target("Babylon quarry (4×4 × 50 mm)", 200.0, 200.0, 10.0, 25.0),
    # Garden and quarry side by side with 50 mm between them.
    Target("Garden + quarry side by side", 450.0, 200.0, 4 * BABYLON_LEVEL_MM + 25.0, 25.0),
    # A whole four-player table area, cells of 25 mm.
    Target("Whole table (800 × 600 mm)", 800.0, 600.0, 4 * BABYLON_LEVEL_MM + 25.0, 25.0),
)

ASPECT = 16 / 9  # the full-field sensor modes (4608×2592, 2304×1296) and the 1280×720 stream


def _half_tan(fov_deg: float) -> float:
    return math.tan(math.radians(fov_deg) / 2)


def footprint_mm(lens: Lens, height_mm: float) -> tuple[float, float]:
    """Width and depth of the table area the picture covers from this height."""
    return 2 * height_mm * _half_tan(lens.hfov_deg), 2 * height_mm * _half_tan(lens.vfov_deg)


def min_height_mm(lens: Lens, target: Target) -> float:
    half_w = target.width_mm / 2 + target.margin_mm
    half_d = target.depth_mm / 2 + target.margin_mm
    return target.tallest_mm + max(half_w / _half_tan(lens.hfov_deg), half_d / _half_tan(lens.vfov_deg))


def px_per_cell(lens: Lens, target: Target, height_mm: float, image_width_px: int) -> float:
    width, _ = footprint_mm(lens, height_mm)
    return image_width_px / width * target.cell_mm


def max_height_mm(lens: Lens, target: Target, image_width_px: int, wanted_px_per_cell: float) -> float:
    return image_width_px * target.cell_mm / (2 * _half_tan(lens.hfov_deg) * wanted_px_per_cell)


@dataclass(frozen=True)
class Row:
    target: Target
    lens: Lens
    height_mm: float
    px_per_cell: float
    max_height_mm: float

    @property
    def feasible(self) -> bool:
        return self.height_mm <= self.max_height_mm and self.height_mm >= self.lens.min_focus_mm


def table(image_width_px: int = 1280, wanted_px_per_cell: float = 30.0) -> list[Row]:
    rows = []
    for target in TARGETS:
        for lens in LENSES:
            h = min_height_mm(lens, target)
            rows.append(Row(target, lens, h, px_per_cell(lens, target, h, image_width_px),
                            max_height_mm(lens, target, image_width_px, wanted_px_per_cell)))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--width", type=int, default=1280, help="capture width in pixels (default 1280)")
    parser.add_argument("--min-px-per-cell", type=float, default=30.0, help="pixels a cell needs (default 30)")
    args = parser.parse_args(argv)
    height_px = round(args.width / ASPECT)
    print(f"Capture {args.width}×{height_px}, at least {args.min_px_per_cell:g} px per cell. Heights are lens "
          "to table.")
    header = f"{'target':<32} {'lens':<28} {'min height':>10} {'footprint':>13} {'px/cell':>8} {'max height':>10}  ok"
    print(header)
    print("-" * len(header))
    for row in table(args.width, args.min_px_per_cell):
        w, d = footprint_mm(row.lens, row.height_mm)
        print(f"{row.target.name:<32} {row.lens.name:<28} {row.height_mm:>7.0f} mm {w:>5.0f}×{d:<4.0f}mm "
              f"{row.px_per_cell:>8.1f} {row.max_height_mm:>7.0f} mm  {'yes' if row.feasible else 'NO'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
