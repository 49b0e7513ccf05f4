"""`companion replay DIR|VIDEO`: run recorded scenes or frames through the referee."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..errors import CompanionError
from ..games.api import Message
from ..i18n import N_


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "replay", help=N_("run recorded frames (or scenes from companion run --record) through the referee"),
        description=N_("Replay a recording through the same path as companion run: a folder written by "
        "companion run --record, or an image folder / video file (frames → motion gate → locator → "
        "observers → referee; needs the board calibration and appearance profiles)."),
    )
    parser.add_argument("path", type=Path, help=N_("a --record folder, an image folder or a video file"))
    parser.add_argument("--game", help=N_("the game being played (frames only; a --record folder says it)"))
    parser.add_argument("--start", type=Path, help=N_("a saved state to start from (default: a new game)"))
    parser.add_argument("--journal", type=Path, help=N_("keep the replay's journal here (default: a temporary one)"))
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace, config) -> int:
    from ..referee.console import Console
    from ..referee.replay import describe, replay

    if not args.path.exists():
        raise CompanionError(message=Message.of(N_("replay: {path}: no such file or folder"), path=str(args.path)))
    lang = config.get("general", "language")
    console = Console(lang)
    result = replay(args.path, game=args.game, start=args.start, state_dir=config.state_dir(),
                    journal_path=args.journal, console=console, out=sys.stdout, lang=lang)
    print(describe(result, lang))
    return 0
