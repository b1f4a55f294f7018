"""Rows of the store's tables read back as values, and the rows that cannot be.

A row edited into nonsense by hand (`moves=5`, `seconds='abc'`, JSON nested thousands deep) is
never an error: it is left in the file as it is, read as None, and counted by `Unreadable` so
the player is told once which rows were passed over.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from typing import Any

from kaeru.engine.store.models import FinishedGame, SavedGame

GAME_COLUMNS = (
    "slot, puzzle_id, game_id, moves, redo, seconds, hints, helped, daily, updated, hint_levels,"
    " position"
)
FINISHED_COLUMNS = (
    "game_id, puzzle_id, moves, move_count, optimal, seconds, hints, helped, finished, daily,"
    " hint_levels"
)
ROW_ERRORS = (TypeError, ValueError, RecursionError, OverflowError)


class Unreadable:
    """The rows passed over so far (table, row id); `add` says whether one is new."""

    def __init__(self) -> None:
        self._rows: set[tuple[str, int]] = set()
        self._lock = threading.Lock()

    def add(self, table: str, row_id: Any) -> bool:
        try:
            key = (table, int(row_id))
        except ROW_ERRORS:
            key = (table, -1)
        with self._lock:
            if key in self._rows:
                return False
            self._rows.add(key)
            return True

    def notice(self) -> str:
        """One line naming every row passed over."""
        with self._lock:
            rows = sorted(self._rows)
        games = [n for table, n in rows if table == "games"]
        finished = [n for table, n in rows if table == "finished"]
        parts = ([f"games in progress (slot {', '.join(map(str, games))})"] if games else []) + (
            [f"finished games (id {', '.join(map(str, finished))})"] if finished else []
        )
        count = len(rows)
        rows_word = "row" if count == 1 else "rows"
        return (
            f"{count} saved {rows_word} could not be read and {'was' if count == 1 else 'were'}"
            f" passed over: {'; '.join(parts)}. They are left in the file as they are."
        )

    def __len__(self) -> int:
        with self._lock:
            return len(self._rows)


def texts(raw: Any) -> tuple[str, ...]:
    value = json.loads(raw)
    if not isinstance(value, list) or not all(isinstance(m, str) for m in value):
        raise ValueError("moves are not a list of texts")
    return tuple(value)


def levels(raw: Any) -> tuple[int, int, int]:
    """The coach's hint counts by level; zeros for a value edited into nonsense."""
    try:
        value = json.loads(raw)
    except (TypeError, ValueError, RecursionError):
        return (0, 0, 0)
    if isinstance(value, list) and len(value) == 3 and all(type(n) is int for n in value):
        return (value[0], value[1], value[2])
    return (0, 0, 0)


def line_of(db: sqlite3.Connection, slot: int) -> list[str]:
    """A game's line (moves played, then the moves to redo) from the `moves` table."""
    rows = db.execute("SELECT move FROM moves WHERE slot = ? ORDER BY ply", (slot,)).fetchall()
    line = [row[0] for row in rows]
    if not all(isinstance(move, str) for move in line):
        raise ValueError("a move is not a text")
    return line


def saved_game(db: sqlite3.Connection, row: tuple[Any, ...]) -> tuple[SavedGame, list[str]]:
    """A games row as a SavedGame and its whole line; ROW_ERRORS when it makes no sense. A row
    whose `position` is NULL keeps its moves in the JSON columns (written before version 4)."""
    slot, puzzle_id, game_id, moves, redo, seconds, hints, helped, daily, updated, lv, at = row
    if at is None:
        played, undone = texts(moves), texts(redo)
        line = [*played, *undone]
    else:
        line = line_of(db, int(slot))
        position = int(at)
        if not 0 <= position <= len(line):
            raise ValueError("the position is outside the line")
        played, undone = tuple(line[:position]), tuple(line[position:])
    game = SavedGame(
        slot=int(slot),
        puzzle_id=str(puzzle_id),
        game_id=str(game_id),
        moves=played,
        redo=undone,
        seconds=float(seconds),
        hints=int(hints),
        helped=bool(helped),
        daily=None if daily is None else str(daily),
        updated=str(updated),
        hint_levels=levels(lv),
    )
    return game, line


def finished_game(row: tuple[Any, ...]) -> FinishedGame:
    """A finished row as a FinishedGame (its id is the row's last column); ROW_ERRORS when it
    makes no sense."""
    game_id, puzzle_id, moves, count, optimal, seconds, hints, helped, finished, daily, lv = row[
        :11
    ]
    return FinishedGame(
        game_id=str(game_id),
        puzzle_id=str(puzzle_id),
        moves=texts(moves),
        move_count=int(count),
        optimal=None if optimal is None else int(optimal),
        seconds=float(seconds),
        hints=int(hints),
        helped=bool(helped),
        finished=str(finished),
        daily=None if daily is None else str(daily),
        hint_levels=levels(lv),
    )
