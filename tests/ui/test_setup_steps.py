"""Set-up wizard counts, checked against the rulebooks' numbers (shared/rules/DIGEST.md)."""

import pytest

from companion.ui.setup_steps import steps_for
from companion.ui.text import render


def texts(game, players, variant="standard", lang="en"):
    return [render(line, lang) for step in steps_for(game, players, variant) for line in step.lines]


def rule_ids(game, players, variant="standard"):
    return [step.rule_id for step in steps_for(game, players, variant)]


@pytest.mark.parametrize(("players", "tokens", "rounds"), [(2, 14, 15), (3, 12, 13), (4, 10, 11)])
def test_babylon_round_tokens_and_rounds(players, tokens, rounds):
    lines = texts("babylon", players)
    assert f"Shuffle the round tokens face down and stack {tokens} of them on the game-end token." in lines
    assert f"The game lasts {rounds} rounds." in lines


@pytest.mark.parametrize(("players", "removed"), [(2, 6), (3, 3)])
def test_babylon_quarry_trim(players, removed):
    assert any(line.startswith(f"Remove {removed} clay tiles") for line in texts("babylon", players))


def test_babylon_four_players_trim_nothing():
    assert "With 4 players no tile is removed from the quarry." in texts("babylon", 4)


def test_babylon_steps_cite_setup_rules():
    assert rule_ids("babylon", 3) == [
        "babylon.setup.quarry", "babylon.setup.quarry_trim", "babylon.setup.board", "babylon.setup.rounds"]


@pytest.mark.parametrize(("variant", "stones", "side"), [("garden", 17, "black"), ("throne", 18, "red")])
def test_reclamation_stones_and_card_side(variant, stones, side):
    lines = texts("reclamation", 2, variant)
    assert f"Each player takes {stones} stones, own face up." in lines
    assert f"Lay out your 4 cards {side} side up." in lines


def test_reclamation_throne_cites_its_own_rules():
    assert "reclamation.throne.setup" in rule_ids("reclamation", 2, "throne")
    assert "reclamation.throne.gardeners" in rule_ids("reclamation", 2, "throne")


@pytest.mark.parametrize(
    ("players", "punishment", "seals", "appointed"),
    [(5, 1, 3, 3), (6, 2, 5, 3), (7, 2, 5, 4), (8, 3, 7, 4), (9, 3, 7, 4), (10, 4, 9, 4)],
)
def test_babel_specials_roles_and_appointments(players, punishment, seals, appointed):
    lines = texts("babel", players)
    assert f"Divine Punishment: {punishment}" in lines
    assert f"Seal: {seals}" in lines
    assert f"1 Messenger of God and {players - 1} Architects." in lines
    assert f"Each round the master appoints {appointed} architects." in lines
    # the deck steps are the Babel engine's own (companion.games.babel.setup.setup_for)
    assert f"Take {players * 3 - 1} cards from the deck, add 1 Divine Punishment card, shuffle and deal 3 to each player." in lines


def test_babel_extra_deck_step_only_from_six_players():
    assert not any("Divine Punishment card into them" in line for line in texts("babel", 5))
    assert ("Take 12 cards from the deck, shuffle the other 1 Divine Punishment card into them and put them "
            "back on top of the deck.") in texts("babel", 6)  # one card: the singular (NP_)


def test_baubylon_field_check_uses_the_engine_on_the_seen_field():
    from companion.games import registry
    from companion.ui.setup_steps import field_check

    state = registry.get("baubylon").new_game(("A", "B"))
    lines = [render(m, "en") for m in field_check(state)]
    assert lines  # either the engine's issues with their fixes, or the all-clear
    assert field_check(None) is None


def test_baubylon_field_check_step():
    assert "baubylon.field" in rule_ids("baubylon", 4)
    assert "baubylon.enter" in rule_ids("baubylon", 4)


@pytest.mark.parametrize(("game", "players"), [("babylon", 5), ("babylon", 1), ("reclamation", 3), ("babel", 4), ("baubylon", 7)])
def test_player_counts_outside_the_box_are_refused(game, players):
    with pytest.raises(ValueError, match=game):
        steps_for(game, players)


def test_steps_read_in_japanese():
    assert "ゲームは 13 ラウンドです。" in texts("babylon", 3, lang="ja")
