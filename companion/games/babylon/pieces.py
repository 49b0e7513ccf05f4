"""The shared supply (component list of DIGEST §1), the game options and each player's holdings."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

from .model import DEFAULT_FLOWERS, Board, Tile

STORAGE_SINGLES = 6  # babylon.store.pillars: 6 slots for single pillars, none for doubles
BRIDGE_GAP_READINGS = ("bridge_level", "empty_to_board")
EXACT_COVER_READINGS = ("directly_beneath", "any_tile")
STATUE_LINE_READINGS = ("row_or_column", "with_diagonals")
DECORATION_HEIGHT_READINGS = ("flat", "one_level")
# Every reading, with its allowed values and default first (docs/formats/babylon.md).
READINGS = {
    "bridge_gap": BRIDGE_GAP_READINGS,
    "exact_cover": EXACT_COVER_READINGS,
    "statue_line": STATUE_LINE_READINGS,
    "decoration_height": DECORATION_HEIGHT_READINGS,
}


@dataclass(frozen=True)
class Supply:
    """What is left in the box. Counts never go below zero: taking from an empty supply gives less."""

    single: int = 148
    double: int = 60
    belvedere: int = 38
    stairs: int = 15
    fountain: int = 15
    bridge: int = 15
    statue: int = 38

    def count(self, kind: str) -> int:
        return int(getattr(self, kind))

    def add(self, kind: str, amount: int) -> Supply:
        return replace(self, **{kind: self.count(kind) + amount})

    def take(self, kind: str, wanted: int) -> tuple[Supply, int]:
        got = max(0, min(wanted, self.count(kind)))
        return self.add(kind, -got), got

    @classmethod
    def kinds(cls) -> tuple[str, ...]:
        return tuple(f.name for f in fields(cls))


@dataclass(frozen=True)
class Options:
    """The readings the rulebooks leave open (see docs/formats/babylon.md).

    bridge_gap: "bridge_level" (default; the gap is open at the bridge's level) or "empty_to_board".
    exact_cover: "directly_beneath" (default; the ja rulebook) or "any_tile" (the zh-TW rulebook).
    statue_line: "row_or_column" (default) or "with_diagonals" (babylon.deco.statue's 直線上 /
        形成直線 read to include the board's diagonals).
    decoration_height: "flat" (default; a tile one level up may pass over a fountain, bridge,
        stairs end or belvedere) or "one_level" (they stand one level tall, like a statue).
    """

    bridge_gap: str = "bridge_level"
    exact_cover: str = "directly_beneath"
    statue_line: str = "row_or_column"
    decoration_height: str = "flat"


@dataclass(frozen=True)
class PlayerState:
    """One player: their flower, garden, pillars held (storage plus this turn's gains) and slot."""

    name: str
    flower: str
    board: Board = Board()
    singles: int = 0
    doubles: int = 0
    slot: Tile | None = None


@dataclass(frozen=True)
class Turn:
    """What happened so far in the current player's turn."""

    new_tile: Tile | None = None  # taken this turn and not yet placed
    placed: tuple[str, ...] = ()  # ids of tiles placed this turn (babylon.deco.when)
    pillars: tuple[str, ...] = ()  # ids of pillars placed this turn (they may be taken back)
    wild_used: bool = False  # the icon_swap / icon_blank round token was used this turn


def start_tile(flower: str) -> Tile:
    return Tile(f"start-{flower}", "start", flower, None)


__all__ = [
    "DEFAULT_FLOWERS",
    "READINGS",
    "Options",
    "PlayerState",
    "STORAGE_SINGLES",
    "Supply",
    "Turn",
    "start_tile",
]
