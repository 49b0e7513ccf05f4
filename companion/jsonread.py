"""Reading JSON with errors a player can act on: each names the file, the key path and what is expected.

Neutral ground: both games/ (pure Python) and vision/ read their files with it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from .errors import FormatError


@dataclass(frozen=True)
class JsonReader:
    """A cursor into parsed JSON that knows where it is, e.g. `state.board[3].level`."""

    value: Any
    source: str = "<json>"
    path: str = ""

    def fail(self, expected: str) -> FormatError:
        return FormatError(self.source, self.path or "top level", f"{expected}, got {_show(self.value)}")

    def _at(self, key: str | int, value: Any) -> JsonReader:
        where = f"{self.path}[{key}]" if isinstance(key, int) else (f"{self.path}.{key}" if self.path else key)
        return JsonReader(value, self.source, where)

    def obj(self) -> dict[str, Any]:
        if not isinstance(self.value, dict):
            raise self.fail("expected an object")
        return self.value

    def has(self, key: str) -> bool:
        return key in self.obj()

    def get(self, key: str, default: Any = ...) -> JsonReader:
        data = self.obj()
        if key not in data:
            if default is ...:
                raise FormatError(self.source, self._at(key, None).path, "missing (required)")
            return self._at(key, default)
        return self._at(key, data[key])

    def items(self) -> Iterator[tuple[str, JsonReader]]:
        for key, value in self.obj().items():
            yield key, self._at(key, value)

    def list(self, length: int | None = None) -> list[JsonReader]:
        if not isinstance(self.value, list):
            raise self.fail("expected a list")
        if length is not None and len(self.value) != length:
            raise self.fail(f"expected a list of {length} items")
        return [self._at(i, v) for i, v in enumerate(self.value)]

    def int(self, minimum: int | None = None, maximum: int | None = None) -> int:
        if isinstance(self.value, bool) or not isinstance(self.value, int):
            raise self.fail("expected a whole number")
        if minimum is not None and self.value < minimum:
            raise self.fail(f"expected a number ≥ {minimum}")
        if maximum is not None and self.value > maximum:
            raise self.fail(f"expected a number ≤ {maximum}")
        return self.value

    def float(self) -> float:
        if isinstance(self.value, bool) or not isinstance(self.value, int | float):
            raise self.fail("expected a number")
        return float(self.value)

    def str(self, choices: tuple[str, ...] | None = None) -> str:
        if not isinstance(self.value, str):
            raise self.fail("expected a string")
        if choices is not None and self.value not in choices:
            raise self.fail("expected one of " + ", ".join(repr(c) for c in choices))
        return self.value

    def bool(self) -> bool:
        if not isinstance(self.value, bool):
            raise self.fail("expected true or false")
        return self.value

    def optional(self) -> JsonReader | None:
        return None if self.value is None else self


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
