"""`companion calibrate`: printable targets, camera intrinsics and where each board lies.

The steps: STEPS below, as `companion calibrate --help` shows them.

File formats: docs/calibration.md. A corrupt calibration file is reported and left as it is.
"""

from __future__ import annotations

import argparse
from contextlib import closing
from pathlib import Path

import numpy as np

from ..diagnostics import CAMERA_NOT_MEASURED
from ..errors import CompanionError
from ..games.api import Message
from ..i18n import N_, NP_
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
STEPS = N_("""\
  calibrate target [--sheet a4|a3|all] [--out DIR]        ChArUco sheet, PNG + true-scale PDF
  calibrate mat (--game G | --region R | --grid RxC) [--paper a4|a3] [--stickers] [--out DIR]
  calibrate camera (--images DIR | --live) [--sheet a4|a3]  intrinsics → <state>/calibration/camera.json
  calibrate board (--game G | --region R | --grid RxC) IMAGE [--markers | --lines | --corners X1,Y1,...]
                                                          → <state>/calibration/board-<region>.json
  calibrate appearance (--game G | --region R) (--source FILE|DIR ... | --live | --layout-only)
                       [--frames N] [--calibration FILE]  → <state>/calibration/appearance-<region>.json
  calibrate show                                          what is calibrated, and how well
""")
METHOD_NAMES = {"markers": N_("markers"), "gridlines": N_("grid lines"), "corners": N_("corners")}  # locate.METHODS


def _lang(config) -> str | None:
    return config.get("general", "language")


def _say(lang: str | None, msgid: str, indent: str = "", **params) -> None:
    """Print one translated line (the setup person reads these in the configured language)."""
    print(indent + Message.of(msgid, **params).render(lang))


def _refuse(msgid: str, **params) -> CompanionError:
    return CompanionError(message=Message.of(msgid, **params))


def _saved(lang: str | None, path: Path, previous: Path | None) -> None:
    if previous:
        _say(lang, N_("saved {path} (previous kept as {previous})"), path=str(path), previous=previous.name)
    else:
        _say(lang, N_("saved {path}"), path=str(path))


def default_target_dir() -> Path:
    """The project's calibration/ folder in a checkout, else ./calibration."""
    checkout = Path(__file__).resolve().parents[2] / "calibration"
    return checkout if checkout.is_dir() else Path("calibration")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "calibrate", help=N_("calibration: printable targets, camera intrinsics, board location"),
        description=STEPS, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    steps = parser.add_subparsers(dest="step", metavar="STEP", required=True)

    target = steps.add_parser("target", help=N_("write the ChArUco camera sheet (PNG and PDF)"))
    target.add_argument("--sheet", choices=(*SHEETS, "all"), default="all")
    target.add_argument("--out", type=Path, help=N_("folder (default: the project's calibration/)"))
    target.set_defaults(handler=handle_target)

    mat = steps.add_parser("mat", help=N_("write the marker mat of a board, or marker stickers"))
    add_board_options(mat)
    mat.add_argument("--paper", choices=tuple(targets.PAPER_MM), help=N_("default: the smallest that fits"))
    mat.add_argument("--stickers", action="store_true", help=N_("four marker stickers instead of a mat"))
    mat.add_argument("--out", type=Path, help=N_("folder (default: the project's calibration/)"))
    mat.set_defaults(handler=handle_mat)

    camera = steps.add_parser("camera", help=N_("measure the camera's intrinsics from photos of the sheet"))
    where = camera.add_mutually_exclusive_group(required=True)
    where.add_argument("--images", type=Path, help=N_("folder of photos of the ChArUco sheet"))
    where.add_argument("--live", action="store_true",
                       help=N_("take views from the configured camera ([camera] source); move the sheet around"))
    camera.add_argument("--every", type=int, default=15, metavar="N",
                        help=N_("with --live: look at every Nth frame (default 15, about 2 per second)"))
    camera.add_argument("--max-views", type=int, default=25, help=N_("with --live: stop after this many views"))
    camera.add_argument("--sheet", choices=tuple(SHEETS), default="a4")
    camera.add_argument("--out", type=Path, help=N_("default: <state dir>/calibration/camera.json"))
    camera.add_argument("--save-anyway", action="store_true", help=N_("save even when not yet good enough"))
    camera.set_defaults(handler=handle_camera)

    board = steps.add_parser("board", help=N_("find where a board lies in the camera's view and save it"))
    add_board_options(board)
    board.add_argument("image", help=N_("a photo from the camera in its final place"))
    how = board.add_mutually_exclusive_group()
    how.add_argument("--markers", action="store_true", help=N_("from the mat's or stickers' markers"))
    how.add_argument("--lines", action="store_true", help=N_("from the board's own grid lines"))
    how.add_argument("--corners", metavar="X1,Y1,...,X4,Y4",
                     help=N_("the board's corners in pixels: top-left, top-right, bottom-right, bottom-left"))
    board.add_argument("--thickness", type=float, default=0.0, metavar="MM",
                       help=N_("with markers on a mat under the board: the board's thickness (default 0)"))
    board.add_argument("--overlay", metavar="OUT.png", help=N_("also write the photo with the board drawn on it"))
    board.add_argument("--out", type=Path, help=N_("default: <state dir>/calibration/board-<region>.json"))
    board.set_defaults(handler=handle_board)

    appearance = steps.add_parser(
        "appearance", help=N_("learn how the pieces look from 1-3 frames of the calibration layout"),
        description=N_("Lay out the calibration pieces as calibration/layout-<region>.png shows, then give "
        "1-3 photos of it (or take them from the camera). Each board region is located (its saved board "
        "calibration, else the mat's markers), each frame is checked, and the profile is learned."))
    which = appearance.add_mutually_exclusive_group(required=True)
    which.add_argument("--game", help=N_("a game: every board region it is read from"))
    which.add_argument("--region", help=Message.of(N_("one board region: {choices}"), choices=", ".join(REGIONS)))
    source = appearance.add_mutually_exclusive_group(required=True)
    source.add_argument("--source", nargs="+", metavar="FILE|DIR",
                        help=N_("photos (PNG, JPEG), folders of photos or a video of the laid-out layout"))
    source.add_argument("--live", "--camera", dest="camera", action="store_true",
                        help=N_("take the frames from the configured camera (as `calibrate camera --live`)"))
    source.add_argument("--layout-only", action="store_true",
                        help=N_("only say what to lay where (and write the layout diagram with --out)"))
    appearance.add_argument("--frames", type=int, default=3, metavar="N", help=N_("good frames to take (1-10, default 3)"))
    appearance.add_argument("--every", type=int, default=10, metavar="K",
                            help=N_("with --live: look at every Kth frame (default 10)"))
    appearance.add_argument("--calibration", metavar="FILE", help=N_("a board calibration file (with --region)"))
    appearance.add_argument("--out", type=Path, help=N_("with --layout-only: folder for layout-<region>.png"))
    appearance.set_defaults(handler=handle_appearance, grid=None)

    show = steps.add_parser("show", help=N_("list the saved calibrations"))
    show.set_defaults(handler=handle_show)


# --- targets ---------------------------------------------------------------------------------------
def handle_target(args: argparse.Namespace, config) -> int:
    lang = _lang(config)
    folder = args.out or default_target_dir()
    names = list(SHEETS) if args.sheet == "all" else [args.sheet]
    for name in names:
        sheet = SHEETS[name]
        for path in targets.write_target(targets.charuco_target(sheet), folder):
            _say(lang, N_("wrote {path}"), path=str(path))
        _say(lang, N_("{sheet}: {columns}×{rows} squares of {size} mm; print at 100 % and check the 100 mm ruler"),
             "  ", sheet=name.upper(), columns=sheet.squares[0], rows=sheet.squares[1], size=f"{sheet.square_mm:g}")
    return 0


def handle_mat(args: argparse.Namespace, config) -> int:
    lang = _lang(config)
    folder = args.out or default_target_dir()
    for spec in board_specs(args):
        paper = args.paper or targets.smallest_paper(spec)
        if args.stickers or paper is None:
            if paper is None and not args.stickers:
                _say(lang, N_("{board}: the mat does not fit on A3; writing marker stickers instead"),
                     board=spec.region)
            target = targets.sticker_target(spec)
        else:
            try:
                target = targets.mat_target(spec, paper)
            except ValueError as exc:
                raise _refuse(N_("--paper {paper}: the mat does not fit ({detail}); try --paper a3 or --stickers"),
                              paper=paper, detail=exc) from None
        for path in targets.write_target(target, folder):
            _say(lang, N_("wrote {path}"), path=str(path))
    return 0


# --- camera ----------------------------------------------------------------------------------------
def handle_camera(args: argparse.Namespace, config) -> int:
    lang = _lang(config)
    calibrator = CameraCalibrator(SHEETS[args.sheet])
    if args.live:
        _collect_live(args, config, calibrator)
    else:
        _collect_folder(args, calibrator, lang)
    if calibrator.views < 3:
        raise _refuse(NP_("only {count} photo shows the {sheet} sheet well enough (need at least 3, better 10 to 20)",
                          "only {count} photos show the {sheet} sheet well enough (need at least 3, better 10 to 20)"),
                      count=calibrator.views, sheet=args.sheet.upper())
    intrinsics = calibrator.calibrate()
    k = intrinsics.matrix
    _say(lang, N_("focal length {fx} × {fy} px, centre ({cx}, {cy}), reprojection error {error} px from {views} views"),
         fx=f"{k[0, 0]:.1f}", fy=f"{k[1, 1]:.1f}", cx=f"{k[0, 2]:.1f}", cy=f"{k[1, 2]:.1f}",
         error=f"{intrinsics.rms_px:.3f}", views=intrinsics.views)
    missing = calibrator.shortcomings(intrinsics)
    if missing:
        _say(lang, N_("not good enough yet:"))
        for item in missing:
            print(f"  - {item.render(lang)}")
        if not args.save_anyway:
            _say(lang, N_("nothing saved (add photos, or --save-anyway)"))
            return 1
    else:
        _say(lang, N_("good enough: views, coverage and reprojection error all meet the bar"))
    path = args.out or files.camera_path(config.state_dir())
    previous = files.save_intrinsics(path, intrinsics)
    _saved(lang, path, previous)
    return 0


def _collect_folder(args: argparse.Namespace, calibrator: CameraCalibrator, lang: str | None) -> None:
    if not args.images.is_dir():
        raise _refuse(N_("--images {folder}: no such folder"), folder=str(args.images))
    photos = sorted(p for p in args.images.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
    if not photos:
        raise _refuse(N_("--images {folder}: no PNG or JPEG photos in it"), folder=str(args.images))
    for number, photo in enumerate(photos, start=1):
        counter = f"[{number:>3}/{len(photos)}] {photo.name}: "
        try:
            image = read_image(str(photo))
        except CompanionError as exc:
            _say(lang, N_("skipped ({reason})"), counter, reason=exc)
            continue
        result = calibrator.add_view(image)
        if result.accepted:
            _say(lang, N_("{corners} corners, used; views {views}, coverage {coverage}"), counter,
                 corners=result.corners, views=calibrator.views, coverage=f"{calibrator.coverage:.0%}")
        else:
            _say(lang, N_("{corners} corners, skipped: {reason}; views {views}, coverage {coverage}"), counter,
                 corners=result.corners, reason=result.reason, views=calibrator.views,
                 coverage=f"{calibrator.coverage:.0%}")


def _collect_live(args: argparse.Namespace, config, calibrator: CameraCalibrator) -> None:
    """Views from the configured camera until good enough, --max-views, the end of the stream or
    Ctrl-C (what was collected so far is still used)."""
    from ..vision.sources import open_source

    lang = _lang(config)
    opened = open_source(config)
    _say(lang, N_("{camera}; show the {sheet} sheet at many places and tilts (Ctrl-C to stop)"),
         camera=opened.describe(), sheet=args.sheet.upper())
    every = max(1, args.every)
    try:
        with opened.source as source:
            for frame in source:
                if frame.index % every:
                    continue
                result = calibrator.add_view(frame.image, distinct=True)
                if result.accepted:
                    _say(lang, N_("view {view}: {corners} corners; coverage {coverage}"), view=calibrator.views,
                         corners=result.corners, coverage=f"{calibrator.coverage:.0%}")
                elif result.corners >= 4:  # the sheet is in view but not usable: say why
                    _say(lang, N_("frame {frame}: {reason}"), frame=frame.index, reason=result.reason)
                if calibrator.views >= args.max_views:
                    break
                enough = calibrator.views >= calibrator.min_views and not calibrator.shortcomings(None)
                if enough and not calibrator.shortcomings(calibrator.calibrate()):
                    break
    except KeyboardInterrupt:
        _say(lang, N_("stopped; calibrating with the views so far"))


# --- board -----------------------------------------------------------------------------------------
def handle_board(args: argparse.Namespace, config) -> int:
    lang = _lang(config)
    check_overlay_path(args.overlay)
    specs = board_specs(args)
    if args.out and len(specs) > 1:
        raise _refuse(N_("--out names one file, but this game has several board regions: use --region"))
    if args.corners and len(specs) > 1:
        raise _refuse(N_("--corners places one board: use --region to say which"))
    image = read_image(args.image)
    camera = load_camera(config)
    overlay = image
    for spec in specs:
        location = locate(args, spec, image, camera)
        path = args.out or files.board_path(config.state_dir(), spec.region)
        previous = files.save_location(path, location)
        _say(lang, N_("{board}: located by {method}, fit error {error} px"), board=spec.region,
             method=Message.of(METHOD_NAMES.get(location.method, location.method)), error=f"{location.error_px:.2f}")
        _saved(lang, path, previous)
        overlay = draw_location(overlay, location)
    if not camera:  # heights use a default focal length, and small marker misreads bend the board more
        _say(lang, CAMERA_NOT_MEASURED)
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
        raise _refuse(N_("--thickness: expected a thickness ≥ 0 mm, got {value}"), value=f"{args.thickness:g}")
    if args.markers:
        return locate_from_markers(spec, image, intrinsics=camera, surface_mm=args.thickness)
    try:  # neither said: markers when there are any, else the lines
        return locate_from_markers(spec, image, intrinsics=camera, surface_mm=args.thickness)
    except LocateError as marker_error:
        try:
            return locate_from_grid_lines(spec, image, camera)
        except LocateError as line_error:
            raise LocateError(message=Message.of(
                N_("{markers}; and from the grid lines: {lines}; or give the corners with --corners"),
                markers=marker_error, lines=line_error)) from None


# --- appearance ------------------------------------------------------------------------------------
def handle_appearance(args: argparse.Namespace, config) -> int:
    from ..vision.calibration.layout_diagram import write_layout
    from ..vision.calibration.layouts import layout_for

    lang = _lang(config)
    if not 1 <= args.frames <= 10:
        raise _refuse(N_("--frames: expected 1 to 10 good frames, got {value}"), value=args.frames)
    if args.calibration and not args.region:
        raise _refuse(N_("--calibration locates one board region: use it with --region"))
    specs = board_specs(args)
    for spec in specs:
        layout = layout_for(spec.region)
        diagram = (args.out or default_target_dir()) / f"layout-{spec.region}.png"
        if args.layout_only and args.out:
            diagram = write_layout(layout, args.out)
        _say(lang, N_("{board}: lay out the calibration pieces (diagram: {diagram}); row 1 runs along the "
                      "mat's bottom edge:"), board=spec.region, diagram=str(diagram))
        for row, texts in enumerate(layout.texts(), start=1):
            for column, text in enumerate(texts, start=1):
                if text:
                    _say(lang, N_("row {row}, column {column}: {text}"), "  ", row=row, column=column,
                         text=Message.of(text[0], **text[1]))
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

    lang = _lang(config)
    for number, image in enumerate(frames, start=1):
        for spec in specs:
            if spec.region in failures:
                continue
            capture = captures.get(spec.region)
            if capture is None:
                if observer_class(spec.region) is None:
                    failures.append(spec.region)
                    _say(lang, N_("{board}: no observer for this region on this build; skipped"),
                         board=spec.region)
                    continue
                try:
                    location = _saved_or_markers(args, config, spec, image, camera)
                except CompanionError as exc:
                    _say(lang, N_("frame {frame}: {board}: not located: {reason}"), frame=number,
                         board=spec.region, reason=exc)
                    continue
                capture = captures[spec.region] = AppearanceCapture(spec.region, location, args.frames)
            if capture.progress.ok:
                continue
            progress = capture.feed(image)
            _say(lang, N_("frame {frame}: {board}: {verdict}"), frame=number, board=spec.region,
                 verdict=translate_text(progress.verdict, lang))
            if progress.ok is False:
                print("  " + translate_text(progress.step, lang))
        if captures and all(c.progress.ok for c in captures.values()) and len(captures) + len(failures) == len(specs):
            break


def _appearance_frames(args: argparse.Namespace, config):
    """The frames to learn from: the given photos, folders and videos in order, or the camera's."""
    from ..vision.sources import FileSource, SourceError, open_source

    if args.camera:
        opened = open_source(config)
        _say(_lang(config), N_("{camera}; keep hands away from the table (Ctrl-C to stop)"), camera=opened.describe())
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
            raise _refuse(N_("--source {name}: {reason}"), name=name, reason=exc) from None


def _saved_or_markers(args, config, spec: BoardSpec, image: np.ndarray, camera: Intrinsics | None) -> BoardLocation:
    height, width = image.shape[:2]
    saved = Path(args.calibration) if args.calibration else files.board_path(config.state_dir(), spec.region)
    if saved.exists() or args.calibration:
        return files.load_location(saved, spec.region, (width, height), camera)
    try:
        return locate_from_markers(spec, image, intrinsics=camera)
    except LocateError as exc:
        raise LocateError(message=Message.of(N_("{reason}; or save the board's place first: {command}"), reason=exc,
                                             command=f"companion calibrate board --region {spec.region} IMAGE")) from None


def _save_captures(config, specs: list[BoardSpec], captures: dict, failures: list[str]) -> int:
    lang = _lang(config)
    unsaved: list[Message] = []
    for spec in specs:
        capture = captures.get(spec.region)
        if spec.region in failures:
            continue
        if capture is None or not capture.ready:
            if capture is None or capture.progress.verdict is None:
                unsaved.append(Message.of(N_("{board}: no usable frame"), board=spec.region))
            else:
                verdict = capture.progress.verdict
                unsaved.append(Message.of(N_("{board}: no usable frame (last: {verdict})"), board=spec.region,
                                          verdict=Message.of(verdict[0], **verdict[1])))
            continue
        saved = capture.save(config.state_dir())
        _say(lang, NP_("{board}: learned from {count} frame", "{board}: learned from {count} frames"),
             board=spec.region, count=capture.frames_used)
        _saved(lang, saved.path, saved.previous)
        if saved.set_aside:
            _say(lang, N_("the file there could not be used ({reason}); it was moved aside to {name}"), "  ",
                 reason=saved.set_aside_error or saved.set_aside_reason, name=saved.set_aside.name)
        if capture.frames_used < capture.frames_wanted:
            _say(lang, NP_("{count} more frame would make it steadier", "{count} more frames would make it steadier"),
                 "  ", count=capture.frames_wanted - capture.frames_used)
    if unsaved:
        raise _refuse(N_("nothing saved for {boards}"), boards=tuple(unsaved))
    return 0


def translate_text(text: tuple[str, dict], lang: str | None = None) -> str:
    """A (msgid, params) pair from vision, in `lang` (identifiers such as colours by their names)."""
    return Message.of(text[0], **text[1]).render(lang)


# --- show ------------------------------------------------------------------------------------------
def handle_show(args: argparse.Namespace, config) -> int:
    lang = _lang(config)
    folder = files.calibration_dir(config.state_dir())
    camera_file = files.camera_path(config.state_dir())
    camera = None
    if camera_file.exists():
        try:
            camera = files.load_intrinsics(camera_file)
            k = camera.matrix
            _say(lang, N_("camera: {width}×{height}, focal {focal} px, error {error} px, {views} views"),
                 width=camera.image_size[0], height=camera.image_size[1], focal=f"{k[0, 0]:.1f}",
                 error=f"{camera.rms_px if camera.rms_px is not None else float('nan'):.3f}", views=camera.views)
        except CompanionError as exc:
            _say(lang, N_("camera: unusable: {reason}"), reason=exc)
    else:
        _say(lang, N_("camera: not calibrated (heights use a default focal length of 0.8 × image width)"))
        _say(lang, CAMERA_NOT_MEASURED, "  ")
    boards = sorted(folder.glob("board-*.json")) if folder.is_dir() else []
    boards = [b for b in boards if not b.name.endswith(".prev.json")]
    for path in boards:
        try:
            location = files.load_location(path, intrinsics=camera)
            _say(lang, N_("{board}: by {method}, {width}×{height} frames, fit error {error} px"),
                 board=location.spec.region, method=Message.of(METHOD_NAMES.get(location.method, location.method)), width=location.image_size[0],
                 height=location.image_size[1], error=f"{location.error_px:.2f}")
        except CompanionError as exc:
            _say(lang, N_("{name}: unusable: {reason}"), name=path.name, reason=exc)
    if not boards:
        _say(lang, N_("boards: none saved ({command})"), command="companion calibrate board ...")
    profiles = sorted(p for p in folder.glob("appearance-*.json") if p.name.count(".json") == 1
                      and ".prev." not in p.name and ".unusable-" not in p.name) if folder.is_dir() else []
    for path in profiles:
        try:
            profile = AppearanceProfile.load(path)
            # Observers may keep measurements beside the piece classes ("outline:near" …): not pieces.
            kinds = [name for name in profile.names if not name.startswith("outline:")]
            _say(lang, NP_("{board}: appearance of {count} kind of piece", "{board}: appearance of {count} kinds of piece"),
                 board=profile.region, count=len(kinds))
        except CompanionError as exc:
            _say(lang, N_("{name}: unusable: {reason}"), name=path.name, reason=exc)
    if not profiles:
        _say(lang, N_("appearance: none saved ({command})"), command="companion calibrate appearance ...")
    return 0
