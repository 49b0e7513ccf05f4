"""Rules audit against the Japanese rulebook (babel-builders.ja.md): each test quotes the passage it rests on,
and every refusal says how to put it right."""

import json
import random
from dataclasses import replace

import pytest

from companion.errors import CompanionError, FormatError
from companion.games import saves
from companion.games.babel import moves as mv
from companion.games.babel import start
from companion.games.babel.rules import RULES
from companion.games.babel.setup import setup_for
from companion.games.babel.state import BabelState
from companion.games.babel.towers import from_mapping

from .helpers import building, game, play, rejected

RULE_IDS = {info.id for info in RULES}


@pytest.mark.parametrize(("players", "deck"), [(5, 42), (6, 42), (7, 39), (8, 39), (9, 36), (10, 36)])
def test_deck_after_setup_follows_the_rulebook_steps(players, deck):
    # babel.setup.deck: 「神罰カードを除く指示書カードと特殊カード…をよくシャッフルし、山札とします」
    # (39 instructions, 5 Lightning, 5 Storm, 4 Deliberation and the Seals of the table);
    # 「プレイヤー人数 × 3 － 1 枚のカードを山札から取り出し、神罰カード 1 枚を加えて…3 枚ずつ配ります」;
    # 6+: 「プレイヤー人数 × 2 枚…残りの神罰カードと合わせてシャッフルし、山札の上に戻します」.
    setup = setup_for(players)
    seals = {5: 3, 6: 5, 7: 5, 8: 7, 9: 7, 10: 9}[players]
    punishment = {5: 1, 6: 2, 7: 2, 8: 3, 9: 3, 10: 4}[players]
    assert (setup.seal_cards, setup.punishment_cards) == (seals, punishment)
    assert setup.deck_after_setup == deck == 39 + 5 + 5 + 4 + seals - (players * 3 - 1) + (punishment - 1)
    assert game(players).deck == deck


def test_refill_needs_two_cards_per_architect_and_an_exact_deck_is_enough():
    # babel.end.deck: 「山札がなくなった場合（カードを補充できない場合）」 — it is the refill that fails.
    seven = replace(building(7), deck=8)  # 4 architects draw 2 each
    done = play(seven, mv.Instruction("C3", 1), mv.Instruction("C3", 1), mv.Instruction("C3", 1))
    assert done.apply(mv.FinishBuilding()).deck == 0
    short = play(replace(building(7), deck=7), mv.Instruction("C3", 1), mv.Instruction("C3", 1),
                 mv.Instruction("C3", 1))
    assert short.apply(mv.FinishBuilding()).end_rule == "babel.end.deck"


def test_a_completed_tower_wins_before_the_deck_is_looked_at():
    # babel.end.complete comes first in 「終了条件判定フェーズ」: a tower met with an empty deck still wins.
    state = replace(building(towers=from_mapping({"C1": 3, "B2": 7, "A3": 3})), deck=0)
    after = play(state, mv.Instruction("B2", 1), mv.Instruction("C3", 1), mv.FinishBuilding())
    assert after.phase == "seal"


def test_storm_reading_is_a_table_option():
    # babel.round.storm: 「このフェーズに建築は行えなくなります。（つまり、場に出た指示書カードは無駄に
    # なります。）」 — the default wastes the instructions only; "tower" also stops Lightning.
    towers = from_mapping({"B2": 3})
    default = play(building(towers=towers), mv.Storm())
    assert default.apply(mv.Lightning("B2")).towers == from_mapping({"B2": 1})
    tower = play(replace(building(towers=towers), storm_rule="tower"), mv.Storm())
    ruling = tower.check(mv.Lightning("B2"))
    assert ruling.rule_ids == ("babel.round.storm",) and ruling.violations[0].fix is not None
    after = tower.apply(mv.Lightning(None))
    assert after.towers == towers and after.spent[1] == 1  # the card is out of the game all the same
    # Without a Storm, Lightning strikes whatever the reading.
    assert replace(building(towers=towers), storm_rule="tower").apply(mv.Lightning("B2")).towers == \
        from_mapping({"B2": 1})


def test_storm_option_is_saved_chosen_at_start_and_old_saves_load():
    state = replace(building(), storm_rule="tower")
    data = json.loads(json.dumps(saves.state_to_json(state)))
    assert data["state"]["rules"] == {"storm": "tower"}
    assert saves.parse_state(data, "<rt>") == state
    del data["state"]["rules"]
    assert saves.parse_state(data, "<old>").storm_rule == "instructions"
    data["state"]["rules"] = {"storm": "sometimes"}
    with pytest.raises(FormatError, match=r"state\.rules\.storm"):
        saves.parse_state(data, "<bad>")
    assert start(tuple("ABCDE"), cards_file="/nonexistent/babel-cards.json", storm="tower").storm_rule == "tower"
    with pytest.raises(CompanionError, match="storm must be one of"):
        start(tuple("ABCDE"), cards_file="/nonexistent/babel-cards.json", storm="maybe")


def test_every_refusal_cites_a_known_rule_and_says_how_to_fix_it():
    rng = random.Random(3)
    seen = 0
    for players in (5, 7, 10):
        state: BabelState = game(players)
        for _ in range(40):
            if state.is_over and state.messenger is not None:
                break
            for move in state._candidates():
                for violation in state.check(move).violations:
                    seen += 1
                    assert violation.rule_id in RULE_IDS, violation
                    assert violation.message.render() and violation.fix is not None, violation
            for move in (mv.NameMaster(99), mv.Appoint((0, 0, 0)), mv.UseSeal(0, 42), mv.FinishBuilding()):
                for violation in state.check(move).violations:
                    assert violation.rule_id in RULE_IDS and violation.fix is not None, violation
            legal = list(state.legal_moves())
            if not legal:
                break
            state = state.apply(rng.choice(legal))
    assert seen > 500


def test_the_end_of_the_game_says_what_to_do():
    over = play(replace(building(), deck=0), mv.Instruction("C3", 1), mv.Instruction("C3", 1),
                mv.FinishBuilding(), mv.RevealMessenger(2, (4,)))
    assert rejected(over, mv.NameMaster(1)) == ("babel.end.deck",)
    assert over.check(mv.NameMaster(1)).violations[0].fix is not None
