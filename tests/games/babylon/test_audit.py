"""Rules audit against the rulebooks (shared/rules/babylon.ja.txt, babylon.zh-TW.txt).

Each test quotes the passage it rests on. Where the rulebooks leave a question open, the engine's
reading is a game option (docs/formats/babylon.md, "Readings of open questions") and both readings
are tested here.
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.errors import CompanionError, FormatError
from companion.games.babylon import SPEC
from companion.games.babylon.building import standing_height
from companion.games.babylon.consistency import problems
from companion.games.babylon.hints import legal_placements
from companion.games.babylon.model import DEFAULT_FLOWERS, ICONS, Decoration
from companion.games.babylon.moves import (
    EFFECTS,
    EndBuild,
    Exchange,
    PlaceDecoration,
    PlacePillar,
    PlaceTile,
    RemovePillar,
    Reveal,
    Store,
    Take,
    Trim,
)
from companion.games.babylon.pieces import READINGS
from companion.games.babylon.quarry import Quarry
from companion.games.babylon.rules import RULES
from companion.games.babylon.selfplay import play_random_game
from companion.games.babylon.state import BabylonState, new_game

from .helpers import building, deco, hold, new_turn, pillars_for, points, put

S, F, B, T = "stairs", "fountain", "bridge", "statue"


def rules(state, move) -> tuple[str, ...]:
    return state.check(move).rule_ids


# ---------------------------------------------------------------- babylon.deco.statue


def test_rulebook_statue_example_third_icon_on_an_earlier_tile():
    """babylon.deco.statue / babylon.deco.when, the rulebook's four-step example as drawn: the 3rd
    icon is on a tile of an earlier round. ja: 「3個目の彫像アイコンは、他の彫像コマの直線上にないの
    で、ここには彫像コマを置けません」… 「しかし、このタイルは今回のラウンドで置いたタイルではない
    ため、やはり3個目の彫像アイコン上にコマは置けません」; zh-TW: 「因為那片板塊是在前一個輪次放置的」."""
    state = put(building(), 2, 4, 1, icons=(None, None, T, None))  # 3rd icon on f4, an earlier tile
    state = new_turn(state)
    state = put(state, 0, 0, 1, icons=(T, None, None, None))  # 1st icon on a1
    state = put(state, 0, 2, 1, icons=(None, T, None, None))  # 2nd icon on d1
    state = put(state, 2, 0, 1, icons=(None, None, None, T))  # 4th icon on a4
    state = deco(state, T, (0, 0))  # 1. the first statue: any statue icon
    state = deco(state, T, (0, 3))  # 2. in line with the first (row 1)
    assert rules(state, PlaceDecoration(T, ((3, 5),))) == ("babylon.deco.statue",)  # 3. in no line
    state = deco(state, T, (3, 0))  # 4. a4: in line with the first (column a)
    # f4 is now in line with the statue on a4 (row 4), but its tile is not of this round.
    assert rules(state, PlaceDecoration(T, ((3, 5),))) == ("babylon.deco.when",)
    assert points(state, "statue") == 3


def test_statue_line_is_row_or_column_by_default_diagonals_by_option():
    """babylon.deco.statue: ja 「すでに置かれている1個以上の彫像コマの（真上から見て）直線上にある彫像
    アイコン」, zh-TW 「必須與先前放置的其中一座雕像形成直線」. Whether a diagonal is a 'straight line'
    is not said; decorations are never placed diagonally (「ナナメに置くことはできません」), so the
    default reading is row or column, and the option with_diagonals admits the board's diagonals."""
    for reading, accepted in (("row_or_column", False), ("with_diagonals", True)):
        state = put(building(statue_line=reading), 0, 0, 1, icons=(T, None, None, None))
        state = put(state, 2, 2, 1, icons=(None, None, T, None))  # statue icon on d4: diagonal to a1
        state = deco(state, T, (0, 0))
        ruling = state.check(PlaceDecoration(T, ((3, 3),)))
        assert ruling.accepted is accepted, reading
        if not accepted:
            assert ruling.rule_ids == ("babylon.deco.statue",)
            assert "(row or column)" in ruling.violations[0].message.render()
        # The hints list the diagonal statue exactly when the checker accepts it.
        fresh = hold(put(building(statue_line=reading), 0, 0, 1, icons=(T, None, None, None)), icons=(None, None, T, None))
        fresh = deco(fresh, T, (0, 0))
        fresh = pillars_for(fresh, 2, 2, 1)
        statues = {
            m.cells
            for p in legal_placements(fresh)
            if (p.row, p.col, p.level, p.rotation) == (2, 2, 1, 0)
            for m, _ in p.decorations
            if m.piece == T
        }
        assert (((3, 3),) in statues) is accepted, reading


def test_statue_off_any_line_is_refused_naming_the_reading():
    state = put(building(statue_line="with_diagonals"), 0, 0, 1, icons=(T, None, None, None))
    state = put(state, 2, 3, 1, icons=(None, None, T, None))  # e4: neither row, column nor diagonal
    state = deco(state, T, (0, 0))
    ruling = state.check(PlaceDecoration(T, ((3, 4),)))
    assert ruling.rule_ids == ("babylon.deco.statue",)
    assert "(row, column or diagonal)" in ruling.violations[0].message.render()


# ---------------------------------------------------------------- babylon.deco.when


def test_decoration_on_a_tile_of_this_round_means_this_turn():
    """babylon.deco.when: ja 「このラウンドで置いたタイル」, zh-TW 「該輪次放置的板塊」 — the word is
    round. A player places tiles only in their own turn, one turn per round, so their tiles placed
    this round are those placed this turn (the round tokens 3 and 4 say turn: 「この手番で置く」)."""
    state = put(building(), 0, 0, 1, icons=(None, F, None, None))
    state = put(state, 0, 2, 1, icons=(F, None, None, None))
    later = new_turn(state)  # the player's next turn is in the next round
    later = put(later, 4, 4, 1)
    ruling = later.check(PlaceDecoration(F, ((0, 1), (0, 2))))
    assert ruling.rule_ids == ("babylon.deco.when",)
    assert "placed this round" in ruling.violations[0].message.render()


# ---------------------------------------------------------------- babylon.build.no_bare_pillar


def test_a_pillar_under_the_open_corner_cites_no_bare_pillar():
    """babylon.build.no_bare_pillar: ja 「すべての柱コマの上には、テラスタイルが置かれていなければなり
    ません」 (a tile on every pillar). A short pillar left under the open corner of a tile on 3
    higher pillars would carry nothing (and could no longer be taken back): refused, citing the rule
    it breaks, with the way to put it right."""
    state = hold(building())
    state = state.apply(PlacePillar((0, 0), "single"))  # top at level 1
    for cell in ((0, 1), (1, 0), (1, 1)):
        state = state.apply(PlacePillar(cell, "double"))  # tops at level 2
    state = put(state, 4, 4, 1)  # a level-1 tile elsewhere, so level 2 is allowed
    state = hold(state)
    ruling = state.check(PlaceTile("new", 0, 0, 2))
    assert ruling.rule_ids == ("babylon.build.no_bare_pillar",)
    assert ruling.violations[0].where == ("a1",)
    assert ruling.violations[0].fix.render() == "Take the pillar on a1 back first, or make it reach the tile."


# ---------------------------------------------------------------- decoration_height


def _fountain_then_pillars(reading: str):
    """A fountain on b2–c2 at level 1; then, next turn, pillars for a level-2 tile on a2–b3 whose
    open corner b2 is over the fountain's end: a single on a2 (level 1), doubles on a3 and b3."""
    state = put(building(decoration_height=reading), 0, 0, 1, icons=(None, None, F, None))  # F on b2
    state = put(state, 0, 2, 1, icons=(None, None, None, F))  # F on c2
    state = deco(state, F, (1, 1), (1, 2))
    state = hold(new_turn(state))
    state = state.apply(PlacePillar((1, 0), "single"))
    return state.apply(PlacePillar((2, 0), "double")).apply(PlacePillar((2, 1), "double"))


@pytest.mark.parametrize(("reading", "accepted"), [("flat", True), ("one_level", False)])
def test_decoration_height_readings_over_a_fountain_end(reading, accepted):
    """The rulebooks let pieces be covered (ja 「完全に覆われているタイルやコマ類からはVPを得ません」)
    but give no heights. flat (default): a tile one level up may pass over a fountain's end, with the
    belvedere above it; one_level: the fountain reaches the next level, so it may not."""
    state = _fountain_then_pillars(reading)
    ruling = state.check(PlaceTile("new", 1, 0, 2))
    assert ruling.accepted is accepted, ruling.rule_ids
    if accepted:
        after = state.apply(PlaceTile("new", 1, 0, 2))
        assert after.me.board.top.at((1, 1)).kind == "belvedere"
        assert points(after, "fountain") == 3  # still seen on c2
    else:
        assert ruling.rule_ids == ("babylon.build.support",)
        assert "one level tall" in ruling.violations[0].message.render()
        assert ruling.violations[0].where == ("b2",)
        assert ruling.violations[0].fix is not None


def test_hints_respect_the_decoration_height_reading():
    for reading in ("flat", "one_level"):
        state = put(building(decoration_height=reading), 0, 0, 1, icons=(None, None, F, None))
        state = put(state, 0, 2, 1, icons=(None, None, None, F))
        state = deco(state, F, (1, 1), (1, 2))
        state = hold(new_turn(state))
        placements = legal_placements(state)
        assert placements
        for placement in placements[:: max(1, len(placements) // 60)]:
            trial = state
            for move in placement.moves:
                assert trial.check(move).accepted, (reading, move.to_json(), trial.check(move).rule_ids)
                trial = trial.apply(move)
        over = [p for p in placements if (p.row, p.col, p.level, p.belvedere) == (1, 0, 2, (1, 1))]
        assert bool(over) is (reading == "flat")


def test_new_readings_default_load_and_round_trip():
    state = new_game(("A", "B"), statue_line="with_diagonals", decoration_height="one_level")
    data = json.loads(json.dumps(state.to_json()))
    assert data["options"]["statue_line"] == "with_diagonals"
    assert data["options"]["decoration_height"] == "one_level"
    assert BabylonState.from_json(data) == state
    # A save written before these readings existed loads with the defaults.
    del data["options"]["statue_line"], data["options"]["decoration_height"]
    old = BabylonState.from_json(data)
    assert (old.options.statue_line, old.options.decoration_height) == ("row_or_column", "flat")
    data["options"]["statue_line"] = "knight"
    with pytest.raises(FormatError, match="options.statue_line"):
        BabylonState.from_json(data)
    with pytest.raises(CompanionError, match="decoration_height"):
        new_game(("A", "B"), decoration_height="tall")
    names = {option.name for option in SPEC.options}
    assert {"bridge_gap", "exact_cover", "statue_line", "decoration_height", "flowers"} <= names


# ---------------------------------------------------------------- quarry and tokens


def test_round_token_flower_double_replaces_the_flower_pillar_only():
    """babylon.round_token 5: ja 「自分が担当する花のテラスタイルを取る場合、サプライから取る1段柱コマ
    は（1個ではなく）2個になります」 — the flower's pillar becomes 2; the edges still count."""
    quarry = Quarry((3, 3, 3, 3) * 4)  # a full quarry: a corner clay tile has 2 walls, 2 same-layer
    assert quarry.reward((0, 0), own_flower=False).pillars == 4
    assert quarry.reward((0, 0), own_flower=True).pillars == 5
    assert quarry.reward((0, 0), own_flower=True, effect="flower_double").pillars == 6
    assert quarry.reward((0, 0), own_flower=True, effect="fewer_pillars").pillars == 4


def test_quarry_wall_and_bottom_edges_of_a_basalt_tile_alone():
    """babylon.quarry.reward: an edge to the wall and an edge to the bottom (「採石場の底(つまりタイル
    がない場所)」) each give a pillar; a basalt tile in a corner with both neighbours empty gives 4."""
    quarry = Quarry((1, 0, 3, 3, 0, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3))
    findings = dict(quarry.edge_findings((0, 0)))
    assert findings == {"top": "wall", "left": "wall", "right": "bottom", "bottom": "bottom"}
    assert quarry.reward((0, 0), own_flower=False).pillars == 4


def test_the_turn_token_applies_to_every_player_of_the_next_round():
    """babylon.round_token: ja 「全員が次の自分の手番に適用します」 — the token turned up after a round
    applies to each player's turn in the next round, not to the player who turned it up only."""
    state = new_game(("A", "B", "C", "D"))  # 4 players: no trim
    for _ in range(4):
        place = state.quarry.visible_places()[0]
        state = state.apply(Take(place, "pink")).apply(EndBuild())
        state = state.apply(Store(min(6, state.me.singles)))

    state = state.apply(Reveal("fewer_pillars"))
    assert state.current_player == 0 and state.round == 2  # the start player does not change
    seen = []
    for _ in range(4):
        place = state.quarry.visible_places()[0]
        plain = state.quarry.reward(place, state.me.flower == "pink").pillars
        before = state.me.singles
        state = state.apply(Take(place, "pink"))
        seen.append(state.me.singles - before == max(0, plain - 1))
        state = state.apply(EndBuild()).apply(Store(min(6, state.me.singles)))
    assert all(seen)


def test_store_is_refused_with_a_fix_for_too_many_pillars():
    state = new_game(("A", "B", "C", "D"))
    state = state.apply(Take((0, 0), "pink")).with_me(singles=8).apply(EndBuild())
    ruling = state.check(Store(7))
    assert ruling.rule_ids == ("babylon.store.pillars",)
    assert ruling.violations[0].fix is not None


def test_exchange_at_any_time_of_the_turn_even_while_storing():
    """babylon.build.exchange: ja 「いつでも、手元の1段柱コマを2個サプライに戻すことで、サプライから
    2段柱コマを1個取れます」 (zh-TW 「你隨時可以」): at any time, so also in the store step — though
    the double then goes back (babylon.store.pillars: doubles are never stored)."""
    state = new_game(("A", "B", "C", "D"))
    state = state.apply(Take((0, 0), "pink")).with_me(singles=4).apply(EndBuild())
    ruling = state.check(Exchange("singles"))
    assert ruling.accepted and "cannot be stored" in ruling.notes[0].render()
    after = state.apply(Exchange("singles"))
    assert (after.me.singles, after.me.doubles) == (2, 1)
    done = after.apply(Store(2))
    assert (done.seats[0].singles, done.seats[0].doubles) == (2, 0)
    assert done.supply.double == 60 and done.current_player == 1
    assert after.check(Exchange("double")).rule_ids == ("babylon.build.exchange",)


# ---------------------------------------------------------------- every ruling reads well


def _random_move(rng):
    cell = (rng.randrange(8), rng.randrange(8))
    kind = rng.randrange(10)
    if kind == 0:
        return Trim((rng.randrange(4), rng.randrange(4)))
    if kind == 1:
        return Take((rng.randrange(4), rng.randrange(4)), rng.choice(DEFAULT_FLOWERS), None, rng.choice([None, 0, 3, 5]))
    if kind == 2:
        return Exchange(rng.choice(["singles", "double"]))
    if kind == 3:
        return PlacePillar(cell, rng.choice(["single", "double"]), rng.choice([None, 0, 1, 2, 3]))
    if kind == 4:
        return RemovePillar(cell)
    if kind == 5:
        icons = rng.choice([None, tuple(rng.choice((None, *ICONS)) for _ in range(4))])
        return PlaceTile(rng.choice(["new", "slot"]), rng.randrange(7), rng.randrange(7), rng.randrange(1, 5), icons, rng.randrange(4))
    if kind == 6:
        piece = rng.choice(ICONS)
        other = (rng.randrange(8), rng.randrange(8))
        return PlaceDecoration(piece, (cell,) if piece == T else (cell, other), rng.choice([None, (cell, rng.choice(ICONS))]))
    if kind == 7:
        return EndBuild()
    if kind == 8:
        return Store(rng.randrange(9), rng.random() < 0.5, rng.random() < 0.5)
    return Reveal(rng.choice(EFFECTS))


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), stop=st.integers(20, 160))
def test_any_move_in_any_reached_position_gets_a_ruling_that_reads_well(seed, stop):
    """Odd positions (mid-game, every reading) and any move, legal or not: the ruling cites a
    declared rule id, its message and fix render with their parameters, and an accepted move keeps
    the position consistent."""
    import random

    rng = random.Random(seed)
    options = {key: rng.choice(values) for key, values in READINGS.items()}
    _, _, state = play_random_game(rng.choice([2, 3, 4]), seed=seed, greedy=rng.random(), stop_after=stop, **options)
    declared = {rule.id for rule in RULES}
    for _ in range(40):
        move = _random_move(rng)
        ruling = state.check(move)
        for violation in ruling.violations:
            assert violation.rule_id in declared
            assert "{" not in violation.message.render()
            if violation.fix is not None:
                assert "{" not in violation.fix.render()
        if ruling.accepted:
            assert problems(state.apply(move)) == []


def test_a_bridge_cannot_trap_a_bare_pillar_in_its_gap():
    """Found by the audit: a bridge over a bare pillar in its gap (reading bridge_level) left a
    pillar that could neither be taken back nor carry a tile, so the build could never end
    (babylon.build.no_bare_pillar 「すべての柱コマの上には、テラスタイルが置かれていなければなりません」)."""
    state = put(building(), 4, 4, 1)
    state = put(state, 0, 0, 2, icons=(None, B, None, None))
    state = put(state, 0, 3, 2, icons=(B, None, None, None))
    trapped = state.apply(PlacePillar((0, 2), "single"))  # top at level 1, in the gap c1
    ruling = trapped.check(PlaceDecoration(B, ((0, 1), (0, 3))))
    assert ruling.rule_ids == ("babylon.build.no_bare_pillar",)
    assert ruling.violations[0].fix.render() == "Take the pillar on c1 back first."
    assert not any(m.piece == B for m in trapped.legal_moves() if isinstance(m, PlaceDecoration))
    freed = trapped.apply(RemovePillar((0, 2)))
    assert freed.check(PlaceDecoration(B, ((0, 1), (0, 3)))).accepted
    # A saved position with the pillar trapped that way is not one legal play reaches.


    board = trapped.me.board.with_decoration(Decoration("bridge99", B, ((0, 1), (0, 2), (0, 3)), (2, 2, 2), 1))
    forged = trapped.with_me(board=board)
    forged = replace(forged, supply=forged.supply.add(B, -1))
    assert any("hidden under other pieces" in p.render("en") for p in problems(forged))


@pytest.mark.parametrize(("reading", "accepted"), [("flat", True), ("one_level", False)])
def test_stairs_rise_to_the_upper_tile_in_the_one_level_reading(reading, accepted):
    """Stairs join tiles one level apart (「高さが1階ぶん違う2枚のタイル」): in the one_level reading
    the piece fills that level, so both its cells reach the upper tile's level; a tile one level
    above the lower end cannot pass over it, the upper end is no higher than its own tile."""
    state = put(building(decoration_height=reading), 1, 0, 1, icons=(None, S, None, None))  # S on b2, level 1
    state = put(state, 1, 2, 2, icons=(S, None, None, None))  # S on c2, level 2
    state = deco(state, S, (1, 1), (1, 2))
    board = state.me.board
    expected = {"flat": (1, 2), "one_level": (2, 2)}[reading]
    assert (standing_height(board, (1, 1), reading), standing_height(board, (1, 2), reading)) == expected
    state = hold(new_turn(state))
    state = state.apply(PlacePillar((0, 0), "double")).apply(PlacePillar((0, 1), "double"))
    state = state.apply(PlacePillar((1, 0), "single"))  # on the level-1 tile: top at 2
    ruling = state.check(PlaceTile("new", 0, 0, 2))  # its open corner b2 over the stairs' lower end
    assert ruling.accepted is accepted, ruling.rule_ids
    if not accepted:
        assert ruling.rule_ids == ("babylon.build.support",) and ruling.violations[0].where == ("b2",)
