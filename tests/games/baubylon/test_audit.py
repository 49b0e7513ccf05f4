"""Rules audit against the Japanese rulebook (baubylon.ja.txt): each test quotes the passage it rests on."""

import json
from dataclasses import replace

import pytest

from companion.errors import CompanionError, FormatError
from companion.games import saves
from companion.games.baubylon import moves as mv
from companion.games.baubylon import start
from companion.games.baubylon.field import Block, Field, check_field, steep_steps
from companion.games.baubylon.state import BaubylonState, new_game

from .helpers import BLUE, RED, YELLOW, position, rejected


def test_a_step_needing_six_is_allowed_when_another_way_leads_up():
    # baubylon.field: 「6マス分以上で登らなければ到達出来ないような道のりは作らないよう注意してください。
    # 作り直すか、それ以下で登れる道を増やしてください。」 A way around is one of the two remedies.
    field = Field.build(4, 6, (
        Block("B2", "lying", "east"), Block("D2", "standing"), Block("D2", "standing"),  # C2 2 → D2 8: needs 7
        Block("B3", "lying", "east"), Block("D3", "standing"),  # C3 2 → D3 4 → D2 8: 3, then 5
    ), ("A2", "A3"))
    assert check_field(field) == ()
    (steep,) = steep_steps(field)
    assert steep.rule_id == "baubylon.field" and steep.where == ("C2", "D2")
    assert steep.fix is not None and "5 or less" in steep.fix.render()
    new_game(("A", "B"), field=field)  # a game starts on it


def test_every_field_issue_says_how_to_fix_it():
    bad = Field.build(3, 5, (Block("B2", "standing"), Block("D2", "standing")), ("B2",))
    issues = check_field(bad)
    assert issues and all(v.rule_id == "baubylon.field" and v.fix is not None for v in issues)


def test_earthquake_is_for_a_pawn_pinned_by_other_players():
    # baubylon.quake: 「自分の駒が他のプレイヤーによってスタックされて身動きが取れない場合」.
    own = position({"C4": (BLUE, BLUE)}, roll=1)
    ruling = own.check(mv.Quake("C4", 0))
    assert ruling.rule_ids == ("baubylon.quake",) and ruling.violations[0].fix is not None
    assert not any(isinstance(m, mv.Quake) for m in own.legal_moves())
    mixed = position({"C4": (BLUE, BLUE, YELLOW)}, roll=1)
    assert mixed.check(mv.Quake("C4", 0)).accepted and mixed.check(mv.Quake("C4", 1)).accepted
    after = mixed.apply(mv.Quake("C4", 0))  # every piece above leaves, the player's own pawn too
    assert after.stack("C4") == (BLUE,) and after.supply(0) == 5 and after.supply(1) == 6
    assert position({"C4": (BLUE, RED)}, roll=1).check(mv.Quake("C4", 0)).accepted  # a blocker pins too


def open_ground(path_rule: str) -> BaubylonState:
    """A flat 3×3 area (B2–D4 but D4), a standing goal at D4; blue on C3."""
    field = Field.build(5, 5, (
        Block("B2", "lying", "east"), Block("B3", "lying", "east"), Block("B4", "lying", "east"),
        Block("D2", "lying", "south"), Block("D4", "standing"),
    ), ("A3",))
    state = new_game(("P1", "P2"), field=field, blockers=(), path_rule=path_rule)
    return replace(state, stacks=(("C3", (BLUE,)),), roll=5)


def test_one_stroke_paths_may_cross_themselves_but_never_retrace_a_step():
    # The translation: 「行って戻って、といった足踏み移動手段は取れないと思われます。ただし一筆書きのような
    # 移動方法なら多分問題ない」 — an option; the default keeps "never the same space twice".
    loop = mv.Step("C3", ("C2", "B2", "B3", "C3", "C4"))
    assert rejected(open_ground("no_revisit"), loop) == ("baubylon.move",)
    stroke = open_ground("one_stroke")
    assert stroke.check(loop).accepted
    assert stroke.apply(loop).stack("C4") == (BLUE,)
    assert "C4" in stroke.where_can_it_go("C3")
    back = replace(stroke, roll=3)
    assert rejected(back, mv.Step("C3", ("C2", "C3", "C4"))) == ("baubylon.move",)  # C3–C2 walked twice
    home = replace(stroke, roll=4)
    assert rejected(home, mv.Step("C3", ("C2", "B2", "B3", "C3"))) == ("baubylon.move",)  # ends where it began
    assert "C3" not in home.where_can_it_go("C3")
    assert all(stroke.check(m).accepted for m in stroke.legal_moves())


def corridor_state(goal_rule: str) -> BaubylonState:
    corridor = Field.build(1, 7, (Block("B1", "lying", "east"), Block("D1", "standing"),
                                  Block("E1", "lying", "east")), ("A1", "G1"))
    state = new_game(("P1", "P2"), field=corridor, blockers=(), goal_rule=goal_rule)
    return replace(state, stacks=(("C1", (BLUE,)),), roll=6)


def test_touching_the_goal_wins_when_the_table_reads_it_so():
    # baubylon.goal: 「最も高いポイントに駒が到達出来た時点でゲームは終了」 — "end" (default) or "touch".
    over = mv.Step("C1", ("D1", "E1"))
    assert not corridor_state("end").apply(over).is_over
    touch = corridor_state("touch")
    ruling = touch.check(over)
    assert ruling.accepted and "wins" in ruling.notes[-1].render()
    after = touch.apply(over)
    assert after.winners == (0,) and after.stack("D1") == (BLUE,) and after.stack("E1") == ()
    # The whole roll is still used: a 3 that stops on the goal wins, a 4 cannot stop there.
    assert replace(touch, roll=3).apply(mv.Step("C1", ("D1",))).is_over
    assert rejected(replace(touch, roll=4), mv.Step("C1", ("D1",))) == ("baubylon.move",)


def test_table_readings_are_saved_and_old_saves_load():
    state = replace(open_ground("one_stroke"), goal_rule="touch")
    data = json.loads(json.dumps(saves.state_to_json(state)))
    assert data["state"]["rules"] == {"path": "one_stroke", "goal": "touch"}
    assert saves.parse_state(data, "<rt>") == state
    del data["state"]["rules"]
    old = saves.parse_state(data, "<old>")
    assert (old.path_rule, old.goal_rule) == ("no_revisit", "end")
    data["state"]["rules"] = {"goal": "nearly"}
    with pytest.raises(FormatError, match=r"state\.rules\.goal"):
        saves.parse_state(data, "<bad>")


def test_start_options_choose_the_readings():
    state = start(("A", "B"), path="one_stroke", goal="touch")
    assert (state.path_rule, state.goal_rule) == ("one_stroke", "touch")
    with pytest.raises(CompanionError, match="goal must be one of end, touch"):
        start(("A", "B"), goal="sometimes")
