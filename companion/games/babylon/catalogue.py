"""An optional tile catalogue a player can fill in: the faces of their own copy's tiles.

The icon layouts of the 48 terrace tiles and the 4 starting tiles are not in any source we have
(DIGEST §1, **unknown**), so the engine never assumes them. A player who writes them down once can
give the companion this file; it then knows the starting tiles' icons from the start, and can list
which catalogue faces fit a tile read from the quarry (to check or complete a camera reading).

```json
{
  "format": "table-companion/babylon-tiles",
  "version": 1,
  "start": {"white": ["stairs", null, null, "fountain"]},
  "tiles": [{"material": "clay", "flower": "pink", "icons": ["bridge", null, "statue", null]}]
}
```

Icons are listed as printed, clockwise from the top-left; any turn of them matches.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ...i18n import NP_
from ..jsonread import JsonReader
from ..saves import read_json_file
from .model import ICON_COUNT, Icons, rotations
from .moves import read_icons

FORMAT = "table-companion/babylon-tiles"


@dataclass(frozen=True)
class Face:
    material: str
    flower: str
    icons: Icons


@dataclass(frozen=True)
class Catalogue:
    start: dict[str, Icons] = field(default_factory=dict)
    tiles: tuple[Face, ...] = ()

    def candidates(self, material: str, flower: str, seen: Icons | None = None) -> tuple[Face, ...]:
        """Catalogue faces of this material and flower; with `seen`, those matching it in some turn
        (a None in `seen` is a space not read, matching anything)."""
        found = []
        for face in self.tiles:
            if face.material != material or face.flower != flower:
                continue
            if seen is None or any(_fits(seen, turned) for turned in rotations(face.icons)):
                found.append(face)
        return tuple(found)

    def apply_start_tiles(self, state):
        """The state with every unread starting tile given its catalogue icons."""
        seats = []
        for seat in state.seats:
            slot = seat.slot
            if slot is not None and slot.material == "start" and slot.icons is None and seat.flower in self.start:
                slot = replace(slot, icons=self.start[seat.flower])
            seats.append(replace(seat, slot=slot))
        return replace(state, seats=tuple(seats))


def _fits(seen: Icons, icons: Icons) -> bool:
    return all(s is None or s == i for s, i in zip(seen, icons, strict=True))


def parse_catalogue(data: Any, source: str) -> Catalogue:
    reader = JsonReader(data, source)
    reader.get("format").str((FORMAT,))
    reader.get("version").int(1, 1)
    start = {flower: read_icons(icons) for flower, icons in reader.get("start", {}).items()}
    tiles = []
    for item in reader.get("tiles", []).list():
        material = item.get("material").str(tuple(ICON_COUNT))
        icons = read_icons(item.get("icons"))
        if sum(i is not None for i in icons) != ICON_COUNT[material]:
            raise item.get("icons").fail(NP_("expected {count} icon on a {material} tile", "expected {count} icons on a {material} tile"),
                                           count=ICON_COUNT[material], material=material)
        tiles.append(Face(material, item.get("flower").str(), icons))
    return Catalogue(start, tuple(tiles))


def load_catalogue(path: str | Path) -> Catalogue:
    return parse_catalogue(read_json_file(path), str(path))
