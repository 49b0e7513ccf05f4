"""The optional tile catalogue and the quarry hint."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from companion.errors import FormatError
from companion.games.babylon.catalogue import load_catalogue, parse_catalogue
from companion.games.babylon.hints import quarry_options
from companion.games.babylon.moves import PlacePillar, PlaceTile
from companion.games.babylon.state import new_game

DATA = {
    "format": "table-companion/babylon-tiles",
    "version": 1,
    "start": {"white": ["stairs", None, None, "fountain"]},
    "tiles": [
        {"material": "clay", "flower": "pink", "icons": ["bridge", None, "statue", None]},
        {"material": "clay", "flower": "pink", "icons": ["stairs", "stairs", None, None]},
    ],
}


def test_catalogue_gives_start_tiles_and_candidates(tmp_path):
    path = tmp_path / "tiles.json"
    path.write_text(json.dumps(DATA), encoding="utf-8")
    catalogue = load_catalogue(path)
    state = catalogue.apply_start_tiles(new_game(("A", "B")))
    assert state.seats[0].slot.icons == ("stairs", None, None, "fountain")
    assert state.seats[1].slot.icons is None  # pink's starting tile is not in the file
    assert len(catalogue.candidates("clay", "pink")) == 2
    seen = (None, "bridge", None, None)  # one space read so far, the tile turned a quarter
    assert [f.icons for f in catalogue.candidates("clay", "pink", seen)] == [("bridge", None, "statue", None)]
    assert catalogue.candidates("granite", "pink") == ()
    # A starting tile known from the catalogue can be placed by turn alone.
    build = replace(state, stage="build").with_me(singles=4)
    for cell in ((0, 0), (0, 1), (1, 0), (1, 1)):
        build = build.apply(PlacePillar(cell))
    after = build.apply(PlaceTile("slot", 0, 0, 1, rotation=1))
    assert after.me.board.tiles[0].icons == ("fountain", "stairs", None, None)


@pytest.mark.parametrize(
    ("change", "where"),
    [
        ({"format": "other"}, "format"),
        ({"tiles": [{"material": "clay", "flower": "pink", "icons": ["bridge", None, None, None]}]}, "tiles[0].icons"),
        ({"start": {"white": ["cat", None, None, None]}}, "start.white[0]"),
    ],
)
def test_bad_catalogue_names_the_key(change, where):
    with pytest.raises(FormatError) as info:
        parse_catalogue({**DATA, **change}, "tiles.json")
    assert info.value.where == where


def test_quarry_options_rank_the_visible_tiles():
    state = new_game(("A", "B", "C", "D"))
    options = quarry_options(state)
    assert len(options) == 16
    corner = next(o for o in options if o[0] == (0, 0))
    assert corner == ((0, 0), "clay", 4, 5)  # 2 walls + 2 same-layer edges, +1 for your flower
    assert options[0][2] >= options[-1][2]
