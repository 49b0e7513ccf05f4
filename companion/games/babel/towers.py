"""The 3×3 base card and its cube towers: the one part of Babel Builders a camera can watch.

Cells are named like the printed card, column letter then row number: A1 … C3. Towers are kept as a
tuple of 9 counts in CELLS order (row 1 left to right, then rows 2 and 3), the same order as a
3×3 camera reading taken row by row.
"""

from __future__ import annotations

from collections.abc import Mapping

COLUMNS = ("A", "B", "C")
ROWS = ("1", "2", "3")
CELLS = tuple(col + row for row in ROWS for col in COLUMNS)  # A1 B1 C1 A2 B2 C2 A3 B3 C3
TOTAL_CUBES = 25  # material blocks in the box

Towers = tuple[int, ...]
EMPTY_TOWERS: Towers = (0,) * len(CELLS)


def cell_index(cell: str) -> int:
    """Index of a cell name in CELLS; ValueError for anything else."""
    return CELLS.index(cell)


def is_cell(name: object) -> bool:
    return isinstance(name, str) and name in CELLS


def add_cubes(towers: Towers, cell: str, cubes: int) -> Towers:
    """Towers with `cubes` added to (or, negative, taken from) one cell, never below zero."""
    i = cell_index(cell)
    values = list(towers)
    values[i] = max(0, values[i] + cubes)
    return tuple(values)


def tallest_cells(towers: Towers) -> tuple[str, ...]:
    """The cells holding the tallest tower (several when equal); none when the base is empty."""
    top = max(towers)
    if top == 0:
        return ()
    return tuple(cell for cell, count in zip(CELLS, towers, strict=True) if count == top)


def as_mapping(towers: Towers) -> dict[str, int]:
    return dict(zip(CELLS, towers, strict=True))


def as_grid(towers: Towers) -> tuple[tuple[int, ...], ...]:
    """Rows 1…3 of columns A…C, as a camera looking at the base card reads them."""
    return tuple(tuple(towers[r * 3 : r * 3 + 3]) for r in range(3))


def from_mapping(counts: Mapping[str, int]) -> Towers:
    """Towers from {cell: count}; cells left out hold 0. ValueError names a bad cell or count."""
    values = [0] * len(CELLS)
    for cell, count in counts.items():
        if not is_cell(cell):
            raise ValueError(f"unknown cell {cell!r}: expected one of {', '.join(CELLS)}")
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise ValueError(f"cell {cell}: expected a cube count ≥ 0, got {count!r}")
        values[cell_index(cell)] = count
    if sum(values) > TOTAL_CUBES:
        raise ValueError(f"{sum(values)} cubes in all: the box holds only {TOTAL_CUBES}")
    return tuple(values)


def from_grid(grid: tuple[tuple[int, ...], ...] | list[list[int]]) -> Towers:
    """Towers from a 3×3 reading (rows 1…3, columns A…C)."""
    if len(grid) != 3 or any(len(row) != 3 for row in grid):
        raise ValueError("expected a 3×3 grid of cube counts (rows 1…3, columns A…C)")
    return from_mapping({COLUMNS[c] + ROWS[r]: grid[r][c] for r in range(3) for c in range(3)})
