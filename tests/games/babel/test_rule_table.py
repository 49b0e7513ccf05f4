"""Every rule id of DIGEST.md §3 with one move it accepts and one it refuses citing that id.

Rules that are data or set-up rather than moves (babel.setup.deck, babel.blueprint) are shown by the
state they lead to; their refusals are file errors (test_cards.py, test_saves.py)."""

from dataclasses import replace

import pytest

from companion.games import get
from companion.games.babel import moves as mv
from companion.games.babel.towers import from_mapping

from .helpers import building, game, play

SPEC = get("babel")


def end_game(stage: str):
    state = replace(building(6, towers=from_mapping({"C1": 3, "B2": 8, "A3": 3})), stage=stage)
    if stage == "messenger":
        state = replace(state, punishment_uses=((2, 1, 1),))
    return state


CASES = {
    "babel.setup.roles": (end_game("messenger"), mv.RevealMessenger(1), mv.RevealMessenger(2)),
    "babel.setup.specials": (building(), mv.SealInBuild(), None),
    "babel.instruction": (building(), mv.Instruction("A2", 2, "2-A"), mv.Instruction("A3", 2, "2-A")),
    "babel.round.appoint": (game(7), mv.Appoint((1, 2, 3, 4)), mv.Appoint((1, 2, 3))),
    "babel.round.play": (play(building(), mv.Storm(), mv.SealInBuild()), mv.FinishBuilding(), None),
    "babel.round.storm": (play(building(), mv.Storm()), mv.Instruction(None, 1), mv.Instruction("A1", 1)),
    "babel.round.instruction": (building(), mv.Instruction("C3", 3), mv.Instruction(None, 3)),
    "babel.round.lightning": (building(towers=from_mapping({"B2": 4, "A1": 2})), mv.Lightning("B2"),
                              mv.Lightning("A1")),
    "babel.round.deliberation": (building(), mv.Deliberation(3), mv.Deliberation(4)),
    "babel.round.seal_in_build": (building(), mv.SealInBuild(), None),
    "babel.round.punishment": (replace(building(10), architects=(1, 2, 3)),
                               mv.ConfirmPunishment("two_received", 3), mv.ConfirmPunishment("two_received", 4)),
    "babel.end.complete": (end_game("seal"), mv.UseSeal(0, 1), mv.UsePunishment(0, 1)),
    "babel.end.deck": (replace(building(), deck=0), mv.Instruction("A1", 1), None),
    "babel.end.punishment": (building(8), mv.ConfirmPunishment("two_received", 2),
                             mv.ConfirmPunishment("two_received", 1)),
}
# Refusals that need a state of their own.
REFUSALS = {
    "babel.setup.specials": (replace(building(), spent=(0, 0, 0, 3)), mv.SealInBuild()),
    "babel.round.play": (play(building(), mv.Instruction("A1", 1)), mv.FinishBuilding()),
    "babel.round.seal_in_build": (game(), mv.SealInBuild()),
    "babel.end.deck": (play(replace(building(), deck=0), mv.Instruction("A1", 1), mv.Instruction("A1", 1),
                            mv.FinishBuilding()), mv.NameMaster(3)),
}


def test_the_table_covers_every_declared_rule():
    declared = {rule.id for rule in SPEC.rules}
    assert declared - set(CASES) == {"babel.setup.deck", "babel.blueprint"}


@pytest.mark.parametrize("rule_id", sorted(CASES))
def test_rule_accepts_and_refuses(rule_id):
    state, good, bad = CASES[rule_id]
    assert state.check(good).accepted, rule_id
    if bad is None:
        state, bad = REFUSALS[rule_id]
    ruling = state.check(bad)
    assert not ruling.accepted and rule_id in ruling.rule_ids, (rule_id, ruling.rule_ids)


def test_setup_deck_and_blueprint_shape_the_state():
    assert game(5).deck == 42 and game(10).deck == 36
    met = play(building(towers=from_mapping({"C1": 3, "B2": 8, "A3": 3})), mv.Instruction("A1", 1),
               mv.Instruction("A1", 1), mv.FinishBuilding())
    short = play(building(towers=from_mapping({"C1": 3, "B2": 7, "A3": 3})), mv.Instruction("A1", 1),
                 mv.Instruction("A1", 1), mv.FinishBuilding())
    assert (met.phase, short.phase) == ("seal", "name_master")
