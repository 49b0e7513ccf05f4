"""Board grid sizes per game, for pictures of games without a richer top-down adapter."""

from __future__ import annotations

GRID = {"babylon": (8, 8), "reclamation": (6, 6), "babel": (3, 3), "baubylon": (8, 8)}


def grid_for(game: str | None) -> tuple[int, int]:
    return GRID.get(game or "", (8, 8))
