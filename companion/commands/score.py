"""`companion score FILE`: the score sheet of a saved state or game."""

from __future__ import annotations

import argparse
import json

from ..games import saves
from ..games.api import ScoreSheet
from ..i18n import translate


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("score", help="print the score sheet of a saved state or game")
    parser.add_argument("file", help="a saved state or game record (docs/formats.md)")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace, config) -> int:
    record = saves.load(args.file)
    sheet = record.final.score_sheet()
    if args.json:
        print(json.dumps(sheet.to_json(), ensure_ascii=False, indent=1))
    else:
        print("\n".join(format_sheet(sheet, config.get("general", "language"))))
    return 0


def format_sheet(sheet: ScoreSheet, lang: str | None) -> list[str]:
    out = [f"{sheet.game} — {'final score' if sheet.final else 'score so far'}"]
    for player, name in enumerate(sheet.players):
        out.append(f"{name}: {sheet.total(player)}")
        for line in sheet.lines_for(player):
            detail = f" — {line.detail.render(lang)}" if line.detail else ""
            out.append(f"  {line.label.render(lang):<28} {line.points:>4}  [{line.rule_id}]{detail}")
    leaders = ", ".join(sheet.players[p] for p in sheet.leaders())
    if sheet.tiebreak_decided() and sheet.tiebreak_label is not None:
        out.append(f"tie broken by {sheet.tiebreak_label.render(lang)} [{sheet.tiebreak_rule}]")
    out.append(f"{'winner' if sheet.final else 'leading'}: {leaders}" if leaders else "no players")
    _ = translate  # texts above are rendered through Message.render (gettext)
    return out
