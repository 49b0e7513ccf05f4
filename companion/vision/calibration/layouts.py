"""The calibration layouts: which known pieces the player lays where for the appearance capture.

One layout per board region. Each shows every class its observer learns, several times, with
nothing standing where a taller piece would hide it from the camera. The cells are given in the
board frame of vision/boards.py (row 0 / column 0 at the frame's origin), in the same
(label, attrs) vocabulary as vision/labels.py:

- `truth()` is what `Observer.calibration_samples(image, truth)` is told (for the garden a stairs
  space gives its own level);
- `expected()` is what `Observer.observe()` should then report for the same frame.

The digital twin builds the same layouts (sim/garden.py `calibration_layout()`, sim/boards.py
`calibration_<game>()`); tests/vision/test_calibration_layouts.py checks the two agree cell by
cell. The layouts are written here as text, one token per cell, so that they read like the
diagram the player follows (calibration/layout-<region>.png, drawn by layout_diagram.py).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from ...i18n import N_
from .. import labels

Cell = tuple[str, dict[str, Any]]

# --- tokens per region ------------------------------------------------------------------------------
# babylon.garden: "." a recess; "p1@L"/"p2@L" a single/double pillar whose top is at level L;
# "t@L:ID:FLOWER:ICON" a tile space at level L of tile ID; "DECO@L" a decoration standing on level L;
# "stairs@L/A,B" the stairs space at level L of stairs joining levels A and B.
GARDEN = (
    "p1@1 . p2@2 . p1@1 . p2@2 .",
    ". p1@1 . p2@2 . p1@1 . p2@2",
    "t@1:r2c0:flower0:stairs bridge@1 bridge@1 bridge@1 t@1:r2c3:flower1:stairs . "
    "t@1:r2c6:flower0:statue t@1:r2c6:flower0:bridge",
    "t@1:r2c0:flower0:bridge statue@1 . t@1:r2c3:flower1:fountain p1@2 . p2@3 belvedere@1",
    ". . . . . . . .",
    "fountain@2 fountain@2 t@1:r5c2:flower3:none t@1:r5c2:flower3:bridge . t@1:r5c5:flower2:fountain "
    "statue@1 .",
    "t@2:r5c0:flower2:statue stairs@2/1,2 stairs@1/1,2 belvedere@1 . fountain@1 fountain@1 .",
    ". . . . . . . .",
)
# babylon.quarry: tile layers left at each place (0 = the quarry's bottom shows).
QUARRY = ("3 2 1 0", "0 1 2 3", "3 3 1 1", "2 0 2 0")
QUARRY_LAYERS = (labels.QUARRY_EMPTY, labels.QUARRY_BASALT, labels.QUARRY_GRANITE, labels.QUARRY_CLAY)
# reclamation: "." an empty square; "F2" a stack of two stones, Flower face up; "V1" Vine up.
RECLAMATION = (
    "F1 . V1 . F1 V1",
    ". V1 . F1 . .",
    "F2 . V3 . V2 .",
    ". . . . . F3",
    "F1 . V1 . F1 V1",
    ". V1 . F1 . .",
)
# babel: cubes in each cell's tower.
BABEL = ("0 4 0", "8 0 1", "0 2 0")
# baubylon: "." the bare table; "H" a block H pawn heights tall; "H:COLOUR" a pawn on it.
PAWN_COLOURS = ("red", "blue", "green", "yellow", "black", "white", "purple")


def _baubylon_rows() -> tuple[str, ...]:
    rows = [["."] * 12 for _ in range(12)]
    for i, colour in enumerate(PAWN_COLOURS):
        rows[1][1 + i] = f"0:{colour}"
        rows[4][1 + i] = f"2:{colour}"
        rows[7][1 + i] = f"4:{colour}"
    for c in range(0, 12, 2):
        rows[10][c], rows[10][c + 1] = "2", "4"
    return tuple(" ".join(row) for row in rows)


BAUBYLON = _baubylon_rows()


# --- parsing ----------------------------------------------------------------------------------------
# Each cell: (truth, expected, what to put there as (msgid, params) or None for a bare place). The
# msgids are marked for translation so the touchscreen can show the layout in the player's language.
Text = tuple[str, dict[str, Any]]
BARE = None

_DECORATIONS = {
    labels.FOUNTAIN: N_("fountain on level {level}"),
    labels.BRIDGE: N_("bridge on level {level}"),
    labels.STATUE: N_("statue on level {level}"),
    labels.BELVEDERE: N_("belvedere on level {level}"),
}
_QUARRY_TEXT = {1: N_("1 layer, basalt on top"), 2: N_("2 layers, granite on top"), 3: N_("3 layers, clay on top")}
_STONES = {
    (labels.FLOWER, 1): N_("1 stone, flower up"), (labels.VINE, 1): N_("1 stone, vine up"),
    (labels.FLOWER, 2): N_("{height} stones, flower up"), (labels.VINE, 2): N_("{height} stones, vine up"),
    (labels.FLOWER, 3): N_("{height} stones, flower up (gardener)"),
    (labels.VINE, 3): N_("{height} stones, vine up (gardener)"),
}


def _garden(token: str) -> tuple[Cell, Cell, Text | None]:
    if token == ".":
        return (labels.RECESS, {"level": 0}), (labels.RECESS, {"level": 0}), BARE
    name, _, rest = token.partition("@")
    if name in ("p1", "p2"):
        cell = (labels.PILLAR1 if name == "p1" else labels.PILLAR2, {"level": int(rest)})
        text = N_("single pillar, top at level {level}") if name == "p1" else N_("double pillar, top at level {level}")
        return cell, cell, (text, {"level": int(rest)})
    if name == "t":
        level, tile, flower, icon = rest.split(":")
        cell = (labels.TILE, {"level": int(level), "tile": tile, "flower": flower, "icon": icon})
        return cell, cell, (N_("tile {tile} at level {level}, {flower}, icon {icon}"),
                            {"tile": tile, "level": int(level), "flower": flower, "icon": icon})
    if name == labels.STAIRS:
        own, _, pair = rest.partition("/")
        levels = sorted(int(v) for v in pair.split(","))
        return ((labels.STAIRS, {"level": int(own)}), (labels.STAIRS, {"level": levels}),
                (N_("stairs between levels {low} and {high}, this end on level {level}"),
                 {"low": levels[0], "high": levels[1], "level": int(own)}))
    cell = (name, {"level": int(rest)})
    return cell, cell, (_DECORATIONS[name], {"level": int(rest)})


def _quarry(token: str) -> tuple[Cell, Cell, Text | None]:
    n = int(token)
    cell = (QUARRY_LAYERS[n], {"layers": n})
    return cell, cell, (_QUARRY_TEXT[n], {}) if n else BARE


def _reclamation(token: str) -> tuple[Cell, Cell, Text | None]:
    if token == ".":
        cell = (labels.EMPTY, {"height": 0, "gardener": False})
        return cell, cell, BARE
    face = labels.FLOWER if token[0] == "F" else labels.VINE
    height = int(token[1:])
    cell = (face, {"height": height, "gardener": height == 3})
    return cell, cell, (_STONES[face, height], {"height": height})


def _babel(token: str) -> tuple[Cell, Cell, Text | None]:
    n = int(token)
    cell = (labels.CUBES, {"count": n})
    if not n:
        return cell, cell, BARE
    return cell, cell, (N_("1 cube") if n == 1 else N_("{count} cubes"), {"count": n})


def _baubylon(token: str) -> tuple[Cell, Cell, Text | None]:
    if token == ".":
        cell = (labels.FIELD, {"height": 0, "pawns": []})
        return cell, cell, BARE
    height, _, colour = token.partition(":")
    cell = (labels.FIELD, {"height": int(height), "pawns": [colour] if colour else []})
    if int(height) and colour:
        return cell, cell, (N_("block of {height} + {colour} pawn"), {"height": int(height), "colour": colour})
    if colour:
        return cell, cell, (N_("{colour} pawn"), {"colour": colour})
    return cell, cell, (N_("block of {height}"), {"height": int(height)})


@dataclass(frozen=True)
class CalibrationLayout:
    region: str
    rows: tuple[str, ...]  # one string of tokens per board row, row 0 first

    def _parsed(self) -> list[list[tuple[Cell, Cell, str]]]:
        parse = _PARSERS[self.region]
        return [[parse(token) for token in row.split()] for row in self.rows]

    def truth(self) -> list[list[Cell]]:
        """Per cell what `calibration_samples` is told (a fresh copy: callers may change it)."""
        return [[copy.deepcopy(t) for t, _, _ in row] for row in self._parsed()]

    def expected(self) -> list[list[Cell]]:
        """Per cell what `observe()` should report on a frame of this layout."""
        return [[copy.deepcopy(e) for _, e, _ in row] for row in self._parsed()]

    def texts(self) -> list[list[Text | None]]:
        """Per cell what to put there as a (msgid, params) pair marked with N_ (None: leave it bare),
        for the touchscreen to show in the player's language."""
        return [[copy.deepcopy(t) for _, _, t in row] for row in self._parsed()]

    def descriptions(self) -> list[list[str]]:
        """Per cell, in English, what to put there ("" where the board stays bare)."""
        return [["" if t is None else t[0].format(**t[1]) for _, _, t in row] for row in self._parsed()]

    def instructions(self) -> list[str]:
        """One line per place to fill, rows and columns counted from 1 as on the diagram."""
        return [f"row {r + 1}, column {c + 1}: {text}"
                for r, row in enumerate(self.descriptions()) for c, text in enumerate(row) if text]

    @property
    def size(self) -> tuple[int, int]:
        return len(self.rows), len(self.rows[0].split())


_PARSERS = {
    "babylon.garden": _garden,
    "babylon.quarry": _quarry,
    "reclamation": _reclamation,
    "babel": _babel,
    "baubylon": _baubylon,
}
LAYOUTS = {
    "babylon.garden": CalibrationLayout("babylon.garden", GARDEN),
    "babylon.quarry": CalibrationLayout("babylon.quarry", QUARRY),
    "reclamation": CalibrationLayout("reclamation", RECLAMATION),
    "babel": CalibrationLayout("babel", BABEL),
    "baubylon": CalibrationLayout("baubylon", BAUBYLON),
}


def layout_for(region: str) -> CalibrationLayout:
    try:
        return LAYOUTS[region]
    except KeyError:
        raise KeyError(f"no calibration layout for region {region!r}; expected one of "
                       f"{', '.join(LAYOUTS)}") from None
