"""Baubylon: what earlier still frames of the same table tell about what this one cannot see.

A referee never reads a Baubylon table cold: the block field is built before play and does not
change while the pawns move on it (baubylon.field, baubylon.units), so every space's block height
was seen before any pawn stood on it or in front of it. The pawns move every turn, stack
(baubylon.stack) and get knocked off (baubylon.knock, baubylon.quake), so what the frame shows of
them now comes first.

`previous` is the observer's own reading of the last still frame, never the truth. It carries, in
its extras, the field as remembered so far: per space the block height read most surely, with that
reading's confidence in the height alone. A reading with no such memory (the first still frame of a
game, read without history) gives its own heights, each as sure as its cell.

The rules (the current frame wins wherever it reads a space at least UNSURE surely):
- The height's own confidence is the block's (SpaceView.block_sure), no surer than HIDDEN_SURE
  where a taller stand nearer the camera may hide the top (the observer caps the cell so: a hidden
  outline reads as none, which is the table's sign).
- A space whose height the frame reads below UNSURE, where the memory is at least as sure (the
  field seen first stands on a tie), takes the remembered height where the remembered block is
  the higher (while the field is built, blocks are only added). Once play has begun (a pawn read
  on the board at least UNSURE: baubylon.enter, pawns come onto a built field) the field stays, so
  any height the frame reads no surer than the memory takes the remembered one, however clear the
  frame's view (bench baubylon.built seed 1 frame 78: a block seen 8 high read 6 under a stack
  at 0.52).
- A stack on it keeps the top the frame sees (a pawn's top is read well; the block under it is
  half hidden): its pawns are the top less the block, between one and baubylon.stack's five, on a
  block the frame's column allows (every pawn under the top shows below it); otherwise the
  frame's reading stands.
- Once play has begun, a stack top the frame reads where no stack on a surely remembered block
  has it (more than baubylon.stack's five pawns on it, or no higher than the block) is not read
  as it stands. Level with the block's top, it is a lone pawn on the block read a level low (the
  pawn's colour is there); otherwise it was another space's top seen along the same ray, and the
  space is the bare block.
  The space reads as the remembered block with no stack (baubylon.field: the field stays in play).
  A top level with the block's is so read also where the block was remembered unsurely, but at
  least as surely as the frame reads the height under its stack (the field seen first stands).
- A stack read before, none now, whose top a taller stand the frame reads nearer the camera now
  hides, is still there: one turn moves one pawn (baubylon.move), and the frame cannot see it.
- The memory keeps the surer of what it had and what the frame reads (the remembered one on a
  tie). While the field is built, a height read at least UNSURE replaces it; once play has begun
  only a surer one does (the field stays; a new game starts without history).

A reading taken from history says so: its confidence is no higher than the remembered height's,
the frame's own reading of the pawns', or HIDDEN_SURE (the frame reads it otherwise), and the
frame's reading is kept as its first alternative.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from ..types import CellReading, Observation

UNSURE = 0.5  # below this the frame's reading may give way to history (the bench's "sure" bound)
MAX_PAWNS = 5  # baubylon.stack: at most five pawns on one space
HIDDEN_SURE = 0.45  # no surer than this where a taller stand nearer the camera may hide the top
FIELD = "baubylon.field"  # Observation.extras key: the field as remembered, [[height, sure], ...] per space


@dataclass(frozen=True)
class SpaceView:
    """What the current frame's reading rests on, per space (flat, row by row): how sure it is of
    the block height alone and of the pawns alone, and whether a taller stand nearer the camera may
    hide part of the space's top."""

    block_sure: np.ndarray
    pawn_sure: np.ndarray
    hidden: np.ndarray
    # Given a top per space (pawn heights), whether a taller stand the frame reads nearer the
    # camera hides its middle: what the frame cannot see there.
    hides_top: Callable[[np.ndarray], np.ndarray] | None = None
    # Per space, the block heights (pawn heights, `levels`) a stack read there may stand on as the
    # frame sees its column (baubylon.stack: every pawn under the top shows below it).
    allowed: np.ndarray | None = None
    levels: tuple[int, ...] = ()


def remembered_field(previous: Observation) -> tuple[list[int], list[float]]:
    """The block height of every space (row by row) as remembered by `previous`, and how surely
    each was read: its extras' memory, else its own readings (each as sure as its cell: a cell's
    confidence is never above its height's)."""
    memory = previous.extras.get(FIELD)
    if memory is not None and len(memory) == previous.rows * previous.cols:
        return [int(h) for h, _ in memory], [float(s) for _, s in memory]
    cells = [cell for row in previous.cells for cell in row]
    return [int(cell.attrs.get("height", 0)) for cell in cells], [float(cell.confidence) for cell in cells]


def with_history(current: Observation, previous: Observation, view: SpaceView,
                 unsure: float = UNSURE) -> Observation:
    """`current` (the frame's own reading) with the block heights it reads unsurely taken from the
    field remembered by `previous` (see the module's rules), and the memory carried on in extras."""
    if (previous.region, previous.rows, previous.cols) != (current.region, current.rows, current.cols):
        return current  # another board: nothing to remember
    heights, sures = remembered_field(previous)
    cells = [cell for row in current.cells for cell in row]
    block_sure, pawn_sure, hidden = (np.asarray(a).ravel().tolist() for a in (view.block_sure, view.pawn_sure, view.hidden))
    before = [cell for row in previous.cells for cell in row]
    unseen = _stacks_out_of_view(before, cells, view)
    # baubylon.enter: pawns come onto a field already built. Until one is read on the board the
    # field may still be rising (a block added where the table was seen); then it stays.
    playing = any(cell.attrs["pawns"] and sure >= unsure for cell, sure in zip(cells, pawn_sure, strict=True))
    out: list[CellReading] = []
    memory: list[list[float]] = []
    for i, cell in enumerate(cells):
        if unseen[i] and cell.confidence < unsure:
            out.append(_still_there(cell, before[i]))
            memory.append([heights[i], sures[i]])
            continue
        # the frame's height no surer than its cell where a taller stand may hide the top (the
        # observer's own cap): an outline hidden there reads as none, the table's "sure" sign
        height, sure = int(cell.attrs["height"]), min(float(block_sure[i]), HIDDEN_SURE if hidden[i] else 1.0)
        kept = heights[i]
        # in play, a top no stack on a surely remembered block has; or level with a remembered
        # block seen bare at least as surely as the frame reads the height under its stack (two
        # unsure looks: the field seen first stands on a tie, as below)
        if (playing and kept != height and _out_of_reach(cell, kept)
                and (sures[i] >= unsure or (sures[i] >= sure and _level_with(cell, kept)))):
            out.append(_off_the_block(cell, kept, sures[i]))
            memory.append([kept, sures[i]])
            continue
        if kept == height:
            out.append(cell)
            memory.append([height, max(sure, sures[i])])
            continue
        if sure > sures[i] or (not playing and (sure >= unsure or kept < height)):
            # a surer view; while the field is built, a clear one or a block added. In play the
            # field stays (baubylon.field): a height the frame reads less surely than it was
            # seen gives way to the remembered one, clear view or not (the field seen first
            # stands on a tie)
            out.append(cell)
            # in play the field stays (baubylon.field): a surer memory is not replaced by a less
            # sure reading (a new game starts without history: BoardReader.forget)
            memory.append([kept, sures[i]] if playing and sures[i] > sure else [height, sure])
            continue
        if cell.attrs["pawns"] and not _may_stand_on(view, i, kept):
            out.append(cell)  # the frame's column rules the remembered block out under its stack
            memory.append([kept, sures[i]])
            continue
        moved = _on_remembered_block(cell, kept, sures[i], pawn_sure[i], hidden[i])
        out.append(cell if moved is None else moved)
        memory.append([kept, sures[i]])
    rows = tuple(tuple(out[r * current.cols:(r + 1) * current.cols]) for r in range(current.rows))
    return replace(current, cells=rows, extras={**current.extras, FIELD: memory})


def _on_remembered_block(cell: CellReading, height: int, height_sure: float, pawn_sure: float,
                         hidden: bool) -> CellReading | None:
    """The space read on the remembered block `height`: its stack's top as the frame sees it (the
    pawns beneath the top are hidden from above: None), or None where that top would leave no pawn
    or more than a stack can hold."""
    pawns = cell.attrs["pawns"]
    if pawns:
        count = int(cell.attrs["height"]) + len(pawns) - height
        if not 1 <= count <= MAX_PAWNS:
            return None
        pawns = [None] * (count - 1) + [pawns[-1]]
    # no surer than HIDDEN_SURE: the frame reads it otherwise, and a frame read surely wrong once
    # leaves a sure memory (bench seed 3 frame 75: two blocks read as table at 0.96 and 1.00 in
    # the scene before)
    confidence = min(height_sure, pawn_sure, HIDDEN_SURE)
    alternatives = ((cell.label, cell.attrs, cell.confidence), *cell.alternatives)
    return CellReading(cell.label, confidence, {**cell.attrs, "height": height, "pawns": list(pawns)}, alternatives)


def _out_of_reach(cell: CellReading, height: int) -> bool:
    """Whether no stack on a block `height` high has the top the frame reads on the space: it
    would need more pawns than a stack holds (baubylon.stack), or stand no higher than the block."""
    pawns = cell.attrs["pawns"]
    return bool(pawns) and not 1 <= int(cell.attrs["height"]) + len(pawns) - height <= MAX_PAWNS


def _level_with(cell: CellReading, height: int) -> bool:
    """Whether the frame reads a stack on the space whose top is level with a block `height` high."""
    pawns = cell.attrs["pawns"]
    return bool(pawns) and int(cell.attrs["height"]) + len(pawns) == height


def _off_the_block(cell: CellReading, height: int, height_sure: float) -> CellReading:
    """The space as the remembered block, where no stack on it has the top the frame gave it (the
    field does not change in play: baubylon.field; a stack holds five pawns: baubylon.stack).
    A top level with the block's own is a lone pawn on it, read a level low (the pawn's colour
    is there: one pawn, as a pawn on a block is read as pawns on the table); a top higher than
    five pawns reach, or below the block, was another space's seen along the same ray (a pawn of
    its own would stand elsewhere than the frame saw one): no stack. No surer than HIDDEN_SURE."""
    pawns = cell.attrs["pawns"]
    level = int(cell.attrs["height"]) + len(pawns) == height
    confidence = min(height_sure, HIDDEN_SURE)
    alternatives = ((cell.label, cell.attrs, cell.confidence), *cell.alternatives)
    return CellReading(cell.label, confidence, {**cell.attrs, "height": height, "pawns": [pawns[-1]] if level else []},
                       alternatives)


def _stacks_out_of_view(before: list[CellReading], now: list[CellReading], view: SpaceView) -> list[bool]:
    """Per space: a stack read there before, none now, and its top behind a taller stand the frame
    reads nearer the camera (the frame cannot see whether it is still there)."""
    candidates = [bool(b.attrs.get("pawns")) and not n.attrs["pawns"] for b, n in zip(before, now, strict=True)]
    if view.hides_top is None or not any(candidates):
        return [False] * len(now)
    tops = np.array([int(cell.attrs.get("height", 0)) + len(cell.attrs.get("pawns", ())) for cell in before])
    hidden = np.asarray(view.hides_top(tops)).tolist()
    return [c and h for c, h in zip(candidates, hidden, strict=True)]


def _still_there(cell: CellReading, before: CellReading) -> CellReading:
    """The stack read before, on a space the frame cannot see into: pawns move, but one turn moves
    one pawn (baubylon.move), so the stack most likely stands; no surer than a hidden top."""
    confidence = min(before.confidence, HIDDEN_SURE)
    alternatives = ((cell.label, cell.attrs, cell.confidence), *cell.alternatives)
    return CellReading(cell.label, confidence, dict(before.attrs), alternatives)


def _may_stand_on(view: SpaceView, space: int, height: int) -> bool:
    """Whether the frame lets the stack on `space` stand on a block `height` high (True where it
    does not say)."""
    if view.allowed is None or height not in view.levels:
        return view.allowed is None
    return bool(view.allowed[space, view.levels.index(height)])
