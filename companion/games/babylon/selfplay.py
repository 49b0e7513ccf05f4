"""A seeded random player, for tests, example files, benchmarks and the simulated table.

The faces it "reads" (flowers and icon layouts) are drawn at random here, because a simulated game
needs some; the referee itself never invents a face. Every move it makes goes through
`BabylonState.apply`, so a game it plays is legal by construction or raises.
"""

from __future__ import annotations

import random
from dataclasses import replace

from ..api import Move
from .enumerate import decoration_moves
from .hints import legal_placements
from .model import ICON_COUNT, ICONS, Tile
from .moves import EFFECTS, EndBuild, Reveal, Store, Take
from .state import BabylonState, new_game


def random_icons(rng: random.Random, count: int) -> tuple:
    spaces = rng.sample(range(4), count)
    return tuple(rng.choice(ICONS) if i in spaces else None for i in range(4))


def with_read_start_tiles(state: BabylonState, rng: random.Random) -> BabylonState:
    """Give each unread starting tile a random layout (2 icons; the real layouts are unknown)."""
    seats = tuple(
        replace(seat, slot=replace(seat.slot, icons=random_icons(rng, 2)))
        if seat.slot is not None and seat.slot.icons is None
        else seat
        for seat in state.seats
    )
    return replace(state, seats=seats)


def random_take(state: BabylonState, rng: random.Random) -> Take:
    place = rng.choice(state.quarry.visible_places())
    material = state.quarry.top_material(place)
    assert material is not None
    return Take(place, rng.choice(state.flowers), random_icons(rng, ICON_COUNT[material]))


def choose_move_sequence(state: BabylonState, rng: random.Random, greedy: float = 0.5) -> list[Move]:
    """The moves of one phase step: a whole build, a take, a store, a trim or a reveal."""
    stage = state.stage
    if stage == "trim":
        return [rng.choice(list(state.legal_moves()))]
    if stage == "quarry":
        return [random_take(state, rng)]
    if stage == "reveal":
        return [Reveal(rng.choice(EFFECTS))]
    if stage == "store":
        stores = [m for m in state.legal_moves() if isinstance(m, Store)]
        best = max(m.singles for m in stores)
        return [rng.choice([m for m in stores if m.singles == best])]
    return []  # build: see play_build


def play_build(state: BabylonState, rng: random.Random, greedy: float = 0.5) -> tuple[BabylonState, list[Move]]:
    moves: list[Move] = []
    for _ in range(2):
        if rng.random() < 0.15:
            break
        placements = legal_placements(state)
        if not placements:
            break
        if rng.random() < greedy:
            choice = max(placements, key=lambda p: (p.value, -len(p.pillars), rng.random()))
        else:
            choice = rng.choice(placements)
        for move in choice.moves:
            state = state.apply(move)
            moves.append(move)
        while True:
            decos = list(decoration_moves(state))
            if not decos or rng.random() < 0.2:
                break
            move = rng.choice(decos)
            state = state.apply(move)
            moves.append(move)
    state = state.apply(EndBuild())
    moves.append(EndBuild())
    return state, moves


def play_random_game(
    players: int = 2, seed: int = 0, greedy: float = 0.5, stop_after: int | None = None, **options
) -> tuple[BabylonState, list[Move], BabylonState]:
    """(initial state, moves, final state) of a seeded random legal game; `stop_after` = moves."""
    rng = random.Random(seed)
    names = tuple(f"P{i + 1}" for i in range(players))
    initial = with_read_start_tiles(new_game(names, **options), rng)
    state = initial
    moves: list[Move] = []
    while not state.is_over and (stop_after is None or len(moves) < stop_after):
        if state.stage == "build":
            state, built = play_build(state, rng, greedy)
            moves += built
            continue
        for move in choose_move_sequence(state, rng, greedy):
            state = state.apply(move)
            moves.append(move)
    return initial, moves, state


__all__ = ["Tile", "play_random_game", "random_icons", "random_take", "with_read_start_tiles"]
