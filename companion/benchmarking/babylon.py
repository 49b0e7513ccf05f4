"""Babylon: the time to enumerate every legal tile placement at a mid-game state of a full garden.

Positions come from seeded random legal games (self-play), stopped in the build phase of a turn
late enough that the garden is well filled (about round 8 of 15 or later), with a tile just taken
and the stored tile in hand. Each position is timed several times; wall-clock and CPU time are
both printed because other processes share the CPU. Target: ≤ 50 ms per enumeration.
"""

from __future__ import annotations

import json
import random
import statistics
import time

from ..commands.help_text import PlayerArgumentParser, parse_in_language
from ..games.babylon.hints import legal_placements, suggest
from ..games.babylon.selfplay import choose_move_sequence, play_build, play_random_game
from ..games.babylon.state import BabylonState
from ..i18n import N_

HELP = N_("time to list every legal Babylon tile placement at mid-game (target ≤ 50 ms)")
DESCRIPTION = N_("Babylon: the time to list every legal tile placement at a mid-game state of a well-filled "
                 "garden (seeded self-play games stopped in the build phase, about round 8 of 15 or later). "
                 "Each position is timed several times; wall-clock and CPU time are both printed because "
                 "other processes share the CPU. Target: ≤ 50 ms per enumeration.")


def positions(count: int, seed: int, min_round: int = 8) -> list[BabylonState]:
    """Build-phase states of 2-player self-play games from round `min_round` on."""
    rng = random.Random(seed)
    found: list[BabylonState] = []
    game = 0
    while len(found) < count:
        _, _, state = play_random_game(2, seed=seed * 1000 + game, greedy=0.7, stop_after=0)
        game += 1
        while not state.is_over and len(found) < count:
            if state.stage == "build":
                if state.round >= min_round and rng.random() < 0.5:
                    found.append(state)
                state, _ = play_build(state, rng, 0.7)
                continue
            for move in choose_move_sequence(state, rng):
                state = state.apply(move)
    return found


def run(count: int, repeats: int, seed: int) -> dict:
    states = positions(count, seed)
    wall: list[float] = []
    cpu: list[float] = []
    sizes: list[int] = []
    tiles: list[int] = []
    for state in states:
        for _ in range(repeats):
            w0, c0 = time.perf_counter(), time.process_time()
            found = legal_placements(state)
            wall.append((time.perf_counter() - w0) * 1000)
            cpu.append((time.process_time() - c0) * 1000)
        sizes.append(len(found))
        tiles.append(len(state.me.board.tiles))
    w0 = time.perf_counter()
    for state in states:
        suggest(state, 3)
    suggest_ms = (time.perf_counter() - w0) * 1000 / len(states)
    return {
        "positions": len(states),
        "repeats": repeats,
        "tiles_in_garden_median": statistics.median(tiles),
        "placements_median": statistics.median(sizes),
        "placements_max": max(sizes),
        "wall_ms_median": round(statistics.median(wall), 2),
        "wall_ms_max": round(max(wall), 2),
        "cpu_ms_median": round(statistics.median(cpu), 2),
        "cpu_ms_max": round(max(cpu), 2),
        "suggest_ms_mean": round(suggest_ms, 2),
        "target_ms": 50,
    }


def main(argv: list[str], config=None) -> int:
    parser = PlayerArgumentParser(prog="companion bench babylon", description=DESCRIPTION)
    parser.add_argument("--positions", type=int, default=12, help=N_("mid-game positions to time"))
    parser.add_argument("--repeats", type=int, default=5, help=N_("timings per position"))
    parser.add_argument("--seed", type=int, default=1, help=N_("seed of the self-play games (default 1)"))
    parser.add_argument("--json", action="store_true", help=N_("machine-readable output"))
    args = parse_in_language(parser, argv, config)
    result = run(args.positions, args.repeats, args.seed)
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>24}: {value}")
    return 0
