"""Final scoring (`babylon.score.*`), from the view from above: one line per category per player,
like the paper score pad, each with its rule id and the pieces that earned it."""

from __future__ import annotations

from ...i18n import N_, NP_
from ..api import Message, ScoreLine
from .model import Board

CATEGORIES = (
    ("highest", "babylon.score.highest", N_("Highest level")),
    ("statue", "babylon.score.statue", N_("Statues")),
    ("fountain", "babylon.score.fountain", N_("Fountains")),
    ("bridge", "babylon.score.bridge", N_("Bridges")),
    ("stairs", "babylon.score.stairs", N_("Stairs")),
    ("deco_set", "babylon.score.deco_set", N_("Decoration sets")),
    ("flower_set", "babylon.score.flower_set", N_("Flower sets")),
    ("belvedere", "babylon.score.belvedere", N_("Belvederes")),
)


def score_lines(player: int, board: Board, flowers: tuple[str, ...]) -> tuple[ScoreLine, ...]:
    view = board.top
    visible_decos = [d for d in board.decorations if view.is_visible(d.id)]
    by_kind = {kind: [d for d in visible_decos if d.kind == kind] for kind in ("statue", "fountain", "bridge", "stairs", "belvedere")}
    lines: dict[str, tuple[int, tuple[str, ...], Message | None]] = {}

    top_tiles = [t for t in board.tiles if t.level == max((u.level for u in board.tiles), default=0)]
    highest = top_tiles[0].level if top_tiles else 0
    lines["highest"] = (
        2 * highest,
        tuple(t.id for t in top_tiles),
        Message.of(N_("2 × highest level {level}"), level=highest),
    )
    statues = by_kind["statue"]
    lines["statue"] = (
        sum(d.level for d in statues),
        tuple(d.id for d in statues),
        Message.of(N_("{count} visible, 1 × level each"), count=len(statues)),
    )
    for kind in ("fountain", "bridge"):
        pieces = by_kind[kind]
        lines[kind] = (
            sum(3 * d.level for d in pieces),
            tuple(d.id for d in pieces),
            Message.of(N_("{count} visible, 3 × level each"), count=len(pieces)),
        )
    stairs = by_kind["stairs"]
    lines["stairs"] = (
        sum(sum(d.levels) for d in stairs),
        tuple(d.id for d in stairs),
        Message.of(N_("{count} visible, the sum of the two levels each"), count=len(stairs)),
    )
    sets = min(len(by_kind[k]) for k in ("stairs", "fountain", "bridge", "statue"))
    lines["deco_set"] = (
        4 * sets,
        tuple(d.id for k in ("stairs", "fountain", "bridge", "statue") for d in by_kind[k][:sets]),
        Message.of(NP_("{count} set of stairs, fountain, bridge and statue",
                       "{count} sets of stairs, fountain, bridge and statue"), count=sets),
    )
    visible_tiles = [t for t in board.tiles if view.is_visible(t.id)]
    per_flower = {f: [t for t in visible_tiles if t.flower == f] for f in flowers}
    flower_sets = min(len(v) for v in per_flower.values()) if per_flower else 0
    lines["flower_set"] = (
        4 * flower_sets,
        tuple(t.id for f in flowers for t in per_flower[f][:flower_sets]),
        Message.of(NP_("{count} set of 4 visible tiles of 4 different flowers",
                       "{count} sets of 4 visible tiles of 4 different flowers"), count=flower_sets),
    )
    belvederes = by_kind["belvedere"]
    lines["belvedere"] = (
        len(belvederes),
        tuple(d.id for d in belvederes),
        Message.of(N_("{count} visible, 1 each"), count=len(belvederes)),
    )
    return tuple(
        ScoreLine(player, key, Message.of(label), rule, lines[key][0], lines[key][1], lines[key][2])
        for key, rule, label in CATEGORIES
    )
