"""The plain grid reader: which points (or cells) of a line grid hold a dark or a light piece.

No calibration and no markers: the grid is found from its own lines (locate/gridlines.py), and the
two piece classes are told apart from the board itself, never from fixed colours. Every sample is
compared with the board's own surface right beside it (places a piece can never cover: the cell
centres of a points board, the cell corners of a cells board), so a lighting gradient or a dark
wood cancels out. Samples far darker than their surroundings are dark pieces, far lighter or far
less coloured ones light pieces; "far" is learnt from the spread of the empty places.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .boards import BoardSpec, grid_board
from .labels import GRID_DARK, GRID_EMPTY, GRID_LIGHT
from .locate.gridlines import locate_from_grid_lines
from .locate.location import BoardLocation
from .types import CellReading, Frame, Observation

PX_PER_PITCH = 40  # resolution of the rectified board the samples are taken from
MIN_CONTRAST = 0.12  # the smallest log-brightness/saturation step that can ever count as a piece


@dataclass(frozen=True)
class GridReading:
    """Tokens per row ('.', 'B', 'W'), row 0 the top row as the image shows it."""

    spec: BoardSpec
    tokens: tuple[tuple[str, ...], ...]
    confidence: tuple[tuple[float, ...], ...]
    location: BoardLocation

    def text(self) -> str:
        return "\n".join(" ".join(row) for row in self.tokens)

    def observation(self, frame_index: int = 0, timestamp: float = 0.0) -> Observation:
        cells = tuple(
            tuple(CellReading(tok, conf) for tok, conf in zip(row, crow, strict=True))
            for row, crow in zip(self.tokens, self.confidence, strict=True)
        )
        return Observation("grid", self.spec.rows, self.spec.cols, cells, frame_index, timestamp,
                           extras={"method": self.location.method, "error_px": self.location.error_px})


def parse_grid_size(text: str) -> tuple[int, int]:
    """'19x19' or '9×9' → (rows, cols); raises ValueError with what is expected."""
    parts = text.lower().replace("×", "x").split("x")
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        raise ValueError(f"expected ROWSxCOLS such as 19x19, got {text!r}")
    rows, cols = (int(p) for p in parts)
    if not (2 <= rows <= 40 and 2 <= cols <= 40):
        raise ValueError(f"expected 2 to 40 rows and columns, got {rows}x{cols}")
    return rows, cols


def read_grid(image: np.ndarray, rows: int, cols: int, on_points: bool = True,
              location: BoardLocation | None = None) -> GridReading:
    spec = grid_board(rows, cols, on_points)
    location = location or locate_from_grid_lines(spec, image)
    view, px_per_mm, margin_mm = _rectified(image, location)
    lab = cv2.cvtColor(view, cv2.COLOR_BGR2HLS).astype(np.float32)
    lightness, saturation = lab[..., 1] + 1.0, lab[..., 2]
    piece = _piece_samples(spec, lightness, saturation, px_per_mm, margin_mm)
    board = _board_samples(spec, lightness, saturation, px_per_mm, margin_mm)
    features = np.stack([np.log(piece[..., 0] / board[..., 0]), (piece[..., 1] - board[..., 1]) / 255.0], axis=-1)
    tokens, confidence = classify(features)
    return GridReading(spec, tokens, confidence, location)


def read_frame(frame: Frame, rows: int, cols: int, on_points: bool = True) -> Observation:
    reading = read_grid(frame.image, rows, cols, on_points)
    return reading.observation(frame.index, frame.timestamp)


def _rectified(image: np.ndarray, location: BoardLocation) -> tuple[np.ndarray, float, float]:
    spec = location.spec
    px_per_mm = PX_PER_PITCH / spec.cell_mm
    margin_mm = spec.cell_mm  # one pitch around the board, so border places have surroundings
    return location.rectify(image, px_per_mm, margin_mm=margin_mm), px_per_mm, margin_mm


def _box_means(channel: np.ndarray, half: float) -> np.ndarray:
    """Each pixel's mean over the (2·half + 1)² square around it (one box filter for all samples)."""
    size = max(1, int(round(2 * half + 1)))
    return cv2.blur(channel, (size, size), borderType=cv2.BORDER_REPLICATE)


def _sample(means: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    h, w = means.shape
    xi = np.clip(np.round(x).astype(int), 0, w - 1)
    yi = np.clip(np.round(y).astype(int), 0, h - 1)
    return means[yi, xi]


def _places(spec: BoardSpec, s: float, margin: float) -> tuple[np.ndarray, np.ndarray]:
    """Pixel (u, v) of every place in the rectified view, each rows × cols."""
    rows, cols = np.mgrid[0 : spec.rows, 0 : spec.cols]
    offset = 0.0 if spec.on_points else 0.5
    return (cols + offset + margin / spec.cell_mm) * spec.cell_mm * s, (rows + offset + margin / spec.cell_mm) * spec.cell_mm * s


def _spot_medians(spec, lightness, saturation, s, margin, offsets, half) -> np.ndarray:
    """rows × cols × 2: per place, the median over `offsets` (in pitches) of small-square means."""
    pitch = spec.cell_mm * s
    u, v = _places(spec, s, margin)
    out = np.zeros((spec.rows, spec.cols, 2), np.float32)
    for channel_index, channel in enumerate((lightness, saturation)):
        means = _box_means(channel, half * pitch)
        spots = [_sample(means, u + dx * pitch, v + dy * pitch) for dx, dy in offsets]
        out[..., channel_index] = np.median(np.stack(spots), axis=0)
    return out


def _piece_samples(spec: BoardSpec, lightness, saturation, s: float, margin: float) -> np.ndarray:
    """rows × cols × (lightness, saturation) where a piece would be.

    On a points board: the median of four small squares in the quadrants around the point, off
    the lines but well inside a stone; in a cells board: the cell's middle.
    """
    if spec.on_points:
        return _spot_medians(spec, lightness, saturation, s, margin,
                             [(-0.2, -0.2), (0.2, -0.2), (0.2, 0.2), (-0.2, 0.2)], 0.08)
    return _spot_medians(spec, lightness, saturation, s, margin, [(0.0, 0.0)], 0.15)


def _board_samples(spec: BoardSpec, lightness, saturation, s: float, margin: float) -> np.ndarray:
    """rows × cols × (lightness, saturation) of the bare board around each place.

    Reference spots are where no piece reaches: diagonally between the points of a points board
    (0.7 pitch from any point), or near the corners of a cell (off the lines) on a cells board.
    Each place takes the median of its four surrounding spots, so a gradient is followed locally.
    """
    if spec.on_points:
        return _spot_medians(spec, lightness, saturation, s, margin,
                             [(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)], 0.12)
    return _spot_medians(spec, lightness, saturation, s, margin,
                         [(-0.38, -0.38), (0.38, -0.38), (0.38, 0.38), (-0.38, 0.38)], 0.05)


def classify(features: np.ndarray) -> tuple[tuple[tuple[str, ...], ...], tuple[tuple[float, ...], ...]]:
    """rows × cols × (log brightness ratio, saturation difference) → tokens and confidences.

    Three centres by k-means, started at "like the board" (0, 0), the darkest sample and the
    lightest-least-coloured one. A class whose centre lies within the empty class's own noise
    (4 robust sigmas, at least MIN_CONTRAST) is not a class of pieces: its members are empty.
    """
    rows, cols, _ = features.shape
    x = features.reshape(-1, 2).astype(np.float64)
    lightness_score = x[:, 0] - x[:, 1]
    centres = np.array([[0.0, 0.0], x[np.argmin(x[:, 0])], x[np.argmax(lightness_score)]])
    for _ in range(20):
        distances = np.linalg.norm(x[:, None, :] - centres[None, :, :], axis=2)
        labels = np.argmin(distances, axis=1)
        new = np.array([x[labels == k].mean(axis=0) if np.any(labels == k) else centres[k] for k in range(3)])
        new[0] = np.median(x[labels == 0], axis=0) if np.any(labels == 0) else centres[0]
        if np.allclose(new, centres):
            break
        centres = new
    empty = x[labels == 0]
    sigma = 1.4826 * np.median(np.abs(empty - np.median(empty, axis=0)), axis=0) if len(empty) else np.zeros(2)
    noise = max(MIN_CONTRAST, 4.0 * float(np.linalg.norm(sigma)))
    tokens_for = {0: GRID_EMPTY, 1: GRID_DARK, 2: GRID_LIGHT}
    real = [True, True, True]
    for k in (1, 2):
        if np.linalg.norm(centres[k] - centres[0]) < noise:
            real[k] = False
    # The dark class must be darker than the board, the light class not darker.
    if centres[1][0] > centres[0][0]:
        real[1] = False
    if centres[2][0] < centres[0][0] - noise:
        real[2] = False
    for k in (1, 2):
        if not real[k]:
            labels[labels == k] = 0
            # A missing class still bounds the empty one: no piece is closer than `noise`.
            centres[k] = centres[0] + (2 * noise, 0.0) if k == 2 else centres[0] - (2 * noise, 0.0)
    distances = np.linalg.norm(x[:, None, :] - centres[None, :, :], axis=2)
    own = distances[np.arange(len(x)), labels]
    others = np.where(np.eye(3, dtype=bool)[labels], np.inf, distances).min(axis=1)
    confidence = np.clip((others - own) / (others + own + 1e-9), 0.0, 1.0)
    tokens = [tokens_for[int(k)] for k in labels]
    token_rows = tuple(tuple(tokens[r * cols : (r + 1) * cols]) for r in range(rows))
    conf_rows = tuple(tuple(round(float(confidence[r * cols + c]), 3) for c in range(cols)) for r in range(rows))
    return token_rows, conf_rows
