"""What the editors edit (plain Python): a Reclamation card pattern, a Babel blueprint, a Babylon
tile's icons. Each checks itself against the rulebook and gives JSON in the engines' own file
formats, one entry each: a card of `table-companion/reclamation-cards`, a blueprint as in
docs/formats/babel.md, a face of `table-companion/babylon-tiles` (so the referee can hand it to the
engine's reader)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..games.api import Message
from ..i18n import N_

# Reclamation: the card picture is drawn around the gardener; "forward" is away from the owner.
CARD_REACH = 2  # the known card reaches 2 forward; a 5 × 5 picture holds every pattern seen so far
MATERIAL_ICONS = {"clay": 2, "granite": 3, "basalt": 4}  # babylon components: icons per material
TILE_ICONS = ("none", "stairs", "fountain", "bridge", "statue")
BABEL_CELLS = tuple(f"{col}{row}" for row in (1, 2, 3) for col in "ABC")
BABEL_SLOTS = tuple(f"printed{n}" for n in range(1, 10)) + ("blank1", "blank2", "blank3")
BABEL_MAX_CUBES = 25  # the box holds 25 cubes


@dataclass
class CardPattern:
    """Target squares relative to the gardener: (forward, right) steps, e.g. (2, -1) = 2 forward, 1 left."""

    name: str = ""
    side: str = "garden"  # garden (black side, basic rules) | throne (red side, variant)
    targets: set[tuple[int, int]] = field(default_factory=set)

    def toggle(self, forward: int, right: int) -> None:
        if (forward, right) == (0, 0):
            return  # the gardener's own square is never a target
        self.targets ^= {(forward, right)}

    def problems(self) -> list[Message]:
        if not self.targets:
            return [Message.of(N_("Mark at least one target square."))]
        return []

    def default_name(self) -> str:
        """A name spelling the pattern ("f2l1+f2r1": 2 forward 1 left, 2 forward 1 right)."""
        def step(forward: int, right: int) -> str:
            ahead = f"f{forward}" if forward >= 0 else f"b{-forward}"
            side = "" if right == 0 else (f"r{right}" if right > 0 else f"l{-right}")
            return ahead + side
        return "+".join(step(f, r) for f, r in sorted(self.targets, key=lambda t: (-t[0], t[1])))

    def to_json(self) -> dict[str, Any]:
        """One card of table-companion/reclamation-cards."""
        targets = [{"forward": f, "right": r} for f, r in sorted(self.targets)]
        return {"name": self.name.strip() or self.default_name(), self.side: targets}


@dataclass
class Blueprint:
    """A Babel design card: the minimum cube count per cell of the 3 × 3 base card."""

    slot: str = "blank1"
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(BABEL_CELLS, 0))

    def bump(self, cell: str, delta: int = 1) -> None:
        self.counts[cell] = max(0, self.counts[cell] + delta)

    def problems(self) -> list[Message]:
        total = sum(self.counts.values())
        if total == 0:
            return [Message.of(N_("A blueprint needs at least one cube."))]
        if total > BABEL_MAX_CUBES:
            return [Message.of(N_("{count} cubes: there are only {max} in the box."), count=total, max=BABEL_MAX_CUBES)]
        return []

    def to_json(self) -> dict[str, Any]:
        """A blueprint as Babel's state and card library write it: cells left out need no cube."""
        return {"name": self.slot, "cells": {c: n for c, n in self.counts.items() if n}}


@dataclass
class TileIcons:
    """A Babylon terrace tile: material, flower and the icon on each of its 4 garden spaces."""

    material: str = "clay"
    flower: int = 0  # index into FLOWERS
    icons: list[str] = field(default_factory=lambda: ["none"] * 4)  # clockwise from the top-left: TL, TR, BR, BL

    def cycle_icon(self, space: int) -> None:
        self.icons[space] = TILE_ICONS[(TILE_ICONS.index(self.icons[space]) + 1) % len(TILE_ICONS)]

    def cycle_material(self) -> None:
        order = tuple(MATERIAL_ICONS)
        self.material = order[(order.index(self.material) + 1) % len(order)]

    def problems(self) -> list[Message]:
        wanted = MATERIAL_ICONS[self.material]
        have = sum(1 for icon in self.icons if icon != "none")
        if have != wanted:
            return [Message.of(N_("A {material} tile has {wanted} icons; this one has {have}."),
                               material=Message.of(MATERIAL_NAMES[self.material]), wanted=wanted, have=have)]
        return []

    def to_json(self) -> dict[str, Any]:
        """One face of table-companion/babylon-tiles: icons as printed, clockwise, null for none."""
        return {"material": self.material, "flower": FLOWERS[self.flower],
                "icons": [None if icon == "none" else icon for icon in self.icons]}


def _babylon_flowers() -> tuple[str, ...]:
    try:
        from ..games.babylon.model import DEFAULT_FLOWERS
    except ImportError:
        return ("white", "pink", "yellow", "blue")
    return tuple(DEFAULT_FLOWERS)


FLOWERS = _babylon_flowers()  # the Babylon engine's flower names, one per player board
FLOWER_NAMES = {"white": N_("White"), "pink": N_("Pink"), "yellow": N_("Yellow"), "blue": N_("Blue")}
FLOWER_COLOURS = {
    "white": (0.92, 0.92, 0.90, 1),
    "pink": (0.95, 0.60, 0.75, 1),
    "yellow": (0.95, 0.85, 0.35, 1),
    "blue": (0.45, 0.65, 0.95, 1),
}
MATERIAL_NAMES = {"clay": N_("clay"), "granite": N_("granite"), "basalt": N_("basalt")}
ICON_NAMES = {"none": N_("no icon"), "stairs": N_("stairs"), "fountain": N_("fountain"), "bridge": N_("bridge"), "statue": N_("statue")}
