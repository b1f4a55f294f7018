"""`Place`: what the players of one server share — names, wins (daily leaderboards, hall of
fame, replays), each daily's optimum, who is here and their live games.

Where: on PostgreSQL (`$KAERU_STORE`, several hosts) in the `kaeru_place` schema; else in one
SQLite file, `$KAERU_PLACE` (set by `kaeru serve ssh` to `<server folder>/place.sqlite3`) or
`place.sqlite3` in the player's data folder (a single-player arcade: a place of one).

Every call is one short statement or transaction and may wait on the database, so the front end
calls it from a worker thread. Faults never raise: a read gives nothing, a write of a win that
cannot be made is kept and tried again with the next call (`pending`), and `notice` says why.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any, TypeVar

from kaeru.engine.place.names import fold, generated_name, refusal
from kaeru.engine.place.ranking import Board, Result, daily_board, day_streak, hall_of_fame
from kaeru.engine.place.schema import migrate_place_sqlite
from kaeru.engine.store.models import FinishedGame, now_iso
from kaeru.engine.store.postgres import (
    PgConnection,
    current_player,
    errors,
    is_postgres_url,
    store_url,
)

PLACE_ENV = "KAERU_PLACE"
PLACE_FILE = "place.sqlite3"
ONLINE_SECONDS = 30.0  # a player whose last heartbeat is older is not here any more
WATCH_SECONDS = 5.0  # a player counts as watched this long after a watcher last looked
WIN_COLUMNS = (
    "id, player, puzzle_id, game_id, day, moves, move_count, optimal, seconds, hints, helped,"
    " finished"
)
T = TypeVar("T")


@dataclass(frozen=True)
class Presence:
    """A player here now, and their live game (for watchers)."""

    player: str
    name: str
    puzzle_id: str | None
    game_id: str | None
    moves: tuple[str, ...]
    seconds: float
    watchable: bool
    watched: bool
    beat: float


class Place:
    """The shared place of a server. Thread-safe (one lock around its connection)."""

    def __init__(self, connection: Any, db_errors: tuple[type[BaseException], ...],
                 player: str) -> None:
        self._db = connection
        self._errors: tuple[type[BaseException], ...] = (sqlite3.Error, *db_errors)
        self.player = player
        self.notice: str | None = None
        self.pending: list[tuple[str, FinishedGame]] = []  # wins not yet written
        self._lock = threading.RLock()

    @classmethod
    def open(cls, folder: Path | None = None, url: str | None = None,
             player: str | None = None) -> Place:
        """The place this arcade belongs to (see the module's docstring); never raises."""
        who = player or current_player()
        url = url if url is not None else store_url()
        if url is not None and is_postgres_url(url):
            return cls(PgConnection(url, who, own_schema=False), errors(), who)
        named = os.environ.get(PLACE_ENV)
        if named:
            path = Path(named)
        else:
            from kaeru.engine.store.store import data_folder

            path = (folder or data_folder()) / PLACE_FILE
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(str(path), timeout=5, isolation_level=None,
                                 check_same_thread=False)
            db.execute("PRAGMA journal_mode = WAL")
            db.execute("PRAGMA synchronous = NORMAL")  # as the store: WAL, never corrupted
            migrate_place_sqlite(db)
        except (sqlite3.Error, OSError) as error:
            db = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
            migrate_place_sqlite(db)
            place = cls(db, (), who)
            place.notice = f"The shared place is off ({error}): results stay on this arcade."
            return place
        return cls(db, (), who)

    @classmethod
    def memory(cls, player: str = "me") -> Place:
        db = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        migrate_place_sqlite(db)
        return cls(db, (), player)

    # ---- names -------------------------------------------------------------------------------
    def name_of(self, player: str | None = None) -> str | None:
        row = self._run(lambda db: db.execute(
            "SELECT name FROM names WHERE player = ?", (player or self.player,)).fetchone(), None)
        return None if row is None else str(row[0])

    def set_name(self, name: str, player: str | None = None, guest: bool = False) -> str | None:
        """Take `name` for the player; None when done, else one line saying why not."""
        why = refusal(name)
        if why is not None:
            return why
        who = player or self.player
        text = " ".join(name.split())

        def write(db: Any) -> str | None:
            taken = db.execute("SELECT player FROM names WHERE folded = ?", (fold(text),))
            row = taken.fetchone()
            if row is not None and row[0] != who:
                return f"The name {text!r} is taken on this server."
            db.execute(
                "INSERT INTO names (player, name, folded, guest, updated) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT (player) DO UPDATE SET name = excluded.name,"
                " folded = excluded.folded, guest = excluded.guest, updated = excluded.updated",
                (who, text, fold(text), int(guest), now_iso()),
            )
            return None

        try:
            return self._transaction(write)
        except self._errors as error:
            if "unique" in str(error).lower():
                return f"The name {text!r} is taken on this server."
            return f"Names cannot be changed just now ({_first(error)})."

    def ensure_name(self, guest: bool = False) -> str:
        """The player's name; a generated one is taken first when they have none."""
        name = self.name_of()
        if name is not None:
            return name
        for _ in range(20):
            name = generated_name()
            if self.set_name(name, guest=guest) is None:
                return name
        return self.player[:20]

    # ---- wins --------------------------------------------------------------------------------
    def record_win(self, game: FinishedGame, player: str | None = None) -> bool:
        """Share a won game; False when it is kept to be written with the next call."""
        with self._lock:
            self.pending.append((player or self.player, game))
            return self._write_pending()

    def _write_pending(self) -> bool:
        def write(db: Any) -> None:
            for who, game in self.pending:
                db.execute(
                    "INSERT INTO wins (player, puzzle_id, game_id, day, moves, move_count,"
                    " optimal, seconds, hints, helped, finished)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (who, game.puzzle_id, game.game_id, game.daily,
                     json.dumps(list(game.moves)), int(game.move_count),
                     None if game.optimal is None else int(game.optimal), float(game.seconds),
                     int(game.hints), int(bool(game.helped)), game.finished),
                )

        if not self.pending:
            return True
        try:
            self._transaction(write)
        except self._errors as error:
            self.notice = f"Results cannot be shared just now ({_first(error)}); kept."
            return False
        self.pending.clear()
        return True

    def results(self, puzzle_id: str, day: str | None = None) -> list[Result]:
        """The shared wins of a puzzle (of one day's daily when `day` is given)."""
        with self._lock:
            self._write_pending()
        where, params = ("w.puzzle_id = ? AND w.day = ?", (puzzle_id, day)) if day else (
            "w.puzzle_id = ?", (puzzle_id,))
        columns = ", ".join(f"w.{name.strip()}" for name in WIN_COLUMNS.split(","))
        rows: list[Any] = self._run(lambda db: db.execute(
            f"SELECT {columns}, n.name FROM wins w LEFT JOIN names n ON n.player = w.player"
            f" WHERE {where} ORDER BY w.id", params).fetchall(), [])
        return [result for row in rows if (result := _result(row)) is not None]

    def win(self, win_id: int) -> Result | None:
        columns = ", ".join(f"w.{name.strip()}" for name in WIN_COLUMNS.split(","))
        row = self._run(lambda db: db.execute(
            f"SELECT {columns}, n.name FROM wins w LEFT JOIN names n ON n.player = w.player"
            " WHERE w.id = ?", (win_id,)).fetchone(), None)
        return None if row is None else _result(row)

    def daily_board(self, puzzle_id: str, day: str) -> Board:
        """A daily's leaderboard; wins saved without the optimum (the 15-puzzle's, before it
        was worked out) are ranked against the one stored since."""
        results = self.results(puzzle_id, day)
        if any(r.optimal is None for r in results):
            known = self.optimum(day, puzzle_id)
            if known is not None:
                results = [r if r.optimal is not None else replace(r, optimal=known)
                           for r in results]
        return daily_board(results)

    def hall_of_fame(self, puzzle_id: str, limit: int = 10) -> tuple[Result, ...]:
        return hall_of_fame(self.results(puzzle_id), limit)

    def daily_puzzles(self, day: str) -> list[str]:
        """The puzzles with shared results on `day`."""
        rows: list[Any] = self._run(lambda db: db.execute(
            "SELECT DISTINCT puzzle_id FROM wins WHERE day = ? ORDER BY puzzle_id",
            (day,)).fetchall(), [])
        return [str(row[0]) for row in rows]

    def streak(self, player: str | None = None, today: date | None = None) -> int:
        """Days in a row the player won a daily puzzle."""
        rows: list[Any] = self._run(lambda db: db.execute(
            "SELECT DISTINCT day FROM wins WHERE player = ? AND day IS NOT NULL",
            (player or self.player,)).fetchall(), [])
        return day_streak([str(row[0]) for row in rows], today or datetime.now(UTC).date())

    # ---- each daily's optimum ----------------------------------------------------------------
    def optimum(self, day: str, puzzle_id: str) -> int | None:
        row = self._run(lambda db: db.execute(
            "SELECT optimal FROM optima WHERE day = ? AND puzzle_id = ?",
            (day, puzzle_id)).fetchone(), None)
        return None if row is None else int(row[0])

    def set_optimum(self, day: str, puzzle_id: str, game_id: str, optimal: int) -> None:
        self._run(lambda db: db.execute(
            "INSERT INTO optima (day, puzzle_id, game_id, optimal) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (day, puzzle_id) DO NOTHING", (day, puzzle_id, game_id, optimal)), None)

    # ---- who is here -------------------------------------------------------------------------
    def beat(self, name: str, puzzle_id: str | None = None, game_id: str | None = None,
             moves: Sequence[str] = (), seconds: float = 0.0, watchable: bool = True) -> bool:
        """The player's heartbeat with their live game; whether someone watches them."""
        now = time.time()

        def write(db: Any) -> bool:
            db.execute(
                "INSERT INTO presence (player, name, puzzle_id, game_id, moves, seconds,"
                " watchable, beat) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (player) DO"
                " UPDATE SET name = excluded.name, puzzle_id = excluded.puzzle_id,"
                " game_id = excluded.game_id, moves = excluded.moves,"
                " seconds = excluded.seconds, watchable = excluded.watchable,"
                " beat = excluded.beat",
                (self.player, name, puzzle_id, game_id, json.dumps(list(moves)),
                 float(seconds), int(watchable), now),
            )
            row = db.execute("SELECT watched_until FROM presence WHERE player = ?",
                             (self.player,)).fetchone()
            return row is not None and float(row[0]) > now

        return bool(self._run(write, False))

    def leave(self, guest: bool = False) -> None:
        """The player is gone; a guest's made-up name is let go unless a shared win shows it."""
        self._run(lambda db: db.execute("DELETE FROM presence WHERE player = ?",
                                        (self.player,)), None)
        if guest:
            self._run(lambda db: db.execute(
                "DELETE FROM names WHERE player = ? AND guest = 1 AND NOT EXISTS"
                " (SELECT 1 FROM wins WHERE wins.player = names.player)", (self.player,)), None)

    def online(self) -> list[Presence]:
        """Players here now (a heartbeat within ONLINE_SECONDS), by name."""
        since = time.time() - ONLINE_SECONDS
        rows: list[Any] = self._run(lambda db: db.execute(
            "SELECT player, name, puzzle_id, game_id, moves, seconds, watchable,"
            " watched_until, beat FROM presence WHERE beat > ? ORDER BY name",
            (since,)).fetchall(), [])
        return [p for row in rows if (p := _presence(row)) is not None]

    def watch(self, player: str) -> Presence | None:
        """The live game of `player` (None when gone or not watchable); marks them watched."""
        until = time.time() + WATCH_SECONDS
        self._run(lambda db: db.execute(
            "UPDATE presence SET watched_until = ? WHERE player = ? AND watchable = 1",
            (until, player)), None)
        for presence in self.online():
            if presence.player == player:
                return presence if presence.watchable else None
        return None

    # ---- the machinery -----------------------------------------------------------------------
    def _run(self, work: Callable[[Any], T], fallback: T) -> T:
        with self._lock:
            try:
                return work(self._db)
            except self._errors as error:
                self.notice = f"The shared place cannot be reached just now ({_first(error)})."
                return fallback

    def _transaction(self, work: Callable[[Any], T]) -> T:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                answer = work(self._db)
            except BaseException:
                try:
                    self._db.execute("ROLLBACK")
                except self._errors:
                    pass
                raise
            self._db.execute("COMMIT")
            return answer

    def close(self) -> None:
        with self._lock:
            try:
                self._db.close()
            except self._errors:
                pass


def _result(row: Sequence[Any]) -> Result | None:
    try:
        moves = json.loads(row[5])
        return Result(
            id=int(row[0]), player=str(row[1]), name=str(row[12] or "someone"),
            puzzle_id=str(row[2]), game_id=str(row[3]),
            day=None if row[4] is None else str(row[4]),
            moves=tuple(str(m) for m in moves), move_count=int(row[6]),
            optimal=None if row[7] is None else int(row[7]), seconds=float(row[8]),
            hints=int(row[9]), helped=bool(row[10]), finished=str(row[11]),
        )
    except (TypeError, ValueError, RecursionError):
        return None


def _presence(row: Sequence[Any]) -> Presence | None:
    try:
        return Presence(
            player=str(row[0]), name=str(row[1]),
            puzzle_id=None if row[2] is None else str(row[2]),
            game_id=None if row[3] is None else str(row[3]),
            moves=tuple(str(m) for m in json.loads(row[4])), seconds=float(row[5]),
            watchable=bool(row[6]), watched=float(row[7]) > time.time(), beat=float(row[8]),
        )
    except (TypeError, ValueError, RecursionError):
        return None


def _first(error: BaseException) -> str:
    return (str(error).strip().splitlines() or [type(error).__name__])[0]
