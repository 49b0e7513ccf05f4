"""Every rule id of DIGEST.md §4 with one move it accepts and one it refuses citing that id.
baubylon.units and baubylon.field are about the field, not moves: their refusals are field errors
and field-check issues (test_field.py, test_saves.py)."""

import pytest

from companion.games import get
from companion.games.baubylon import moves as mv

from .helpers import BLUE, GREEN, RED, YELLOW, position

SPEC = get("baubylon")

CASES = {
    "baubylon.move": (position({"C3": (BLUE,)}, roll=4), mv.Step("C3", ("C4", "C5", "C6", "D6")),
                      mv.Step("C3", ("C4",))),
    "baubylon.enter": (position({}, roll=3), mv.Step("B3", ("C3",)), None),
    "baubylon.stack": (position({"C3": (BLUE,), "D3": (YELLOW,)}, roll=2), mv.Step("C3", ("D3",)), None),
    "baubylon.knock": (position({"C3": (BLUE,), "D3": (YELLOW, GREEN)}, roll=2), mv.Step("C3", ("D3",), ("D3",)),
                       mv.Step("C3", ("C4", "C5"), ("C5",))),
    "baubylon.quake": (position({"C4": (BLUE, YELLOW)}, roll=1), mv.Quake("C4", 0), mv.Quake("C5", 0)),
    "baubylon.goal": (position({"C4": (BLUE,)}, roll=5), mv.Step("C4", ("D4",)), None),
    "baubylon.blocker": (position({"D6": (RED,)}, roll=1), mv.Step("D6", ("C6",)),
                         mv.Step("B3", ("C3",), piece="blocker")),
}
REFUSALS = {
    "baubylon.enter": (position({}, roll=2), mv.Step("B3", ("C3",))),
    "baubylon.stack": (position({"C3": (BLUE, YELLOW)}, roll=1), mv.Step("C3", ("C4",))),
    "baubylon.goal": (position({"C4": (BLUE,)}, roll=5).apply(mv.Step("C4", ("D4",))), mv.Roll(2)),
}


def test_the_table_covers_every_declared_rule():
    declared = {rule.id for rule in SPEC.rules}
    assert declared - set(CASES) == {"baubylon.units", "baubylon.field"}


@pytest.mark.parametrize("rule_id", sorted(CASES))
def test_rule_accepts_and_refuses(rule_id):
    state, good, bad = CASES[rule_id]
    assert state.check(good).accepted, rule_id
    if bad is None:
        state, bad = REFUSALS[rule_id]
    ruling = state.check(bad)
    assert not ruling.accepted and rule_id in ruling.rule_ids, (rule_id, ruling.rule_ids)
