"""The recorded games of the demo: companion/demo/games/<game>.json (saves.py record format).

`python -m companion.demo.records [GAME...]` (re)writes them by playing a seeded game through the
engine's legal moves, preferring moves the camera can see so the demo shows building rather than
paperwork. When a stored record no longer loads (an engine changed its move format) the demo plays
a freshly generated game instead and says so.
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass
from pathlib import Path

from ..errors import CompanionError
from ..games import saves
from ..games.api import GameState, Message, Move
from ..games.registry import get
from ..i18n import N_
from ..referee.views import view_for
from ..referee.views.base import GameView

GAMES_DIR = Path(__file__).with_name("games")
DEFAULT_PLAYERS = {"babylon": ("Linda", "John"), "reclamation": ("Flower", "Vine"),
                   "babel": ("Ann", "Ben", "Cy", "Di", "Eve"), "baubylon": ("Ann", "Ben")}
SEEDS = {"reclamation": 11}  # seeds whose random games end in a watchable number of moves
MAX_MOVES = {"babylon": 400, "reclamation": 300, "babel": 60, "baubylon": 60}


@dataclass(frozen=True)
class DemoGame:
    initial: GameState
    moves: tuple[Move, ...]
    source: str | Message  # the file it came from, or "generated (seed N)" in the player's language
    note: Message | None = None  # why it was generated instead of loaded


def record_path(game: str) -> Path:
    return GAMES_DIR / f"{game}.json"


def load_demo(game: str, seed: int = 1) -> DemoGame:
    path = record_path(game)
    if path.exists():
        try:
            record = saves.load(path)
            return DemoGame(record.initial, record.moves, str(path))
        except CompanionError as exc:
            generated = generate(game, seed)
            return DemoGame(generated.initial, generated.moves, generated.source,
                            Message.of(N_("{path} does not load with this engine ({reason}); playing a generated game"),
                                       path=str(path), reason=exc))
    return generate(game, seed)


def generate(game: str, seed: int = 1, view: GameView | None = None, max_moves: int | None = None) -> DemoGame:
    """A seeded game: the engine's own self-play when it has one (it reads faces, e.g. Babylon's
    tile icons, as a camera would), else a random legal move each time, visible ones preferred."""
    if game == "babylon":
        return _babylon(seed)
    spec = get(game)
    view = view or view_for(game)
    players = DEFAULT_PLAYERS.get(game, ("A", "B"))[: spec.max_players]
    state = spec.new_game(players)
    rng = random.Random(seed)
    moves: list[Move] = []
    limit = max_moves or MAX_MOVES.get(game, 200)
    while not state.is_over and len(moves) < limit:
        legal = list(view.legal_candidates(state))
        if not legal:
            break
        shown = view.expected(state)
        visible = [m for m in legal if view.expected(state._apply_legal(m)) != shown]
        pool = visible if visible and (rng.random() < 0.75 or len(visible) == len(legal)) else legal
        move = rng.choice(pool)
        moves.append(move)
        state = state.apply(move)
    return DemoGame(spec.new_game(players), tuple(moves), _generated(seed))


def _babylon(seed: int) -> DemoGame:
    from dataclasses import replace

    from ..games.babylon.selfplay import play_random_game

    initial, moves, _final = play_random_game(players=2, seed=seed)
    names = DEFAULT_PLAYERS["babylon"]
    initial = replace(initial, seats=tuple(replace(s, name=n) for s, n in zip(initial.seats, names, strict=True)))
    return DemoGame(initial, tuple(moves), _generated(seed))


def _generated(seed: int) -> Message:
    return Message.of(N_("generated (seed {seed})"), seed=seed)


def main(argv: list[str] | None = None) -> int:
    games = (argv if argv is not None else sys.argv[1:]) or ["babylon", "reclamation", "babel", "baubylon"]
    for game in games:
        try:
            demo = generate(game, SEEDS.get(game, 1))
        except (CompanionError, ModuleNotFoundError, NotImplementedError) as exc:
            print(f"{game}: skipped ({exc})")
            continue
        final = demo.initial
        for move in demo.moves:
            final = final.apply(move)
        saves.write_json_atomic(record_path(game), saves.record_to_json(demo.initial, demo.moves))
        print(f"{game}: {len(demo.moves)} moves, over={final.is_over}, totals={final.score_sheet().totals()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
