"""A reading the players rejected is remembered per cell: it does not come back at every look, and
a real change (or a move explaining the cell) still gets through at once."""

from __future__ import annotations

from companion.referee.events import AskPlayer, MoveAccepted, ViolationFound
from companion.referee.rejections import MAX_REMEMBERED, RejectedReadings
from companion.referee.tracker import Tracker
from companion.vision.types import CellReading, Observation

from .helpers import grid_obs
from .toygame import Place, ToyState, ToyView


def accepted(events) -> list:
    return [e.ruling.move for e in events if isinstance(e, MoveAccepted)]


def test_a_phantom_taken_back_is_not_accepted_again_while_the_cell_reads_the_same():
    tracker = Tracker(ToyState(), ToyView())
    assert accepted(tracker.observe(grid_obs(["B..", "...", "..."]))) == [Place(0, 0, "B")]
    misread = grid_obs(["B..", "..W", "..."])  # a light stone read surely where there is none
    assert accepted(tracker.observe(misread)) == [Place(1, 2, "W")]
    tracker.undo()  # nobody made it
    for _ in range(3):  # the camera keeps misreading the cell the same way
        assert tracker.observe(misread) == []
    assert tracker.moves == [Place(0, 0, "B")]
    assert not tracker.wants_another_look  # looking again would show the same misread


def test_a_real_move_elsewhere_gets_through_at_once_despite_the_remembered_misread():
    tracker = Tracker(ToyState(), ToyView())
    tracker.observe(grid_obs(["B..", "...", "..."]))
    tracker.observe(grid_obs(["B..", "..W", "..."]))
    tracker.undo()
    # the light player really plays c0 of the bottom row; the misread on the right stays
    events = tracker.observe(grid_obs(["B..", "..W", "W.."]))
    assert accepted(events) == [Place(2, 0, "W")]  # alone, not chained with the phantom


def test_when_the_cell_s_picture_changes_it_is_read_again():
    tracker = Tracker(ToyState(), ToyView())
    tracker.observe(grid_obs(["B..", "...", "..."]))
    tracker.observe(grid_obs(["B..", "..W", "..."]))
    tracker.undo()
    tracker.observe(grid_obs(["B..", "...", "..."]))  # the misread went away: forgotten
    assert tracker.rejected.cells == {}
    assert accepted(tracker.observe(grid_obs(["B..", "..W", "..."]))) == [Place(1, 2, "W")]


def test_a_misread_that_alternates_stays_rejected_until_the_cell_shows_the_game_again():
    tracker = Tracker(ToyState(), ToyView())
    tracker.observe(grid_obs(["B..", "...", "..."]))
    tracker.observe(grid_obs(["B..", "..W", "..."]))
    tracker.undo()
    unsure_black = grid_obs(["B..", "...", "..."], unsure={(1, 2): ("B", 0.5, "W", 0.3)})
    tracker.observe(unsure_black)  # another picture: read as usual (nothing legal fits it)
    assert ("grid", 1, 2) in tracker.rejected.cells
    assert tracker.observe(grid_obs(["B..", "..W", "..."])) == []  # the rejected picture again
    assert tracker.moves == [Place(0, 0, "B")]
    tracker.observe(grid_obs(["B..", "...", "..."]))  # surely as the game is: the misread is gone
    assert ("grid", 1, 2) not in tracker.rejected.cells


def test_a_move_that_explains_the_cell_forgets_the_rejection():
    tracker = Tracker(ToyState(), ToyView())
    tracker.observe(grid_obs(["B..", "...", "..."]))
    tracker.observe(grid_obs(["B..", "..W", "..."]))
    tracker.undo()
    assert ("grid", 1, 2) in tracker.rejected.cells
    tracker.play(Place(1, 2, "W"))  # a player enters it: it was real after all
    assert ("grid", 1, 2) not in tracker.rejected.cells


def test_a_dismissed_question_is_not_asked_again_at_the_next_look():
    tracker = Tracker(ToyState(), ToyView())
    unsure = grid_obs(["...", "...", "..."], unsure={(1, 1): ("B", 0.5, ".", 0.45)})
    events = []
    for _ in range(3):
        events += tracker.observe(unsure)
    asks = [e for e in events if isinstance(e, AskPlayer)]
    assert len(asks) == 1 and asks[0].candidates == (Place(1, 1, "B"),)
    tracker.undo()  # the players dismiss it: nothing was played
    events = [e for _ in range(3) for e in tracker.observe(unsure)]
    assert events == [] and tracker.moves == []


def test_a_dismissed_violation_is_not_called_again_on_the_same_reading():
    tracker = Tracker(ToyState(), ToyView())
    tracker.observe(grid_obs(["B..", "...", "..."]))
    tracker.observe(grid_obs(["B..", "...", "..W"]))
    illegal = grid_obs(["BB.", "...", "..W"])  # toy.apart, read surely (but a misread, say the players)
    tracker.observe(illegal)
    assert any(isinstance(e, ViolationFound) for e in tracker.observe(illegal))
    tracker.undo()  # dismissed
    assert [e for _ in range(3) for e in tracker.observe(illegal)] == []


def test_a_correction_remembers_the_cells_only_the_camera_s_reading_changed():
    tracker = Tracker(ToyState(), ToyView())
    tracker.observe(grid_obs(["B..", "...", "..."]))
    tracker.correct(Place(0, 2, "B"))  # the camera read the wrong cell
    assert set(tracker.rejected.cells) == {("grid", 0, 0)}
    assert tracker.observe(grid_obs(["B.B", "...", "..."])) == []  # (0,0) misread again: no ruling


def test_the_memory_is_bounded_and_oldest_first():
    memory = RejectedReadings()
    n = MAX_REMEMBERED + 5
    cells = tuple(tuple(CellReading("x", 0.9) for _ in range(n)) for _ in range(1))
    latest = {"r": Observation("r", 1, n, cells)}
    memory.remember([("r", 0, c) for c in range(n)], latest)
    assert len(memory.cells) == MAX_REMEMBERED
    assert ("r", 0, 0) not in memory.cells and ("r", 0, n - 1) in memory.cells
    masked, where = memory.mask(latest)
    assert len(where) == MAX_REMEMBERED and masked["r"].cell(0, n - 1).confidence == 0.0
    assert masked["r"].cell(0, 0).label == "x"  # forgotten cells read as they are
