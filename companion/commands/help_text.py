"""The command line's help in the player's language.

The parser is built with English msgids (`help=N_("…")`, `description=N_("…")`; a help with a list
in it is a Message) and then translated as a whole, once the language is known: `--lang` on the
command line, else the configuration file's language, else the environment's (LANGUAGE, LC_ALL,
LC_MESSAGES, LANG), else English. argparse's own headings and errors ("usage:", "options:",
"positional arguments:", "invalid choice: …") stay as argparse prints them, in English: they come
from argparse's own gettext domain, for which Python ships no Japanese or Chinese catalogue. Its two
help sentences (-h, --version) are ours to translate, as every other help line.

argparse wraps help at spaces and counts characters; a Japanese or Chinese help has no spaces and
its characters take two columns, so in those languages the lines are broken by display width with
the kinsoku rules of the touchscreen (companion/ui/kinsoku.py, pure Python).
"""

from __future__ import annotations

import argparse
import os
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..errors import CompanionError
from ..i18n import N_, normalise_language, translate
from ..ui.kinsoku import break_lines

# argparse's own help lines for -h and --version, looked up in our catalogue like the others.
ARGPARSE_HELP = (N_("show this help message and exit"), N_("show program's version number and exit"))
LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")  # gettext's order


def help_language(argv: Sequence[str], environ: Mapping[str, str] | None = None,
                  load_config: Callable[[], Any] | None = None) -> str:
    """The language of the help: --lang, else the config file's, else the environment's, else en."""
    for index, arg in enumerate(argv):
        if arg == "--":
            break
        if arg == "--lang" and index + 1 < len(argv):
            return normalise_language(argv[index + 1])
        if arg.startswith("--lang="):
            return normalise_language(arg.partition("=")[2])
    configured = _configured_language(load_config)
    if configured is not None:
        return configured
    env = os.environ if environ is None else environ
    for name in LOCALE_VARIABLES:
        value = env.get(name, "").split(":")[0]
        if value:
            return "en" if value in ("C", "POSIX") or value.startswith("C.") else normalise_language(value)
    return "en"


def _configured_language(load_config: Callable[[], Any] | None) -> str | None:
    """The language set in the configuration file (None: not set there, or the file is broken —
    the command itself reports that, after the parser)."""
    if load_config is None:
        from ..config import load_config
    try:
        config = load_config()
    except CompanionError:
        return None
    if config.origins.get("general", {}).get("language", "default") == "default":
        return None
    return normalise_language(config.get("general", "language"))


def columns(text: str) -> int:
    """The text's width in a terminal: East Asian wide and full-width characters take two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


class WideHelpFormatter(argparse.HelpFormatter):
    """argparse's formatter, breaking lines by display width where the kinsoku rules allow."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        return break_lines(self._whitespace_matcher.sub(" ", text).strip(), width, columns)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return "\n".join(indent + line for line in self._split_lines(text, width - len(indent)))


class WideRawDescriptionHelpFormatter(argparse.RawDescriptionHelpFormatter, WideHelpFormatter):
    """The description as written (its own line breaks), the options' help as WideHelpFormatter."""


def translate_parser(parser: argparse.ArgumentParser, lang: str | None) -> None:
    """Every description, epilog and help of `parser` and its subcommands, in `lang` (in place);
    in Japanese and Chinese, lines broken by display width (WideHelpFormatter)."""
    wide = normalise_language(lang) != "en"
    seen: set[int] = set()
    todo = [parser]
    while todo:
        current = todo.pop()
        if id(current) in seen:  # a subcommand's aliases share its parser
            continue
        seen.add(id(current))
        if wide:
            raw = issubclass(current.formatter_class, argparse.RawDescriptionHelpFormatter)
            current.formatter_class = WideRawDescriptionHelpFormatter if raw else WideHelpFormatter
        current.description = _shown(current.description, lang)
        current.epilog = _shown(current.epilog, lang)
        for action in current._actions:
            action.help = _shown(action.help, lang)
            if isinstance(action, argparse._SubParsersAction):
                for choice in action._choices_actions:  # the subcommands' one-line help
                    choice.help = _shown(choice.help, lang)
                todo.extend(action.choices.values())


def _shown(text: Any, lang: str | None) -> Any:
    if text is None or text == argparse.SUPPRESS:
        return text
    render = getattr(text, "render", None)
    if callable(render):
        return render(lang)  # a Message with parameters (lists of identifiers, kept as they are)
    return translate(text, lang)
