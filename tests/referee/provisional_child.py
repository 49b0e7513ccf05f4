"""Child process for the kill -9 test of an open provisional choice: referees the first moves of a
seeded Babylon game through a journaled tracker, prints "OPEN <at>" once the flower of the take at
move index `at` is accepted provisionally, then waits to be killed."""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from companion.games.babylon.selfplay import play_random_game  # noqa: E402
from companion.referee.journal import Journal  # noqa: E402
from companion.referee.tracker import Tracker  # noqa: E402
from companion.referee.views.babylon import BabylonView  # noqa: E402
from tests.referee.test_provisional import _feed  # noqa: E402


def main(path: str, upto: int) -> None:
    initial, moves, _ = play_random_game(players=2, seed=3)
    view = BabylonView()
    tracker = Tracker(initial, view, journal=Journal(path))
    _feed(tracker, view, initial, moves[:upto], [])
    print("OPEN " + " ".join(str(p.at) for p in tracker.provisionals), flush=True)
    time.sleep(120)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
