"""A physical table scene, as the twin renders it: boards with boxes standing on them.

Coordinates are millimetres. Each board region has its own frame (boards.py: origin at the outer
corner of row 0 / column 0, x along columns, y along rows, z up, z = 0 the board's playing surface)
and is placed on the table by a translation and a rotation about z. Every piece is an axis-aligned
box in its region's frame with a top colour, a side colour and flat marks printed on its top
(flowers, icons, faces). Colours are BGR tuples of 0..255 ints.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..vision.boards import BoardSpec

BGR = tuple[int, int, int]


@dataclass(frozen=True)
class Mark:
    """A flat polygon printed on a top face, in mm relative to the face's (x0, y0) corner."""

    polygon: tuple[tuple[float, float], ...]
    colour: BGR


@dataclass(frozen=True)
class Box:
    """An axis-aligned box in a region frame: a piece, a stack of pieces, a tile, a recess floor."""

    x0: float
    y0: float
    x1: float
    y1: float
    z0: float
    z1: float
    top: BGR
    side: BGR
    marks: tuple[Mark, ...] = ()
    casts_shadow: bool = True

    def __post_init__(self) -> None:
        if not (self.x1 > self.x0 and self.y1 > self.y0 and self.z1 >= self.z0):
            raise ValueError(f"degenerate box {self}")


@dataclass(frozen=True)
class RegionScene:
    """One board region on the table: its surface (with printed marks) and the boxes on it."""

    spec: BoardSpec
    origin_mm: tuple[float, float] = (0.0, 0.0)  # where the region's origin lies on the table
    rotation_deg: float = 0.0  # about the table's z axis
    surface: BGR = (70, 85, 95)
    surface_marks: tuple[Mark, ...] = ()  # printed on the surface, relative to the region origin
    margin_mm: float = 2.0  # board material beyond the playing area (the mat markers start 6 mm out)
    thickness_mm: float = 2.0
    boxes: tuple[Box, ...] = ()


@dataclass(frozen=True)
class Hand:
    """A player's arm reaching in from outside the camera view towards `tip` (table frame, mm)."""

    tip: tuple[float, float, float]
    entry: tuple[float, float, float]  # a point outside the view where the forearm comes from
    width_mm: float = 70.0
    colour: BGR = (120, 150, 205)


@dataclass(frozen=True)
class Lighting:
    """Light on the table: overall gain, a linear gradient across the image, white balance, shadows."""

    gain: float = 1.0
    gradient: tuple[float, float] = (0.0, 0.0)  # relative change from the image centre to its right / bottom edge
    colour_gains: tuple[float, float, float] = (1.0, 1.0, 1.0)  # B, G, R: colour temperature drift
    shadow_direction: tuple[float, float] = (0.25, 0.15)  # shadow offset on the table per mm of height
    shadow_strength: float = 0.35  # 0 = no shadows, 1 = black shadows
    side_shading: float = 0.7  # how bright side faces are relative to tops


@dataclass(frozen=True)
class Imaging:
    """The sensor and the encoder: noise, blur and JPEG artefacts."""

    noise_sigma: float = 2.0  # grey levels
    blur_sigma: float = 0.6  # pixels (defocus / motion)
    jpeg_quality: int = 0  # 0 = no JPEG round trip


@dataclass(frozen=True)
class TableScene:
    regions: tuple[RegionScene, ...]
    table_colour: BGR = (95, 120, 140)
    table_marks: tuple[Mark, ...] = ()  # printed on the table under the boards, table frame
    mat_marks: tuple[Mark, ...] = ()  # the ArUco play mat (sim/mat.py), drawn over board margins
    hand: Hand | None = None
    lighting: Lighting = field(default_factory=Lighting)
    imaging: Imaging = field(default_factory=Imaging)

    def region(self, name: str) -> RegionScene:
        for region in self.regions:
            if region.spec.region == name:
                return region
        raise KeyError(name)
