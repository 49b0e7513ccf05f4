"""The quarry (`babylon.setup.quarry`, `babylon.quarry.*`): three 4×4 layers stacked in line.

Each of the 16 places holds a stack of 0–3 tiles: basalt at the bottom (layer 1), granite (layer 2),
clay on top (layer 3). Tiles lie material side up; their faces are read when taken, so the quarry
stores only how many tiles each place still holds. Place (row, col) is 0..3 each, row 0 at the
quarry's top edge as the camera sees it.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...i18n import N_, NP_
from ..api import Message

QUARRY_SIZE = 4
LAYER_MATERIAL = {1: "basalt", 2: "granite", 3: "clay"}
FULL = 3

# Edge explanations, one msgid per edge and finding so that each is translated whole.
_EDGE_NOTES = {
    ("top", "same"): N_("Top edge touches a tile of the same layer: +1 pillar."),
    ("top", "lower"): N_("Top edge touches a tile of a lower layer: +1 pillar."),
    ("top", "higher"): N_("Top edge touches a tile of a higher layer: nothing."),
    ("top", "wall"): N_("Top edge touches the quarry wall: +1 pillar."),
    ("top", "bottom"): N_("Top edge touches the quarry bottom: +1 pillar."),
    ("right", "same"): N_("Right edge touches a tile of the same layer: +1 pillar."),
    ("right", "lower"): N_("Right edge touches a tile of a lower layer: +1 pillar."),
    ("right", "higher"): N_("Right edge touches a tile of a higher layer: nothing."),
    ("right", "wall"): N_("Right edge touches the quarry wall: +1 pillar."),
    ("right", "bottom"): N_("Right edge touches the quarry bottom: +1 pillar."),
    ("bottom", "same"): N_("Bottom edge touches a tile of the same layer: +1 pillar."),
    ("bottom", "lower"): N_("Bottom edge touches a tile of a lower layer: +1 pillar."),
    ("bottom", "higher"): N_("Bottom edge touches a tile of a higher layer: nothing."),
    ("bottom", "wall"): N_("Bottom edge touches the quarry wall: +1 pillar."),
    ("bottom", "bottom"): N_("Bottom edge touches the quarry bottom: +1 pillar."),
    ("left", "same"): N_("Left edge touches a tile of the same layer: +1 pillar."),
    ("left", "lower"): N_("Left edge touches a tile of a lower layer: +1 pillar."),
    ("left", "higher"): N_("Left edge touches a tile of a higher layer: nothing."),
    ("left", "wall"): N_("Left edge touches the quarry wall: +1 pillar."),
    ("left", "bottom"): N_("Left edge touches the quarry bottom: +1 pillar."),
}
_EDGES = (("top", -1, 0), ("right", 0, 1), ("bottom", 1, 0), ("left", 0, -1))
Place = tuple[int, int]


@dataclass(frozen=True)
class Reward:
    """Single pillars earned by taking one tile, and why (one note per edge and for the flower)."""

    pillars: int
    notes: tuple[Message, ...]


@dataclass(frozen=True)
class Quarry:
    """Stack heights of the 16 places, row by row (3 = clay on top, 0 = bottom showing)."""

    heights: tuple[int, ...] = (FULL,) * (QUARRY_SIZE * QUARRY_SIZE)

    def height(self, place: Place) -> int:
        return self.heights[place[0] * QUARRY_SIZE + place[1]]

    def top_material(self, place: Place) -> str | None:
        return LAYER_MATERIAL.get(self.height(place))

    def is_visible(self, place: Place) -> bool:
        """babylon.quarry.visible: the top tile of a stack has nothing on it."""
        return in_quarry(place) and self.height(place) > 0

    def visible_places(self) -> tuple[Place, ...]:
        return tuple(p for p in all_places() if self.height(p) > 0)

    def take(self, place: Place) -> Quarry:
        index = place[0] * QUARRY_SIZE + place[1]
        heights = list(self.heights)
        heights[index] -= 1
        return Quarry(tuple(heights))

    def tiles_left(self) -> int:
        return sum(self.heights)

    def edge_findings(self, place: Place) -> tuple[tuple[str, str], ...]:
        """For each edge of the top tile at `place`: same | lower | higher | wall | bottom."""
        layer = self.height(place)
        findings = []
        for edge, dr, dc in _EDGES:
            other = (place[0] + dr, place[1] + dc)
            if not in_quarry(other):
                finding = "wall"
            elif self.height(other) == 0:
                finding = "bottom"
            elif self.height(other) == layer:
                finding = "same"
            elif self.height(other) < layer:
                finding = "lower"
            else:
                finding = "higher"
            findings.append((edge, finding))
        return tuple(findings)

    def reward(self, place: Place, own_flower: bool, effect: str = "none") -> Reward:
        """babylon.quarry.reward, with the round tokens `flower_double` and `fewer_pillars`."""
        notes = []
        pillars = 0
        for edge, finding in self.edge_findings(place):
            notes.append(Message.of(_EDGE_NOTES[(edge, finding)]))
            pillars += 0 if finding == "higher" else 1
        if own_flower:
            if effect == "flower_double":
                pillars += 2
                notes.append(Message.of(N_("Your own flower, doubled by the round token: +2 pillars.")))
            else:
                pillars += 1
                notes.append(Message.of(N_("Your own flower: +1 pillar.")))
        if effect == "fewer_pillars" and pillars > 0:
            pillars -= 1
            notes.append(Message.of(N_("Round token: 1 pillar fewer.")))
        notes.append(Message.of(NP_("Quarry reward: {count} single pillar.", "Quarry reward: {count} single pillars."),
                                count=pillars))
        return Reward(pillars, tuple(notes))


def in_quarry(place: Place) -> bool:
    return 0 <= place[0] < QUARRY_SIZE and 0 <= place[1] < QUARRY_SIZE


def all_places() -> tuple[Place, ...]:
    return tuple((r, c) for r in range(QUARRY_SIZE) for c in range(QUARRY_SIZE))
