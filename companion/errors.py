"""Errors a user can act on. The CLI prints them as one line, never as a traceback.

`str(error)` is English (logs, the terminal's --lang en). An error that can reach a player also
renders in the player's language: `error.render(lang)`, or `error.message` (a Message-like object
with `render(lang)`: pass `message=Message.of(N_("..."), ...)` when raising). Put into a Message as a
parameter (`reason=error`), an error renders in the Message's language.
"""

from __future__ import annotations

import re
from typing import Any

from .i18n import N_, translate


class CompanionError(Exception):
    """A problem the user can fix: the message names the file, key or line and what is expected."""

    exit_code = 2
    message: Any = None  # what the player reads, translatable (a Message); None: only the English text

    def __init__(self, *args: object, message: Any = None) -> None:
        if not args and message is not None:
            args = (message.render("en"),)
        super().__init__(*args)
        self.message = message

    def render(self, lang: str | None = None) -> str:
        """The error in `lang`: its Message when it has one, else its English text."""
        if self.message is not None:
            return self.message.render(lang)
        return str(self)


class FormatError(CompanionError):
    """A file (save, config, calibration, card data) is not in the expected format.

    `source` and `where` (the file and key path) stay as written; `expected` is English text or a
    Message. The expectations companion.jsonread writes ("expected a whole number, got 'x'") are
    shown in the player's language too (see `expectation_text`)."""

    def __init__(self, source: str, where: str, expected: Any, *, message: Any = None):
        self.source = source
        self.where = where
        self.expected = expected
        location = f"{source}: {where}" if where else source
        super().__init__(f"{location}: {expected}", message=message)

    def render(self, lang: str | None = None) -> str:
        if self.message is not None:
            return self.message.render(lang)
        location = f"{self.source}: {where_text(self.where, lang)}" if self.where else self.source
        render = getattr(self.expected, "render", None)
        expected = render(lang) if callable(render) else expectation_text(str(self.expected), lang)
        return translate(N_("{location}: {expected}"), lang, {"location": location, "expected": expected})


class ConfigError(FormatError):
    """The configuration file has a bad value."""


class NotYetAvailable(CompanionError):
    """A subcommand whose capability has not been built on this device yet."""

    exit_code = 3


# What companion.jsonread says is expected, as msgids: "<expectation>, got <value as written>".
_EXPECTATIONS = {
    "expected an object": N_("expected an object, got {value}"),
    "expected a list": N_("expected a list, got {value}"),
    "expected a whole number": N_("expected a whole number, got {value}"),
    "expected a number": N_("expected a number, got {value}"),
    "expected a string": N_("expected a string, got {value}"),
    "expected true or false": N_("expected true or false, got {value}"),
}
_PATTERNS = (
    (re.compile(r"expected a list of (?P<count>\d+) items"), N_("expected a list of {count} items, got {value}")),
    (re.compile(r"expected a number ≥ (?P<limit>-?[\d.]+)"), N_("expected a number ≥ {limit}, got {value}")),
    (re.compile(r"expected a number ≤ (?P<limit>-?[\d.]+)"), N_("expected a number ≤ {limit}, got {value}")),
    (re.compile(r"expected one of (?P<choices>.+)"), N_("expected one of {choices}, got {value}")),
    (re.compile(r"expected version ≤ (?P<limit>\d+)(?: \(a newer companion wrote it\))?"),
     N_("expected version ≤ {limit} (a newer companion wrote it), got {value}")),
)
# What companion.games.saves says of a file that does not read at all. The detail in brackets is
# Python's English (json, OSError): the player gets the file, line and column without it.
_FILE_PATTERNS = (
    (re.compile(r"no such file"), N_("no such file")),
    (re.compile(r"not valid JSON \(.*\)"), N_("not valid JSON")),
    (re.compile(r"cannot be read \(.*\)"), N_("cannot be read")),
)
_MISSING = "missing (required)"


def expectation(text: str) -> tuple[str, dict[str, str]] | None:
    """An English expectation as companion.jsonread writes it, as (msgid, params); None for others."""
    if text == _MISSING:
        return N_("missing (required)"), {}
    for pattern, msgid in _FILE_PATTERNS:
        match = pattern.fullmatch(text)
        if match:
            return msgid, match.groupdict()
    head, separator, value = text.rpartition(", got ")
    if not separator:
        return None
    if head in _EXPECTATIONS:
        return _EXPECTATIONS[head], {"value": value}
    for pattern, msgid in _PATTERNS:
        match = pattern.fullmatch(head)
        if match:
            return msgid, {**match.groupdict(), "value": value}
    return None


LINE_COLUMN = re.compile(r"line (?P<line>\d+), column (?P<column>\d+)")


def where_text(where: str, lang: str | None) -> str:
    """A file error's place in `lang`: "line 3, column 7" of a file that is not JSON is worded; a
    key path (state.board[3].level) is the file's own and stays as written."""
    match = LINE_COLUMN.fullmatch(where)
    return translate(N_("line {line}, column {column}"), lang, match.groupdict()) if match else where


def expectation_text(text: str, lang: str | None) -> str:
    """An English expectation as companion.jsonread writes it, in `lang` (other texts unchanged)."""
    found = expectation(text)
    return text if found is None else translate(found[0], lang, found[1])
