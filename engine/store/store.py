"""`Store`: the player's games in progress, finished games and settings in one SQLite file.

Where: `kaeru.sqlite3` in the data folder — `$KAERU_DATA_DIR` when set, else platformdirs'
`user_data_dir("kaeru-arcade")`. WAL mode, so two terminals (or two SSH players) can write at
once; every write is one `BEGIN IMMEDIATE` transaction.

No call waits on the file: writes are made in order by the store's writer thread
(`engine.store.writer`), and until one is in the file what it wrote is held in memory and read
back from there, so every read sees every write at once. A write the file cannot take (locked
by another program, disk full, read-only) is held and tried again; `on_notice(line)` is called
the moment saves pause and again when they are back, and `notice` keeps the last such line.
Reads use their own connection with a short busy timeout; a file that cannot be read is read
from a copy of its bytes (`opening.readable_copy`). Rows edited into nonsense are passed over,
left in the file, and named once in a notice (`rows.Unreadable`).

A game's moves are rows of their own, so a move appends one row (`save_progress`) instead of
rewriting the list. Slots of new games are chosen here (random, far above any old slot), so
`save_game` returns at once. The games a store saves are marked as held by it (`holders`) and
let go when it closes; `claim(slot)` refuses a game another running arcade is playing.

Faults never raise (see `engine.store.opening`): `Store.open` always returns a store; when
saves are off (`writable` is False) the store works in memory so the game runs the same.

The API the front end codes against::

    store = Store.open()                      # or Store.open(folder)
    slot = store.save_game(SavedGame(None, "sliding-3x3", game_id, moves=("4 right",)))
    store.save_progress(slot, ..., keep=1, added=("5 up",), position=2, ...)  # one more move
    store.games_in_progress("sliding-3x3")    # newest first
    store.claim(slot)                         # False: another arcade is playing it
    store.finish_game(slot, FinishedGame(...))  # record + drop the in-progress row, atomically
    store.records(); store.summary("sliding-3x3"); store.progress_marks()
    store.get_setting("theme", "textual-dark"); store.set_setting("theme", "nord")
    store.flush(); store.close()              # close waits for the writes (briefly if paused)

On PostgreSQL (`Store.open(url=…)` or $KAERU_STORE=postgresql://…, `engine.store.postgres`)
the same statements run in the player's own schema; a server lost or not reached holds the
writes as a locked file does. A save that replaces one another running arcade made of the same
game (two sessions of one player) wins whole, and the store says so (`on_notice`). The shared
place listens through `on_saved` (a game's moves as saved) and `on_finished` (a win).

Old JSON saves (`<data folder>/saves/*.json`, version 0.1) are imported once, the first time a
writable store opens (`imported` counts them, `import_skipped` names the files that could not
be read); the files are kept.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar

import platformdirs

from kaeru import APP_NAME  # the one app name (folders of cache, data, logs)
from kaeru.engine.store import legacy
from kaeru.engine.store.held import Held, new_slot
from kaeru.engine.store.holders import held_elsewhere, holder_name
from kaeru.engine.store.models import FinishedGame, PuzzleSummary, SavedGame
from kaeru.engine.store.opening import Opened, connect, in_memory, open_database, readable_copy
from kaeru.engine.store.postgres import current_player, is_postgres_url, store_url
from kaeru.engine.store.postgres_open import open_postgres
from kaeru.engine.store.records import summarise
from kaeru.engine.store.rows import (
    FINISHED_COLUMNS,
    GAME_COLUMNS,
    ROW_ERRORS,
    Unreadable,
    finished_game,
    saved_game,
)
from kaeru.engine.store.schema import check_schema, migrate
from kaeru.engine.store.writer import Write, Writer

ENV_VAR = "KAERU_DATA_DIR"
IN_PROGRESS, SOLVED = "in progress", "solved"
READ_BUSY_MS = 500  # a read never waits longer than this on a lock (then reads a copy)

T = TypeVar("T")


def data_folder() -> Path:
    """$KAERU_DATA_DIR, else the platform's user data folder for the arcade (not created)."""
    override = os.environ.get(ENV_VAR)
    return Path(override) if override else Path(platformdirs.user_data_dir(APP_NAME))


class Store:
    """The player's data. Thread-safe (one lock around the store's state and reads)."""

    def __init__(self, opened: Opened, folder: Path | None = None) -> None:
        self._connection = opened.connection
        self.writable = opened.writable
        self.notice: str | None = opened.notice
        self.path = opened.path
        self.folder = folder
        self.on_notice: Callable[[str], None] | None = None
        # The shared place listens (engine.place.link): a game's moves as saved, a win.
        self.on_saved: Callable[[str, str, tuple[str, ...], float], None] | None = None
        self.on_finished: Callable[[FinishedGame], None] | None = None
        self.imported = 0
        self.import_skipped: tuple[str, ...] = ()
        self.holder = holder_name()
        self.unreadable = Unreadable()
        self.unsaved = 0  # writes that could not be made before the store closed
        self._lock = threading.RLock()
        self._closed = False
        self._held = Held(self._lock, self.holder)  # writes not yet in the file
        self._read_copy: sqlite3.Connection | None = None
        self._writer: Writer | None = None
        self._db_errors: tuple[type[BaseException], ...] = (sqlite3.Error, *opened.db_errors)
        self.remote = opened.connector is not None  # PostgreSQL: reads fall back, never copy
        self.label = opened.label
        self._read_fault_told = False
        self._held.on_taken = self._taken
        if opened.path is not None and opened.writable:
            self._connection.execute(f"PRAGMA busy_timeout = {READ_BUSY_MS}")
            self._writer = Writer(opened.path, self._lock, self._tell)
        elif opened.connector is not None and opened.writable:
            self._writer = Writer(
                None, self._lock, self._tell, connector=opened.connector,
                db_errors=opened.db_errors, label=opened.label,
            )

    @classmethod
    def open(cls, folder: Path | None = None, url: str | None = None) -> Store:
        """The store in `folder` (default `data_folder()`), or on PostgreSQL when `url` (or
        $KAERU_STORE) is a postgresql:// address; never raises for faults."""
        url = url if url is not None else store_url()
        if url is not None and is_postgres_url(url):
            return cls(open_postgres(url, current_player()), folder)
        where = folder if folder is not None else data_folder()
        try:
            opened = open_database(where)
        except Exception as error:  # a fault not foreseen still must not stop the game
            opened = in_memory(f"Saves are off: {type(error).__name__}: {error}")
        store = cls(opened, where)
        if store.writable:  # on the reading connection (short busy timeout): if the file is
            with store._lock:  # busy now, the import waits for the next start
                done = legacy.import_once(store._connection, where / "saves")
            if done is not None:
                store.imported, store.import_skipped = done
        return store

    @classmethod
    def memory(cls) -> Store:
        """A store that keeps nothing on disk (tests, and sessions run without saving)."""
        connection = connect(":memory:")
        migrate(connection)
        return cls(Opened(connection, False, None, None))

    # ---- games in progress -------------------------------------------------------------------
    def save_game(self, game: SavedGame) -> int:
        """Insert (slot None) or replace (by slot) a game in progress; returns its slot at once.
        A slot whose row is gone (finished or deleted elsewhere) is written again."""
        slot = game.slot if game.slot is not None else new_slot()
        with self._lock:
            self._held.lines[slot] = []
            self._held.json_rows.discard(slot)
        return self.save_progress(
            slot, game.puzzle_id, game.game_id, keep=0, added=(*game.moves, *game.redo),
            position=len(game.moves), seconds=game.seconds, hints=game.hints,
            helped=game.helped, daily=game.daily, hint_levels=game.hint_levels,
        )

    def save_progress(
        self,
        slot: int | None,
        puzzle_id: str,
        game_id: str,
        *,
        keep: int,
        added: Sequence[str],
        position: int,
        seconds: float = 0.0,
        hints: int = 0,
        helped: bool = False,
        daily: str | None = None,
        hint_levels: tuple[int, int, int] = (0, 0, 0),
    ) -> int:
        """Save a game by what changed: its line (moves played, then moves to redo) keeps its
        first `keep` moves and goes on with `added`; `position` of them are played. Returns the
        slot (a new one when `slot` is None). LookupError when the store does not know the
        first `keep` moves of that slot (save the whole game with `save_game` then)."""
        figures = {"seconds": float(seconds), "hints": int(hints), "helped": bool(helped),
                   "daily": daily, "hint_levels": tuple(int(n) for n in hint_levels)}
        slot = self._held.progress(slot, puzzle_id, game_id, keep, added, position, figures)
        self._submit(self._held.game_write(slot))
        if self.on_saved is not None:
            with self._lock:
                played = tuple(self._held.lines.get(slot, [])[:position])
            self.on_saved(puzzle_id, game_id, played, float(seconds))
        return slot

    def games_in_progress(self, puzzle_id: str | None = None) -> list[SavedGame]:
        """Games in progress (of one puzzle, or all), most recently saved first."""
        where, params = ("WHERE puzzle_id = ?", (puzzle_id,)) if puzzle_id else ("", ())

        def read(db: sqlite3.Connection) -> list[SavedGame]:
            rows = db.execute(f"SELECT {GAME_COLUMNS} FROM games {where}", params).fetchall()
            games = [game for row in rows if (game := self._game_from_row(db, row)) is not None]
            held = [self._held.game(slot) for slot in self._held.games]
            games += [g for g in held if puzzle_id is None or g.puzzle_id == puzzle_id]
            return sorted(games, key=lambda g: (g.updated, g.slot or 0), reverse=True)

        return self._read(read)

    def load_game(self, slot: int) -> SavedGame | None:
        """The game in `slot`, or None when there is none (or its row cannot be read)."""

        def read(db: sqlite3.Connection) -> SavedGame | None:
            if slot in self._held.games:
                return self._held.game(slot)
            row = db.execute(f"SELECT {GAME_COLUMNS} FROM games WHERE slot = ?", (slot,)).fetchone()
            return None if row is None else self._game_from_row(db, row)

        return self._read(read)

    def claim(self, slot: int) -> bool:
        """Take the game in `slot` for this arcade; False when another running arcade holds it
        (it must not be resumed here: two arcades would share one save slot)."""

        def read(db: sqlite3.Connection) -> Any:
            query = "SELECT holder, updated FROM games WHERE slot = ?"
            return db.execute(query, (slot,)).fetchone()

        row = self._read(read)
        if row is not None and held_elsewhere(row[0], self.holder, row[1]):
            return False
        self._submit(Write(lambda db: db.execute(
            "UPDATE games SET holder = ? WHERE slot = ?", (self.holder, slot))))
        return True

    def delete_game(self, slot: int) -> None:
        self._submit(self._held.drop(slot, None))

    # ---- finished games ----------------------------------------------------------------------
    def finish_game(self, slot: int | None, game: FinishedGame) -> None:
        """Record a won game and remove its in-progress row, in one transaction."""
        self._submit(self._held.drop(slot, game))
        if self.on_finished is not None:
            self.on_finished(game)

    def records(self, puzzle_id: str | None = None, limit: int | None = None) -> list[FinishedGame]:
        """Finished games (of one puzzle, or all), newest first."""
        where = "WHERE puzzle_id = ?" if puzzle_id else ""
        params: list[Any] = [puzzle_id] if puzzle_id else []
        tail = ""
        if limit is not None:
            tail, params = " LIMIT ?", [*params, max(0, int(limit))]

        def read(db: sqlite3.Connection) -> list[FinishedGame]:
            rows = db.execute(
                f"SELECT {FINISHED_COLUMNS}, id FROM finished {where}"
                f" ORDER BY finished DESC, id DESC{tail}",
                params,
            ).fetchall()
            held = [g for g in reversed(self._held.finished.values())
                    if puzzle_id is None or g.puzzle_id == puzzle_id]
            games = sorted(held, key=lambda g: g.finished, reverse=True)
            for row in rows:
                try:
                    games.append(finished_game(row))
                except ROW_ERRORS:
                    self._passed_over("finished", row[-1])
            games.sort(key=lambda g: g.finished, reverse=True)  # stable: held first on a tie
            return games if limit is None else games[: max(0, int(limit))]

        return self._read(read)

    def summary(self, puzzle_id: str) -> PuzzleSummary:
        """Counts, personal bests, streaks and the recent chart of one puzzle."""
        return summarise(puzzle_id, self.records(puzzle_id), datetime.now(UTC).date())

    def progress_marks(self) -> dict[str, str]:
        """puzzle id -> "in progress" (a game is saved) or "solved" (won before, none saved)."""

        def read(db: sqlite3.Connection) -> dict[str, str]:
            marks = {
                row[0]: SOLVED for row in db.execute("SELECT DISTINCT puzzle_id FROM finished")
            }
            marks.update({game.puzzle_id: SOLVED for game in self._held.finished.values()})
            for slot, puzzle in db.execute("SELECT slot, puzzle_id FROM games"):
                if slot not in self._held.removed:
                    marks[puzzle] = IN_PROGRESS
            for held in self._held.games.values():
                marks[held.puzzle_id] = IN_PROGRESS
            return marks

        return self._read(read)

    # ---- settings ----------------------------------------------------------------------------
    def get_setting(self, key: str, default: str | None = None) -> str | None:
        def read(db: sqlite3.Connection) -> str | None:
            if key in self._held.settings:
                return self._held.settings[key]
            row = db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
            return None if row is None else str(row[0])

        value = self._read(read)
        return default if value is None else value

    def set_setting(self, key: str, value: str) -> None:
        self._submit(self._held.setting(key, str(value)))

    # ---- life cycle --------------------------------------------------------------------------
    @property
    def pending(self) -> int:
        """Writes not yet in the file."""
        return 0 if self._writer is None else self._writer.pending

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until every write so far is in the file; False when `timeout` passed first."""
        return True if self._writer is None else self._writer.flush(timeout)

    def close(self) -> None:
        """Let go of this arcade's games, wait for the writes (a short while when saves are
        paused: `unsaved` counts what could not be written, and `notice` says so)."""
        with self._lock:
            if self._closed:
                return
            writer, self._writer = self._writer, None
        if writer is not None:
            writer.submit(Write(lambda db: db.execute(
                "UPDATE games SET holder = NULL WHERE holder = ?", (self.holder,))))
            self.unsaved = writer.close()
            if self.unsaved:
                self.notice = (
                    f"{self.unsaved} change(s) to your saved data could not be written"
                    f" ({writer.paused or 'the store closed first'})."
                )
        with self._lock:
            self._closed = True
            for connection in (self._connection, self._read_copy):
                if connection is not None:
                    try:
                        connection.close()
                    except self._db_errors:
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
    def _tell(self, line: str) -> None:
        self.notice = line
        if self.on_notice is not None:
            self.on_notice(line)

    def _read(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """Run `work` on the file (under the lock, so no write lands halfway through what it
        reads of the file and of the held writes); from a copy when the file cannot be read."""
        with self._lock:
            if self._closed:
                raise ValueError("the store is closed")
            db = self._read_copy or self._connection
            try:
                answer = work(db)
                self._read_fault_told = False
                return answer
            except self._db_errors as error:
                if self.remote:  # PostgreSQL lost: what is held, until it is back
                    if not self._read_fault_told:
                        self._read_fault_told = True
                        self._tell(f"Your saved data cannot be read just now ({_first(error)}).")
                    empty = connect(":memory:")
                    migrate(empty)
                    try:
                        return work(empty)
                    finally:
                        empty.close()
                if self.path is None or self._read_copy is not None:
                    raise
                copy = connect(":memory:")
                if not readable_copy(self.path, copy) or check_schema(copy) is not None:
                    copy.close()
                    copy = connect(":memory:")
                    migrate(copy)
                self._read_copy = copy
                self._tell(f"Your saved data cannot be read just now ({error}): showing a copy.")
                return work(copy)

    def _submit(self, write: Write) -> None:
        """To the writer thread; in memory (no file), made at once."""
        with self._lock:
            if self._closed:
                raise ValueError("the store is closed")
            writer = self._writer
            if writer is None:
                db = self._connection
                db.execute("BEGIN IMMEDIATE")
                try:
                    write.apply(db)
                except BaseException:
                    db.execute("ROLLBACK")
                    write.failed()
                    raise
                db.execute("COMMIT")
                write.done()
                return
        writer.submit(write)

    def _game_from_row(self, db: sqlite3.Connection, row: tuple[Any, ...]) -> SavedGame | None:
        """A games row (not one held or removed here) as a game; None when it cannot be read
        (passed over and named in a notice). Its line is kept for the saves that follow."""
        slot = row[0]
        if slot in self._held.games or slot in self._held.removed:
            return None
        try:
            game, line = saved_game(db, row)
        except ROW_ERRORS:
            self._passed_over("games", slot)
            return None
        self._held.remember(int(slot), line, json_row=row[-1] is None)
        return game

    def _taken(self, slot: int, other: str) -> None:
        """A save of ours replaced one another arcade made of the same game (two sessions of
        one player): the later save wins, and each session is told when it saves."""
        host = other.partition(":")[0] or "another session"
        self._tell(
            f"This game is also being played in another session ({host}): the latest save"
            " wins, so each save replaces the other's."
        )

    def _passed_over(self, table: str, row_id: Any) -> None:
        if self.unreadable.add(table, row_id):
            self._tell(self.unreadable.notice())


def _first(error: BaseException) -> str:
    return (str(error).strip().splitlines() or [type(error).__name__])[0]
