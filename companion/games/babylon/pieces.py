"""The shared supply (component list of DIGEST §1), the game options and each player's holdings."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

from .model import DEFAULT_FLOWERS, Board, Tile

STORAGE_SINGLES = 6  # babylon.store.pillars: 6 slots for single pillars, none for doubles
BRIDGE_GAP_READINGS = ("bridge_level", "empty_to_board")
EXACT_COVER_READINGS = ("directly_beneath", "any_tile")


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
    """The two readings the rulebooks leave open (see docs/formats/babylon.md).

    bridge_gap: "bridge_level" (default; the gap is open at the bridge's level) or "empty_to_board".
    exact_cover: "directly_beneath" (default; the ja rulebook) or "any_tile" (the zh-TW rulebook).
    """

    bridge_gap: str = "bridge_level"
    exact_cover: str = "directly_beneath"


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


__all__ = ["DEFAULT_FLOWERS", "Options", "PlayerState", "STORAGE_SINGLES", "Supply", "Turn", "start_tile"]
