"""The calibration layout as a picture the player follows: one square per cell, what to put there.

Drawn seen from above in the board frame of vision/boards.py, so row 1 (row 0 in the code) is at
the bottom edge and column 1 at the left, as on the printed mat. English words only (OpenCV's
fonts have no CJK glyphs); the touchscreen shows the same layout with translated text.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import cv2
import numpy as np

from ...errors import CompanionError, ErrorText
from ...i18n import N_
from ..boards import ROW0_AT_BOTTOM
from .layouts import CalibrationLayout

FONT = cv2.FONT_HERSHEY_SIMPLEX
INK = (40, 40, 40)
FILLED = (200, 235, 250)  # a place to fill: pale yellow
BARE = (250, 250, 250)


def draw_layout(layout: CalibrationLayout, width_px: int = 1100) -> np.ndarray:
    rows, cols = layout.size
    margin, header = 40, 70
    cell = (width_px - 2 * margin) // cols
    height = header + rows * cell + 2 * margin
    image = np.full((height, width_px, 3), 255, np.uint8)
    cv2.putText(image, f"Calibration layout: {layout.region}", (margin, 32), FONT, 0.8, INK, 2, cv2.LINE_AA)
    where = "bottom" if ROW0_AT_BOTTOM else "top"
    cv2.putText(image, f"Seen from above; row 1 along the {where} edge, column 1 on the left (as on the mat)",
                (margin, 58), FONT, 0.5, INK, 1, cv2.LINE_AA)
    scale = max(0.3, min(0.5, cell / 220))
    chars = max(6, int(cell / (19 * scale)))
    top = header + margin // 2
    for r, row in enumerate(layout.descriptions()):
        shown_row = rows - 1 - r if ROW0_AT_BOTTOM else r
        y0 = top + shown_row * cell
        cv2.putText(image, str(r + 1), (8, y0 + cell // 2 + 5), FONT, 0.5, INK, 1, cv2.LINE_AA)
        for c, text in enumerate(row):
            x0 = margin + c * cell
            cv2.rectangle(image, (x0, y0), (x0 + cell, y0 + cell), FILLED if text else BARE, -1)
            cv2.rectangle(image, (x0, y0), (x0 + cell, y0 + cell), INK, 1)
            for k, line in enumerate(textwrap.wrap(text, chars)[: max(1, int(cell / (34 * scale)))]):
                cv2.putText(image, line, (x0 + 4, y0 + int((k + 1) * 30 * scale) + 4), FONT, scale, INK, 1,
                            cv2.LINE_AA)
    for c in range(cols):
        cv2.putText(image, str(c + 1), (margin + c * cell + cell // 2 - 6, top + rows * cell + 22), FONT, 0.5,
                    INK, 1, cv2.LINE_AA)
    return image


def write_layout(layout: CalibrationLayout, folder: Path) -> Path:
    path = Path(folder) / f"layout-{layout.region}.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    if not cv2.imwrite(str(path), draw_layout(layout)):
        raise CompanionError(message=ErrorText.of(N_("{path}: could not write the layout diagram"), path=str(path)))
    return path
