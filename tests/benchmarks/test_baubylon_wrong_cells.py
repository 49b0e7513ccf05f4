"""benchmarks/baubylon_wrong_cells.py: how a wrong space is classed, its neighbours, and cached
frames read back instead of rendered again."""

from __future__ import annotations

import importlib
import pickle
import sys
from pathlib import Path

import numpy as np
import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "baubylon_wrong_cells.py"


@pytest.fixture(scope="module")
def script():
    sys.path.insert(0, str(SCRIPT.parent))  # imported by name, as a script's own directory is on the path
    try:
        yield importlib.import_module(SCRIPT.stem)
    finally:
        sys.path.remove(str(SCRIPT.parent))
        sys.modules.pop(SCRIPT.stem, None)


def space(height: int, pawns: int) -> dict:
    return {"height": height, "pawns": [None] * (pawns - 1) + ["red"] if pawns else []}


def test_kinds(script):
    assert script.kind(space(2, 2), space(0, 4)) == "same top"  # a lying block with 2 pawns read as 4 on the table
    assert script.kind(space(6, 0), space(2, 0)) == "h-4"
    assert script.kind(space(2, 5), space(2, 0)) == "p-5"
    assert script.kind(space(0, 0), space(10, 1)) == "h+10 p+1"
    assert script.kind(space(2, 1), {"height": 2, "pawns": ["blue"]}) == "colour"


def test_neighbours_off_the_board_are_the_table(script):
    height = np.arange(9).reshape(3, 3)
    assert script.neighbours(height, 1, 1) == [1, 5, 7, 3]  # north, east, south, west
    assert script.neighbours(height, 0, 0) == [0, 1, 3, 0]


def test_cached_frames_are_read_back(script, tmp_path):
    kept = [script.Frame(0, None, None, None, b"", np.zeros((12, 12)))]
    (tmp_path / "baubylon.built-0-1.pickle").write_bytes(pickle.dumps(kept))
    assert script.frames("baubylon.built", 0, 1, tmp_path)[0].n == 0  # no camera to render with: read back
