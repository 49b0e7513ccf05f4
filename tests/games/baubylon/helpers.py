"""Helpers for Baubylon tests. The example field (companion.games.baubylon.field.example_field):

    heights (pawn heights)       columns A..H, rows 1..8
    row 3:  C3 2  D3 2  E3 2  F3 2  G3 4 (standing)
    row 4:  C4 2  D4 6  E4 6  F4 2            D4–E4: the goal (a lying block on top)
    row 5:  C5 2  D5 4  E5 4  F5 2
    row 6:  C6 2  D6 2  E6 2  F6 2
    start points (table, height 0): B3, C7, G6, G2
"""

from __future__ import annotations

from dataclasses import replace

from companion.games.baubylon.state import BaubylonState, new_game

BLUE, YELLOW, GREEN, RED = "blue", "yellow", "green", "red"


def game(players: int = 3, blockers: tuple[str, ...] | None = (), **kwargs) -> BaubylonState:
    return new_game(tuple(f"P{i + 1}" for i in range(players)), blockers=blockers, **kwargs)


def position(pieces: dict[str, tuple[str, ...]], roll: int | None = None, turn: int = 0, players: int = 3,
             captured: tuple[int, ...] | None = None) -> BaubylonState:
    """The example field with the given stacks (bottom to top), blue (P1) to move by default."""
    state = game(players)
    return replace(
        state,
        stacks=tuple(sorted((s, tuple(p)) for s, p in pieces.items())),
        roll=roll,
        turn=turn,
        captured=captured if captured is not None else (0,) * players,
    )


def rejected(state, move) -> tuple[str, ...]:
    ruling = state.check(move)
    assert not ruling.accepted, f"{move} should be refused"
    for violation in ruling.violations:
        assert violation.message.render()
    return ruling.rule_ids
