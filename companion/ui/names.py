"""Names used before at this table, kept in the state folder so players tap theirs instead of
typing it again (the kiosk has no keyboard; Chinese players have no input method on it at all).

<state dir>/player-names.json: {"format": "table-companion/player-names", "version": 1,
"names": ["陳美玲", "Aiko", ...]}, the most recent first. A file that does not read is never
overwritten: it is set aside as player-names.json.bad and a new list starts.
"""

from __future__ import annotations

import json
import logging
import os
import tempfile
from pathlib import Path

log = logging.getLogger(__name__)

FILE = "player-names.json"
FORMAT = "table-companion/player-names"
KEEP = 24  # names kept; a table's regulars fit easily


class NameBook:
    def __init__(self, state_dir: Path | None):
        self.path = Path(state_dir) / FILE if state_dir is not None else None
        self.names: list[str] = self._load()

    def _load(self) -> list[str]:
        if self.path is None or not self.path.exists():
            return []
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            if not (isinstance(data, dict) and data.get("format") == FORMAT and isinstance(data.get("names"), list)):
                raise ValueError(f'expected {{"format": "{FORMAT}", "names": [...]}}')
            return [n for n in data["names"] if isinstance(n, str) and n.strip()][:KEEP]
        except (OSError, ValueError) as exc:
            aside = self.path.with_name(self.path.name + ".bad")
            log.warning("%s could not be read (%s); kept it as %s and started a new list", self.path, exc, aside)
            try:
                os.replace(self.path, aside)
            except OSError:
                self.path = None  # cannot move it: leave it alone and keep names in memory only
            return []

    def remember(self, names: list[str] | tuple[str, ...]) -> None:
        """Put these names first (in seat order), drop repeats, keep the newest KEEP."""
        fresh = [n.strip() for n in names if n and n.strip()]
        self.names = list(dict.fromkeys(fresh + [n for n in self.names if n not in fresh]))[:KEEP]
        self._save()

    def forget(self, name: str) -> None:
        self.names = [n for n in self.names if n != name]
        self._save()

    def _save(self) -> None:
        if self.path is None:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            data = json.dumps({"format": FORMAT, "version": 1, "names": self.names}, ensure_ascii=False, indent=1)
            handle, temp = tempfile.mkstemp(dir=self.path.parent, prefix=".names-", suffix=".tmp")
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write(data + "\n")
            os.replace(temp, self.path)
        except OSError as exc:  # a full card must not stop a game from starting
            log.warning("could not save %s: %s", self.path, exc)
