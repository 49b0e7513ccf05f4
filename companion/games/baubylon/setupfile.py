"""The field the players built, entered as a small file (docs/formats/baubylon.md):
`table-companion/baubylon-field` with the field and where the blockers start."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...errors import ErrorText, FormatError
from ...i18n import N_, NP_
from ..jsonread import JsonReader
from .field import Field, check_field

FIELD_FORMAT = "table-companion/baubylon-field"
FIELD_VERSION = 1
MAX_BLOCKERS = 6  # [baubylon.blocker]


@dataclass(frozen=True)
class FieldSetup:
    field: Field
    blockers: tuple[str, ...]


def parse_field_setup(data: Any, source: str) -> FieldSetup:
    reader = JsonReader(data, source)
    reader.get("format").str((FIELD_FORMAT,))
    version = reader.get("version").int(minimum=1)
    if version > FIELD_VERSION:
        raise reader.get("version").fail(N_("expected version ≤ {limit} (a newer companion wrote it)"), limit=FIELD_VERSION)
    field = Field.from_reader(reader.get("field"))
    issues = check_field(field)
    if issues:
        raise FormatError(source, "field", ErrorText.of(N_("not playable [{rule}]: {issues}"), rule="baubylon.field",
                                                       issues=tuple(i.message for i in issues)))
    blockers = []
    for item in reader.get("blockers", []).list():
        space = item.str()
        if not field.is_field(space):
            raise item.fail(N_("expected a space with a block (blockers go on the field)"))
        blockers.append(space)
    if len(blockers) > MAX_BLOCKERS:
        raise reader.get("blockers").fail(NP_("expected at most {count} blocker [{rule}]", "expected at most {count} blockers [{rule}]"),
                                              count=MAX_BLOCKERS, rule="baubylon.blocker")
    return FieldSetup(field, tuple(blockers))


def load_field_setup(path: str | Path) -> FieldSetup:
    from ..saves import read_json_file  # late: saves imports the registry, which imports this game

    return parse_field_setup(read_json_file(path), str(path))


def field_setup_to_json(setup: FieldSetup) -> dict[str, Any]:
    return {"format": FIELD_FORMAT, "version": FIELD_VERSION, "field": setup.field.to_json(),
            "blockers": list(setup.blockers)}
