"""How the twin's pieces look: top and side colours per piece class, and printed glyph shapes.

The observers never see this table: they learn each class from a calibration capture. Tests and
benchmarks vary it (`jitter`) so nothing depends on one particular set of colours.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import numpy as np

from .scene import BGR, Mark


def _default_colours() -> dict[str, BGR]:
    return {
        # Babylon garden
        "garden.board": (58, 74, 66),
        "garden.recess": (22, 28, 25),
        "pillar1.top": (168, 206, 228),
        "pillar1.side": (132, 170, 196),
        "pillar2.top": (70, 118, 178),
        "pillar2.side": (52, 92, 140),
        "tile.top": (96, 170, 120),
        "tile.side": (70, 110, 96),
        "tile.border": (40, 70, 60),
        "flower0": (60, 60, 215),
        "flower1": (215, 120, 50),
        "flower2": (40, 215, 235),
        "flower3": (190, 70, 190),
        "icon.stairs": (235, 235, 235),
        "icon.fountain": (230, 190, 80),
        "icon.bridge": (30, 45, 60),
        "icon.statue": (150, 150, 150),
        "stairs.top": (90, 160, 220),
        "fountain.top": (200, 140, 40),
        "bridge.top": (125, 85, 55),
        "statue.top": (215, 215, 215),
        "belvedere.top": (140, 60, 120),
        "deco.side": (110, 110, 110),
        # Babylon quarry
        "quarry.bottom": (110, 150, 185),
        "clay.top": (70, 110, 175),
        "granite.top": (150, 150, 155),
        "basalt.top": (45, 45, 50),
        "quarry.side": (90, 100, 110),
        # Reclamation
        "reclamation.board": (180, 205, 215),
        "reclamation.line": (90, 100, 110),
        "flower.top": (150, 120, 230),
        "flower.mark": (90, 60, 200),
        "vine.top": (90, 160, 80),
        "vine.mark": (40, 100, 40),
        "stone.side": (150, 150, 150),
        # Babel
        "babel.card": (200, 215, 225),
        "babel.line": (120, 130, 140),
        "cube.top": (120, 175, 215),
        "cube.side": (80, 125, 165),
        # Baubylon
        "baubylon.table": (60, 90, 120),
        "block.top": (140, 190, 220),
        "block.side": (95, 140, 175),
        "start.mark": (40, 40, 200),
        "pawn.red": (40, 40, 200),
        "pawn.blue": (200, 90, 30),
        "pawn.green": (60, 160, 40),
        "pawn.yellow": (30, 210, 230),
        "pawn.black": (35, 35, 35),
        "pawn.white": (235, 235, 235),
        "pawn.purple": (150, 50, 140),
    }


@dataclass(frozen=True)
class Palette:
    colours: dict[str, BGR] = field(default_factory=_default_colours)

    def __getitem__(self, key: str) -> BGR:
        return self.colours[key]

    def jitter(self, rng: np.random.Generator, amount: float = 12.0) -> Palette:
        """The same set with every colour nudged (another print run, another batch of wood)."""
        nudged = {
            key: tuple(int(np.clip(c + rng.normal(0.0, amount), 0, 255)) for c in colour)
            for key, colour in self.colours.items()
        }
        return replace(self, colours=nudged)


DEFAULT_PALETTE = Palette()


def rect(x0: float, y0: float, x1: float, y1: float) -> tuple[tuple[float, float], ...]:
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


def disc(cx: float, cy: float, r: float, n: int = 16) -> tuple[tuple[float, float], ...]:
    return tuple(
        (cx + r * math.cos(2 * math.pi * i / n), cy + r * math.sin(2 * math.pi * i / n)) for i in range(n)
    )


def icon_marks(icon: str, cx: float, cy: float, size: float, colour: BGR) -> tuple[Mark, ...]:
    """A printed construction icon centred at (cx, cy), about `size` mm across."""
    h = size / 2.0
    if icon == "stairs":
        step = size / 5.0
        return tuple(
            Mark(rect(cx - h, cy - h + 2 * i * step, cx + h, cy - h + (2 * i + 1) * step), colour) for i in range(3)
        )
    if icon == "fountain":
        return (Mark(disc(cx, cy, h), colour),)
    if icon == "bridge":
        return (
            Mark(rect(cx - h, cy - h * 0.5, cx + h, cy - h * 0.1), colour),
            Mark(rect(cx - h, cy - h * 0.1, cx - h * 0.55, cy + h), colour),
            Mark(rect(cx + h * 0.55, cy - h * 0.1, cx + h, cy + h), colour),
        )
    if icon == "statue":
        return (Mark(((cx, cy - h), (cx + h * 0.8, cy + h), (cx - h * 0.8, cy + h)), colour),)
    return ()
