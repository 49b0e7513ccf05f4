"""`python -m companion.ui.screenshots OUTDIR`: a PNG of every screen in every language, at the
official 7" display's 800×480 and at 1280×720, driven by the fake referee (needs a display: the
Makefile runs it under scripts/with-display.sh)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from ..i18n import LANGUAGES
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


def _calibrating(h) -> None:
    h.app.go("calibration")
    screen = h.app.screens["calibration"]
    screen.begin()
    for _ in range(6):
        screen.poll()


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


# name -> (how to get there, the screen to show)
SHOTS: dict[str, tuple[Callable, str]] = {
    "home": (lambda h: None, "home"),
    "setup": (_setup, "setup"),
    "calibration": (_calibrating, "calibration"),
    "live": (_game, "live"),
    "ruling": (_real_violation, "ruling"),
    "question": (_question, "ruling"),
    "hints": (_game, "hints"),
    "score": (_real_over, "score"),
    "tiebreak": (_tiebreak, "score"),
    "editors": (_editors, "editors"),
    "blueprint": (_blueprint_editor, "editors"),
    "tile": (_tile_editor, "editors"),
    "settings": (lambda h: None, "settings"),
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


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m companion.ui.screenshots OUTDIR", file=sys.stderr)
        return 2
    for path in take_all(Path(args[0])):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
