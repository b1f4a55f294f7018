"""The catalogue's facts kept between launches: `catalogue.json` in the engine's cache folder
(`engine.tables.folder`: $KAERU_CACHE_DIR, else the user cache folder), beside the tables.

The facts are about the puzzles, not the player, so every player of a machine (and of a
server) shares them. Each entry carries a fingerprint of what it was computed for (the file's
version, the puzzle's title and start); an entry whose puzzle changed is not used. Writes go
through a temporary file and an atomic rename, merged with what another process may have
written meanwhile. A file that cannot be read is ignored (and rewritten); a folder that cannot
be used keeps the facts in memory only.
"""

from __future__ import annotations

import json
import os
import tempfile
import threading
from pathlib import Path
from typing import Any

from kaeru.engine.catalogue.facts import Facts
from kaeru.engine.puzzles.registry import AnyPuzzle
from kaeru.engine.tables.folder import cache_dir

FILE_NAME = "catalogue.json"
VERSION = 1  # raise when what a survey finds changes meaning


def fingerprint(puzzle: AnyPuzzle) -> str:
    return f"{VERSION}|{puzzle.title}|{puzzle.format(puzzle.initial())}"


class FactsCache:
    """Facts by puzzle id, read from and written to one JSON file (or memory only)."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._guard = threading.Lock()
        self._entries: dict[str, dict[str, Any]] = self._read()

    @classmethod
    def open(cls) -> FactsCache:
        """The cache in the engine's cache folder (memory only when it is unusable)."""
        folder = cache_dir()
        return cls(folder / FILE_NAME if folder is not None else None)

    def get(self, puzzle: AnyPuzzle) -> Facts | None:
        """The facts kept for `puzzle`, unless missing, unreadable or for another puzzle."""
        with self._guard:
            data = self._entries.get(puzzle.id)
        if not data or data.get("fingerprint") != fingerprint(puzzle):
            return None
        try:
            return Facts.from_json(puzzle.id, data)
        except (ValueError, TypeError):
            return None

    def put(self, puzzle: AnyPuzzle, facts: Facts) -> None:
        with self._guard:
            self._entries[puzzle.id] = {"fingerprint": fingerprint(puzzle), **facts.as_json()}

    def save(self) -> None:
        """Write the file (merged with entries another process added); silent on failure."""
        if self.path is None:
            return
        with self._guard:
            merged = {**self._read(), **self._entries}
            self._entries = merged
            text = json.dumps({"version": VERSION, "facts": merged}, indent=1, sort_keys=True)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(prefix=".catalogue-", dir=self.path.parent)
            try:
                with os.fdopen(handle, "w", encoding="utf-8") as out:
                    out.write(text)
                os.replace(temporary, self.path)
            finally:
                if os.path.exists(temporary):
                    os.unlink(temporary)
        except OSError:
            return

    def _read(self) -> dict[str, dict[str, Any]]:
        if self.path is None:
            return {}
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError, UnicodeDecodeError):
            return {}
        if not isinstance(data, dict) or data.get("version") != VERSION:
            return {}
        facts = data.get("facts")
        if not isinstance(facts, dict):
            return {}
        return {k: v for k, v in facts.items() if isinstance(k, str) and isinstance(v, dict)}
