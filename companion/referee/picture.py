"""A PNG of the final table: each region drawn from above as the referee knows it, with the score.

Drawn from the expected view (what the confirmed state looks like from above), so it shows what
the referee ruled on, not a photo. Text is drawn with OpenCV's Latin font: names and numbers only.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from ..games.api import ScoreSheet
from .views.base import ExpectedView

CELL = 44
PAD = 16
COLOURS = {  # BGR per label; unknown labels get a grey
    "recess": (60, 70, 80), "pillar1": (170, 200, 220), "pillar2": (120, 160, 200),
    "tile": (90, 150, 110), "stairs": (40, 120, 220), "fountain": (220, 160, 60),
    "bridge": (150, 100, 60), "statue": (200, 200, 200), "belvedere": (80, 200, 230),
    "clay": (60, 110, 180), "granite": (150, 150, 150), "basalt": (50, 50, 50), "bottom": (30, 30, 30),
    "empty": (60, 70, 80), "flower": (180, 120, 230), "vine": (80, 170, 80),
    "cubes": (90, 170, 220), "field": (110, 150, 170), ".": (60, 70, 80), "B": (30, 30, 30),
    "W": (235, 235, 235),
}
FLOWER_TINT = {"flower0": (240, 240, 240), "flower1": (190, 140, 240), "flower2": (60, 220, 240), "flower3": (220, 140, 60)}


def _cell_text(label: str, attrs: dict) -> str:
    for key in ("level", "height", "count"):
        if key in attrs and attrs[key] not in (0, None):
            value = attrs[key]
            return str(value if not isinstance(value, list) else "-".join(map(str, value)))
    return ""


def draw(view: ExpectedView, sheet: ScoreSheet, title: str = "") -> np.ndarray:
    grids = list(view.items())
    width = PAD + sum(len(g[0]) * CELL + PAD for _, g in grids)
    grid_height = max(len(g) for _, g in grids) * CELL
    lines = [title or f"{sheet.game}: {'final score' if sheet.final else 'score so far'}"]
    for p, name in enumerate(sheet.players):
        parts = ", ".join(f"{ln.category} {ln.points}" for ln in sheet.lines_for(p) if ln.points)
        lines.append(f"{name}: {sheet.total(p)}" + (f"  ({parts})" if parts else ""))
    leaders = ", ".join(sheet.players[p] for p in sheet.leaders())
    if leaders:
        lines.append(("winner: " if sheet.final else "leading: ") + leaders)
    height = PAD * 3 + 20 + grid_height + 26 * len(lines)
    image = np.full((height, max(width, 520), 3), 245, np.uint8)
    x = PAD
    for region, grid in grids:
        cv2.putText(image, region, (x, PAD + 12), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (40, 40, 40), 1, cv2.LINE_AA)
        top = PAD + 20
        for r, row in enumerate(grid):
            for c, cell in enumerate(row):
                attrs = dict(cell.attrs)
                colour = COLOURS.get(cell.label, (128, 128, 128))
                x0, y0 = x + c * CELL, top + r * CELL
                cv2.rectangle(image, (x0, y0), (x0 + CELL - 2, y0 + CELL - 2), colour, -1)
                flower = attrs.get("flower")
                if flower in FLOWER_TINT:
                    cv2.circle(image, (x0 + 8, y0 + 8), 5, FLOWER_TINT[flower], -1)
                text = _cell_text(cell.label, attrs)
                if text:
                    ink = (0, 0, 0) if sum(colour) > 380 else (255, 255, 255)
                    cv2.putText(image, text, (x0 + 14, y0 + 28), cv2.FONT_HERSHEY_SIMPLEX, 0.5, ink, 1, cv2.LINE_AA)
        x += len(grid[0]) * CELL + PAD
    y = PAD * 2 + 20 + grid_height
    for line in lines:
        y += 24
        ascii_line = line.encode("ascii", "replace").decode("ascii")
        cv2.putText(image, ascii_line, (PAD, y), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (20, 20, 20), 1, cv2.LINE_AA)
    return image


def save(path: str | Path, view: ExpectedView, sheet: ScoreSheet, title: str = "") -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    if not cv2.imwrite(str(path), draw(view, sheet, title)):
        raise OSError(f"could not write {path}")
    return path
