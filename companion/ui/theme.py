"""Colours and sizes. Sizes scale with the window height so 800×480 and 1280×720 both get
finger-sized targets (at least ~9 mm on the official 7" display: 56 px at 480 px high)."""

from __future__ import annotations

from dataclasses import dataclass

BACKGROUND = (0.10, 0.11, 0.14, 1)
PANEL = (0.16, 0.17, 0.21, 1)
PANEL_LIGHT = (0.22, 0.24, 0.29, 1)
TEXT = (0.95, 0.95, 0.95, 1)
MUTED = (0.70, 0.72, 0.76, 1)
ACCENT = (0.25, 0.55, 0.95, 1)
OK = (0.20, 0.70, 0.35, 1)
WARN = (0.95, 0.65, 0.15, 1)
BAD = (0.90, 0.25, 0.25, 1)
BUTTON = (0.28, 0.31, 0.38, 1)
SELECTED = (0.25, 0.55, 0.95, 1)
# One colour per seat (players are told apart on the bar chart and the turn banner).
SEATS = (
    (0.95, 0.45, 0.35, 1),
    (0.35, 0.70, 0.95, 1),
    (0.55, 0.85, 0.40, 1),
    (0.95, 0.80, 0.30, 1),
    (0.75, 0.50, 0.95, 1),
    (0.40, 0.90, 0.80, 1),
    (0.95, 0.55, 0.75, 1),
    (0.70, 0.70, 0.70, 1),
    (0.60, 0.45, 0.30, 1),
    (0.45, 0.55, 0.95, 1),
)
MARK_COLOURS = {"ok": OK, "warn": WARN, "bad": BAD, "info": ACCENT}
# Top-down picture fills (companion.ui.topdown.Look.fill); higher Babylon levels are lighter stone.
FILLS = {
    "recess": (0.20, 0.21, 0.25, 1),
    "empty": (0.22, 0.24, 0.29, 1),
    "tile0": (0.42, 0.40, 0.36, 1),
    "tile1": (0.55, 0.47, 0.36, 1),
    "tile2": (0.66, 0.58, 0.45, 1),
    "tile3": (0.78, 0.70, 0.55, 1),
    "pillar": (0.50, 0.50, 0.52, 1),
    "stairs": (0.60, 0.42, 0.75, 1),
    "fountain": (0.30, 0.62, 0.85, 1),
    "bridge": (0.85, 0.55, 0.30, 1),
    "statue": (0.85, 0.85, 0.88, 1),
    "belvedere": (0.35, 0.70, 0.55, 1),
    "flower": (0.90, 0.55, 0.70, 1),
    "flower_gardener": (0.98, 0.35, 0.60, 1),
    "vine": (0.45, 0.70, 0.35, 1),
    "vine_gardener": (0.25, 0.55, 0.20, 1),
    "cubes": (0.80, 0.65, 0.40, 1),
    "field0": (0.30, 0.32, 0.36, 1),
    "field1": (0.55, 0.42, 0.28, 1),
    "field2": (0.65, 0.50, 0.33, 1),
    "field3": (0.75, 0.60, 0.40, 1),
    "field4": (0.85, 0.72, 0.50, 1),
}
DARK_TEXT_FILLS = {"tile2", "tile3", "statue", "cubes", "field3", "field4", "flower"}


def seat_colour(seat: int | None) -> tuple[float, float, float, float]:
    return MUTED if seat is None else SEATS[seat % len(SEATS)]


@dataclass(frozen=True)
class Sizes:
    scale: float

    @property
    def touch(self) -> float:  # minimum height of anything a finger presses
        return round(56 * self.scale)

    @property
    def bar(self) -> float:  # the navigation bar
        return round(52 * self.scale)

    @property
    def pad(self) -> float:
        return round(8 * self.scale)

    @property
    def body(self) -> float:  # font sizes in px
        return round(17 * self.scale)

    @property
    def small(self) -> float:
        return round(14 * self.scale)

    @property
    def large(self) -> float:
        return round(22 * self.scale)

    @property
    def huge(self) -> float:
        return round(30 * self.scale)


def sizes_for(height: float) -> Sizes:
    return Sizes(max(1.0, min(1.6, height / 480)))
