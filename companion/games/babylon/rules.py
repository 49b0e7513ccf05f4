"""Every `babylon.*` rule id of DIGEST.md §1, as this engine knows it (title and how it is used)."""

from __future__ import annotations

from ...i18n import N_
from ..api import RuleInfo

RULES = (
    RuleInfo("babylon.level", N_("Levels: the board is level 0; a tile on one single pillar is level 1"), "enforced"),
    RuleInfo("babylon.setup.quarry", N_("Quarry: 16 basalt, 16 granite, 16 clay tiles in three 4×4 layers"), "setup"),
    RuleInfo("babylon.setup.board", N_("Each player takes a board and the starting tile of its flower"), "setup"),
    RuleInfo("babylon.setup.rounds", N_("14 / 12 / 10 round tokens on the game-end token"), "setup"),
    RuleInfo("babylon.setup.quarry_trim", N_("2 players remove 6 clay tiles, 3 players remove 3"), "enforced"),
    RuleInfo("babylon.round", N_("15 / 13 / 11 rounds; a turn is quarry, build, store"), "enforced"),
    RuleInfo("babylon.quarry.visible", N_("Take one visible tile from the quarry"), "enforced"),
    RuleInfo("babylon.quarry.reward", N_("Pillars for each edge and for your own flower"), "enforced"),
    RuleInfo("babylon.build.which", N_("Place the tile just taken and/or the stored tile"), "enforced"),
    RuleInfo("babylon.build.pillars", N_("Pillars go on empty recesses or tile spaces"), "enforced"),
    RuleInfo("babylon.build.exchange", N_("2 single pillars for 1 double, never the reverse"), "enforced"),
    RuleInfo("babylon.build.support", N_("A tile rests on 3 or 4 pillars with level tops; 3 gives a belvedere"), "enforced"),
    RuleInfo("babylon.build.no_exact_cover", N_("A tile may not exactly cover the tile beneath it"), "enforced"),
    RuleInfo("babylon.build.mixed_support", N_("Supporting pillars may be single or double, on different levels"), "enforced"),
    RuleInfo("babylon.build.statue_pillar", N_("A statue may serve as a pillar and is then no longer a statue"), "enforced"),
    RuleInfo("babylon.build.one_level_at_a_time", N_("No tile at level n+1 without a tile at level n"), "enforced"),
    RuleInfo("babylon.build.no_bare_pillar", N_("No pillar may be visible at the end of the build"), "enforced"),
    RuleInfo("babylon.build.covered_space", N_("A covered space takes no pillar and no decoration"), "enforced"),
    RuleInfo("babylon.deco.when", N_("Decorations after a tile, partly on a tile placed this round"), "enforced"),
    RuleInfo("babylon.deco.icon", N_("Decorations go on free spaces with the matching icon, never diagonally"), "enforced"),
    RuleInfo("babylon.deco.stairs", N_("Stairs join adjacent stairs icons on tiles one level apart"), "enforced"),
    RuleInfo("babylon.deco.fountain", N_("A fountain joins adjacent fountain icons on tiles at one level"), "enforced"),
    RuleInfo("babylon.deco.bridge", N_("A bridge joins facing bridge icons across a one-space gap"), "enforced"),
    RuleInfo("babylon.deco.statue", N_("Each later statue in line with a statue already placed"), "enforced"),
    RuleInfo("babylon.store.pillars", N_("Store at most 6 single pillars; doubles go back"), "enforced"),
    RuleInfo("babylon.store.tile", N_("Store at most one tile; the rest leaves the game"), "enforced"),
    RuleInfo("babylon.store.starting_tile", N_("No other tile stored while the starting tile is in the slot"), "enforced"),
    RuleInfo("babylon.round_token", N_("The round token's effect applies to everyone's next turn"), "enforced"),
    RuleInfo("babylon.score.highest", N_("2 VP × the highest level holding a tile"), "scored"),
    RuleInfo("babylon.score.statue", N_("Statues: 1 VP × level"), "scored"),
    RuleInfo("babylon.score.fountain", N_("Fountains: 3 VP × level"), "scored"),
    RuleInfo("babylon.score.bridge", N_("Bridges: 3 VP × level"), "scored"),
    RuleInfo("babylon.score.stairs", N_("Stairs: the sum of the two levels joined"), "scored"),
    RuleInfo("babylon.score.deco_set", N_("4 VP per set of stairs, fountain, bridge and statue"), "scored"),
    RuleInfo("babylon.score.flower_set", N_("4 VP per set of 4 tiles of 4 flowers"), "scored"),
    RuleInfo("babylon.score.belvedere", N_("Belvederes: 1 VP each"), "scored"),
    RuleInfo("babylon.score.tiebreak", N_("Tie: fewer visible recesses wins, then shared"), "scored"),
)
