"""Set-up calculator against the rulebook's tables (§4) — babel.setup.*, babel.round.appoint."""

import pytest

from companion.errors import CompanionError
from companion.games import get
from companion.games.babel import moves as mv
from companion.games.babel.setup import architects_per_round, setup_for

from .helpers import building, game, rejected

# players: (architects, fanatics possible, punishment cards, seal cards) — the rulebook's two tables
TABLE = {
    5: (4, 1, 1, 3),
    6: (5, 2, 2, 5),
    7: (6, 2, 2, 5),
    8: (7, 3, 3, 7),
    9: (8, 3, 3, 7),
    10: (9, 4, 4, 9),
}


@pytest.mark.parametrize("players", sorted(TABLE))
def test_roles_and_special_cards_follow_the_tables(players):
    setup = setup_for(players)
    architects, fanatics, punishment, seals = TABLE[players]
    assert (setup.messengers, setup.architects) == (1, architects)
    assert setup.max_fanatics == fanatics
    assert (setup.punishment_cards, setup.seal_cards) == (punishment, seals)
    assert (setup.lightning_cards, setup.storm_cards, setup.deliberation_cards) == (5, 5, 4)


@pytest.mark.parametrize("players", [4, 11, 0])
def test_player_counts_outside_5_to_10_are_refused(players):
    with pytest.raises(ValueError, match="5 to 10 players"):
        setup_for(players)
    with pytest.raises(ValueError):
        game(players)
    with pytest.raises(CompanionError, match="cannot start Babel Builders: .*5 to 10 players"):
        get("babel").new_game(tuple(f"P{i}" for i in range(players)))


def test_deck_for_five_players():
    # 39 instructions + 5 lightning + 5 storm + 4 deliberation + 3 seals = 56; 5×3−1 = 14 dealt
    # with 1 punishment card; no punishment cards left to put on top.
    setup = setup_for(5)
    assert setup.deck_before_dealing == 56
    assert setup.dealt_from_deck == 14
    assert setup.punishment_on_top == 0
    assert setup.deck_after_setup == 42
    assert len(setup.steps()) == 2
    assert game(5).deck == 42


def test_deck_for_ten_players_puts_punishment_back_on_top():
    # 39 + 14 + 9 seals = 62; 29 dealt; the other 3 punishment cards go back into the deck's top.
    setup = setup_for(10)
    assert setup.dealt_from_deck == 29
    assert setup.punishment_on_top == 3
    assert setup.deck_after_setup == 62 - 29 + 3
    steps = setup.steps()
    assert len(steps) == 3
    assert "20" in steps[2].render() and "3" in steps[2].render()


@pytest.mark.parametrize(("players", "count"), [(5, 3), (6, 3), (7, 4), (10, 4)])
def test_three_architects_up_to_six_players_then_four(players, count):
    assert architects_per_round(players) == count
    state = game(players)
    assert state.check(mv.Appoint(tuple(range(1, count + 1)))).accepted


def test_appointing_the_wrong_number_or_the_master_is_refused():
    state = game(7)
    assert rejected(state, mv.Appoint((1, 2, 3))) == ("babel.round.appoint",)
    assert "babel.round.appoint" in rejected(state, mv.Appoint((0, 1, 2, 3)))
    assert "babel.round.appoint" in rejected(state, mv.Appoint((1, 1, 2, 3)))
    assert "babel.round.appoint" in rejected(state, mv.Appoint((1, 2, 3, 9)))


def test_fanatics_are_limited_by_the_punishment_cards():
    from dataclasses import replace

    state = replace(building(5), stage="punishment")
    state = state.apply(mv.UsePunishment(1, 0))
    assert "babel.setup.roles" in rejected(state, mv.UsePunishment(2, 0))
    assert rejected(state, mv.UsePunishment(1, 3)) == ("babel.end.complete", "babel.setup.specials")
