"""Rules audit against the Japanese rulebook (baubylon.ja.txt): each test quotes the passage it rests on."""

import json
import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.errors import CompanionError, FormatError
from companion.games import saves
from companion.games.baubylon import moves as mv
from companion.games.baubylon import start
from companion.games.baubylon.field import Block, Field, check_field, steep_steps
from companion.games.baubylon.paths import reaches, trace
from companion.games.baubylon.rules import RULES
from companion.games.baubylon.state import BaubylonState, new_game

from .helpers import BLUE, RED, YELLOW, position, rejected

RULE_IDS = {info.id for info in RULES}


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


def test_every_refusal_cites_a_known_rule_and_says_how_to_fix_it():
    rng = random.Random(5)
    state = new_game(("P1", "P2", "P3"))
    spaces = [s for s in state.field.spaces()]
    seen = 0
    for _ in range(60):
        if state.is_over:
            break
        tries = [mv.Roll(7), mv.Pass(), mv.Quake(rng.choice(spaces), rng.randint(0, 2))]
        legal = list(state.legal_moves())
        for _ in range(15):
            origin = rng.choice(spaces + list(state.field.starts))
            path = tuple(rng.choice(spaces) for _ in range(rng.randint(0, 3)))
            tries.append(mv.Step(origin, path, tuple(p for p in path if rng.random() < 0.2),
                                 rng.choice(("pawn", "blocker"))))
        steps = [m for m in legal if isinstance(m, mv.Step)]
        if steps:
            base = rng.choice(steps)
            tries.append(mv.Step(base.origin, base.path[:-1], (), base.piece))  # one space short
        for move in tries:
            for violation in state.check(move).violations:
                seen += 1
                assert violation.rule_id in RULE_IDS, violation
                assert violation.message.render() and violation.fix is not None, violation
        state = state.apply(rng.choice(legal))
    assert seen > 300


PIECES = (BLUE, YELLOW, RED)


@st.composite
def odd_positions(draw):
    """Crowded example-field positions: tall stacks (up to 5), blockers, any roll, either path rule."""
    field_spaces = [s for s in new_game(("A", "B")).field.spaces() if new_game(("A", "B")).field.is_field(s)]
    chosen = draw(st.lists(st.sampled_from(field_spaces), min_size=1, max_size=6, unique=True))
    stacks = {}
    counts = {BLUE: 0, YELLOW: 0, RED: 0}
    for space in chosen:
        pieces = []
        for piece in draw(st.lists(st.sampled_from(PIECES), min_size=1, max_size=5)):
            if counts[piece] < 6:  # 6 pawns of a colour, 6 blockers
                counts[piece] += 1
                pieces.append(piece)
        if pieces:
            stacks[space] = tuple(pieces)
    state = position(stacks, roll=draw(st.integers(1, 6)), players=2)
    return replace(state, path_rule=draw(st.sampled_from(("no_revisit", "one_stroke"))),
                   goal_rule=draw(st.sampled_from(("end", "touch"))))


def brute_force_outcomes(state, origin, piece):
    """Every (end, knocks) a path can give, found by extending paths one space at a time and asking
    trace() (the validator) — independent of reaches() (the generator)."""
    _, level, problems = state.mover(origin, piece)
    if problems or (origin in state.field.starts and state.roll < 3):
        return set()
    stacks = state.stacks_without_mover(origin)
    found = set()

    def extend(path, knocks):
        last = path[-1] if path else origin
        for space in state.field.neighbours(last):
            for knock in (False, True) if len(stacks.get(space, ())) >= 2 else (False,):
                new_path, new_knocks = (*path, space), (*knocks, space) if knock else knocks
                if knock and space in knocks:
                    continue
                cost, bad = trace(state.field, stacks, origin, level, new_path, new_knocks, state.path_rule)
                # Back at the origin is wrong only for a whole move: a longer path may go on from there.
                if bad and not (len(bad) == 1 and "ends where it began" in bad[0].message.render()):
                    continue
                if cost > state.roll:
                    continue
                if cost == state.roll:
                    if space != origin:  # a move never ends where it began (baubylon.move)
                        found.add((space, tuple(sorted(new_knocks))))
                else:
                    extend(new_path, new_knocks)

    extend((), ())
    return found


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(odd_positions())
def test_generator_and_validator_agree_on_odd_positions(state):
    origins = [(s, "blocker" if p[-1] == RED else "pawn") for s, p in state.stacks if p[-1] in (BLUE, RED)]
    origins += [(s, "pawn") for s in state.field.starts[:1]]
    for origin, piece in origins:
        _, level, problems = state.mover(origin, piece)
        generated = set()
        if not problems and not (origin in state.field.starts and state.roll < 3):
            for reach in reaches(state.field, state.stacks_without_mover(origin), origin, level, state.roll,
                                 state.path_rule):
                generated.add((reach.end, tuple(sorted(reach.knocks))))
                move = mv.Step(origin, reach.path, reach.knocks, piece)
                assert state.check(move).accepted, (move, state.check(move).rule_ids)
                after = state.apply(move)
                assert after.problems() == []
                assert all(len(p) <= 5 for _, p in after.stacks)
        assert generated == brute_force_outcomes(state, origin, piece)
    assert state.check(mv.Pass()).accepted == (next(state.legal_steps(), None) is None)
