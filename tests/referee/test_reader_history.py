"""The live BoardReader gives each region's observer its last reading as history."""

from __future__ import annotations

import numpy as np

from companion.referee.frames import BoardReader
from companion.vision.types import CellReading, Frame, Observation


class RecordingObserver:
    """Reads a 1×1 board whose one cell counts the reads, and keeps the history it was given."""

    def __init__(self, region):
        self.region = region
        self.given = []

    def observe(self, image, frame_index=0, timestamp=0.0, previous=None):
        self.given.append(previous)
        return Observation(self.region, 1, 1, ((CellReading("empty", 0.9, {"read": len(self.given)}),),),
                           frame_index, timestamp)


def _frame(index):
    return Frame(np.zeros((120, 160, 3), np.uint8), float(index), "test", index)


def test_each_read_gets_the_same_regions_last_reading(tmp_path):
    reader = BoardReader("babylon", tmp_path)
    garden, quarry = RecordingObserver("babylon.garden"), RecordingObserver("babylon.quarry")
    reader.observers.update({"babylon.garden": garden, "babylon.quarry": quarry})
    first = reader.read(_frame(1))
    second = reader.read(_frame(2))
    reader.read(_frame(3))
    assert garden.given == [None, first["babylon.garden"], second["babylon.garden"]]
    assert quarry.given == [None, first["babylon.quarry"], second["babylon.quarry"]]
    assert garden.given[2].cell(0, 0).attrs == {"read": 2}



def test_a_new_game_forgets_the_last_ones_readings(tmp_path):
    reader = BoardReader("babylon", tmp_path)
    garden = reader.observers["babylon.garden"] = RecordingObserver("babylon.garden")
    reader.read(_frame(1))
    reader.forget()
    reader.read(_frame(2))
    assert garden.given == [None, None]


def test_the_simulated_table_reads_with_history_too():
    """`companion run` on the simulated table reads through TwinReader: the same history per region."""
    from dataclasses import replace

    import numpy as np

    from companion.demo.twin import TwinReader
    from companion.sim import boards

    reader = TwinReader("baubylon", seed=0)
    recording = RecordingObserver("baubylon")
    reader.eyes["baubylon"] = replace(reader.eyes["baubylon"], observer=recording)
    layout = boards.random_baubylon(np.random.default_rng(0))
    first = reader.observe("baubylon", layout, 1)
    second = reader.observe("baubylon", layout, 2)
    assert recording.given[0] is None
    assert recording.given[1].cell(0, 0).attrs == first.cell(0, 0).attrs == {"read": 1}
    assert reader.history["baubylon"] is second
