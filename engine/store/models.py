"""The values the store reads and writes: a game in progress, a finished game, a puzzle's
summary. Frozen dataclasses of plain types, so they cross threads and go to JSON as they are.

Moves are kept as their text form (`puzzle.format_move`), so a save survives a change in the
order a puzzle lists its moves. Times are ISO 8601 strings in UTC (`2026-11-23T11:15:40+00:00`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any


def now_iso() -> str:
    """The current time, ISO 8601 in UTC to the microsecond (sorts as text)."""
    return datetime.now(UTC).isoformat(timespec="microseconds")


@dataclass(frozen=True)
class SavedGame:
    """A game in progress. `slot` is None for a game not yet saved; `save_game` returns the
    slot to pass next time. `redo` holds the undone moves, the next one to redo first.
    `helped`: a hint, solve or take-over was used. `daily`: the date (YYYY-MM-DD) of a daily
    puzzle, else None."""

    slot: int | None
    puzzle_id: str
    game_id: str
    moves: tuple[str, ...] = ()
    redo: tuple[str, ...] = ()
    seconds: float = 0.0
    hints: int = 0
    helped: bool = False
    daily: str | None = None
    updated: str = field(default_factory=now_iso)
    hint_levels: tuple[int, int, int] = (0, 0, 0)  # the coach's hints pressed, by level


@dataclass(frozen=True)
class FinishedGame:
    """A won game. `optimal` is the solver's length from the start when known."""

    game_id: str
    puzzle_id: str
    moves: tuple[str, ...]
    move_count: int
    optimal: int | None
    seconds: float
    hints: int
    helped: bool
    finished: str = field(default_factory=now_iso)
    daily: str | None = None
    hint_levels: tuple[int, int, int] = (0, 0, 0)  # hints by level: how far, which piece, move

    @property
    def over_optimal(self) -> int | None:
        """Moves beyond the optimal length, when it is known."""
        return None if self.optimal is None else self.move_count - self.optimal

    def as_json(self) -> dict[str, Any]:
        """The record as `kaeru records --json` prints it."""
        return {
            "game_id": self.game_id,
            "moves": self.move_count,
            "optimal": self.optimal,
            "seconds": round(self.seconds, 3),
            "hints": self.hints,
            "helped": self.helped,
            "finished": self.finished,
        }


@dataclass(frozen=True)
class PuzzleSummary:
    """What the records screen shows for one puzzle.

    - `solved` = `clean` + `helped` finished games;
    - `best_over_optimal`, `best_moves`, `best_seconds`: bests among clean wins only (a helped
      game is not a personal best); `best_over_optimal` among those with a known optimal;
    - `streak`: clean wins in a row, counting back from the newest finished game;
    - `day_streak`: days in a row (UTC) with at least one win, ending today or yesterday;
    - `recent`: (moves over optimal, helped) for up to RECENT of the newest games with a known
      optimal, oldest first, ready for a chart.
    """

    puzzle_id: str
    solved: int = 0
    clean: int = 0
    helped: int = 0
    best_over_optimal: int | None = None
    best_moves: int | None = None
    best_seconds: float | None = None
    streak: int = 0
    day_streak: int = 0
    recent: tuple[tuple[int, bool], ...] = ()
