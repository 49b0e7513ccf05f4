"""Child process for the kill -9 test: plays the toy game through a journaled tracker, printing
"ACCEPTED <n>" after each MoveAccepted event reached the sink (the moment the LED would light)."""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from companion.referee.events import MoveAccepted  # noqa: E402
from companion.referee.journal import Journal  # noqa: E402
from companion.referee.tracker import Tracker  # noqa: E402
from tests.referee.helpers import grid_obs  # noqa: E402
from tests.referee.toygame import ToyState, ToyView, resolve  # noqa: E402


def main(path: str, seed: int) -> None:
    journal = Journal(path, resolve=resolve)
    game_id = journal.latest_game_id()
    if game_id is None:
        tracker = Tracker(ToyState(), ToyView(), journal=journal)
    else:
        game = journal.load_game(game_id)
        states = [game.initial]
        for move in game.moves:
            states.append(states[-1].apply(move))
        tracker = Tracker(game.initial, ToyView(), journal=journal, game_id=game_id,
                          moves=list(game.moves), states=states)
    print(f"RESUMED {len(tracker.moves)}", flush=True)

    def sink(event):
        if isinstance(event, MoveAccepted):
            print(f"ACCEPTED {event.move_number}", flush=True)

    tracker.sinks.append(sink)
    rng = random.Random(seed)
    while not tracker.state.is_over:
        legal = list(tracker.state.legal_moves())
        move = rng.choice(legal)
        board = list(tracker.state._apply_legal(move).board)
        tracker.observe(grid_obs(["".join(board[i * 3:(i + 1) * 3]) for i in range(3)]))
        time.sleep(rng.uniform(0, 0.01))
    print("DONE", flush=True)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
