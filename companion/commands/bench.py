"""`companion bench TOPIC`: benchmarks whose figures go into the closing notes (never timed tests).

Each topic is a module companion/benchmarking/<topic>.py with `HELP` and
`main(argv: list[str], config) -> int`.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil

from .. import benchmarking
from ..errors import CompanionError
from ..games.api import Message
from ..i18n import N_


def topics() -> list[str]:
    return sorted(m.name for m in pkgutil.iter_modules(benchmarking.__path__) if not m.name.startswith("_"))


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("bench", help=Message.of(N_("benchmarks: {topics}"), topics=", ".join(topics())))
    parser.add_argument("topic", help=Message.of(N_("one of: {topics}"), topics=", ".join(topics())))
    parser.add_argument("rest", nargs=argparse.REMAINDER, help=N_("options of the topic (try TOPIC --help)"))
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace, config) -> int:
    if args.topic not in topics():
        raise CompanionError(message=Message.of(N_("unknown benchmark {topic}: expected one of {topics}"),
                                                topic=args.topic, topics=", ".join(topics())))
    module = importlib.import_module(f"companion.benchmarking.{args.topic}")
    return int(module.main(args.rest, config) or 0)
