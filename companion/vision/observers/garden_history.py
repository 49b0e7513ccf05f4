"""The garden read with what was seen before: a referee reads a still scene after every move, and
what it saw beneath a piece stays beneath it.

Babylon's pieces stay where they are put (`babylon.build.pillars`, `babylon.build.support`,
`babylon.deco.icon`; only `babylon.build.exchange` swaps pillars, and it swaps them in the
supply). A cell's top therefore never goes down: a pillar goes on a recess or a tile space, a tile
on the tops of the pillars beneath it, a decoration on a tile space, each higher than what it
stands on. The memory (Observation.extras[KEY], plain JSON values) keeps, per cell, the readings
the camera once gave clearly (at least SURE), lowest first: a tile's pillars under the tile, the
tile under its decoration.

History only decides what the current frame reads unsurely (below SURE), or surely with no view
of its own: where the frame sees a thing clearly, the frame wins (a piece taken back, a nudged
one) and the memory follows it, unless that sure reading cannot stand on the surface remembered
there (a decoration above it, a pillar whose top is not its height above it, with no tile read
round it at the level it would stand on): it is read, not remembered.
- An unsure top lower than the top remembered, or as high but another reading (the same tile's
  footprint, level, flower or icon; the same pillar's kind), is the remembered top: nothing went
  lower, and nothing new can lie at the same height on it. A tile read on the footprint of the
  tile remembered there is that tile (`babylon.build.no_exact_cover`).
- A pillar or a decoration read no higher than the surface remembered there (the board, a tile
  space) stands on it: its level is taken from it (`babylon.build.pillars`, `babylon.deco.icon`)
  where that surface is in view (garden_history_view.FaceView); out of view, the surface stands.
- A surface remembered (the board, a tile space) read unsurely as itself or lower, where it is
  in view and the frame's alternatives hold a pillar standing on it (a top one or two levels
  above it, fitting at least FITS), is that pillar, put on it since (`babylon.build.pillars`).
- An unsure top higher than the top remembered may be a new piece: the frame's reading stands,
  unless it cannot stand there: a tile space on a surface with its tile shown on none of its
  other spaces (`babylon.build.support`: it lies on pillars, none was seen), a statue, a fountain
  or stairs on the bare board (unless it is in view and a tile laid since at the piece's level is
  read surely round it), a pillar whose top is not its height above the surface with no
  tile read round it at the level it would stand on (where the surface is in view, it stands on
  it: the frame's kind at its height when read one level off it, else a pillar standing on it
  among the alternatives), a decoration above the tile space seen there with no tile read round
  it at its level (taken down to that space when it is in view).
- A pillar or a decoration (not stairs) read unsurely above a pillar remembered there, with no
  tile read round it at the level it would stand on, is that pillar read at another height: a
  pillar's top carries only a tile (`babylon.build.pillars`, `babylon.deco.icon`). A decoration
  at the pillar top's level, or fitted there by the frame too (in view), stands at that level: on
  a tile laid on the pillar since.
- A tile space read unsurely over a decoration remembered there (not a statue, which may serve
  as a pillar), its tile shown on none of its other spaces, is the decoration: nothing goes on
  a decoration (`babylon.deco.icon`).
- A space read surely as another footprint's at the level of the tile remembered there, that
  tile still read surely on another of its spaces, is that tile's space: a tile covers its four
  spaces and stays (`babylon.build.support`); no other tile shares a space with it at its level.
- A sure reading no higher than the top remembered, whose face and the remembered top's are
  both hidden by the neighbours as read (at least HIDDEN: the bench's own line), has no view of
  its own (a taller neighbour's side over a space's middle read as an icon): the top stands. So
  does a surface remembered under a sure, higher reading of a lone tile space (its tile shown on
  none of its other spaces) with no view of its own: a recess behind a tall neighbour read as
  the neighbour's level-1 look-alike (`babylon.build.support`: a tile shows on its spaces).
- A cell read unsurely as stairs on one step, at the level seen there, beside exactly one cell
  read unsurely (as anything but a pair of stairs) whose remembered top is another tile's space
  one level apart, is that pair of
  stairs, on both cells (`babylon.deco.stairs`: one piece over two spaces one level apart).
- A tile whose flower no space of it shows surely keeps the flower read when it did (every space
  carries its tile's dot: one flower per tile; the spaces under a decoration count).
- A new tile read unsurely lies at the level of the pillar tops remembered under 3 or 4 of its
  spaces (`babylon.build.support`).
A reading taken from memory says so: no surer than the reading remembered nor than RECALL_CAP
(below the bench's "confident" 0.8), the frame's own reading kept as its first alternative (the
referee weighs them against the legal moves).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from .. import labels
from ..types import CellReading, Observation
from .garden_history_view import FaceView

KEY = "garden_history"  # Observation.extras: {"cells": 64 lists of (label, attrs, confidence, rank), row by row}
SURE = 0.5  # a reading at least this sure is the camera's clear view of the cell
HIDDEN = 0.4  # a face this hidden by its neighbours has no view of its own (the bench: under 60 % in sight)
RECALL_CAP = 0.75  # a reading from memory is never "confident": the camera did not confirm it now
DEPTH = 6  # readings kept per cell (a cell's stack is rarely deeper: board, pillar, tile, pillar, tile, piece)
STILL_SHOWN = SURE  # a remembered tile read this surely on another of its spaces still lies there (_tile_still_shown)
FITS = 0.05  # an alternative fitting less is not seen there (the single frame's NOTHING_FITS)
PILLARS = (labels.PILLAR1, labels.PILLAR2)
_HEIGHT = {labels.PILLAR1: 1, labels.PILLAR2: 2}  # the levels a pillar adds
DECOS = (labels.STAIRS, labels.FOUNTAIN, labels.BRIDGE, labels.STATUE, labels.BELVEDERE)
GROUNDLESS = (labels.STATUE, labels.FOUNTAIN, labels.STAIRS)  # decorations that never stand over the board
POSITIONS = ((0, 0), (0, 1), (1, 0), (1, 1))  # a tile's spaces from its top-left cell

Record = tuple[str, dict[str, Any], float, float]  # (label, attrs, confidence, rank) as remembered


def rank(label: str, attrs: dict[str, Any]) -> float:
    """How high a top stands in its cell's stack: the board 0, a pillar carrying level L at
    L - 0.5, a tile space at L, a decoration on a level-L space at L + 0.25 (a pair of stairs at
    its higher space: a cell of it may stand that high, so it is never taken for lower than it is)."""
    level = attrs.get("level", 0)
    if isinstance(level, list | tuple):
        level = max(level) if level else 0
    if label == labels.RECESS:
        return 0.0
    if label in PILLARS:
        return level - 0.5
    if label == labels.TILE:
        return float(level)
    return level + 0.25


def footprint(tile_id: str) -> list[tuple[int, int]]:
    """The four cells of the tile whose top-left cell is `tile_id` ("r2c3"), on the board."""
    tr, tc = (int(v) for v in tile_id[1:].split("c"))
    return [(tr + dr, tc + dc) for dr, dc in POSITIONS if 0 <= tr + dr < 8 and 0 <= tc + dc < 8]


class Memory:
    """Per cell the clear readings seen there, lowest first (`stacks[8 * row + col]`), each a
    record (label, attrs, confidence, rank). Records and stacks are never changed in place: a
    reading's memory may share them with the reading before."""

    def __init__(self, stacks: list[list[Record]] | None = None):
        self.stacks: list[list[Record]] = stacks if stacks is not None else [[] for _ in range(64)]

    @classmethod
    def of(cls, observation: Observation) -> Memory:
        """The memory an observation carries; one made of its own clear readings when it carries
        none (a single frame's reading, or a state confirmed elsewhere)."""
        made = observation.extras.get(KEY)
        if isinstance(made, dict) and len(made.get("cells", ())) == 64:
            return cls(list(made["cells"]))
        memory = cls()
        memory.see(observation.cells, [[True] * observation.cols for _ in range(observation.rows)])
        return memory

    def top(self, r: int, c: int) -> Record | None:
        stack = self.stacks[8 * r + c]
        return stack[-1] if stack else None

    def see(self, rows, own: list[list[bool]]) -> None:
        """Remember each clear reading (at least SURE) that is the frame's own view (`own`). A
        reading lower than what was remembered shows that the higher ones are gone (taken back);
        a higher one stands on what was remembered. At the same height the surer reading is kept:
        a top read alike now and then (a footprint one way, then the other) is the one seen best."""
        stacks = self.stacks
        for r, row in enumerate(rows):
            for c, cell in enumerate(row):
                if cell.confidence < SURE or not own[r][c]:
                    continue
                stack = stacks[8 * r + c]
                if stack and stack[-1][0] == cell.label and stack[-1][1] == cell.attrs:
                    if cell.confidence > stack[-1][2]:  # the same top, seen better
                        stacks[8 * r + c] = [*stack[:-1], (*stack[-1][:2], cell.confidence, stack[-1][3])]
                    continue
                height = rank(cell.label, cell.attrs)
                new = (cell.label, cell.attrs, cell.confidence, height)
                kept = [rec for rec in stack if rec[3] < height]
                same = [rec for rec in stack if rec[3] == height]
                if same and same[-1][2] > new[2]:
                    new = same[-1]
                stacks[8 * r + c] = [*kept, new][-DEPTH:]

    def as_extras(self) -> dict[str, Any]:
        return {"cells": self.stacks}


def recalled(record: Record, now: CellReading) -> CellReading:
    """A remembered reading in place of the frame's own (kept as the first alternative)."""
    label, attrs, conf, _ = record
    alternatives = ((now.label, dict(now.attrs), now.confidence), *now.alternatives)[:3]
    return CellReading(label, min(conf, RECALL_CAP), dict(attrs), alternatives)


def with_history(current: Observation, previous: Observation, view: FaceView | None = None) -> Observation:
    """`current` (this frame's own reading) read with what `previous` (the reading of the scene
    before, with the memory it carries) saw: see the module's rules. `view` (the observer's
    geometry) tells which readings have no view of their own. The result carries the updated
    memory."""
    if (previous.region, previous.rows, previous.cols) != (current.region, current.rows, current.cols):
        return current  # another board's reading: nothing seen here before
    memory = Memory.of(previous)
    rows = [list(row) for row in current.cells]
    own = [[True] * 8 for _ in range(8)]
    blind = _blind(current.cells, memory, view)
    for r in range(8):
        for c in range(8):
            now, top = rows[r][c], memory.top(r, c)
            if top is None:
                continue
            if (now.label, now.attrs) == (top[0], top[1]):
                put = _pillar_on_same_space(current.cells, top, r, c, view)
                if put is not None:
                    rows[r][c] = put
                    own[r][c] = False
                continue
            if now.confidence >= SURE:
                if (r, c) in blind or _tile_still_shown(current.cells, top, r, c):
                    rows[r][c] = recalled(top, now)
                    own[r][c] = False
                elif _cannot_stand(current.cells, top, r, c):
                    own[r][c] = False  # the frame's reading stands, but is not remembered
                continue
            settled = _settle(current.cells, memory, r, c, view)
            if settled is not None:
                rows[r][c] = settled
                own[r][c] = False
    _pair_stairs(current.cells, rows, own, memory)
    groups = _tile_groups(rows)
    if _tile_levels(rows, own, memory, groups):
        groups = _tile_groups(rows)
    _tile_flowers(rows, own, memory, groups)
    memory.see(rows, own)
    tiles = sorted({cell.attrs["tile"] for row in rows for cell in row if cell.label == labels.TILE})
    extras = {**current.extras, "tiles": tiles, KEY: memory.as_extras()}
    return replace(current, cells=tuple(tuple(row) for row in rows), extras=extras)


def _blind(rows, memory: Memory, view: FaceView | None) -> set[tuple[int, int]]:
    """The cells read surely, but no higher than the top remembered there and otherwise (or as a
    lone tile space above the surface remembered there: its tile shown on none of its other
    spaces), whose reading has no view of its own: the neighbours as read hide at least HIDDEN of
    its face and of the remembered top's. What fits there is what the neighbours let through (a
    taller one's parallax look-alike), and nothing went lower: the remembered top stands."""
    if view is None:
        return set()
    faces, cells = [], []
    for r, row in enumerate(rows):
        for c, now in enumerate(row):
            top = memory.top(r, c)
            if now.confidence < SURE or top is None or (now.label, now.attrs) == (top[0], top[1]):
                continue
            if rank(now.label, now.attrs) > top[3] and not (
                    now.label == labels.TILE and _surface(top) is not None and _shown_mates(rows, memory, r, c) == 0):
                continue
            faces += [(r, c, now), (r, c, _as_reading(top))]
            cells.append((r, c))
    if not cells:
        return set()
    hidden = view.hidden(rows, faces).reshape(-1, 2)
    return {cell for cell, (mine, remembered) in zip(cells, hidden.tolist(), strict=True)
            if mine >= HIDDEN and remembered >= HIDDEN}


def _as_reading(record: Record) -> CellReading:
    return CellReading(record[0], record[2], record[1])


def _settle(rows, memory: Memory, r: int, c: int, view: FaceView | None = None) -> CellReading | None:
    """The frame's unsure reading of (r, c) read again with the top remembered there (None: the
    frame's reading stands). `rows`: the frame's own readings."""
    now, top = rows[r][c], memory.top(r, c)
    label, attrs, trust, height = top
    base = _surface(top)
    if base is not None and rank(now.label, now.attrs) <= height:
        # The surface seen there, read unsurely as itself (another icon: something covers it) or
        # lower, with a pillar standing on it among the frame's alternatives: where that surface is
        # in view, the pillar put on it since (babylon.build.pillars: a pillar goes on a recess or
        # a tile space; its top one or two levels above it).
        standing = _standing_pillar(now, base, trust)
        if standing is not None and _in_view(rows, r, c, top, view):
            return standing
    if now.label == labels.TILE and label in PILLARS:
        return None  # a tile on the pillar seen there: its level is the whole tile's (_tile_levels)
    if now.label == labels.TILE == label and now.attrs["tile"] == attrs["tile"]:
        return recalled(top, now)  # babylon.build.no_exact_cover: the tile seen there, not one on it
    if (label in DECOS and label != labels.STATUE and now.label == labels.TILE and rank(now.label, now.attrs) > height
            and _shown_mates(rows, memory, r, c) == 0):
        # babylon.deco.icon: nothing goes on a decoration (a statue may serve as a pillar,
        # babylon.build.statue_pillar): a tile space read unsurely over one seen there, its tile
        # shown on none of its other spaces, is not believed; the decoration stands.
        return recalled(top, now)
    if (label in PILLARS and (now.label in PILLARS or (now.label in DECOS and now.label != labels.STAIRS))
            and rank(now.label, now.attrs) > height and not _tile_read_under(rows, r, c, _stands_at(now))):
        # A pillar's top carries only a tile (babylon.build.pillars: pillars go on recesses and
        # tile spaces; babylon.deco.icon: decorations on tile spaces). A pillar or a decoration
        # read unsurely above the pillar seen there, with no tile read round it at the level it
        # would stand on, is the pillar read at another height; unless it is a decoration at the
        # pillar's top's level, or the frame also fits one there and it is in view: a decoration
        # on a tile laid on the pillar since.
        level = attrs["level"]
        if now.label in DECOS:
            if now.attrs["level"] == level:
                return None
            if any(alt[0] == "deco" and alt[1].get("level") == level and alt[2] >= FITS for alt in now.alternatives) \
                    and _in_view(rows, r, c, (now.label, {"level": level}, trust, 0.0), view):
                return _with_attrs(now, {"level": level}, trust)
        return recalled(top, now)
    if rank(now.label, now.attrs) > height:
        # A new piece may stand on what was seen, but not a tile right on a surface (the board
        # or a tile space) unless it shows on its other spaces (`shown_mates`): it lies on
        # pillars (babylon.build.support), none was seen there. Nor a statue, a fountain or
        # stairs on the bare board: they stand on a tile space (babylon.deco.icon); a belvedere
        # may stand over the board (the open space of a tile on 3 pillars) and a bridge's
        # middle spans a gap (babylon.deco.bridge).
        # A pillar's top stands one or two levels (its height) above the surface it stands on:
        # higher, it stands on a tile laid since, which shows round it (babylon.build.pillars).
        if base is not None and now.label == labels.TILE and _shown_mates(rows, memory, r, c) == 0:
            # where the surface is in view, a pillar standing on it that the frame also saw (an
            # alternative, at any fit: a bare pillar's top passes for a higher tile space by
            # parallax, and the tile read there has no support)
            standing = _standing_pillar(now, base, trust, fits=0.0)
            if standing is not None and _in_view(rows, r, c, top, view):
                return standing
            return recalled(top, now)
        if base == 0 and now.label in GROUNDLESS and not (
                _tile_read_under(rows, r, c, _stands_at(now), SURE) and _in_view(rows, r, c, top, view)):
            return recalled(top, now)  # unless in view on a tile laid since, read surely round it
        if (base is not None and now.label in PILLARS and now.attrs["level"] != base + _HEIGHT[now.label]
                and not _tile_read_under(rows, r, c, now.attrs["level"] - _HEIGHT[now.label])):
            # Where that surface is in view, the pillar stands on it: read one level off its
            # height above it (parallax), its kind (its look) is the frame's, its top that height;
            # farther off, a pillar standing on it among the frame's alternatives. Out of view, or
            # with neither, the surface stands.
            if _in_view(rows, r, c, top, view):
                if abs(now.attrs["level"] - base - _HEIGHT[now.label]) <= 1:
                    return _with_attrs(now, {"level": base + _HEIGHT[now.label]}, trust)
                standing = _standing_pillar(now, base, trust)
                if standing is not None:
                    return standing
            return recalled(top, now)
        if (base is not None and base > 0 and now.label in DECOS and now.label != labels.STAIRS
                and not _tile_read_under(rows, r, c, now.attrs["level"])):
            # babylon.deco.icon: a decoration stands on the tile space seen there unless a tile was
            # laid since, which would show round it; where that space is out of view, what is
            # read there is no view of it, and the space stands.
            if view is not None and view.hidden(rows, [(r, c, _as_reading(top))])[0] >= HIDDEN:
                return recalled(top, now)
            return _with_attrs(now, {"level": base}, trust)
        return None
    if base is not None and now.label in PILLARS:
        # babylon.build.pillars: a pillar stands on the recess or tile space seen there; its top is
        # one or two levels above it. Where that surface is out of view, a pillar read no higher
        # than it is no view of it: the surface stands.
        if view is not None and view.hidden(rows, [(r, c, _as_reading(top))])[0] >= HIDDEN:
            return recalled(top, now)
        return _with_attrs(now, {"level": base + _HEIGHT[now.label]}, trust)
    if base is not None and base > 0 and now.label in DECOS:
        # babylon.deco.icon: a decoration stands on the tile space seen there, at its level (a
        # pair of stairs joins two levels: the frame's pair stands).
        return None if now.label == labels.STAIRS else _with_attrs(now, {"level": base}, trust)
    return recalled(top, now)


def _tile_still_shown(rows, top: Record, r: int, c: int) -> bool:
    """Whether (r, c), read as a space of another tile at the level of the tile remembered there
    (`top`), is still that tile's space: the frame reads the remembered tile on another of its
    spaces at least STILL_SHOWN. A tile covers its four spaces and stays where it is put
    (babylon.build.support), and no other tile can share a space with it at its level: the other
    footprint is a misread of its edge (a hidden neighbour's side taken for the tile's other half)."""
    now = rows[r][c]
    if now.label != labels.TILE or top[0] != labels.TILE or now.attrs["level"] != top[1]["level"] \
            or now.attrs["tile"] == top[1]["tile"]:
        return False
    tile_id = top[1]["tile"]
    return any(rows[rr][cc].label == labels.TILE and rows[rr][cc].attrs["tile"] == tile_id
               and rows[rr][cc].attrs["level"] == top[1]["level"] and rows[rr][cc].confidence >= STILL_SHOWN
               for rr, cc in footprint(tile_id) if (rr, cc) != (r, c))


def _cannot_stand(rows, top: Record, r: int, c: int) -> bool:
    """Whether the frame's reading of (r, c) cannot stand on the surface remembered there (`top`):
    a decoration (not stairs) above that surface, or a pillar whose top is not its height above
    it, with no tile read round it at the level it would stand on (a tile laid since)
    (`babylon.deco.icon`, `babylon.build.pillars`). Read surely, the frame's reading stands (a
    clear view wins) but is not remembered: one sure misreading would otherwise hold the cell's
    memory for the rest of the build."""
    now, base = rows[r][c], _surface(top)
    if base is None or rank(now.label, now.attrs) <= top[3]:
        return False
    if now.label in DECOS and now.label != labels.STAIRS:
        return now.attrs["level"] != base and not _tile_read_under(rows, r, c, now.attrs["level"])
    if now.label in PILLARS:
        stands = now.attrs["level"] - _HEIGHT[now.label]
        return stands != base and not _tile_read_under(rows, r, c, stands)
    return False


def _pillar_on_same_space(rows, top: Record, r: int, c: int, view: FaceView | None) -> CellReading | None:
    """The tile space seen at (r, c), read again as itself down to its icon but with no confidence
    (below FITS: the frame does not see that space there), with a pillar standing on it among the
    frame's alternatives: where that space is in view, the pillar put on it since (as _settle's
    first rule for the space read with another icon: what the frame sees there is the pillar's
    side, whose colour need not differ from the space's as read before)."""
    now = rows[r][c]
    if now.label != labels.TILE or now.confidence >= FITS:
        return None
    standing = _standing_pillar(now, top[1]["level"], top[2])
    return standing if standing is not None and _in_view(rows, r, c, top, view) else None


def _standing_pillar(now: CellReading, base: int, trust: float, fits: float = FITS) -> CellReading | None:
    """A pillar standing on a surface at level `base` among the frame's alternatives (a top one or
    two levels above it: a single or a double pillar) fitting at least `fits`, as a reading no
    surer than the frame's nor than the surface remembered (`trust`); None if there is none."""
    for alt_label, alt_attrs, score in now.alternatives:
        level = alt_attrs.get("level")
        if alt_label == "pillar" and level in (base + 1, base + 2) and score >= fits:
            pillar = labels.PILLAR1 if level == base + 1 else labels.PILLAR2
            alternatives = ((now.label, dict(now.attrs), now.confidence), *now.alternatives)[:3]
            return CellReading(pillar, min(now.confidence, trust, RECALL_CAP), {"level": level}, alternatives)
    return None


def _in_view(rows, r: int, c: int, top: Record, view: FaceView | None) -> bool:
    """Whether the remembered top of (r, c) is in view: its neighbours as read hide less than
    HIDDEN of its face (no view known: not in view)."""
    return view is not None and view.hidden(rows, [(r, c, _as_reading(top))])[0] < HIDDEN


def _shown_mates(rows, memory: Memory, r: int, c: int) -> int:
    """How many other spaces of the tile (r, c) is read as show that tile: read surely as a
    space of a tile with that footprint (at any level: a level read wrong is still a tile
    there), read as one where a pillar top was seen (the tile lies on it), or carrying a piece
    that stands on the tile's level (a pillar or a decoration on that space)."""
    cell = rows[r][c]
    if cell.label != labels.TILE:
        return 0
    tile_id, level = cell.attrs["tile"], cell.attrs["level"]
    shown = 0
    for rr, cc in footprint(tile_id):
        if (rr, cc) == (r, c):
            continue
        mate = rows[rr][cc]
        if mate.label == labels.TILE:
            under = memory.top(rr, cc)
            shown += mate.attrs["tile"] == tile_id and (
                mate.confidence >= SURE or (under is not None and under[0] in PILLARS))
        else:
            shown += _stands_at(mate) == level
    return shown


def _tile_read_under(rows, r: int, c: int, level: int, sure: float = 0.0) -> bool:
    """Whether a neighbour of (r, c) is read (at least `sure`) as a space, at `level`, of a tile
    covering (r, c)."""
    for rr in range(max(r - 1, 0), min(r + 2, 8)):
        for cc in range(max(c - 1, 0), min(c + 2, 8)):
            cell = rows[rr][cc]
            if (rr, cc) != (r, c) and cell.label == labels.TILE and cell.attrs["level"] == level \
                    and cell.confidence >= sure and (r, c) in footprint(cell.attrs["tile"]):
                return True
    return False


def _stands_at(cell: CellReading) -> int | None:
    """The level of the surface a pillar or a decoration read stands on (None for others)."""
    level = cell.attrs.get("level", 0)
    if isinstance(level, list | tuple):
        level = min(level) if level else 0
    if cell.label == labels.PILLAR1:
        return level - 1
    if cell.label == labels.PILLAR2:
        return level - 2
    if cell.label in DECOS:
        return level
    return None


def _surface(record: Record) -> int | None:
    """The level of the surface a remembered top offers a piece (the board 0, a tile space its
    level); None for a pillar's or a decoration's top."""
    if record[0] == labels.RECESS:
        return 0
    if record[0] == labels.TILE:
        return int(record[1]["level"])
    return None


def _with_attrs(now: CellReading, attrs: dict[str, Any], trust: float) -> CellReading:
    """The frame's reading with some attributes from memory: no surer than either."""
    alternatives = ((now.label, dict(now.attrs), now.confidence), *now.alternatives)[:3]
    return CellReading(now.label, min(now.confidence, trust, RECALL_CAP), {**now.attrs, **attrs}, alternatives)


def _pair_stairs(frame, rows, own, memory: Memory) -> None:
    """babylon.deco.stairs: a pair of stairs joins two neighbouring spaces of two tiles whose
    levels differ by exactly 1, and is one piece. A cell the frame reads unsurely as stairs on one
    level L alone (its other step not found) where L is what was seen there (a tile space at L, or
    a pillar top at L: a tile laid on it since), beside exactly one cell read unsurely whose
    remembered top is a space of another tile at L - 1 or L + 1, is that pair: both cells are
    stairs over both levels. `frame`: the frame's own readings; `rows` as read so far."""
    for r in range(8):
        for c in range(8):
            cell = frame[r][c]
            if cell.label != labels.STAIRS or cell.confidence >= SURE or rows[r][c] != cell:
                continue
            levels = cell.attrs.get("level")
            top = memory.top(r, c)
            if isinstance(levels, list | tuple) and len(levels) == 2 and not _step_beside(frame, r, c, levels):
                levels = levels[:1]  # a lone step at level 1, which the frame gives its other step's level too
            if not isinstance(levels, list | tuple) or len(levels) != 1 or top is None:
                continue
            level = levels[0]
            if _surface(top) != level and not (top[0] in PILLARS and top[1]["level"] == level):
                continue
            partners = []
            for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if not (0 <= rr < 8 and 0 <= cc < 8):
                    continue
                other = memory.top(rr, cc)
                mate = frame[rr][cc]
                if (other is None or other[0] != labels.TILE or abs(other[1]["level"] - level) != 1
                        or mate.confidence >= SURE
                        or (rows[rr][cc].label == labels.STAIRS and len(rows[rr][cc].attrs["level"]) != 1
                            and _step_beside(rows, rr, cc, rows[rr][cc].attrs["level"]))
                        or (top[0] == labels.TILE and top[1]["tile"] == other[1]["tile"])):
                    continue
                partners.append((rr, cc, other))
            if len(partners) != 1:
                continue
            rr, cc, other = partners[0]
            pair = {"level": sorted([level, other[1]["level"]])}
            rows[r][c] = _with_attrs(cell, pair, top[2])
            mate = frame[rr][cc]
            alternatives = ((mate.label, dict(mate.attrs), mate.confidence), *mate.alternatives)[:3]
            rows[rr][cc] = CellReading(labels.STAIRS, min(mate.confidence, other[2], RECALL_CAP), pair, alternatives)
            own[r][c] = own[rr][cc] = False


def _step_beside(frame, r: int, c: int, levels) -> bool:
    """Whether a neighbour of (r, c) is read as the same pair of stairs (`levels`): its other step.
    A step read alone is reported with its own level only, or at level 1 with level 2 too (the
    observer's _pair_stairs: its other step is one level higher)."""
    return any(0 <= rr < 8 and 0 <= cc < 8 and frame[rr][cc].label == labels.STAIRS
               and frame[rr][cc].attrs.get("level") == levels
               for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)))


def _tile_groups(rows) -> dict[tuple[str, int], list[tuple[int, int]]]:
    groups: dict[tuple[str, int], list[tuple[int, int]]] = {}
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            if cell.label == labels.TILE:
                groups.setdefault((cell.attrs["tile"], cell.attrs["level"]), []).append((r, c))
    return groups


def _tile_levels(rows, own, memory: Memory, groups) -> bool:
    """babylon.build.support: a tile read unsurely on all its spaces, new where it lies (no space
    remembers it), lies on the pillar tops remembered under at least 3 of its 4 spaces when they
    share one level: that level is taken. Whether any was."""
    taken = False
    for (tile_id, level), cells in groups.items():
        if any(rows[r][c].confidence >= SURE for r, c in cells):
            continue
        under = [memory.top(r, c) for r, c in footprint(tile_id)]
        if any(rec is not None and rec[0] == labels.TILE and rec[1].get("tile") == tile_id for rec in under):
            continue
        tops = [rec for rec in under if rec is not None and rec[0] in PILLARS]
        levels = {rec[1]["level"] for rec in tops}
        if len(tops) < 3 or len(levels) != 1 or level in levels:
            continue
        seen = levels.pop()
        trust = min(rec[2] for rec in tops)
        for r, c in cells:
            rows[r][c] = _with_attrs(rows[r][c], {"level": seen}, trust)
            own[r][c] = False
        taken = True
    return taken


def _tile_flowers(rows, own, memory: Memory, groups) -> None:
    """One flower per tile: a tile none of whose spaces is read surely now keeps the flower it
    was read with when a space of it was (the same footprint and level, remembered)."""
    for (tile_id, level), cells in groups.items():
        if any(rows[r][c].confidence >= SURE and own[r][c] for r, c in cells):
            continue
        known = [rec for r, c in footprint(tile_id) for rec in memory.stacks[8 * r + c]
                 if rec[0] == labels.TILE and rec[1].get("tile") == tile_id and rec[1].get("level") == level]
        if not known:
            continue
        best = max(known, key=lambda rec: rec[2])
        flower = best[1].get("flower")
        for r, c in cells:
            now = rows[r][c]
            if now.attrs.get("flower") != flower:
                rows[r][c] = _with_attrs(now, {"flower": flower}, best[2])
                own[r][c] = False
