"""Where a rule id sits in the rulebooks, for the ruling screen ("Babylon rulebook · B. Build").

Prefixes follow shared/rules/DIGEST.md; the longest matching prefix wins. The rulebook file names
are shown too, so a player can open the same page.
"""

from __future__ import annotations

from ..games.api import Message
from ..i18n import N_

RULEBOOKS = {
    "babylon": (N_("Babylon rulebook"), "babylon.ja.txt / babylon.zh-TW.txt"),
    "reclamation": (N_("The Reclamation rulebook"), "reclamation.ja.txt"),
    "babel": (N_("Babel Builders rulebook"), "babel-builders.ja.md"),
    "baubylon": (N_("Baubylon rulebook"), "baubylon.ja.txt"),
}

SECTIONS = {
    "babylon.level": N_("Levels"),
    "babylon.setup": N_("Setup"),
    "babylon.round": N_("Rounds"),
    "babylon.quarry": N_("A. Quarry"),
    "babylon.build": N_("B. Build: tiles"),
    "babylon.deco": N_("B. Build: decorations"),
    "babylon.store": N_("C. Store / discard"),
    "babylon.round_token": N_("End of round"),
    "babylon.score": N_("Game end and scoring"),
    "reclamation.garden": N_("Garden rules"),
    "reclamation.garden.setup": N_("Garden rules: setup"),
    "reclamation.garden.reclaim": N_("Garden rules: reclaim"),
    "reclamation.throne": N_("Throne variant"),
    "babel.setup": N_("Setup"),
    "babel.blueprint": N_("Blueprints"),
    "babel.instruction": N_("Instruction cards"),
    "babel.round": N_("Round"),
    "babel.end": N_("End checks"),
    "baubylon.units": N_("Units"),
    "baubylon.move": N_("Move"),
    "baubylon.field": N_("Field"),
    "baubylon.enter": N_("Entering"),
    "baubylon.stack": N_("Pawns"),
    "baubylon.knock": N_("Knock-off"),
    "baubylon.quake": N_("Earthquake"),
    "baubylon.goal": N_("Win"),
    "baubylon.blocker": N_("Blockers"),
}


def section_for(rule_id: str) -> str | None:
    """The msgid of the rulebook section holding `rule_id` (longest dotted prefix), or None."""
    parts = rule_id.split(".")
    for length in range(len(parts), 0, -1):
        prefix = ".".join(parts[:length])
        if prefix in SECTIONS:
            return SECTIONS[prefix]
    return None


def location(rule_id: str) -> Message:
    """'Babylon rulebook · A. Quarry (babylon.ja.txt / babylon.zh-TW.txt)' as a translatable text."""
    game = rule_id.split(".")[0]
    book, files = RULEBOOKS.get(game, (N_("Rulebook"), ""))
    section = section_for(rule_id)
    if section is None:
        return Message.of(N_("{book} ({files})"), book=Message.of(book), files=files)
    return Message.of(
        N_("{book} · {section} ({files})"), book=Message.of(book), section=Message.of(section), files=files
    )


def rule_title(rule_id: str) -> str | None:
    """The engine's short title (a msgid) for a rule id, when that game's engine is installed."""
    from ..errors import CompanionError
    from ..games import registry

    game = rule_id.split(".")[0]
    try:
        spec = registry.get(game)
    except (CompanionError, ImportError, KeyError):
        return None
    info = spec.rule(rule_id)
    return info.title if info is not None else None
