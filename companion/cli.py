"""The `companion` command. Each subcommand lives in companion/commands/<name>.py and provides
`register(subparsers)`, which adds its parser and sets `handler(args, config) -> int`."""

from __future__ import annotations

import argparse
import importlib
import logging
import sys

from . import __version__
from .commands.help_text import PlayerArgumentParser, help_language, translate_parser
from .config import load_config
from .errors import CompanionError
from .i18n import N_, translate

SUBCOMMANDS = ("run", "score", "check", "recognise", "calibrate", "bench", "doctor", "replay", "games", "cards")

log = logging.getLogger("companion")


def build_parser(lang: str | None = None) -> argparse.ArgumentParser:
    """The whole command line, its help in `lang` (see companion/cli_help.py)."""
    parser = PlayerArgumentParser(  # its errors in the player's language
        prog="companion",
        description=N_("Table Companion: watches a board game through a camera, referees, scores and teaches it."),
    )
    parser.add_argument("--version", action="version", version=f"companion {__version__}")
    parser.add_argument("-v", "--verbose", action="count", default=0, help=N_("more log output (-vv for debug)"))
    parser.add_argument("--lang", help=N_("language for this run: en, ja or zh_TW (default: from config)"))
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in SUBCOMMANDS:
        importlib.import_module(f"companion.commands.{name}").register(subparsers)
    translate_parser(parser, lang)
    return parser


def setup_logging(level_name: str, verbose: int) -> None:
    level = getattr(logging, level_name, logging.INFO)
    if verbose:
        level = logging.DEBUG if verbose > 1 else min(level, logging.INFO)
    logging.basicConfig(level=level, stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s")


def main(argv: list[str] | None = None) -> int:
    parser = build_parser(help_language(sys.argv[1:] if argv is None else argv))
    args = parser.parse_args(argv)
    if not args.command:
        parser.print_help()
        return 0
    config = None
    try:
        config = load_config()
        if args.lang:
            config.values["general"]["language"] = args.lang
            config.origins["general"]["language"] = "--lang"
        setup_logging(config.get("general", "log_level"), args.verbose)
        return int(args.handler(args, config) or 0)
    except CompanionError as exc:
        print(f"companion {args.command}: {exc.render(_run_language(args, config))}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        said = translate(N_("interrupted"), _run_language(args, config))
        print(f"companion {args.command}: {said}", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


def _run_language(args: argparse.Namespace, config) -> str | None:
    """The run's language: --lang, else the config's; English when the config itself is bad."""
    return args.lang or (config.get("general", "language") if config is not None else None)


if __name__ == "__main__":
    raise SystemExit(main())
