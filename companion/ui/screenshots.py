"""`python -m companion.ui.screenshots OUTDIR`: a PNG of every screen in every language, at the
official 7" display's 800×480 and at 1280×720, driven by the fake referee (needs a display: the
Makefile runs it under scripts/with-display.sh)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from ..games.api import Message
from ..i18n import LANGUAGES, N_
from .controller import GameSetup
from .fake import DEMO_PLAYERS

SIZES = ((800, 480), (1280, 720))


def _game(h) -> None:
    h.app.start_game(GameSetup("babylon", DEMO_PLAYERS, flowers=("white", "pink", "yellow")))
    h.fake.play_move()
    h.app.poll_feed()


def _question(h) -> None:
    _game(h)
    h.fake.ask()
    h.app.poll_feed()


def _real_violation(h) -> None:
    _game(h)
    if not h.fake.real_violation():  # no Babylon engine: the demo violation
        h.fake.find_violation()
    h.app.poll_feed()


def _real_over(h) -> None:
    _game(h)
    if not h.fake.real_game_over():
        h.fake.end_game()
    h.app.poll_feed()
    sheet = h.app.session.sheet
    best = max((line for line in sheet.lines if line.pieces), key=lambda line: len(line.pieces), default=None)
    if best is not None:
        h.app.screens["score"].select(best.player, best.category)


def _tiebreak(h) -> None:
    _game(h)
    h.fake.end_game()
    h.app.poll_feed()
    h.app.screens["score"].select(1, "fountain")


def _save_failed(h) -> None:
    _game(h)
    h.fake.save_failed()
    h.app.poll_feed()


def _preparing(h) -> None:
    """The kiosk's first start after an update: the board readers compile (referee/startup.py)."""
    from ..referee.events import SourceStatus
    from ..referee.startup import PREPARING, PREPARING_STATUS

    h.app.feed.push(SourceStatus("babylon", 0, PREPARING_STATUS, Message.of(PREPARING)))
    h.app.poll_feed()


def _calibrating(h) -> None:
    h.app.go("calibration")
    screen = h.app.screens["calibration"]
    screen.begin()
    for _ in range(6):
        screen.poll()


def _layout_diagram(h) -> None:
    _game(h)
    h.app.go("calibration")
    h.app.screens["calibration"].toggle_diagram()


def _setup(h) -> None:
    _game(h)
    h.app.go("setup")
    h.app.screens["setup"].move(1)


def _editors(h) -> None:
    h.app.go("editors")
    screen = h.app.screens["editors"]
    screen.card.toggle(2, -1)
    screen.card.toggle(2, 1)
    screen.render()


def _blueprint_editor(h) -> None:
    h.app.go("editors")
    screen = h.app.screens["editors"]
    screen.kind = "babel.blueprint"
    for cell, count in (("C1", 3), ("B2", 8), ("A3", 3)):  # the rulebook's example blueprint
        screen.blueprint.bump(cell, count)
    screen.render()


def _tile_editor(h) -> None:
    h.app.go("editors")
    screen = h.app.screens["editors"]
    screen.kind = "babylon.tile"
    screen.tile.cycle_material()  # granite: 3 icons
    for space, turns in ((0, 1), (1, 2), (2, 4)):
        for _ in range(turns):
            screen.tile.cycle_icon(space)
    screen.render()


def _kana_pad(h) -> None:
    home = h.app.screens["home"]
    home.names[0] = "さとう"
    home.edit_name(0)


def _names_used_before(h) -> None:
    h.app.names.remember(["陳美玲", "さとう", "Aiko", "Ben"])  # in memory: the harness has no state folder
    h.app.screens["home"].render()


def _new_game_while_playing(h) -> None:
    _game(h)
    h.app.go("home")
    h.app.screens["home"].start()


def _start_refused(h) -> None:
    _game(h)
    h.fake.games = ("reclamation",)  # Babylon cannot start here: the home screen says why
    h.app.go("home")
    h.app.screens["home"].start(confirmed=True)  # past "a game is under way: start a new one?"


def _camera_refused(h) -> None:
    h.fake.broken_cameras = ("opencv",)
    h.app.go("settings")
    h.app.screens["settings"].set_camera("opencv")
    h.fake.finish_camera_switch()
    h.app.screens["settings"].poll_switch()


def _camera_switching(h) -> None:
    """Another camera chosen: it opens and its readers build in the background (a cold build
    compiles for half a minute or more), the old source still refereeing the game meanwhile."""
    _game(h)
    h.app.go("settings")
    h.app.screens["settings"].set_camera("opencv")
    h.app.screens["settings"].poll_switch()


def _frame_refused(h) -> None:
    """A calibration frame with pieces out of place: the verdict names them in the player's words."""
    from ..referee.controls import verdict_message
    from ..referee.interface import CalibrationProgress
    from ..vision.calibration.capture import Misread

    misread = Misread(2, 4, ("pillar2", {"level": 3}),
                      ("tile", {"level": 1, "tile": "r2c4", "flower": "flower1", "icon": "fountain"}))
    verdict = verdict_message((N_("The pieces are not where the layout puts them: {count} of {total} places read "
                                  "differently, for example row {row}, column {col}: expected {expected}, seen "
                                  "{seen}."), {"count": 9, "total": 64, "row": 3, "col": 5, "expected": "pillar2",
                                               "seen": "tile"}), (misread,))
    _calibrating(h)
    screen = h.app.screens["calibration"]
    h.fake.calibration_progress = lambda: CalibrationProgress(0.33, screen.progress.view, step=Message.of(
        N_("Put it right, then take frame {number} of {wanted}."), number=2, wanted=3), verdict=verdict)
    screen.poll()


def _screen_failed(h) -> None:
    """A screen whose data cannot be shown (a game missing from the journal): it says why in the
    player's language and offers the way back, instead of closing the kiosk."""
    from ..errors import ErrorText, FormatError

    def broken():
        raise FormatError("/var/lib/companion/journal.sqlite", "games[3]", ErrorText.of(N_("no such game in the journal")))

    _real_over(h)
    h.app.screens["score"].build_content = broken


def _screen_bug(h) -> None:
    """A screen that fails on a bug: the heading and the way back in the player's language, the
    bug's own (English) words as a detail for whoever looks after the kiosk."""
    def broken():
        raise KeyError("fountain")

    _real_over(h)
    h.app.screens["score"].build_content = broken


# name -> (how to get there, the screen to show)
SHOTS: dict[str, tuple[Callable, str]] = {
    "home": (lambda h: None, "home"),
    "names": (_names_used_before, "home"),
    "kana": (_kana_pad, "home"),
    "confirm": (_new_game_while_playing, "home"),
    "setup": (_setup, "setup"),
    "calibration": (_calibrating, "calibration"),
    "layout": (_layout_diagram, "calibration"),
    "live": (_game, "live"),
    "preparing": (_preparing, "live"),
    "save_failed": (_save_failed, "live"),
    "ruling": (_real_violation, "ruling"),
    "question": (_question, "ruling"),
    "hints": (_game, "hints"),
    "score": (_real_over, "score"),
    "tiebreak": (_tiebreak, "score"),
    "editors": (_editors, "editors"),
    "blueprint": (_blueprint_editor, "editors"),
    "tile": (_tile_editor, "editors"),
    "settings": (lambda h: None, "settings"),
    "refused": (_start_refused, "home"),
    "camera_refused": (_camera_refused, "settings"),
    "camera_switching": (_camera_switching, "settings"),
    "camera_switching_live": (_camera_switching, "live"),
    "frame_refused": (_frame_refused, "calibration"),
    "screen_failed": (_screen_failed, "score"),
    "screen_bug": (_screen_bug, "score"),
}


def take_all(outdir: Path, sizes=SIZES, languages=LANGUAGES, shots=None) -> list[Path]:
    from .harness import Harness

    written = []
    for width, height in sizes:
        for lang in languages:
            for name in shots or SHOTS:
                prepare_screen, screen = SHOTS[name]
                harness = Harness(width, height, lang)
                try:
                    prepare_screen(harness)
                    harness.app.go(screen)
                    written.append(harness.screenshot(outdir / f"{name}-{lang}-{width}x{height}.png"))
                finally:
                    harness.close()
    return written


CAPTIONS = {
    "home": "Home: game, players and seats, Babylon flowers, variant, language",
    "names": "Home: names used before at this table, to tap (no keyboard needed)",
    "kana": "Home: the kana pad for a Japanese name",
    "confirm": "Home: starting a new game while one is under way asks first",
    "setup": "Set-up wizard: this player number's counts, with the rule behind them",
    "calibration": "Calibration: the steps, the camera with its detections, progress",
    "layout": "Calibration: the game's layout diagram (where each calibration piece goes)",
    "live": "Live view: camera with overlays, whose turn, what to do now, the last ruling",
    "preparing": "Live view at start-up: the board readers are being prepared (their kernels compile)",
    "save_failed": "Live view: the last change could not be saved (a full card); the referee looks again",
    "ruling": "Ruling: a violation the Babylon engine found, its rule and rulebook place, the spot",
    "question": "Ruling: the camera is unsure, the players choose",
    "hints": "Hints: the next step and suggestions",
    "score": "Score sheet of a finished Babylon game; tapped line's pieces lit on the garden",
    "tiebreak": "Score sheet where the tie-break decides",
    "editors": "Editor: a Reclamation card pattern",
    "blueprint": "Editor: a Babel blueprint (the rulebook's example)",
    "tile": "Editor: a Babylon tile's icons",
    "settings": "Settings: language, sound, camera, calibration, pins, about",
    "refused": "Home: a game that cannot start here, and why, in the player's language",
    "camera_refused": "Settings: a camera that cannot be used, and why; the old one is kept",
    "camera_switching": "Settings: another camera chosen; its board readers are prepared while the old one runs",
    "camera_switching_live": "Live view while another camera's board readers are prepared: the game goes on",
    "frame_refused": "Calibration: a frame refused, naming the misplaced pieces in words",
    "screen_failed": "A screen whose data cannot be shown: why, in the player's language, and the way back",
    "screen_bug": "A screen that fails on a bug: the way back, and the bug's own words for whoever looks after the kiosk",
}


def write_index(outdir: Path, sizes=SIZES, languages=LANGUAGES) -> Path:
    """docs/screenshots/README.md: every picture, a row per screen and a column per language."""
    lines = ["# Screenshots", "", "Generated by `make screenshots` (python -m companion.ui.screenshots) with the",
             "fake referee and, where installed, real engine positions. Do not edit by hand.", ""]
    for width, height in sizes:
        lines += [f"## {width}×{height}", "", "| screen | " + " | ".join(languages) + " |",
                  "|---|" + "---|" * len(languages)]
        for name in SHOTS:
            cells = [f"![{name} {lang}]({name}-{lang}-{width}x{height}.png)" for lang in languages]
            lines.append(f"| {CAPTIONS.get(name, name)} | " + " | ".join(cells) + " |")
        lines.append("")
    path = outdir / "README.md"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m companion.ui.screenshots OUTDIR", file=sys.stderr)
        return 2
    for path in take_all(Path(args[0])):
        print(path)
    print(write_index(Path(args[0])))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
