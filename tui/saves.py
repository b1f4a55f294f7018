"""Autosaved games: one JSON file per puzzle id in the user data directory, so quitting or
leaving a game never loses the moves made."""

from __future__ import annotations

import json
import os
from pathlib import Path

import platformdirs

from kaeru.engine.core import BadInput
from kaeru.engine.session import Session

ENV_VAR = "KAERU_DATA_DIR"


def saves_dir() -> Path:
    override = os.environ.get(ENV_VAR)
    base = Path(override) if override else Path(platformdirs.user_data_dir("kaeru-arcade"))
    path = base / "saves"
    path.mkdir(parents=True, exist_ok=True)
    return path


def _path(puzzle_id: str) -> Path:
    safe = "".join(c if c.isalnum() or c in "-_@" else "_" for c in puzzle_id)
    return saves_dir() / f"{safe}.json"


def save(session: Session) -> None:
    """Write the game; a failure to write is not worth crashing a game for."""
    try:
        _path(session.puzzle.id).write_text(json.dumps(session.to_json()))
    except OSError:
        pass


def load(puzzle_id: str) -> Session | None:
    """The saved game of a puzzle, or None when there is none or it cannot be read."""
    path = _path(puzzle_id)
    if not path.exists():
        return None
    try:
        return Session.from_json(json.loads(path.read_text()))
    except (OSError, ValueError, BadInput):
        return None


def forget(puzzle_id: str) -> None:
    _path(puzzle_id).unlink(missing_ok=True)
