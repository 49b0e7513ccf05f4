"""Hints come from the engines' own hint functions, each citing its rule id where the engine gives one."""

import pytest

from companion.games import registry
from companion.ui.fake import DemoState, babylon_scenario
from companion.ui.suggestions import suggestions
from companion.ui.text import render


def test_reclamation_hint_is_the_engines_search_result_with_its_rule():
    state = registry.get("reclamation").new_game(("Aiko", "Ben"))
    found = suggestions(state)
    assert len(found) == 1
    assert found[0].rule_id and found[0].rule_id.startswith("reclamation.")
    assert render(found[0].text, "en").startswith("Move to ")
    assert "に動いてカード" in render(found[0].text, "ja")


@pytest.mark.slow
def test_babylon_build_hints_are_ranked_placements():
    state = babylon_scenario().before
    assert state.phase == "build"
    found = suggestions(state, 3)
    assert 1 <= len(found) <= 3
    assert all(s.rule_id == "babylon.build.support" for s in found)
    assert all(render(s.text, "en").startswith("Tile on ") for s in found)


def test_games_without_a_hint_function_list_legal_moves_with_the_engines_note():
    found = suggestions(DemoState(), 2)
    assert [s.text.msgid for s in found] == ["Place a tile on {cells} at level {level}"] * 2
    assert found[0].details[0].msgid == "The tile rests on 4 pillars at the same height."


def test_no_suggestions_when_the_game_is_over_or_absent():
    assert suggestions(None) == []
    assert suggestions(DemoState(finished=True)) == []
