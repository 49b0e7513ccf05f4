"""Small helpers to drive a Babel Builders game in tests."""

from __future__ import annotations

from companion.games.babel import moves as mv
from companion.games.babel.state import BabelState, new_game


def game(players: int = 5, **kwargs) -> BabelState:
    return new_game(tuple(f"P{i + 1}" for i in range(players)), **kwargs)


def play(state: BabelState, *moves) -> BabelState:
    for move in moves:
        state = state.apply(move)
    return state


def building(players: int = 5, towers: tuple[int, ...] | None = None, **kwargs) -> BabelState:
    """A game in its building phase, master P1, architects the next ones."""
    from dataclasses import replace

    state = game(players, **kwargs)
    state = state.apply(mv.Appoint(tuple(range(1, state.setup.architects_per_round + 1))))
    return replace(state, towers=towers) if towers is not None else state


def rejected(state: BabelState, move) -> tuple[str, ...]:
    ruling = state.check(move)
    assert not ruling.accepted, f"{move} should be refused"
    for violation in ruling.violations:
        assert violation.message.render()
    return ruling.rule_ids
