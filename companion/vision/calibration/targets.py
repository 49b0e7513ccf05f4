"""Printable targets: the ChArUco sheet and the marker mat (or marker stickers), PNG and PDF.

Every target is drawn at a known resolution and written twice: a PNG whose pHYs chunk records
the resolution, and a PDF whose page is the paper size with the picture placed at true scale.
Print at 100 % ("actual size"), then check the printed ruler with a real one.
"""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from ...errors import CompanionError, ErrorText
from ...i18n import N_
from .. import mat
from ..boards import BoardSpec, board_to_page, rows_run_up
from .charuco import Sheet
from .pdf import write_pdf

DPI = 300
PAPER_MM = {"a4": (210.0, 297.0), "a3": (297.0, 420.0)}
PRINT_MARGIN_MM = 8.0  # most printers cannot print the outermost few millimetres


@dataclass(frozen=True)
class Target:
    """A page to print: the greyscale picture of the whole page and its size in mm."""

    name: str
    image: np.ndarray
    page_mm: tuple[float, float]


def px(mm: float, dpi: int = DPI) -> int:
    return int(round(mm * dpi / 25.4))


def _page(page_mm: tuple[float, float], dpi: int) -> np.ndarray:
    return np.full((px(page_mm[1], dpi), px(page_mm[0], dpi)), 255, np.uint8)


def _text(page: np.ndarray, text: str, x_mm: float, y_mm: float, dpi: int, size_mm: float = 3.5) -> None:
    scale = px(size_mm, dpi) / 22.0  # Hershey simplex is about 22 px tall at scale 1
    cv2.putText(page, text, (px(x_mm, dpi), px(y_mm, dpi)), cv2.FONT_HERSHEY_SIMPLEX, scale, 0,
                max(1, px(0.3, dpi)), cv2.LINE_AA)


def _ruler(page: np.ndarray, x_mm: float, y_mm: float, length_mm: float, dpi: int) -> None:
    """A scale bar with a tick every 10 mm, to check the print at true size."""
    thick = max(1, px(0.3, dpi))
    cv2.line(page, (px(x_mm, dpi), px(y_mm, dpi)), (px(x_mm + length_mm, dpi), px(y_mm, dpi)), 0, thick)
    for i in range(int(length_mm // 10) + 1):
        x = px(x_mm + 10 * i, dpi)
        cv2.line(page, (x, px(y_mm - (2.5 if i % 5 == 0 else 1.5), dpi)), (x, px(y_mm, dpi)), 0, thick)
    _text(page, f"{int(length_mm)} mm", x_mm + length_mm + 2, y_mm, dpi, 2.5)


def charuco_target(sheet: Sheet, dpi: int = DPI) -> Target:
    page = _page(sheet.paper_mm, dpi)
    board_w, board_h = sheet.board_mm
    left = (sheet.paper_mm[0] - board_w) / 2
    top = PRINT_MARGIN_MM + 6
    picture = sheet.board().generateImage((px(board_w, dpi), px(board_h, dpi)), marginSize=0, borderBits=1)
    y0, x0 = px(top, dpi), px(left, dpi)
    page[y0 : y0 + picture.shape[0], x0 : x0 + picture.shape[1]] = picture
    _text(page, f"Table Companion camera sheet {sheet.name.upper()}: {sheet.squares[0]}x{sheet.squares[1]} "
          f"squares of {sheet.square_mm:g} mm, DICT_5X5_100", left, PRINT_MARGIN_MM + 3, dpi)
    _ruler(page, left, top + board_h + 10, 100.0, dpi)
    _text(page, "Print at 100% (actual size). Keep the sheet flat (tape it to a board).", left,
          top + board_h + 18, dpi, 3.0)
    return Target(f"charuco-{sheet.name}", page, sheet.paper_mm)


def fits(extent_mm: tuple[float, float], paper: str) -> bool:
    w, h = extent_mm
    pw, ph = PAPER_MM[paper]
    usable = (pw - 2 * PRINT_MARGIN_MM, ph - 2 * PRINT_MARGIN_MM - 16)
    return (w <= usable[0] and h <= usable[1]) or (h <= usable[0] and w <= usable[1])


class MatTooLarge(CompanionError, ValueError):
    """A mat that does not fit on the paper asked for (a ValueError too, as it always was)."""


def mat_target(spec: BoardSpec, paper: str, dpi: int = DPI) -> Target:
    """The play mat for one region on one sheet: board outline, its four markers, labels."""
    x0, y0, x1, y1 = mat.mat_extent_mm(spec)
    w, h = x1 - x0, y1 - y0
    if not fits((w, h), paper):
        raise MatTooLarge(message=ErrorText.of(N_("the {region} mat ({size} mm) does not fit on {paper}"),
                                               region=spec.region, size=f"{w:.0f}×{h:.0f}", paper=paper.upper()))
    pw, ph = PAPER_MM[paper]
    landscape = not (w <= pw - 2 * PRINT_MARGIN_MM and h <= ph - 2 * PRINT_MARGIN_MM - 16)
    page_mm = (ph, pw) if landscape else (pw, ph)
    page = _page(page_mm, dpi)
    left, top = (page_mm[0] - w) / 2, PRINT_MARGIN_MM + 8

    def at(x_mm: float, y_mm: float) -> tuple[int, int]:
        return px(left + x_mm - x0, dpi), px(top + y_mm - y0, dpi)

    # The page shows the board seen from above (boards.board_to_page): a game board's row 1 runs
    # along the bottom edge, and every marker stands upright where the layout puts its centre.
    cv2.rectangle(page, at(0, 0), at(spec.width_mm, spec.height_mm), 0, max(1, px(0.4, dpi)))
    to_page = board_to_page(spec)
    for placement in mat.marker_layout(spec):
        cx, cy, _ = to_page @ np.array([*placement.centre_mm, 1.0])
        side = px(placement.size_mm, dpi)
        mx, my = at(cx - placement.size_mm / 2, cy - placement.size_mm / 2)
        page[my : my + side, mx : mx + side] = mat.marker_image(placement.marker_id, side)
    where = "bottom" if rows_run_up(spec) else "top"
    _text(page, f"Table Companion mat: {spec.region} ({spec.rows}x{spec.cols}, {spec.cell_mm:g} mm)", left,
          PRINT_MARGIN_MM + 4, dpi, 3.0)
    label_y = spec.height_mm - 2.0 if rows_run_up(spec) else 5.0
    _text(page, "row 1", left - x0 + 2.0, top - y0 + label_y, dpi, 2.5)
    _ruler(page, left, top + h + 8, 100.0, dpi)
    _text(page, f"The board's corners go on the frame's corners, its row 1 along the {where} edge.", left,
          top + h + 16, dpi, 3.0)
    return Target(f"mat-{spec.region.replace('.', '-')}-{paper}", page, page_mm)


def smallest_paper(spec: BoardSpec) -> str | None:
    """The smallest paper the region's whole mat fits on, or None (print stickers instead)."""
    x0, y0, x1, y1 = mat.mat_extent_mm(spec)
    return next((paper for paper in PAPER_MM if fits((x1 - x0, y1 - y0), paper)), None)


def sticker_target(spec: BoardSpec, dpi: int = DPI) -> Target:
    """The four markers as cut-out stickers on A4, for boards too big for any mat sheet.

    Each sticker says which corner it belongs to; stick it diagonally off that corner so that the
    marker's nearest corner is GAP_MM from the board's corner in both directions, upright as the
    board is seen from above (boards.board_to_page).
    """
    page_mm = PAPER_MM["a4"]
    page = _page(page_mm, dpi)
    cell = mat.MARKER_MM + 2 * mat.QUIET_MM
    _text(page, f"Table Companion marker stickers: {spec.region} ({spec.rows}x{spec.cols})", 15, 18, dpi)
    _text(page, f"Cut along the grey lines. Stick each {mat.MARKER_MM:g} mm marker diagonally off its board "
          f"corner, {mat.GAP_MM:g} mm from both edges,", 15, 25, dpi, 2.6)
    _text(page, "the arrow pointing away from row 1 (row 1 nearest you, as on the mats)." if rows_run_up(spec)
          else "the arrow pointing to the board's top row (row 1).", 15, 30, dpi, 2.6)
    for i, placement in enumerate(mat.marker_layout(spec)):
        x_mm, y_mm = 30 + (i % 2) * 90, 50 + (i // 2) * 80
        cv2.rectangle(page, (px(x_mm, dpi), px(y_mm, dpi)), (px(x_mm + cell, dpi), px(y_mm + cell, dpi)), 160,
                      max(1, px(0.2, dpi)))
        side = px(mat.MARKER_MM, dpi)
        mx, my = px(x_mm + mat.QUIET_MM, dpi), px(y_mm + mat.QUIET_MM, dpi)
        page[my : my + side, mx : mx + side] = mat.marker_image(placement.marker_id, side)
        cv2.arrowedLine(page, (px(x_mm + cell / 2, dpi), px(y_mm - 2, dpi)),
                        (px(x_mm + cell / 2, dpi), px(y_mm - 9, dpi)), 0, max(1, px(0.4, dpi)), tipLength=0.3)
        _text(page, f"id {placement.marker_id}: off the corner of {_corner_words(spec, placement.corner)}", x_mm,
              y_mm + cell + 6, dpi, 3.0)
    _ruler(page, 15, 270, 100.0, dpi)
    return Target(f"stickers-{spec.region.replace('.', '-')}", page, page_mm)


def _corner_words(spec: BoardSpec, corner: str) -> str:
    """A board-frame corner name (mat.CORNERS) in the rows and columns a player counts (from 1)."""
    row = 1 if corner.startswith("top") else spec.rows
    col = 1 if corner.endswith("left") else spec.cols
    return f"row {row}, column {col}"


def png_with_dpi(image: np.ndarray, dpi: int = DPI) -> bytes:
    """PNG bytes whose pHYs chunk says the resolution, so viewers print it at true size."""
    ok, encoded = cv2.imencode(".png", image)
    if not ok:
        raise ValueError("could not encode the PNG")
    data = encoded.tobytes()
    per_metre = int(round(dpi / 0.0254))
    body = b"pHYs" + struct.pack(">IIB", per_metre, per_metre, 1)
    chunk = struct.pack(">I", 9) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)
    ihdr_end = 8 + 4 + 4 + 13 + 4  # signature, then the IHDR chunk (length, type, 13 bytes, CRC)
    return data[:ihdr_end] + chunk + data[ihdr_end:]


def write_target(target: Target, folder: Path, dpi: int = DPI) -> list[Path]:
    """Writes <name>.png and <name>.pdf into folder; returns the paths."""
    folder.mkdir(parents=True, exist_ok=True)
    png = folder / f"{target.name}.png"
    pdf = folder / f"{target.name}.pdf"
    png.write_bytes(png_with_dpi(target.image, dpi))
    write_pdf(pdf, target.image, target.page_mm, (0.0, 0.0, *target.page_mm))
    return [png, pdf]
