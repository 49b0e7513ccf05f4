"""Errors a user can act on. The CLI prints them as one line, never as a traceback.

`str(error)` is English (logs, the terminal's --lang en). An error that can reach a player also
renders in the player's language: `error.render(lang)`, or `error.message` (a Message-like object
with `render(lang)`: pass `message=Message.of(N_("..."), ...)` when raising). Put into a Message as a
parameter (`reason=error`), an error renders in the Message's language.

Code that cannot import games.api.Message (jsonread, vision) says what is wrong with an `ErrorText`:
the same msgid-and-parameters idea, made only to travel inside an error.
"""

from __future__ import annotations

import errno
from dataclasses import dataclass
from typing import Any

from .i18n import N_, identifier_name, translate

TOP_LEVEL = "top level"  # the key path of a file's outermost value (companion.jsonread)


@dataclass(frozen=True)
class ErrorText:
    """A translatable text inside an error: a msgid (N_ or NP_) and its parameters. A parameter
    that renders itself (another ErrorText, a Message, an error) renders in the same language."""

    msgid: str
    params: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def of(cls, msgid: str, **params: Any) -> ErrorText:
        return cls(msgid, tuple(sorted(params.items())))

    def render(self, lang: str | None = None) -> str:
        return translate(self.msgid, lang, {k: identifier_name(k, v, lang) for k, v in self.params})

    def __str__(self) -> str:
        return self.render("en")


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

    `source` (the file) stays as written. `where` is the key path as written (`state.board[3]`), or
    a text such as `ErrorText.of(N_("line {line}, column {column}"), ...)`. `expected` says what is
    wrong: an ErrorText or Message (shown in the player's language), or English text (shown as is).
    """

    def __init__(self, source: str, where: Any, expected: Any, *, message: Any = None):
        self.source = source
        self.where = where
        self.expected = expected
        location = f"{source}: {where}" if where else source
        super().__init__(f"{location}: {expected}", message=message)

    def render(self, lang: str | None = None) -> str:
        if self.message is not None:
            return self.message.render(lang)
        location = f"{self.source}: {_in_language(self.where, lang)}" if self.where else self.source
        expected = _in_language(self.expected, lang)
        return translate(N_("{location}: {expected}"), lang, {"location": location, "expected": expected})


class InvalidValue(ValueError):
    """A ValueError a player may read (a game that cannot start): `message` renders in their
    language; str() is its English."""

    def __init__(self, message: Any):
        self.message = message
        super().__init__(message.render("en"))


class ConfigError(FormatError):
    """The configuration file has a bad value."""


class NotYetAvailable(CompanionError):
    """A subcommand whose capability has not been built on this device yet."""

    exit_code = 3


def _in_language(text: Any, lang: str | None) -> str:
    if text == TOP_LEVEL:
        return translate(N_("top level"), lang)
    render = getattr(text, "render", None)
    return render(lang) if callable(render) else str(text)


def got(expected: str, value: Any, **params: Any) -> ErrorText:
    """"<what is expected>, got <the value as written>": `expected` is a msgid filled with `params`;
    the value is shown as Python writes it (a long one cut short)."""
    return ErrorText.of(N_("{expected}, got {value}"), expected=ErrorText.of(expected, **params),
                        value=shown_value(value))


def listed(texts: Any) -> ErrorText | str:
    """Texts (Messages, ErrorTexts) one after another, parted by the language's "; " (a list of
    sentences that may hold commas themselves: the problems of an impossible position)."""
    items = list(texts)
    if not items:
        return ""
    joined = items[-1]
    for item in reversed(items[:-1]):
        joined = ErrorText.of(N_("{first}; {rest}"), first=item, rest=joined)
    return joined


def shown_value(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def line_column(line: int, column: int) -> ErrorText:
    """Where in a file that does not parse the parser stopped (a FormatError's `where`)."""
    return ErrorText.of(N_("line {line}, column {column}"), line=line, column=column)


# Why the operating system would not open a file, in words a player can act on. Python's own text
# ("[Errno 13] Permission denied: '/x'") is English: it is kept only as a detail in brackets.
_OS_REASONS = {
    errno.ENOENT: N_("no such file"),
    errno.EACCES: N_("this user may not read it: check the file's owner and permissions"),
    errno.EPERM: N_("this user may not read it: check the file's owner and permissions"),
    errno.EISDIR: N_("is a folder, not a file"),
    errno.ENOTDIR: N_("a part of the path is a file, not a folder"),
    errno.ENOSPC: N_("the storage is full: free some space"),
    errno.EROFS: N_("the storage is read-only: check how it is mounted"),
    errno.EIO: N_("the storage gave an input/output error: the card or disk may be failing"),
}


def os_error_text(exc: BaseException) -> ErrorText:
    """An OSError (or a file that is not UTF-8) as a translated reason; the system's own words, when
    there is no better reason, follow in brackets as a detail."""
    if isinstance(exc, UnicodeDecodeError):
        return ErrorText.of(N_("cannot be read: it is not UTF-8 text"))
    code = getattr(exc, "errno", None)
    if code in _OS_REASONS:
        return ErrorText.of(_OS_REASONS[code])
    detail = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
    return ErrorText.of(N_("cannot be read ({detail})"), detail=detail)

