"""Every wrong visible Baubylon space of a bench run, one line each: what it is, what was read.

    .venv/bin/python benchmarks/baubylon_wrong_cells.py [--games baubylon.built] [--seed S]
        [--frames N] [--cache DIR]

The frames are `companion bench vision`'s own (bench_setup, bench_scene, render; each read by the
observer fitted to its field as the referee fits it), so the totals printed are the bench's
single-frame figures for that seed. With --cache the rendered frames, cameras and calibrated
profiles are kept in DIR and read from there the next time (rendering and calibrating take most of
a bench run; a read of 100 cached frames takes half a minute), so a change to the observer can be
compared frame by frame. Each wrong space prints: frame, row, column, the truth and the reading
(block height + pawns), the confidence, the share of the space in view, how the error is classed
(`same top`: block and pawns traded under one top; `h±n`, `p±n`: block or stack off by that
much), the true and read heights of its neighbours (north, east, south, west; 0 off the board)
and its distance from the camera's nadir (mm). Tuned seeds only: the held-out ones are not to be
looked at frame by frame.
"""

from __future__ import annotations

import argparse
import pickle
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.benchmarking import vision as bench
from companion.sim.camera import region_geometry
from companion.sim.render import render
from companion.sim.visibility import visible_share

_SIDES = ((-1, 0), (0, 1), (1, 0), (0, -1))  # north, east, south, west


@dataclass
class Frame:
    """One bench frame as the bench reads it: its camera and calibrated profile, the layout, the
    rendered image (PNG bytes) and each space's share in view."""

    n: int
    camera: Any
    profile: Any
    layout: Any
    png: bytes
    seen: np.ndarray

    def image(self) -> np.ndarray:
        return cv2.imdecode(np.frombuffer(self.png, np.uint8), cv2.IMREAD_COLOR)


def frames(region: str, seed: int, count: int, cache: Path | None) -> list[Frame]:
    """The bench's first `count` frames of `region` at `seed`, from `cache` where kept there."""
    path = cache / f"{region}-{seed}-{count}.pickle" if cache else None
    if path is not None and path.exists():
        return pickle.loads(path.read_bytes())
    out, calibrated, camera = [], None, None
    for n in range(count):
        if n % bench.FRAMES_PER_SETUP == 0:
            camera, calibrated = bench.bench_setup(region, seed, n)
        layout, scene = bench.bench_scene(region, seed, n)
        seen = visible_share(scene.regions[0], camera, layout.top_faces())
        png = cv2.imencode(".png", render(scene, camera, seed=n))[1].tobytes()
        out.append(Frame(n, camera, calibrated.profile, layout, png, seen))
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(pickle.dumps(out))
    return out


def heights(grid) -> np.ndarray:
    """(rows, cols) block heights of a reading or a layout's truth (attrs per space)."""
    return np.array([[attrs["height"] for attrs in row] for row in grid])


def neighbours(height: np.ndarray, r: int, c: int) -> list[int]:
    rows, cols = height.shape
    return [int(height[r + dr, c + dc]) if 0 <= r + dr < rows and 0 <= c + dc < cols else 0 for dr, dc in _SIDES]


def kind(truth: dict, read: dict) -> str:
    """How a wrong space is wrong: block and pawns traded under one top, or what is off."""
    dh = read["height"] - truth["height"]
    dp = len(read["pawns"]) - len(truth["pawns"])
    if dh and dh + dp == 0:
        return "same top"
    parts = ([f"h{dh:+d}"] if dh else []) + ([f"p{dp:+d}"] if dp else [])
    return " ".join(parts) or "colour"


def wrong_cells(region: str, seed: int, kept: list[Frame]) -> tuple[Counter, list[str]]:
    """The bench's totals over `kept` (bench._score) and one line per wrong visible space."""
    stats: Counter = Counter()
    lines: list[str] = []
    observer = fitted = None
    for frame in kept:
        if frame.n % bench.FRAMES_PER_SETUP == 0:
            observer = bench.GAMES[region][0](region_geometry(frame.camera), frame.profile)
            fitted = {}
        read = bench.fitted_observer(observer, frame.camera, frame.layout, fitted).observe(frame.image())
        bench._score(read, frame.layout, frame.seen, stats, Counter())
        truth = [[attrs for _, attrs in row] for row in frame.layout.expected()]
        cells = [[read.cell(r, c).attrs for c in range(read.cols)] for r in range(read.rows)]
        true_h, read_h = heights(truth), heights(cells)
        for r in range(read.rows):
            for c in range(read.cols):
                if frame.seen[r, c] < bench.VISIBLE or cells[r][c] == truth[r][c]:
                    continue
                t, a = truth[r][c], cells[r][c]
                stats["kind " + kind(t, a)] += 1
                lines.append(f"{frame.n} {r} {c} true {t['height']}+{len(t['pawns'])} read {a['height']}+{len(a['pawns'])}"
                             f" sure {read.cell(r, c).confidence:.2f} seen {frame.seen[r, c]:.2f} {kind(t, a)}"
                             f" | true nb {neighbours(true_h, r, c)} read nb {neighbours(read_h, r, c)}"
                             f" | nadir {observer.nadir_distance[r * read.cols + c]:.0f}")
    return stats, lines


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="baubylon_wrong_cells", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="baubylon.built", choices=[g for g in bench.GAMES if g.startswith("baubylon")])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--frames", type=int, default=100)
    parser.add_argument("--cache", type=Path, default=None, help="keep the rendered frames here")
    args = parser.parse_args(argv)
    stats, lines = wrong_cells(args.games, args.seed, frames(args.games, args.seed, args.frames, args.cache))
    cells = max(stats["cells"], 1)
    print(f"{args.games} seed {args.seed}: wrong visible cells {stats['wrong']} / {stats['cells']}"
          f" ({stats['wrong'] / cells:.2%}), boards exact {stats['boards_exact']} / {stats['frames']},"
          f" confident wrong {stats['confident_wrong']}")
    print("kinds:", ", ".join(f"{k[5:]} {v}" for k, v in stats.most_common() if k.startswith("kind ")))
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
