"""Write docs/examples/babylon-*.json from seeded random legal play.

Run from the repository root:  .venv/bin/python -m tests.games.babylon.make_examples
test_examples.py checks that the files in docs/examples are exactly what this produces.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from companion.games import saves
from companion.games.babylon.hints import suggest
from companion.games.babylon.selfplay import choose_move_sequence, play_random_game
from companion.games.babylon.state import BabylonState

EXAMPLES = Path(__file__).resolve().parents[3] / "docs" / "examples"
GAME_SEED = 2026
MIDGAME_MOVES = 120


def midgame() -> BabylonState:
    """A state in the build phase with a tile just taken, about halfway through a game."""
    _, _, state = play_random_game(2, seed=GAME_SEED, stop_after=MIDGAME_MOVES)
    rng = random.Random(GAME_SEED)
    while state.phase != "build":
        for move in choose_move_sequence(state, rng):
            state = state.apply(move)
    return state


def files() -> dict[str, Any]:
    initial, moves, _ = play_random_game(2, seed=GAME_SEED)
    state = midgame()
    best = suggest(state, 1)[0][0]
    move = best.moves[0]
    return {
        "babylon-2p-game.json": saves.record_to_json(initial, moves),
        "babylon-midgame.json": saves.state_to_json(state),
        "babylon-move.json": saves.move_to_json("babylon", move),
    }


def render(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


def main() -> None:
    for name, data in files().items():
        (EXAMPLES / name).write_text(render(data), encoding="utf-8")
        print(f"wrote {EXAMPLES / name}")


if __name__ == "__main__":
    main()
