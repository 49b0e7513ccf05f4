"""What the editors edit (plain Python): a Reclamation card pattern, a Babel blueprint, a Babylon
tile's icons. Each checks itself against the rulebook and gives the JSON the referee stores."""

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
    targets: set[tuple[int, int]] = field(default_factory=set)

    def toggle(self, forward: int, right: int) -> None:
        if (forward, right) == (0, 0):
            return  # the gardener's own square is never a target
        self.targets ^= {(forward, right)}

    def problems(self) -> list[Message]:
        if not self.targets:
            return [Message.of(N_("Mark at least one target square."))]
        return []

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "targets": [[f, r] for f, r in sorted(self.targets)], "rule": "reclamation.garden.reclaim.card"}


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
        return {"slot": self.slot, "cells": {c: n for c, n in self.counts.items() if n}, "rule": "babel.blueprint"}


@dataclass
class TileIcons:
    """A Babylon terrace tile: material, flower and the icon on each of its 4 garden spaces."""

    material: str = "clay"
    flower: int = 0
    icons: list[str] = field(default_factory=lambda: ["none"] * 4)  # top-left, top-right, bottom-left, bottom-right

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
        return {"material": self.material, "flower": f"flower{self.flower}", "icons": list(self.icons)}


MATERIAL_NAMES = {"clay": N_("clay"), "granite": N_("granite"), "basalt": N_("basalt")}
ICON_NAMES = {"none": N_("no icon"), "stairs": N_("stairs"), "fountain": N_("fountain"), "bridge": N_("bridge"), "statue": N_("statue")}
