"""The Reclamation (箱庭の国, Kuuri Keikaku): 2 players, 6×6 board, Garden rules and the Throne variant.

Readable rules engine (state.py, reclaim.py), cards as data (cards.py), JSON bodies (codec.py), the
position checker (audit.py), and a fast search over a compact bit-mask representation (fast.py,
search.py) for hints.
"""

from __future__ import annotations

from ...i18n import N_
from ..api import GameSpec, Option
from ..registry import register
from .cards import EXAMPLE_BOOK, Card, CardBook, CardPatterns, Offset
from .rules import RULES
from .state import VARIANTS, ReclamationState, Turn, new_game

SPEC = register(
    GameSpec(
        id="reclamation",
        title=N_("The Reclamation"),
        min_players=2,
        max_players=2,
        state_type=ReclamationState,
        new_game=new_game,
        variants=VARIANTS,
        options=(
            Option("variant", N_("garden (basic rules, black card sides) or throne (red card sides)"), "garden", VARIANTS),
        ),
        rules=RULES,
    )
)

__all__ = [
    "EXAMPLE_BOOK",
    "SPEC",
    "Card",
    "CardBook",
    "CardPatterns",
    "Offset",
    "ReclamationState",
    "Turn",
    "new_game",
]
