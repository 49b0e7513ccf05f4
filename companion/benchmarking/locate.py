"""Board location and the plain grid reader on synthetic photos: accuracy and time.

For each case a board is photographed by the synthetic camera (locate/synthetic.py: wood grain,
shaded stones, a lighting gradient of ±35 %, sensor noise σ = 4) at a given tilt and turn, then
located by markers, by grid lines and (for the reader) read point by point. Options add defocus
blur, JPEG compression, a dark board and denser positions. Reported: homography
error in pixels over every board point against the true projection (mean and max), tokens wrong,
and the wall-clock time of each step (CPU is shared, so take the median over several runs).

`--twin`: the play-mat markers on the digital twin's frames (sim/: its renderer, lens distortion,
light and sensor variation) at camera distances of 40-90 cm, with no camera calibration: markers
found of those wholly in the picture, boards located, the located board's pixel error over every
cell centre against the true projection, markers read with a wrong id, and the detection time. `--twin --misread`: besides, every marker
found is read 15-60 px off its place in turn (`--misread-px`) (as if another pattern had been read as it; frames
with three or more markers found) and the locator must leave it out: counted as left out (the
board puts the marker where it really is), bent (the board follows the misread marker) or refused.
"""

from __future__ import annotations

import statistics
import time

import numpy as np

from ..commands.help_text import PlayerArgumentParser, parse_in_language
from ..i18n import N_
from ..vision.boards import grid_board
from ..vision.grid import read_grid
from ..vision.locate import synthetic as sy
from ..vision.locate.gridlines import locate_from_grid_lines
from ..vision.locate.markers import locate_from_markers

HELP = N_("board locator (markers, grid lines) and plain grid reader: pixel error, tokens wrong, time")
DESCRIPTION = N_("Board location and the plain grid reader on synthetic photos (wood grain, shaded stones, uneven "
                 "light, sensor noise) at several tilts and turns: the located board's pixel error against the "
                 "true projection (mean and max), tokens read wrong, and the time of each step (the CPU is "
                 "shared: take the median of several runs). With --twin: the play mat's markers on the digital "
                 "twin's frames at camera distances of 40–90 cm: markers found, boards located, their pixel "
                 "error, markers read with a wrong id; with --misread, each marker found is also read off its "
                 "place in turn, and the locator must leave it out.")

POSES = [(0, 0), (20, 5), (30, -15), (40, 25), (45, -35)]


def _errors(location, view, spec) -> np.ndarray:
    pts = np.array([spec.cell_centre(r, c) for r in range(spec.rows) for c in range(spec.cols)])
    return np.linalg.norm(location.project(pts) - view.project(pts), axis=1)


def twin(distances: list[int], frames: int, with_pieces: bool, misread: bool = False,
         calibrated: bool = False, misread_px: tuple[float, float] = (15.0, 60.0)) -> None:
    """Marker location on the twin (imports sim: benchmarks may). `calibrated`: the locator is
    given the twin camera's own intrinsics and lens distortion, as a calibration would measure them."""
    from ..sim import garden, variation
    from ..sim.mat import mat_marks
    from ..sim.render import render
    from ..sim.scene import TableScene
    from ..vision import mat
    from ..vision.boards import BABYLON_GARDEN
    from ..vision.locate.markers import detect_region_markers

    spec = BABYLON_GARDEN
    placements = mat.marker_layout(spec)
    centres = np.array([spec.cell_centre(r, c) for r in range(spec.rows) for c in range(spec.cols)])
    print(f"babylon.garden mat on the twin, {frames} frames per distance, "
          f"{'random layouts (pieces may hide markers)' if with_pieces else 'empty board'}, "
          f"{'calibrated (the twin camera' + chr(39) + 's own intrinsics)' if calibrated else 'no camera calibration'}")
    print(f"{'distance':>8} | {'markers found':>13} {'per frame':>9} | {'located':>7} | "
          f"{'error mean/max px':>17} | {'wrong ids':>9} | {'detect ms':>9}"
          + (f" | {'misread: left out / bent / refused':>34} {'board max px':>12}" if misread else ""))
    for distance in distances:
        found = in_frame = located = wrong = 0
        errors, times = [], []
        outcomes = {"left out": 0, "bent": 0, "refused": 0}
        misread_errors = [0.0]
        for n in range(frames):
            rng = np.random.default_rng((distance, n))
            camera = variation.random_camera(rng, (100, 100), distance=(distance, distance))
            layout = garden.random_layout(rng) if with_pieces else garden.GardenLayout()
            region = garden.region_scene(layout)
            scene = TableScene((region,), mat_marks=mat_marks(region), lighting=variation.random_lighting(rng),
                               imaging=variation.random_imaging(rng))
            image = render(scene, camera, seed=n)
            height, width = image.shape[:2]
            for p in placements:
                px = camera.project(np.column_stack([p.corners_mm(), np.zeros(4)]))
                in_frame += bool(np.all((px > 2) & (px < (width - 3, height - 3))))
            start = time.perf_counter()
            detected = detect_region_markers(spec, image)
            times.append(time.perf_counter() - start)
            found += sum(p.marker_id in detected for p in placements)
            wrong += sum(i not in {p.marker_id for p in placements} for i in detected)
            truth = camera.project(np.column_stack([centres, np.zeros(len(centres))]))
            intrinsics = _twin_intrinsics(camera) if calibrated else None
            if misread:
                _misread_each(spec, image, detected, rng, outcomes, misread_errors, centres, truth, intrinsics,
                              misread_px)
            try:
                location = locate_from_markers(spec, image, detected=detected, intrinsics=intrinsics)
            except Exception:  # a benchmark counts failures, it does not stop
                continue
            located += 1
            errors.append(np.linalg.norm(location.project(centres) - truth, axis=1))
        err = np.concatenate(errors) if errors else np.array([np.nan])
        tail = (f" | {outcomes['left out']:>12} / {outcomes['bent']:>4} / {outcomes['refused']:>12} "
                f"{max(misread_errors):12.1f}") if misread else ""
        print(f"{distance:>5} mm | {found:>5} of {in_frame:<5} {found / frames:>7.2f}/4 | {located:>3}/{frames:<3} | "
              f"{err.mean():8.2f} / {err.max():6.2f} | {wrong:>9} | {1000 * statistics.median(times):9.1f}{tail}")


def _twin_intrinsics(camera):
    from ..vision.calibration.intrinsics import Intrinsics

    return Intrinsics((camera.width, camera.height), tuple(tuple(float(v) for v in row) for row in camera.matrix),
                      tuple(float(v) for v in camera.dist_coeffs), rms_px=0.3, views=20)


def _misread_each(spec, image, detected, rng, outcomes: dict[str, int], board_errors: list[float],
                  centres: np.ndarray, truth: np.ndarray, intrinsics=None,
                  misread_px: tuple[float, float] = (15.0, 60.0)) -> None:
    """Read each of the region's markers off its place in turn and count what the locator makes of it."""
    from ..vision import mat
    from ..vision.locate import LocateError

    ours = [p for p in mat.marker_layout(spec) if p.marker_id in detected]
    if len(ours) < 3:
        return
    for placement in ours:
        direction = rng.normal(size=2)
        offset = direction / np.linalg.norm(direction) * rng.uniform(*misread_px)
        misread = dict(detected)
        misread[placement.marker_id] = detected[placement.marker_id] + offset
        try:
            location = locate_from_markers(spec, image, detected=misread, intrinsics=intrinsics)
        except LocateError:
            outcomes["refused"] += 1
            continue
        placed = location.project(mat.detected_corners_mm(spec, placement))  # raw-frame pixels
        to_true = np.linalg.norm(placed - detected[placement.marker_id], axis=1).mean()
        to_misread = np.linalg.norm(placed - misread[placement.marker_id], axis=1).mean()
        outcomes["bent" if to_misread < to_true else "left out"] += 1
        board_errors.append(float(np.linalg.norm(location.project(centres) - truth, axis=1).max()))


def main(argv: list[str], config) -> int:
    parser = PlayerArgumentParser(prog="companion bench locate", description=DESCRIPTION)
    parser.add_argument("--sizes", default="19,9", help=N_("board sizes (comma-separated), default 19,9"))
    parser.add_argument("--seeds", type=int, default=3, help=N_("positions per pose (default 3)"))
    parser.add_argument("--fill", type=float, default=0.35, help=N_("share of points with a stone"))
    parser.add_argument("--blur", type=float, default=0.0, help=N_("defocus blur σ in pixels"))
    parser.add_argument("--jpeg", type=int, default=0, help=N_("JPEG quality (0 = none)"))
    parser.add_argument("--dark-wood", action="store_true", help=N_("a dark walnut board instead of light wood"))
    parser.add_argument("--twin", action="store_true", help=N_("mat markers on the digital twin vs camera distance"))
    parser.add_argument("--distances", default="400,500,600,700,800,900",
                        help=N_("with --twin: camera distances (mm)"))
    parser.add_argument("--frames", type=int, default=10, help=N_("with --twin: frames per distance"))
    parser.add_argument("--pieces", action="store_true",
                        help=N_("with --twin: random layouts instead of an empty board"))
    parser.add_argument("--misread", action="store_true",
                        help=N_("with --twin: also read each marker off its place in turn (--misread-px)"))
    parser.add_argument("--misread-px", default="15,60", help=N_("with --misread: how far off, px (default 15,60)"))
    parser.add_argument("--calibrated", action="store_true",
                        help=N_("with --twin: give the locator the twin camera's intrinsics (as a calibration)"))
    args = parse_in_language(parser, argv, config)
    if args.twin:
        twin([int(d) for d in args.distances.split(",")], args.frames, args.pieces, args.misread, args.calibrated,
             tuple(float(v) for v in args.misread_px.split(",")))
        return 0
    print(f"{'board':>6} {'tilt':>4} {'turn':>4} | {'markers mean/max px':>19} {'ms':>5} | "
          f"{'lines mean/max px':>17} {'ms':>5} | {'read wrong':>10} {'ms':>5}")
    totals = {"wrong": 0, "points": 0, "failures": 0}
    line_errors, line_times, read_times = [], [], []
    for n in (int(s) for s in args.sizes.split(",")):
        spec = grid_board(n, n, True)
        for tilt, turn in POSES:
            for seed in range(args.seeds):
                rng = np.random.default_rng(1000 * n + 10 * tilt + seed)
                stones = sy.random_position(spec, rng, fill=args.fill)
                photo = {"blur": args.blur, "jpeg_quality": args.jpeg}
                if args.dark_wood:
                    photo["wood"] = (40, 75, 110)
                marked = sy.go_board_photo(spec, stones, seed=seed, tilt_deg=tilt, turn_deg=turn, with_markers=True,
                                           **photo)
                plain = sy.go_board_photo(spec, stones, seed=seed, tilt_deg=tilt, turn_deg=turn, **photo)
                t0 = time.perf_counter()
                try:
                    by_markers = locate_from_markers(spec, marked.image)
                    m_err = _errors(by_markers, marked, spec)
                    m_text = f"{m_err.mean():8.2f} / {m_err.max():6.2f}"
                except Exception as exc:  # a benchmark reports failures, it does not stop
                    m_text = f"{'failed: ' + type(exc).__name__:>19}"
                t1 = time.perf_counter()
                try:
                    by_lines = locate_from_grid_lines(spec, plain.image)
                    l_err = _errors(by_lines, plain, spec)
                    line_errors.append(l_err)
                    l_text = f"{l_err.mean():7.2f} / {l_err.max():6.2f}"
                except Exception as exc:
                    l_text = f"{'failed: ' + type(exc).__name__:>17}"
                    by_lines = None
                t2 = time.perf_counter()
                line_times.append(t2 - t1)
                if by_lines is not None:
                    reading = read_grid(plain.image, n, n)
                    t3 = time.perf_counter()
                    read_times.append(t3 - t2)
                    wrong = sum(reading.tokens[r][c] != stones.get((r, c), ".") for r in range(n) for c in range(n))
                    totals["wrong"] += wrong
                    totals["points"] += n * n
                    r_text = f"{wrong:>10} {1000 * (t3 - t2):5.0f}"
                else:
                    totals["failures"] += 1
                    r_text = f"{'-':>10} {'-':>5}"
                print(f"{n:>3}x{n:<2} {tilt:>4} {turn:>4} | {m_text} {1000 * (t1 - t0):5.0f} | "
                      f"{l_text} {1000 * (t2 - t1):5.0f} | {r_text}")
    if line_errors:
        all_errors = np.concatenate(line_errors)
        print(f"grid lines: mean {all_errors.mean():.2f} px, 95th percentile {np.percentile(all_errors, 95):.2f} px, "
              f"max {all_errors.max():.2f} px; median time {1000 * statistics.median(line_times):.0f} ms")
    if read_times:
        print(f"reader: {totals['wrong']} of {totals['points']} points wrong, {totals['failures']} boards not found; "
              f"median time {1000 * statistics.median(read_times):.0f} ms (includes locating)")
    return 0
