"""The command line's help and argparse's own words in the player's language.

The parser is built with English msgids (`help=N_("…")`, `description=N_("…")`; a help with a list
in it is a Message) and then translated as a whole, once the language is known: `--lang` on the
command line, else the configuration file's language, else the environment's (LANGUAGE, LC_ALL,
LC_MESSAGES, LANG), else English.

argparse's own words ("usage:", "options:", "positional arguments:", "invalid choice: …", "the
following arguments are required: …") come from `gettext.gettext`, the process's global domain, for
which Python ships no Japanese or Chinese catalogue. Binding that domain to our catalogue
(gettext.textdomain) would change every other library's gettext calls too, and replacing argparse's
module-level `_` is patching its internals. Python 3.11's argparse offers no translation hook of its
own, so its words come from our catalogue through what it does let a program change:
- the two default groups' titles (their `title`, as any argument group's);
- the usage prefix, which HelpFormatter.add_usage takes as an argument (our formatter gives it);
- errors through `ArgumentParser.error`, which the documentation invites a subclass to override
  (PlayerArgumentParser): argparse has formatted the English text by then, so it is matched against
  argparse's own templates (ARGPARSE_ERRORS, checked against the installed argparse by a test) and
  said again from our msgid with the same values; a text no template matches stays as it is.
Its two help sentences (-h, --version) are ours to translate, as every other help line.

argparse wraps help at spaces and counts characters; a Japanese or Chinese help has no spaces and
its characters take two columns, so in those languages the lines are broken by display width with
the kinsoku rules of the touchscreen (companion/ui/kinsoku.py, pure Python).
"""

from __future__ import annotations

import argparse
import os
import re
import string
import sys
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any, NoReturn

from ..errors import CompanionError
from ..i18n import N_, NP_, normalise_language, plural_forms, translate
from ..ui.kinsoku import break_lines

# argparse's own help lines for -h and --version, looked up in our catalogue like the others.
ARGPARSE_HELP = (N_("show this help message and exit"), N_("show program's version number and exit"))
# ... its default groups' titles (and add_subparsers' default title), and the usage line's prefix.
ARGPARSE_HEADINGS = (N_("positional arguments"), N_("options"), N_("subcommands"))
USAGE_PREFIX = N_("usage: ")
ERROR_LINE = N_("{prog}: error: {message}")  # argparse's '%(prog)s: error: %(message)s'
# argparse's error texts a user can meet (Python 3.11's argparse.py, verbatim: a test checks that
# each is still there), each with our msgid saying the same with the same values in {names}, in
# their order. A plural msgid (NP_) matches either English form; its one value is the count.
ARGPARSE_ERRORS: tuple[tuple[str, str], ...] = (
    ("argument %(argument_name)s: %(message)s", N_("argument {argument_name}: {message}")),
    ("invalid choice: %(value)r (choose from %(choices)s)", N_("invalid choice: {value} (choose from {choices})")),
    ("invalid %(type)s value: %(value)r", N_("invalid {type} value: {value}")),
    ("the following arguments are required: %s", N_("the following arguments are required: {arguments}")),
    ("one of the arguments %s is required", N_("one of the arguments {arguments} is required")),
    ("unrecognized arguments: %s", N_("unrecognized arguments: {arguments}")),
    ("not allowed with argument %s", N_("not allowed with argument {argument}")),
    ("ignored explicit argument %r", N_("ignored explicit argument {value}")),
    ("expected one argument", N_("expected one argument")),
    ("expected at most one argument", N_("expected at most one argument")),
    ("expected at least one argument", N_("expected at least one argument")),
    ("expected %s argument", NP_("expected {count} argument", "expected {count} arguments")),
    ("expected %s arguments", NP_("expected {count} argument", "expected {count} arguments")),
    ("ambiguous option: %(option)s could match %(matches)s", N_("ambiguous option: {option} could match {matches}")),
    ("unexpected option string: %s", N_("unexpected option string: {option}")),
    ("can't open '%(filename)s': %(error)s", N_("cannot open '{filename}': {error}")),
)
NESTED = "message"  # the one value that is itself an argparse text ("argument X: <message>")
# "invalid %(type)s value": the type function's name; the two a user meets here said in words.
TYPE_NAMES = {"int": N_("whole number"), "float": N_("number")}
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


# --- argparse's own words ------------------------------------------------------------------------------

_PLACEHOLDER = re.compile(r"%(?:\((\w+)\))?[sr]")


@cache
def _error_patterns() -> tuple[tuple[re.Pattern[str], str, tuple[str, ...]], ...]:
    """Each argparse error template as a pattern matching the text it makes, with our msgid and the
    names of its values in the template's order."""
    patterns = []
    for template, msgid in ARGPARSE_ERRORS:
        forms = plural_forms(msgid)
        names = [name for _text, name, _spec, _conv in string.Formatter().parse(forms[0] if forms else msgid)
                 if name]
        pieces, last = [], 0
        for index, found in enumerate(_PLACEHOLDER.finditer(template)):
            pieces.append(re.escape(template[last:found.start()]))
            greedy = ".+" if names[index] == NESTED else ".+?"  # the nested text runs to the end
            pieces.append(f"(?P<{names[index]}>{greedy})")
            last = found.end()
        pieces.append(re.escape(template[last:]))
        patterns.append((re.compile("".join(pieces), re.DOTALL), msgid, tuple(names)))
    return tuple(patterns)


def argparse_text(text: str, lang: str | None) -> str:
    """argparse's English error text said in `lang` from our catalogue (the values as argparse
    wrote them: option names, the user's input, the choices); unchanged when no template fits."""
    if normalise_language(lang) == "en":
        return text
    for pattern, msgid, names in _error_patterns():
        found = pattern.fullmatch(text)
        if found is None:
            continue
        values: dict[str, Any] = {name: found.group(name) for name in names}
        if NESTED in values:
            values[NESTED] = argparse_text(values[NESTED], lang)
        if "count" in values and values["count"].isdigit():
            values["count"] = int(values["count"])
        if values.get("type") in TYPE_NAMES:
            values["type"] = translate(TYPE_NAMES[values["type"]], lang)
        return translate(msgid, lang, values)
    return text


class PlayerArgumentParser(argparse.ArgumentParser):
    """argparse's parser whose errors read in the player's language (`lang`, set by
    translate_parser): the documented way to change them is to override `error`."""

    lang: str | None = None

    def error(self, message: str) -> NoReturn:
        if normalise_language(self.lang) == "en":
            super().error(message)
        self.print_usage(sys.stderr)
        line = translate(ERROR_LINE, self.lang, {"prog": self.prog, "message": argparse_text(message, self.lang)})
        self.exit(2, line + "\n")


class WideHelpFormatter(argparse.HelpFormatter):
    """argparse's formatter, breaking lines by display width where the kinsoku rules allow, its
    usage line's prefix in the help's language (`lang`: see formatter_for)."""

    lang: str | None = None

    def add_usage(self, usage, actions, groups, prefix=None):
        if prefix is None:  # argparse's own "usage: "
            prefix = translate(USAGE_PREFIX, self.lang)
        super().add_usage(usage, actions, groups, prefix)

    def _format_usage(self, usage, actions, groups, prefix):
        """The usage wrapped and indented by display width: argparse counts the prefix's characters,
        and "使い方: " takes three columns more than it has characters."""
        extra = columns(prefix or "") - len(prefix or "")
        if extra <= 0:
            return super()._format_usage(usage, actions, groups, prefix)
        self._width -= extra  # the lines argparse wraps are then `extra` narrower than the terminal
        try:
            text = super()._format_usage(usage, actions, groups, prefix)
        finally:
            self._width += extra
        first, *rest = text.split("\n")
        return "\n".join([first] + [" " * extra + line if line.startswith(" ") else line for line in rest])

    def _split_lines(self, text: str, width: int) -> list[str]:
        return break_lines(self._whitespace_matcher.sub(" ", text).strip(), width, columns)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return "\n".join(indent + line for line in self._split_lines(text, width - len(indent)))


class WideRawDescriptionHelpFormatter(argparse.RawDescriptionHelpFormatter, WideHelpFormatter):
    """The description as written (its own line breaks), the options' help as WideHelpFormatter."""


@cache
def formatter_for(raw: bool, lang: str) -> type[WideHelpFormatter]:
    """The wide formatter (raw: keeping the description's line breaks) for one language."""
    base = WideRawDescriptionHelpFormatter if raw else WideHelpFormatter
    return type(f"{base.__name__}_{lang}", (base,), {"lang": lang})


def translate_parser(parser: argparse.ArgumentParser, lang: str | None) -> None:
    """Every description, epilog, help and group title of `parser` and its subcommands, and
    argparse's own words (usage, errors), in `lang` (in place); in Japanese and Chinese, lines
    broken by display width (WideHelpFormatter). A parser made as a plain ArgumentParser (the
    `companion` command's, built in cli.py) becomes a PlayerArgumentParser, whose errors are
    translated; the subcommands' parsers are of their parent's class."""
    lang = normalise_language(lang)
    wide = lang != "en"
    seen: set[int] = set()
    todo = [parser]
    while todo:
        current = todo.pop()
        if id(current) in seen:  # a subcommand's aliases share its parser
            continue
        seen.add(id(current))
        if type(current) is argparse.ArgumentParser:  # the same object with `error` overridden
            current.__class__ = PlayerArgumentParser
        if isinstance(current, PlayerArgumentParser):
            current.lang = lang
        if wide:
            raw = issubclass(current.formatter_class, argparse.RawDescriptionHelpFormatter)
            current.formatter_class = formatter_for(raw, lang)
        current.description = _shown(current.description, lang)
        current.epilog = _shown(current.epilog, lang)
        for group in current._action_groups:  # argparse's "positional arguments", "options", ours
            group.title = _shown(group.title, lang)
            group.description = _shown(group.description, lang)
        for action in current._actions:
            action.help = _shown(action.help, lang)
            if isinstance(action, argparse._SubParsersAction):
                for choice in action._choices_actions:  # the subcommands' one-line help
                    choice.help = _shown(choice.help, lang)
                todo.extend(action.choices.values())


def parse_in_language(parser: argparse.ArgumentParser, argv: Sequence[str], config: Any = None) -> argparse.Namespace:
    """A command's own arguments (a bench topic's, after `companion bench TOPIC`), its help and
    argparse's words in the run's language: the config's as `companion` set it (--lang, else the
    file's), else the environment's; `config` None: found as for the command line itself."""
    load = (lambda: config) if config is not None else None
    translate_parser(parser, help_language(list(argv), load_config=load))
    return parser.parse_args(list(argv))


def _shown(text: Any, lang: str | None) -> Any:
    if text is None or text == argparse.SUPPRESS:
        return text
    render = getattr(text, "render", None)
    if callable(render):
        return render(lang)  # a Message with parameters (lists of identifiers, kept as they are)
    return translate(text, lang)
