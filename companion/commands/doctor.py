"""`companion doctor`: checks this device and says how to fix what is wrong."""

from __future__ import annotations

import argparse

from ..config import candidate_paths
from ..i18n import N_, translate


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("doctor", help=N_("check camera, GPIO, display, fonts, calibration, journal"))
    parser.add_argument("--config", action="store_true", help=N_("show the effective config and where each value came from"))
    parser.add_argument("--json", action="store_true", help=N_("machine-readable output"))
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace, config) -> int:
    if args.config:
        print("\n".join(config.describe(config.get("general", "language"))))
        searched = ", ".join(str(p) for p in candidate_paths())
        print("# " + translate(N_("searched: {paths}"), config.get("general", "language"), {"paths": searched}))
        return 0
    from ..diagnostics import (
        run_checks,  # device checks (camera, GPIO, fonts...) are heavier imports
    )

    return run_checks(config, as_json=args.json)
