"""`Store`: the player's games in progress, finished games and settings in one SQLite file.

Where: `kaeru.sqlite3` in the data folder — `$KAERU_DATA_DIR` when set, else platformdirs'
`user_data_dir("kaeru-arcade")`. WAL mode and a 15 s busy timeout, so two terminals (or two SSH
players) can write at once; every write is one `BEGIN IMMEDIATE` transaction.

Faults never raise (see `engine.store.opening`): `Store.open` always returns a store, and
`notice` is one line for the player when something was wrong ("Your saved data was damaged:
set aside as …; starting fresh." / "Saves are off: <folder> is read-only."). When saves are
off the store works in memory (`writable` is False) so the game runs the same. If a write fails
later (disk full, file gone), the store copies what it holds into memory, turns `writable`
off, sets `notice` and calls `on_notice(notice)` when set; the write is then done in memory,
so callers never see an exception and never lose the game they are playing.

The API the front end codes against::

    store = Store.open()                      # or Store.open(folder)
    slot = store.save_game(SavedGame(None, "sliding-3x3", game_id, moves=("4 right",)))
    store.save_game(dataclasses.replace(game, slot=slot, moves=...))   # update in place
    store.games_in_progress("sliding-3x3")    # newest first
    store.finish_game(slot, FinishedGame(...))  # record + drop the in-progress row, atomically
    store.records(); store.summary("sliding-3x3"); store.progress_marks()
    store.get_setting("theme", "textual-dark"); store.set_setting("theme", "nord")
    store.close()

Old JSON saves (`<data folder>/saves/*.json`, version 0.1) are imported once, the first time a
writable store opens (`imported` counts them, `import_skipped` names the files that could not
be read); the files are kept.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar

import platformdirs

from kaeru.engine.store import legacy
from kaeru.engine.store.models import FinishedGame, PuzzleSummary, SavedGame, now_iso
from kaeru.engine.store.opening import (
    Opened,
    connect,
    copy_database,
    in_memory,
    open_database,
)
from kaeru.engine.store.records import summarise
from kaeru.engine.store.schema import migrate

ENV_VAR = "KAERU_DATA_DIR"
APP_NAME = "kaeru-arcade"
JSON_IMPORT_KEY = "json_saves_imported"
IN_PROGRESS, SOLVED = "in progress", "solved"

T = TypeVar("T")

GAME_COLUMNS = (
    "slot, puzzle_id, game_id, moves, redo, seconds, hints, helped, daily, updated, hint_levels"
)
FINISHED_COLUMNS = (
    "game_id, puzzle_id, moves, move_count, optimal, seconds, hints, helped, finished, daily,"
    " hint_levels"
)


def data_folder() -> Path:
    """$KAERU_DATA_DIR, else the platform's user data folder for the arcade (not created)."""
    override = os.environ.get(ENV_VAR)
    return Path(override) if override else Path(platformdirs.user_data_dir(APP_NAME))


class Store:
    """The player's data. Thread-safe (one lock around the connection)."""

    def __init__(self, opened: Opened, folder: Path | None = None) -> None:
        self._connection = opened.connection
        self.writable = opened.writable
        self.notice: str | None = opened.notice
        self.path = opened.path
        self.folder = folder
        self.on_notice: Callable[[str], None] | None = None
        self.imported = 0
        self.import_skipped: tuple[str, ...] = ()
        self._lock = threading.RLock()
        self._closed = False

    @classmethod
    def open(cls, folder: Path | None = None) -> Store:
        """The store in `folder` (default `data_folder()`); never raises for faults."""
        where = folder if folder is not None else data_folder()
        try:
            opened = open_database(where)
        except Exception as error:  # a fault not foreseen still must not stop the game
            opened = in_memory(f"Saves are off: {type(error).__name__}: {error}")
        store = cls(opened, where)
        if store.writable:
            store._import_json_saves(where / "saves")
        return store

    @classmethod
    def memory(cls) -> Store:
        """A store that keeps nothing on disk (tests, and sessions run without saving)."""
        connection = connect(":memory:")
        migrate(connection)
        return cls(Opened(connection, False, None, None))

    # ---- games in progress -------------------------------------------------------------------
    def save_game(self, game: SavedGame) -> int:
        """Insert (slot None) or update (by slot) a game in progress; returns its slot.

        `updated` is stamped with the current time. A slot whose row is gone (finished or
        deleted from another terminal) is written again under the same number."""
        values = (
            game.puzzle_id,
            game.game_id,
            json.dumps(list(game.moves)),
            json.dumps(list(game.redo)),
            float(game.seconds),
            int(game.hints),
            int(bool(game.helped)),
            game.daily,
            now_iso(),
            json.dumps([int(n) for n in game.hint_levels]),
        )

        def write(db: sqlite3.Connection) -> int:
            if game.slot is None:
                cursor = db.execute(
                    "INSERT INTO games (puzzle_id, game_id, moves, redo, seconds, hints, helped,"
                    " daily, updated, hint_levels) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    values,
                )
                return int(cursor.lastrowid or 0)
            db.execute(
                f"INSERT INTO games ({GAME_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (slot) DO UPDATE SET puzzle_id = excluded.puzzle_id,"
                " game_id = excluded.game_id, moves = excluded.moves, redo = excluded.redo,"
                " seconds = excluded.seconds, hints = excluded.hints,"
                " helped = excluded.helped, daily = excluded.daily, updated = excluded.updated,"
                " hint_levels = excluded.hint_levels",
                (game.slot, *values),
            )
            return game.slot

        return self._run(write, writes=True)

    def games_in_progress(self, puzzle_id: str | None = None) -> list[SavedGame]:
        """Games in progress (of one puzzle, or all), most recently saved first."""
        where, params = ("WHERE puzzle_id = ?", (puzzle_id,)) if puzzle_id else ("", ())
        rows = self._run(
            lambda db: db.execute(
                f"SELECT {GAME_COLUMNS} FROM games {where} ORDER BY updated DESC, slot DESC",
                params,
            ).fetchall()
        )
        return [game for row in rows if (game := _saved_game(row)) is not None]

    def load_game(self, slot: int) -> SavedGame | None:
        """The game in `slot`, or None when there is none (or its row cannot be read)."""
        row = self._run(
            lambda db: db.execute(
                f"SELECT {GAME_COLUMNS} FROM games WHERE slot = ?", (slot,)
            ).fetchone()
        )
        return None if row is None else _saved_game(row)

    def delete_game(self, slot: int) -> None:
        self._run(lambda db: db.execute("DELETE FROM games WHERE slot = ?", (slot,)), writes=True)

    # ---- finished games ----------------------------------------------------------------------
    def finish_game(self, slot: int | None, game: FinishedGame) -> None:
        """Record a won game and remove its in-progress row, in one transaction."""

        def write(db: sqlite3.Connection) -> None:
            db.execute(
                f"INSERT INTO finished ({FINISHED_COLUMNS})"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    game.game_id,
                    game.puzzle_id,
                    json.dumps(list(game.moves)),
                    int(game.move_count),
                    None if game.optimal is None else int(game.optimal),
                    float(game.seconds),
                    int(game.hints),
                    int(bool(game.helped)),
                    game.finished,
                    game.daily,
                    json.dumps([int(n) for n in game.hint_levels]),
                ),
            )
            if slot is not None:
                db.execute("DELETE FROM games WHERE slot = ?", (slot,))

        self._run(write, writes=True)

    def records(self, puzzle_id: str | None = None, limit: int | None = None) -> list[FinishedGame]:
        """Finished games (of one puzzle, or all), newest first."""
        where = "WHERE puzzle_id = ?" if puzzle_id else ""
        params: list[Any] = [puzzle_id] if puzzle_id else []
        tail = ""
        if limit is not None:
            tail, params = " LIMIT ?", [*params, max(0, int(limit))]
        rows = self._run(
            lambda db: db.execute(
                f"SELECT {FINISHED_COLUMNS} FROM finished {where}"
                f" ORDER BY finished DESC, id DESC{tail}",
                params,
            ).fetchall()
        )
        return [game for row in rows if (game := _finished_game(row)) is not None]

    def summary(self, puzzle_id: str) -> PuzzleSummary:
        """Counts, personal bests, streaks and the recent chart of one puzzle."""
        return summarise(puzzle_id, self.records(puzzle_id), datetime.now(UTC).date())

    def progress_marks(self) -> dict[str, str]:
        """puzzle id -> "in progress" (a game is saved) or "solved" (won before, none saved)."""

        def read(db: sqlite3.Connection) -> dict[str, str]:
            marks = {
                row[0]: SOLVED for row in db.execute("SELECT DISTINCT puzzle_id FROM finished")
            }
            for row in db.execute("SELECT DISTINCT puzzle_id FROM games"):
                marks[row[0]] = IN_PROGRESS
            return marks

        return self._run(read)

    # ---- settings ----------------------------------------------------------------------------
    def get_setting(self, key: str, default: str | None = None) -> str | None:
        row = self._run(
            lambda db: db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        )
        return default if row is None else str(row[0])

    def set_setting(self, key: str, value: str) -> None:
        self._run(
            lambda db: db.execute(
                "INSERT INTO settings (key, value) VALUES (?, ?)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, str(value)),
            ),
            writes=True,
        )

    # ---- life cycle --------------------------------------------------------------------------
    def close(self) -> None:
        with self._lock:
            if not self._closed:
                self._closed = True
                try:
                    self._connection.close()
                except sqlite3.Error:
                    pass

    def __enter__(self) -> Store:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    # ---- the machinery -----------------------------------------------------------------------
    def _run(self, work: Callable[[sqlite3.Connection], T], writes: bool = False) -> T:
        """Run `work` (in a write transaction when `writes`); on an SQLite failure with the file,
        fall back to memory once and run it there."""
        with self._lock:
            if self._closed:
                raise ValueError("the store is closed")
            try:
                return self._attempt(work, writes)
            except sqlite3.Error as error:
                if not self.writable:
                    raise
                self._fall_back(error)
                return self._attempt(work, writes)

    def _attempt(self, work: Callable[[sqlite3.Connection], T], writes: bool) -> T:
        db = self._connection
        if not writes:
            return work(db)
        db.execute("BEGIN IMMEDIATE")
        try:
            result = work(db)
        except BaseException:
            try:
                db.execute("ROLLBACK")
            except sqlite3.Error:
                pass
            raise
        db.execute("COMMIT")
        return result

    def _fall_back(self, error: sqlite3.Error) -> None:
        """Saves off from now on: keep working in memory on a copy of what the file holds."""
        memory = connect(":memory:")
        try:
            copy_database(self._connection, memory)
            migrate(memory)
        except sqlite3.Error:
            memory.close()
            memory = connect(":memory:")
            migrate(memory)
        try:
            self._connection.close()
        except sqlite3.Error:
            pass
        self._connection = memory
        self.writable = False
        self.notice = f"Saves are off: could not write to {self.path} ({error})."
        if self.on_notice is not None:
            self.on_notice(self.notice)

    def _import_json_saves(self, folder: Path) -> None:
        """Import the 0.1 JSON saves once (a flag in `meta` says it was done); files are kept."""
        if self._run(lambda db: _meta(db, JSON_IMPORT_KEY)) is not None:
            return
        found = list(legacy.saved_games(folder))
        games = [item for item in found if isinstance(item, SavedGame)]
        skipped = tuple(item.name for item in found if isinstance(item, Path))

        def write(db: sqlite3.Connection) -> bool:
            if _meta(db, JSON_IMPORT_KEY) is not None:  # another process did it meanwhile
                return False
            for game in games:
                db.execute(
                    "INSERT INTO games (puzzle_id, game_id, moves, redo, seconds, hints, helped,"
                    " daily, updated) VALUES (?, ?, ?, ?, 0, 0, 0, NULL, ?)",
                    (
                        game.puzzle_id,
                        game.game_id,
                        json.dumps(list(game.moves)),
                        json.dumps(list(game.redo)),
                        game.updated,
                    ),
                )
            db.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?)",
                (
                    JSON_IMPORT_KEY,
                    json.dumps({"at": now_iso(), "games": len(games), "skipped": list(skipped)}),
                ),
            )
            return True

        if self._run(write, writes=True):
            self.imported, self.import_skipped = len(games), skipped


def _meta(db: sqlite3.Connection, key: str) -> str | None:
    row = db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    return None if row is None else str(row[0])


def _texts(raw: Any) -> tuple[str, ...]:
    value = json.loads(raw)
    if not isinstance(value, list) or not all(isinstance(m, str) for m in value):
        raise ValueError("moves are not a list of texts")
    return tuple(value)


def _levels(raw: Any) -> tuple[int, int, int]:
    """The coach's hint counts by level; zeros for a value edited into nonsense."""
    try:
        value = json.loads(raw)
    except (TypeError, ValueError):
        return (0, 0, 0)
    if isinstance(value, list) and len(value) == 3 and all(type(n) is int for n in value):
        return (value[0], value[1], value[2])
    return (0, 0, 0)


def _saved_game(row: tuple[Any, ...]) -> SavedGame | None:
    """A games row as a SavedGame; None for a row edited into nonsense by hand."""
    try:
        slot, puzzle_id, game_id, moves, redo, seconds, hints, helped, daily, updated, lv = row
        return SavedGame(
            slot=int(slot),
            puzzle_id=str(puzzle_id),
            game_id=str(game_id),
            moves=_texts(moves),
            redo=_texts(redo),
            seconds=float(seconds),
            hints=int(hints),
            helped=bool(helped),
            daily=None if daily is None else str(daily),
            updated=str(updated),
            hint_levels=_levels(lv),
        )
    except (TypeError, ValueError, RecursionError):
        return None


def _finished_game(row: tuple[Any, ...]) -> FinishedGame | None:
    try:
        game_id, puzzle_id, moves, count, optimal, seconds, hints, helped, finished, daily, lv = row
        return FinishedGame(
            game_id=str(game_id),
            puzzle_id=str(puzzle_id),
            moves=_texts(moves),
            move_count=int(count),
            optimal=None if optimal is None else int(optimal),
            seconds=float(seconds),
            hints=int(hints),
            helped=bool(helped),
            finished=str(finished),
            daily=None if daily is None else str(daily),
            hint_levels=_levels(lv),
        )
    except (TypeError, ValueError, RecursionError):
        return None
