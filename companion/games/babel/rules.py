"""Every rule id of DIGEST.md §3 as this engine knows it, and the rule each move kind rests on."""

from __future__ import annotations

from ...i18n import N_
from ..api import RuleInfo

RULES = (
    RuleInfo("babel.setup.roles", N_("Roles: 1 Messenger of God, the rest Architects; fanatics by punishment"), "setup"),
    RuleInfo("babel.setup.specials", N_("Divine Punishment and Seal cards by player count"), "setup"),
    RuleInfo("babel.setup.deck", N_("Building the deck and dealing 3 cards each"), "setup"),
    RuleInfo("babel.blueprint", N_("The blueprint: the least cubes per cell for a complete tower")),
    RuleInfo("babel.instruction", N_("Instruction cards: a cube count on one of the allowed cells")),
    RuleInfo("babel.round.appoint", N_("The master appoints 3 architects (4 with 7 or more players)")),
    RuleInfo("babel.round.play", N_("Each architect plays 1 card to the master and discards 1")),
    RuleInfo("babel.round.storm", N_("A Storm is shown at once and cancels all building this round")),
    RuleInfo("babel.round.instruction", N_("Revealed instructions build their cubes, in the master's order")),
    RuleInfo("babel.round.lightning", N_("Lightning removes 2 cubes from the tallest tower")),
    RuleInfo("babel.round.deliberation", N_("Deliberation: an architect of this round shows their discard")),
    RuleInfo("babel.round.seal_in_build", N_("A Seal played while building does nothing")),
    # Hands are hidden: only the counts the table sees (cards received this round) are checked.
    RuleInfo("babel.round.punishment", N_("Who keeps and who passes Divine Punishment cards"), "guidance"),
    RuleInfo("babel.end.complete", N_("Blueprint met: the seal and punishment phases decide")),
    RuleInfo("babel.end.deck", N_("The deck cannot refill the hands: the messenger's team wins")),
    RuleInfo("babel.end.punishment", N_("Divine Punishment confirmed: the messenger's team wins")),
)

RULE_OF_KIND = {
    "appoint": "babel.round.appoint",
    "storm": "babel.round.storm",
    "instruction": "babel.round.instruction",
    "lightning": "babel.round.lightning",
    "deliberation": "babel.round.deliberation",
    "seal": "babel.round.seal_in_build",
    "finish": "babel.round.play",
    "punishment_confirmed": "babel.end.punishment",
    "name_master": "babel.round.appoint",
    "use_seal": "babel.end.complete",
    "use_punishment": "babel.end.complete",
    "end_phase": "babel.end.complete",
    "reveal_messenger": "babel.end.complete",
}
