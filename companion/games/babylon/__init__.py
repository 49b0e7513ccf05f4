"""Babylon (Geek Attitude Games, 2025): the complete rules engine, 2 to 4 players.

Modules: model (pieces and board), topview (what the camera sees from above), quarry, moves,
building and decorating (the build rules), scoring, state (turn and rounds), serial (JSON),
enumerate (legal moves), hints (legal placements and suggestions), rules (rule ids).
"""

from __future__ import annotations

from ...i18n import N_
from .. import registry
from ..api import GameSpec, Option
from .model import DEFAULT_FLOWERS, Board, Decoration, Pillar, PlacedTile, Tile
from .rules import RULES
from .state import BabylonState, new_game
from .topview import TopItem, TopView, covered_pieces, top_view, visible_pieces

SPEC = registry.register(
    GameSpec(
        id="babylon",
        title=N_("Babylon"),
        min_players=2,
        max_players=4,
        state_type=BabylonState,
        new_game=new_game,
        options=(
            Option(
                "bridge_gap",
                N_("babylon.deco.bridge: the gap must be open at the bridge's level (bridge_level) or empty down to the board (empty_to_board)."),
                "bridge_level",
                ("bridge_level", "empty_to_board"),
            ),
            Option(
                "exact_cover",
                N_("babylon.build.no_exact_cover: a tile may not exactly cover the tile directly beneath it (directly_beneath, ja rulebook) or any tile at all (any_tile, zh-TW rulebook)."),
                "directly_beneath",
                ("directly_beneath", "any_tile"),
            ),
            Option(
                "statue_line",
                N_("babylon.deco.statue: a later statue must be in line with a statue in the same row or column (row_or_column) or also on a diagonal (with_diagonals)."),
                "row_or_column",
                ("row_or_column", "with_diagonals"),
            ),
            Option(
                "decoration_height",
                N_("Fountains, bridges, stairs and belvederes: a tile one level up may pass over them (flat) or they stand one level tall like a statue (one_level)."),
                "flat",
                ("flat", "one_level"),
            ),
            Option(
                "flowers",
                N_("The four flowers, comma separated, in seat order: each player takes the board of their flower."),
                ",".join(DEFAULT_FLOWERS),
            ),
        ),
        rules=RULES,
    )
)

__all__ = [
    "SPEC",
    "BabylonState",
    "Board",
    "Decoration",
    "Pillar",
    "PlacedTile",
    "Tile",
    "TopItem",
    "TopView",
    "covered_pieces",
    "new_game",
    "top_view",
    "visible_pieces",
]
