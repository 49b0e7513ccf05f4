"""`companion bench vision --in-play`: each board is read after the still scenes of its build, the
observer given its own reading of the scene before."""

from __future__ import annotations

from companion.benchmarking import vision
from companion.vision.observers.babylon_garden import GardenObserver


def test_in_play_reads_the_build_then_the_board_each_with_the_reading_before(monkeypatch):
    calls = []
    real = GardenObserver.observe

    def recording(self, image, frame_index=0, timestamp=0.0, previous=None):
        out = real(self, image, frame_index, timestamp, previous=previous)
        calls.append((previous, out))
        return out

    monkeypatch.setattr(GardenObserver, "observe", recording)
    history = vision.bench_history("babylon.garden", 0, 0)
    result = vision.accuracy("babylon.garden", 1, seed=0, in_play=True)
    assert result["mode"] == "in play" and result["frames"] == 1
    assert len(history) == 9 and len(calls) == 10
    assert calls[0][0] is None
    assert all(calls[k][0] is calls[k - 1][1] for k in range(1, 10))  # its own readings, in order
    # the scored frame is the single-frame bench's board: the last scene of the build
    layout, _ = vision.bench_scene("babylon.garden", 0, 0)
    last_before, _ = history[-1]
    assert len(last_before.tiles) + len(last_before.pillars) < len(layout.tiles) + len(layout.pillars)


def test_a_board_without_a_modelled_build_reads_as_a_single_frame():
    assert vision.bench_history("babel", 0, 0) == []
    cold = vision.accuracy("babel", 2, seed=0)
    in_play = vision.accuracy("babel", 2, seed=0, in_play=True)
    for key in ("cell_error_rate", "boards_exact", "confusion", "hidden_wrong"):
        assert cold[key] == in_play[key]
