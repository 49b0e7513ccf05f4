"""`companion score FILE`: the score sheet of a saved state or game."""

from __future__ import annotations

import argparse
import json

from ..games import saves
from ..games.api import Message, ScoreSheet
from ..i18n import N_, translate


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("score", help=N_("print the score sheet of a saved state or game"))
    parser.add_argument("file", help=N_("a saved state or game record (docs/formats.md)"))
    parser.add_argument("--json", action="store_true", help=N_("machine-readable output"))
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace, config) -> int:
    record = saves.load(args.file)
    final = record.final
    sheet = final.score_sheet()
    # Some games are won by a condition, not by points (The Reclamation): the state knows who won.
    winners = final.winners if final.is_over else ()
    if args.json:
        data = sheet.to_json()
        data["over"] = final.is_over
        data["winners"] = list(winners)
        print(json.dumps(data, ensure_ascii=False, indent=1))
    else:
        print("\n".join(format_sheet(sheet, config.get("general", "language"), winners)))
    return 0


def format_sheet(sheet: ScoreSheet, lang: str | None, winners: tuple[int, ...] = ()) -> list[str]:
    def say(msgid: str, **params) -> str:
        return Message.of(msgid, **params).render(lang)

    names = translate(N_(", "), lang).join
    out = [say(N_("{game} — final score") if sheet.final else N_("{game} — score so far"), game=sheet.game)]
    for player, name in enumerate(sheet.players):
        out.append(f"{name}: {sheet.total(player)}")
        for line in sheet.lines_for(player):
            detail = f" — {line.detail.render(lang)}" if line.detail else ""
            out.append(f"  {line.label.render(lang):<28} {line.points:>4}  [{line.rule_id}]{detail}")
    if sheet.tiebreak_decided() and sheet.tiebreak_label is not None:
        out.append(say(N_("tie broken by {what} [{rule}]"), what=sheet.tiebreak_label, rule=sheet.tiebreak_rule))
    if winners:
        out.append(say(N_("winner: {names}"), names=names(sheet.players[p] for p in winners)))
    elif sheet.leaders():
        out.append(say(N_("leading: {names}"), names=names(sheet.players[p] for p in sheet.leaders())))
    return out
