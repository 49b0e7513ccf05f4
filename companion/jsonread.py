"""Reading JSON with errors a player can act on: each names the file, the key path and what is expected.

Neutral ground: both games/ (pure Python) and vision/ read their files with it. What is expected is a
msgid with parameters, so the error reads in the player's language:

    raise reader.fail(N_("expected a name not used by another card"))
    raise reader.fail(NP_("expected {count} player", "expected {count} players"), count=n)

The reader adds the value it found ("…, got 'x'"); the file name, key path and that value stay as
written.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from .errors import TOP_LEVEL, ErrorText, FormatError, got
from .i18n import N_, NP_


@dataclass(frozen=True)
class JsonReader:
    """A cursor into parsed JSON that knows where it is, e.g. `state.board[3].level`."""

    value: Any
    source: str = "<json>"
    path: str = ""

    def fail(self, expected: str, **params: Any) -> FormatError:
        """The error for this value: `expected` is a msgid (N_ or NP_) filled with `params`."""
        return FormatError(self.source, self.path or TOP_LEVEL, got(expected, self.value, **params))

    def _at(self, key: str | int, value: Any) -> JsonReader:
        where = f"{self.path}[{key}]" if isinstance(key, int) else (f"{self.path}.{key}" if self.path else key)
        return JsonReader(value, self.source, where)

    def obj(self) -> dict[str, Any]:
        if not isinstance(self.value, dict):
            raise self.fail(N_("expected an object"))
        return self.value

    def has(self, key: str) -> bool:
        return key in self.obj()

    def get(self, key: str, default: Any = ...) -> JsonReader:
        data = self.obj()
        if key not in data:
            if default is ...:
                raise FormatError(self.source, self._at(key, None).path, ErrorText.of(N_("missing (required)")))
            return self._at(key, default)
        return self._at(key, data[key])

    def items(self) -> Iterator[tuple[str, JsonReader]]:
        for key, value in self.obj().items():
            yield key, self._at(key, value)

    def list(self, length: int | None = None) -> list[JsonReader]:
        if not isinstance(self.value, list):
            raise self.fail(N_("expected a list"))
        if length is not None and len(self.value) != length:
            raise self.fail(NP_("expected a list of {count} item", "expected a list of {count} items"), count=length)
        return [self._at(i, v) for i, v in enumerate(self.value)]

    def int(self, minimum: int | None = None, maximum: int | None = None) -> int:
        if isinstance(self.value, bool) or not isinstance(self.value, int):
            raise self.fail(N_("expected a whole number"))
        if minimum is not None and self.value < minimum:
            raise self.fail(N_("expected a number ≥ {limit}"), limit=minimum)
        if maximum is not None and self.value > maximum:
            raise self.fail(N_("expected a number ≤ {limit}"), limit=maximum)
        return self.value

    def float(self) -> float:
        if isinstance(self.value, bool) or not isinstance(self.value, int | float):
            raise self.fail(N_("expected a number"))
        return float(self.value)

    def str(self, choices: tuple[str, ...] | None = None) -> str:
        if not isinstance(self.value, str):
            raise self.fail(N_("expected a string"))
        if choices is not None and self.value not in choices:
            raise self.fail(N_("expected one of {choices}"), choices=", ".join(repr(c) for c in choices))
        return self.value

    def bool(self) -> bool:
        if not isinstance(self.value, bool):
            raise self.fail(N_("expected true or false"))
        return self.value

    def optional(self) -> JsonReader | None:
        return None if self.value is None else self

