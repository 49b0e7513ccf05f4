"""A subcommand whose capability is not built yet says so clearly instead of pretending."""

from __future__ import annotations

import argparse

from ..errors import NotYetAvailable


def register_pending(subparsers: argparse._SubParsersAction, name: str, help_text: str, issue: str) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(name, help=help_text, description=f"{help_text} (not yet available: {issue})")
    parser.add_argument("rest", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)

    def handler(args: argparse.Namespace, config: object) -> int:
        raise NotYetAvailable(f"'{name}' is not available yet on this build ({issue})")

    parser.set_defaults(handler=handler)
    return parser
