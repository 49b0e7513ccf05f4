"""Observers shaped to the game in play: the referee tells each region's observer what the game's
state says about the board (GameView.observer_keywords), and the readers (BoardReader at a camera,
TwinReader on the simulated table) build their observers with it. Baubylon's field is built before
play and stays (baubylon.field), so its observer weighs block tops only up to the field's highest
point."""

from __future__ import annotations

import numpy as np
import pytest

from companion.games.baubylon.state import new_game
from companion.referee.frames import NOT_SET_UP, BoardReader
from companion.referee.views import view_for
from companion.sim.baubylon_field import build_field
from companion.vision.observers.dimensions import BAUBYLON

READ_AT_LEAST = BAUBYLON.least_read  # the lowest range a field is read at


def _field_reaching(lowest: int):
    """A built field (the twin's, which passes baubylon.field) whose goal is at least `lowest`."""
    for seed in range(200):
        field = build_field(np.random.default_rng(seed))
        if max(field.heights.values()) >= lowest:
            return field
    raise AssertionError(f"no built field reaches {lowest}")


def test_a_low_field_is_read_up_to_the_range_its_bench_reads():
    state = new_game(("A", "B"))  # the example field: its goal is 6 pawn heights high
    assert max(state.field.heights.values()) < READ_AT_LEAST
    dims = view_for("baubylon").observer_keywords(state)["baubylon"]["dims"]
    assert dims.max_block_height == READ_AT_LEAST


def test_a_tall_field_is_read_up_to_its_goal():
    field = _field_reaching(READ_AT_LEAST + 2)
    tallest = max(field.heights.values())
    dims = view_for("baubylon").observer_keywords(new_game(("A", "B"), field))["baubylon"]["dims"]
    assert dims.max_block_height == tallest  # block tops are every 2 pawn heights: the goal's own


def test_other_games_tell_their_observers_nothing():
    from companion.games.registry import get

    for game in ("babylon", "reclamation", "babel"):
        spec = get(game)
        assert view_for(game).observer_keywords(spec.new_game(tuple(f"P{i}" for i in range(spec.min_players)))) == {}


class _Observer:
    def __init__(self, location, profile, **keywords):
        if keywords.get("fails"):
            raise ValueError("cannot be built so")
        self.location, self.profile, self.keywords = location, profile, keywords


def test_fitting_rebuilds_an_observer_with_the_new_keywords_keeping_its_location_and_profile(tmp_path):
    reader = BoardReader("baubylon", tmp_path)
    reader._build("baubylon", _Observer, "the location", "the profile")
    first = reader.observers["baubylon"]
    assert first.keywords == {}
    reader.fit({"baubylon": {"tallest": 12}})
    rebuilt = reader.observers["baubylon"]
    assert rebuilt is not first
    assert (rebuilt.location, rebuilt.profile, rebuilt.keywords) == ("the location", "the profile", {"tallest": 12})
    reader.fit({"baubylon": {"tallest": 12}})  # the same game again: nothing to rebuild
    assert reader.observers["baubylon"] is rebuilt


def test_keywords_fitted_before_the_first_frame_shape_the_observer_built_then(tmp_path):
    reader = BoardReader("baubylon", tmp_path)
    reader.fit({"baubylon": {"tallest": 10}})
    assert reader.observers == {}  # nothing built before a frame locates the board
    reader._build("baubylon", _Observer, "the location", None)
    assert reader.observers["baubylon"].keywords == {"tallest": 10}


def test_an_observer_that_cannot_be_built_so_is_skipped_with_a_reason(tmp_path):
    reader = BoardReader("baubylon", tmp_path)
    reader._build("baubylon", _Observer, "the location", "the profile")
    reader.fit({"baubylon": {"fails": True}})
    assert "baubylon" not in reader.observers  # not left reading with the old shape
    assert reader.skipped["baubylon"].code == NOT_SET_UP


@pytest.mark.slow
def test_the_simulated_table_reads_a_tall_fields_goal_with_its_observer_fitted():
    from companion.demo.twin import TwinReader
    from companion.sim.baubylon_field import built_baubylon
    from companion.sim.boards import BaubylonLayout

    reader = TwinReader("baubylon", seed=0)
    eye = reader.eye("baubylon")
    profile = eye.observer.profile
    layout = next(lay for lay in (built_baubylon(np.random.default_rng(k)) for k in range(200))
                  if max(lay.field.heights.values()) >= READ_AT_LEAST + 2)
    tallest = max(layout.field.heights.values())
    reader.fit(view_for("baubylon").observer_keywords(new_game(("A", "B"), layout.field)))
    assert eye.observer.profile is profile  # the learnt colours are kept
    assert eye.observer.dims.max_block_height == tallest
    bare = BaubylonLayout(tuple(tuple((h, ()) for h, _ in row) for row in layout.cells))  # the field, no pawn
    observation = reader.observe("baubylon", bare, 1)
    goal = [(r, c) for r, row in enumerate(bare.cells) for c, (h, _) in enumerate(row) if h == tallest]
    assert [observation.cell(r, c).attrs["height"] for r, c in goal] == [tallest] * len(goal)
