"""The 6×6 board: square names, neighbours and each player's sense of "forward".

Squares are named like chess squares, seen from Flower's seat: files a–f run from Flower's left to
right, ranks 1–6 from Flower's edge (rank 1) to Vine's edge (rank 6). Vine sits opposite, so Vine's
forward is Flower's backward and Vine's right is Flower's left (a card is never turned; its
"forward" points away from its owner). Internally a square is an index 0..35 = (rank-1)*6 + file.
"""

from __future__ import annotations

SIZE = 6
SQUARES = SIZE * SIZE
FILES = "abcdef"
FLOWER, VINE = 0, 1
FACTIONS = ("flower", "vine")

# Forward (rank step) and right (file step) per player.
FORWARD = (1, -1)
RIGHT = (1, -1)

# Each player's gardener starts on the square at their own front right (reclamation.garden.setup).
START_SQUARE = (0 * SIZE + 5, 5 * SIZE + 0)  # f1 for Flower, a6 for Vine


def name(square: int) -> str:
    rank, file = divmod(square, SIZE)
    return f"{FILES[file]}{rank + 1}"


def parse(text: str) -> int | None:
    """The index of a square name like 'c4', or None when it is not a square of this board."""
    if not isinstance(text, str) or len(text) != 2:
        return None
    file = FILES.find(text[0].lower())
    if file < 0 or not text[1].isdigit():
        return None
    rank = int(text[1]) - 1
    if not 0 <= rank < SIZE:
        return None
    return rank * SIZE + file


def coords(square: int) -> tuple[int, int]:
    """(rank index, file index), both 0..5."""
    return divmod(square, SIZE)


def at(rank: int, file: int) -> int | None:
    if 0 <= rank < SIZE and 0 <= file < SIZE:
        return rank * SIZE + file
    return None


def target_square(player: int, origin: int, forward: int, right: int) -> int | None:
    """The square `forward` ahead and `right` to the right of `origin` as `player` sees it, or None
    when it falls off the board (reclamation.garden.reclaim.off_board)."""
    rank, file = coords(origin)
    return at(rank + forward * FORWARD[player], file + right * RIGHT[player])


def neighbours(square: int) -> tuple[int, ...]:
    """The up to 8 squares adjacent to `square`, orthogonally or diagonally."""
    rank, file = coords(square)
    found = []
    for dr in (-1, 0, 1):
        for df in (-1, 0, 1):
            if dr or df:
                other = at(rank + dr, file + df)
                if other is not None:
                    found.append(other)
    return tuple(found)


NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(neighbours(s) for s in range(SQUARES))


def square_at_view(row: int, col: int) -> int:
    """The square at (row, col) of a top-down view with Vine's edge at the top (row 0) and Flower's
    edge at the bottom, as a camera calibrated from Flower's side sees it."""
    return (SIZE - 1 - row) * SIZE + col
