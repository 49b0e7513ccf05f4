"""`companion calibrate`: printable targets, camera intrinsics and where each board lies.

  calibrate target [--sheet a4|a3|all] [--out DIR]        ChArUco sheet, PNG + true-scale PDF
  calibrate mat (--game G | --region R | --grid RxC) [--paper a4|a3] [--stickers] [--out DIR]
  calibrate camera (--images DIR | --live) [--sheet a4|a3]  intrinsics → <state>/calibration/camera.json
  calibrate board (--game G | --region R | --grid RxC) IMAGE [--markers | --lines | --corners X1,Y1,...]
                                                          → <state>/calibration/board-<region>.json
  calibrate appearance (--game G | --region R) (--source FILE|DIR ... | --live | --layout-only)
                       [--frames N] [--calibration FILE]  → <state>/calibration/appearance-<region>.json
  calibrate show                                          what is calibrated, and how well

File formats: docs/calibration.md. A corrupt calibration file is reported and left as it is.
"""

from __future__ import annotations

import argparse
from contextlib import closing
from pathlib import Path

import numpy as np

from ..errors import CompanionError
from ..vision.appearance import AppearanceProfile
from ..vision.boards import REGIONS, BoardSpec
from ..vision.calibration import files, targets
from ..vision.calibration.charuco import SHEETS, CameraCalibrator
from ..vision.calibration.intrinsics import Intrinsics
from ..vision.locate import BoardLocation, LocateError
from ..vision.locate.corners import locate_from_corners, parse_corners
from ..vision.locate.gridlines import locate_from_grid_lines
from ..vision.locate.markers import locate_from_markers
from ..vision.locate.overlay import draw_location
from .recognise import (
    add_board_options,
    board_specs,
    check_overlay_path,
    load_camera,
    read_image,
    write_image,
)

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff")


def default_target_dir() -> Path:
    """The project's calibration/ folder in a checkout, else ./calibration."""
    checkout = Path(__file__).resolve().parents[2] / "calibration"
    return checkout if checkout.is_dir() else Path("calibration")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "calibrate", help="calibration: printable targets, camera intrinsics, board location",
        description=__doc__.split("\n\n")[1], formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    steps = parser.add_subparsers(dest="step", metavar="STEP", required=True)

    target = steps.add_parser("target", help="write the ChArUco camera sheet (PNG and PDF)")
    target.add_argument("--sheet", choices=(*SHEETS, "all"), default="all")
    target.add_argument("--out", type=Path, help="folder (default: the project's calibration/)")
    target.set_defaults(handler=handle_target)

    mat = steps.add_parser("mat", help="write the marker mat of a board, or marker stickers")
    add_board_options(mat)
    mat.add_argument("--paper", choices=tuple(targets.PAPER_MM), help="default: the smallest that fits")
    mat.add_argument("--stickers", action="store_true", help="four marker stickers instead of a mat")
    mat.add_argument("--out", type=Path, help="folder (default: the project's calibration/)")
    mat.set_defaults(handler=handle_mat)

    camera = steps.add_parser("camera", help="measure the camera's intrinsics from photos of the sheet")
    where = camera.add_mutually_exclusive_group(required=True)
    where.add_argument("--images", type=Path, help="folder of photos of the ChArUco sheet")
    where.add_argument("--live", action="store_true",
                       help="take views from the configured camera ([camera] source); move the sheet around")
    camera.add_argument("--every", type=int, default=15, metavar="N",
                        help="with --live: look at every Nth frame (default 15, about 2 per second)")
    camera.add_argument("--max-views", type=int, default=25, help="with --live: stop after this many views")
    camera.add_argument("--sheet", choices=tuple(SHEETS), default="a4")
    camera.add_argument("--out", type=Path, help="default: <state dir>/calibration/camera.json")
    camera.add_argument("--save-anyway", action="store_true", help="save even when not yet good enough")
    camera.set_defaults(handler=handle_camera)

    board = steps.add_parser("board", help="find where a board lies in the camera's view and save it")
    add_board_options(board)
    board.add_argument("image", help="a photo from the camera in its final place")
    how = board.add_mutually_exclusive_group()
    how.add_argument("--markers", action="store_true", help="from the mat's or stickers' markers")
    how.add_argument("--lines", action="store_true", help="from the board's own grid lines")
    how.add_argument("--corners", metavar="X1,Y1,...,X4,Y4",
                     help="the board's corners in pixels: top-left, top-right, bottom-right, bottom-left")
    board.add_argument("--thickness", type=float, default=0.0, metavar="MM",
                       help="with markers on a mat under the board: the board's thickness (default 0)")
    board.add_argument("--overlay", metavar="OUT.png", help="also write the photo with the board drawn on it")
    board.add_argument("--out", type=Path, help="default: <state dir>/calibration/board-<region>.json")
    board.set_defaults(handler=handle_board)

    appearance = steps.add_parser(
        "appearance", help="learn how the pieces look from 1-3 frames of the calibration layout",
        description="Lay out the calibration pieces as calibration/layout-<region>.png shows, then give "
        "1-3 photos of it (or take them from the camera). Each board region is located (its saved board "
        "calibration, else the mat's markers), each frame is checked, and the profile is learned.")
    which = appearance.add_mutually_exclusive_group(required=True)
    which.add_argument("--game", help="a game: every board region it is read from")
    which.add_argument("--region", help="one board region: " + ", ".join(REGIONS))
    source = appearance.add_mutually_exclusive_group(required=True)
    source.add_argument("--source", nargs="+", metavar="FILE|DIR",
                        help="photos (PNG, JPEG), folders of photos or a video of the laid-out layout")
    source.add_argument("--live", "--camera", dest="camera", action="store_true",
                        help="take the frames from the configured camera (as `calibrate camera --live`)")
    source.add_argument("--layout-only", action="store_true",
                        help="only say what to lay where (and write the layout diagram with --out)")
    appearance.add_argument("--frames", type=int, default=3, metavar="N", help="good frames to take (1-10, default 3)")
    appearance.add_argument("--every", type=int, default=10, metavar="K",
                            help="with --live: look at every Kth frame (default 10)")
    appearance.add_argument("--calibration", metavar="FILE", help="a board calibration file (with --region)")
    appearance.add_argument("--out", type=Path, help="with --layout-only: folder for layout-<region>.png")
    appearance.set_defaults(handler=handle_appearance, grid=None)

    show = steps.add_parser("show", help="list the saved calibrations")
    show.set_defaults(handler=handle_show)


# --- targets ---------------------------------------------------------------------------------------
def handle_target(args: argparse.Namespace, config) -> int:
    folder = args.out or default_target_dir()
    names = list(SHEETS) if args.sheet == "all" else [args.sheet]
    for name in names:
        sheet = SHEETS[name]
        for path in targets.write_target(targets.charuco_target(sheet), folder):
            print(f"wrote {path}")
        print(f"  {name.upper()}: {sheet.squares[0]}x{sheet.squares[1]} squares of {sheet.square_mm:g} mm; print at "
              "100 % and check the 100 mm ruler")
    return 0


def handle_mat(args: argparse.Namespace, config) -> int:
    folder = args.out or default_target_dir()
    for spec in board_specs(args):
        paper = args.paper or targets.smallest_paper(spec)
        if args.stickers or paper is None:
            if paper is None and not args.stickers:
                print(f"{spec.region}: the mat does not fit on A3; writing marker stickers instead")
            target = targets.sticker_target(spec)
        else:
            try:
                target = targets.mat_target(spec, paper)
            except ValueError as exc:
                raise CompanionError(f"--paper {paper}: {exc}; try --paper a3 or --stickers") from None
        for path in targets.write_target(target, folder):
            print(f"wrote {path}")
    return 0


# --- camera ----------------------------------------------------------------------------------------
def handle_camera(args: argparse.Namespace, config) -> int:
    calibrator = CameraCalibrator(SHEETS[args.sheet])
    if args.live:
        _collect_live(args, config, calibrator)
    else:
        _collect_folder(args, calibrator)
    if calibrator.views < 3:
        raise CompanionError(f"only {calibrator.views} photos show the {args.sheet.upper()} sheet well enough "
                             "(need at least 3, better 10 to 20)")
    intrinsics = calibrator.calibrate()
    k = intrinsics.matrix
    print(f"focal length {k[0, 0]:.1f} × {k[1, 1]:.1f} px, centre ({k[0, 2]:.1f}, {k[1, 2]:.1f}), "
          f"reprojection error {intrinsics.rms_px:.3f} px from {intrinsics.views} views")
    missing = calibrator.shortcomings(intrinsics)
    if missing:
        print("not good enough yet:")
        for item in missing:
            print(f"  - {item}")
        if not args.save_anyway:
            print("nothing saved (add photos, or --save-anyway)")
            return 1
    else:
        print("good enough: views, coverage and reprojection error all meet the bar")
    path = args.out or files.camera_path(config.state_dir())
    previous = files.save_intrinsics(path, intrinsics)
    print(f"saved {path}" + (f" (previous kept as {previous.name})" if previous else ""))
    return 0


def _collect_folder(args: argparse.Namespace, calibrator: CameraCalibrator) -> None:
    if not args.images.is_dir():
        raise CompanionError(f"--images {args.images}: no such folder")
    photos = sorted(p for p in args.images.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
    if not photos:
        raise CompanionError(f"--images {args.images}: no PNG or JPEG photos in it")
    for number, photo in enumerate(photos, start=1):
        try:
            image = read_image(str(photo))
        except CompanionError as exc:
            print(f"[{number:>3}/{len(photos)}] {photo.name}: skipped ({exc})")
            continue
        result = calibrator.add_view(image)
        state = "used" if result.accepted else f"skipped: {result.reason}"
        print(f"[{number:>3}/{len(photos)}] {photo.name}: {result.corners} corners, {state}; "
              f"views {calibrator.views}, coverage {calibrator.coverage:.0%}")


def _collect_live(args: argparse.Namespace, config, calibrator: CameraCalibrator) -> None:
    """Views from the configured camera until good enough, --max-views, the end of the stream or
    Ctrl-C (what was collected so far is still used)."""
    from ..vision.sources import open_source

    opened = open_source(config)
    print(f"{opened.describe()}; show the {args.sheet.upper()} sheet at many places and tilts (Ctrl-C to stop)")
    every = max(1, args.every)
    try:
        with opened.source as source:
            for frame in source:
                if frame.index % every:
                    continue
                result = calibrator.add_view(frame.image, distinct=True)
                if result.accepted:
                    print(f"view {calibrator.views}: {result.corners} corners; coverage {calibrator.coverage:.0%}")
                elif result.corners >= 4:  # the sheet is in view but not usable: say why
                    print(f"frame {frame.index}: {result.reason}")
                if calibrator.views >= args.max_views:
                    break
                enough = calibrator.views >= calibrator.min_views and not calibrator.shortcomings(None)
                if enough and not calibrator.shortcomings(calibrator.calibrate()):
                    break
    except KeyboardInterrupt:
        print("stopped; calibrating with the views so far")


# --- board -----------------------------------------------------------------------------------------
def handle_board(args: argparse.Namespace, config) -> int:
    check_overlay_path(args.overlay)
    specs = board_specs(args)
    if args.out and len(specs) > 1:
        raise CompanionError("--out names one file, but this game has several board regions: use --region")
    if args.corners and len(specs) > 1:
        raise CompanionError("--corners places one board: use --region to say which")
    image = read_image(args.image)
    camera = load_camera(config)
    overlay = image
    for spec in specs:
        location = locate(args, spec, image, camera)
        path = args.out or files.board_path(config.state_dir(), spec.region)
        previous = files.save_location(path, location)
        print(f"{spec.region}: located by {location.method}, fit error {location.error_px:.2f} px"
              f"{'' if camera else ' (no camera calibration: heights use the default focal length)'}")
        print(f"saved {path}" + (f" (previous kept as {previous.name})" if previous else ""))
        overlay = draw_location(overlay, location)
    if args.overlay:
        write_image(args.overlay, overlay)
    return 0


def locate(args: argparse.Namespace, spec: BoardSpec, image: np.ndarray, camera: Intrinsics | None) -> BoardLocation:
    height, width = image.shape[:2]
    if args.corners:
        return locate_from_corners(spec, parse_corners(args.corners), (width, height), camera)
    if args.lines:
        return locate_from_grid_lines(spec, image, camera)
    if args.thickness < 0:
        raise CompanionError(f"--thickness: expected a thickness ≥ 0 mm, got {args.thickness:g}")
    if args.markers:
        return locate_from_markers(spec, image, intrinsics=camera, surface_mm=args.thickness)
    try:  # neither said: markers when there are any, else the lines
        return locate_from_markers(spec, image, intrinsics=camera, surface_mm=args.thickness)
    except LocateError as marker_error:
        try:
            return locate_from_grid_lines(spec, image, camera)
        except LocateError as line_error:
            raise LocateError(f"{marker_error}; and from the grid lines: {line_error}; "
                              "or give the corners with --corners") from None


# --- appearance ------------------------------------------------------------------------------------
def handle_appearance(args: argparse.Namespace, config) -> int:
    from ..vision.calibration.layout_diagram import write_layout
    from ..vision.calibration.layouts import layout_for

    if not 1 <= args.frames <= 10:
        raise CompanionError(f"--frames: expected 1 to 10 good frames, got {args.frames}")
    if args.calibration and not args.region:
        raise CompanionError("--calibration locates one board region: use it with --region")
    specs = board_specs(args)
    for spec in specs:
        layout = layout_for(spec.region)
        diagram = (args.out or default_target_dir()) / f"layout-{spec.region}.png"
        if args.layout_only and args.out:
            diagram = write_layout(layout, args.out)
        print(f"{spec.region}: lay out the calibration pieces (diagram: {diagram}); row 1 runs along the "
              "mat's bottom edge:")
        for line in layout.instructions():
            print(f"  {line}")
    if args.layout_only:
        return 0
    camera = load_camera(config)
    captures: dict = {}  # region → AppearanceCapture
    failures: list[str] = []
    with closing(_appearance_frames(args, config)) as frames:  # closes the camera when enough is taken
        _capture_frames(frames, args, config, specs, camera, captures, failures)
    return _save_captures(config, specs, captures, failures)


def _capture_frames(frames, args, config, specs: list[BoardSpec], camera: Intrinsics | None,
                    captures: dict, failures: list[str]) -> None:
    from ..vision.calibration.capture import AppearanceCapture
    from ..vision.observers import observer_class

    for number, image in enumerate(frames, start=1):
        for spec in specs:
            if spec.region in failures:
                continue
            capture = captures.get(spec.region)
            if capture is None:
                if observer_class(spec.region) is None:
                    failures.append(spec.region)
                    print(f"{spec.region}: no observer for this region on this build; skipped")
                    continue
                try:
                    location = _saved_or_markers(args, config, spec, image, camera)
                except CompanionError as exc:
                    print(f"frame {number}: {spec.region}: not located: {exc}")
                    continue
                capture = captures[spec.region] = AppearanceCapture(spec.region, location, args.frames)
            if capture.progress.ok:
                continue
            progress = capture.feed(image)
            print(f"frame {number}: {spec.region}: {translate_text(progress.verdict)}")
            if progress.ok is False:
                print(f"  {translate_text(progress.step)}")
        if captures and all(c.progress.ok for c in captures.values()) and len(captures) + len(failures) == len(specs):
            break


def _appearance_frames(args: argparse.Namespace, config):
    """The frames to learn from: the given photos, folders and videos in order, or the camera's."""
    from ..vision.sources import FileSource, SourceError, open_source

    if args.camera:
        opened = open_source(config)
        print(f"{opened.describe()}; keep hands away from the table (Ctrl-C to stop)")
        every = max(1, args.every)
        with opened.source as source:
            for frame in source:
                if frame.index % every == 0:
                    yield frame.image
        return
    for name in args.source:
        path = Path(name)
        if path.is_file() and path.suffix.lower() in IMAGE_SUFFIXES:
            yield read_image(name)
            continue
        try:
            with FileSource(path) as source:
                for frame in source:
                    yield frame.image
        except SourceError as exc:
            raise CompanionError(f"--source {name}: {exc}") from None


def _saved_or_markers(args, config, spec: BoardSpec, image: np.ndarray, camera: Intrinsics | None) -> BoardLocation:
    height, width = image.shape[:2]
    saved = Path(args.calibration) if args.calibration else files.board_path(config.state_dir(), spec.region)
    if saved.exists() or args.calibration:
        return files.load_location(saved, spec.region, (width, height), camera)
    try:
        return locate_from_markers(spec, image, intrinsics=camera)
    except LocateError as exc:
        raise LocateError(f"{str(exc).removeprefix(spec.region + ': ')}; or save the board's place first: "
                          f"companion calibrate board --region {spec.region} IMAGE") from None


def _save_captures(config, specs: list[BoardSpec], captures: dict, failures: list[str]) -> int:
    unsaved = []
    for spec in specs:
        capture = captures.get(spec.region)
        if spec.region in failures:
            continue
        if capture is None or not capture.ready:
            why = "" if capture is None or capture.progress.verdict is None else \
                f" (last: {translate_text(capture.progress.verdict)})"
            unsaved.append(f"{spec.region}: no usable frame{why}")
            continue
        saved = capture.save(config.state_dir())
        print(f"{spec.region}: learned from {capture.frames_used} frame{'s' if capture.frames_used > 1 else ''}; "
              f"saved {saved.path}" + (f" (previous kept as {saved.previous.name})" if saved.previous else ""))
        if saved.set_aside:
            print(f"  the file there could not be used ({saved.set_aside_reason}); it was moved aside to "
                  f"{saved.set_aside.name}")
        if capture.frames_used < capture.frames_wanted:
            print(f"  {capture.frames_wanted - capture.frames_used} more frame(s) would make it steadier")
    if unsaved:
        raise CompanionError("nothing saved for " + "; ".join(unsaved))
    return 0


def translate_text(text: tuple[str, dict]) -> str:
    """A (msgid, params) pair from vision, in the configured language."""
    from ..i18n import translate

    return translate(text[0], None, text[1])


# --- show ------------------------------------------------------------------------------------------
def handle_show(args: argparse.Namespace, config) -> int:
    folder = files.calibration_dir(config.state_dir())
    camera_file = files.camera_path(config.state_dir())
    camera = None
    if camera_file.exists():
        try:
            camera = files.load_intrinsics(camera_file)
            k = camera.matrix
            print(f"camera: {camera.image_size[0]}×{camera.image_size[1]}, focal {k[0, 0]:.1f} px, "
                  f"error {camera.rms_px if camera.rms_px is not None else float('nan'):.3f} px, {camera.views} views")
        except CompanionError as exc:
            print(f"camera: unusable: {exc}")
    else:
        print("camera: not calibrated (heights use a default focal length of 0.8 × image width)")
    boards = sorted(folder.glob("board-*.json")) if folder.is_dir() else []
    boards = [b for b in boards if not b.name.endswith(".prev.json")]
    for path in boards:
        try:
            location = files.load_location(path, intrinsics=camera)
            print(f"{location.spec.region}: by {location.method}, {location.image_size[0]}×"
                  f"{location.image_size[1]} frames, fit error {location.error_px:.2f} px")
        except CompanionError as exc:
            print(f"{path.name}: unusable: {exc}")
    if not boards:
        print("boards: none saved (companion calibrate board ...)")
    profiles = sorted(p for p in folder.glob("appearance-*.json") if p.name.count(".json") == 1
                      and ".prev." not in p.name and ".unusable-" not in p.name) if folder.is_dir() else []
    for path in profiles:
        try:
            profile = AppearanceProfile.load(path)
            # Observers may keep measurements beside the piece classes ("outline:near" …): not pieces.
            kinds = [name for name in profile.names if not name.startswith("outline:")]
            print(f"{profile.region}: appearance of {len(kinds)} kinds of piece")
        except CompanionError as exc:
            print(f"{path.name}: unusable: {exc}")
    if not profiles:
        print("appearance: none saved (companion calibrate appearance ...)")
    return 0
