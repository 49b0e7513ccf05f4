"""Child process for the kill -9 test of the rejection memory: through a journaled tracker on the
toy game, the players take back a phantom, dismiss a question and correct a reading; the child
prints "REJECTED <cells>" once all three are done (their events reached the sink), then waits to be
killed."""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from companion.referee.events import AskPlayer, OverrideRecorded  # noqa: E402
from companion.referee.journal import Journal  # noqa: E402
from companion.referee.tracker import Tracker  # noqa: E402
from tests.referee.helpers import grid_obs  # noqa: E402
from tests.referee.toygame import Place, ToyState, ToyView, resolve  # noqa: E402


def main(path: str) -> None:
    tracker = Tracker(ToyState(), ToyView(), journal=Journal(path, resolve=resolve))
    seen: list = []
    tracker.sinks.append(seen.append)
    tracker.observe(grid_obs(["B..", "...", "..."]))
    tracker.observe(grid_obs(["B..", "..W", "..."]))  # a phantom light stone, accepted
    tracker.undo()  # ... and taken back: (1, 2) is rejected
    unsure = grid_obs(["B..", "..W", "..."], unsure={(2, 0): ("W", 0.5, ".", 0.45)})
    for _ in range(3):
        tracker.observe(unsure)
    assert any(isinstance(e, AskPlayer) for e in seen), seen
    tracker.undo()  # the question is dismissed: (2, 0) is rejected
    tracker.observe(grid_obs(["B..", "..W", "W.W"]))  # (2, 2) read and accepted ...
    tracker.correct(Place(0, 2, "W"))  # ... but the stone is at (0, 2): (2, 2) is rejected
    assert sum(isinstance(e, OverrideRecorded) for e in seen) == 3, seen
    cells = sorted(f"{r}{c}" for _, r, c in tracker.rejected.cells)
    print("REJECTED " + " ".join(cells), flush=True)
    time.sleep(120)


if __name__ == "__main__":
    main(sys.argv[1])
