"""The printable play mat: which ArUco marker sits where around each board region.

Every board region gets four markers, one just outside each of its corners, printed on a play mat
or stuck on the table as stickers. Positions are in the region's own millimetre frame (boards.py:
origin at the outer corner of row 0 / column 0, x along columns, y along rows, z = 0 the table).
Markers lie flat on the table, axis-aligned with the board and upright on the printed page, which
shows the board seen from above (boards.board_to_page): for a game region row 1 runs along the
page's bottom edge, so a marker's top edge points away from row 0. The "top_left" … names are the
corners of the board frame (top_left = row 0 / column 0), not of the page.

The digital twin draws exactly this layout; the locator (vision/locate/markers.py) reads it back.
Ids are unique across regions so several boards can share one camera view.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .boards import REGIONS, BoardSpec, board_to_page, grid_board

ARUCO_DICTIONARY = cv2.aruco.DICT_4X4_50
"""4×4 bits: the largest cells for a given printed size, so they survive a low Pi camera resolution."""

MARKER_MM = 20.0  # printed side of the black square, quiet zone excluded
GAP_MM = 6.0  # clear space between the board's edge and the marker's nearest edge
QUIET_MM = 4.0  # white border the mat keeps around each marker (the detector needs it)

CORNERS = ("top_left", "top_right", "bottom_right", "bottom_left")

# First marker id of each region; its four markers are first_id + CORNERS.index(corner).
FIRST_ID = {
    "babylon.garden": 0,
    "babylon.quarry": 4,
    "reclamation": 8,
    "babel": 12,
    "baubylon": 16,
    "grid": 20,
}


@dataclass(frozen=True)
class MarkerPlacement:
    """One marker of the mat: its id, the board corner it stands for, and where it lies (mm)."""

    marker_id: int
    region: str
    corner: str  # one of CORNERS
    centre_mm: tuple[float, float]  # in the region's frame, on the table (z = 0)
    size_mm: float = MARKER_MM

    def corners_mm(self) -> np.ndarray:
        """The marker's 4 corners in the region frame, in ArUco's order (TL, TR, BR, BL), 4×2."""
        cx, cy = self.centre_mm
        h = self.size_mm / 2.0
        return np.array(
            [[cx - h, cy - h], [cx + h, cy - h], [cx + h, cy + h], [cx - h, cy + h]], dtype=np.float64
        )


def spec_for(region: str, rows: int = 19, cols: int = 19, on_points: bool = True) -> BoardSpec:
    """The BoardSpec of a region name; "grid" needs its size (defaults: a 19×19 Go board)."""
    if region == "grid":
        return grid_board(rows, cols, on_points)
    try:
        return REGIONS[region]
    except KeyError:
        raise KeyError(f"unknown board region {region!r}; expected one of {', '.join(FIRST_ID)}") from None


def marker_layout(spec: BoardSpec) -> tuple[MarkerPlacement, ...]:
    """The four markers of a region, TL, TR, BR, BL, each centred diagonally off its corner."""
    offset = GAP_MM + MARKER_MM / 2.0
    w, h = spec.width_mm, spec.height_mm
    centres = {
        "top_left": (-offset, -offset),
        "top_right": (w + offset, -offset),
        "bottom_right": (w + offset, h + offset),
        "bottom_left": (-offset, h + offset),
    }
    first = FIRST_ID[spec.region]
    return tuple(
        MarkerPlacement(first + i, spec.region, corner, centres[corner]) for i, corner in enumerate(CORNERS)
    )


def detected_corners_mm(spec: BoardSpec, placement: MarkerPlacement) -> np.ndarray:
    """The marker's 4 corners in the board frame in the order ArUco reports them (the printed
    marker's top-left, top-right, bottom-right, bottom-left, upright on the page), 4×2.

    This is the only order the marker locator fits: a mirrored board frame then cannot fit."""
    to_page = board_to_page(spec)
    cx, cy, _ = to_page @ np.array([*placement.centre_mm, 1.0])
    h = placement.size_mm / 2.0
    page = np.array([[cx - h, cy - h, 1], [cx + h, cy - h, 1], [cx + h, cy + h, 1], [cx - h, cy + h, 1]])
    board = page @ np.linalg.inv(to_page).T
    return board[:, :2] / board[:, 2:3]


def region_of_marker(marker_id: int) -> tuple[str, str] | None:
    """(region, corner) a marker id belongs to, or None for an id no mat uses."""
    for region, first in FIRST_ID.items():
        if first <= marker_id < first + len(CORNERS):
            return region, CORNERS[marker_id - first]
    return None


def mat_extent_mm(spec: BoardSpec) -> tuple[float, float, float, float]:
    """(x0, y0, x1, y1) of the printed mat in the region frame: board + markers + quiet zone."""
    reach = GAP_MM + MARKER_MM + QUIET_MM
    return (-reach, -reach, spec.width_mm + reach, spec.height_mm + reach)


def dictionary() -> cv2.aruco.Dictionary:
    return cv2.aruco.getPredefinedDictionary(ARUCO_DICTIONARY)


def marker_image(marker_id: int, side_px: int) -> np.ndarray:
    """The marker as a side_px × side_px greyscale image (black square, no quiet zone)."""
    return cv2.aruco.generateImageMarker(dictionary(), marker_id, side_px, borderBits=1)
