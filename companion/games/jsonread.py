"""The JSON reader, re-exported where the games have always imported it (it lives in companion.jsonread
so that vision/ can use it too without importing games/)."""

from ..jsonread import JsonReader

__all__ = ["JsonReader"]
