"""Every rule id of DIGEST.md §4 as this engine knows it."""

from __future__ import annotations

from ...i18n import N_
from ..api import RuleInfo

RULES = (
    RuleInfo("baubylon.units", N_("A block: lying 2 spaces long and 2 pawn heights high, standing 4 high")),
    RuleInfo("baubylon.move", N_("Move exactly the roll: 1 per space, 1 per pawn height up or down")),
    RuleInfo("baubylon.field", N_("No step needs 6 or more, every place reachable, one highest point")),
    RuleInfo("baubylon.enter", N_("Pawns enter from a start point, which needs 3 or more")),
    RuleInfo("baubylon.stack", N_("Pawns are climbed like steps; stacks of at most 5; a pinned pawn cannot move")),
    RuleInfo("baubylon.knock", N_("Passing a stack, its top pawn may be knocked off instead of climbed")),
    RuleInfo("baubylon.quake", N_("On a 1, a pinned pawn may shake off every pawn on top of it")),
    RuleInfo("baubylon.goal", N_("The first pawn on the highest point wins")),
    RuleInfo("baubylon.blocker", N_("A red blocker may be moved instead of a pawn, by the same rules")),
)
