"""The store's writes, done in a thread of their own so that no write ever waits on the caller's
thread (the app's UI), and held — never dropped — while the file cannot take them.

Writes run in the order they were given, each in one `BEGIN IMMEDIATE` transaction. A write
given a `key` is coalesced with one of the same key still waiting: it reads what to write when
it runs (the latest state of a game, of a setting), so a burst of moves is one transaction.

When a write fails (the file is locked by another program past a short busy timeout, the disk
is full, the file became read-only), the write stays first in line, `tell` is called at once
with one line for the player ("Saves are paused: …; your game is kept …"), and the write is
tried again every few seconds; when it goes through, `tell` says that saves are back and
everything kept was written. `close` waits for what is in line (briefly when paused) and
returns how many writes could not be made.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections import deque
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kaeru.engine.store.opening import connect

log = logging.getLogger(__name__)

WRITE_BUSY_SECONDS = 2.0  # a lock held elsewhere is told about after this, then waited out
RETRY_SECONDS = (0.5, 1.0, 2.0, 5.0)  # between tries while paused (the last one repeats)
PAUSED_CLOSE_SECONDS = 2.0  # how long closing waits for a file that cannot take writes
CLOSE_SECONDS = 60.0  # how long closing waits for writes that are going through


@dataclass
class Write:
    """One write: `apply(db)` runs inside the transaction; `done()` after it committed (under
    the store's lock, with the commit); `failed()` when it did not (to be tried again)."""

    apply: Callable[[sqlite3.Connection], object]
    key: Hashable | None = None
    done: Callable[[], None] = field(default=lambda: None)
    failed: Callable[[], None] = field(default=lambda: None)


class Writer:
    """Applies writes to the database file in order, in the thread "kaeru-store-writer"."""

    def __init__(
        self,
        path: Path | None,
        lock: threading.RLock,
        tell: Callable[[str], None],
        *,
        connector: Callable[[], Any] | None = None,
        db_errors: tuple[type[BaseException], ...] = (),
        label: str | None = None,
    ) -> None:
        """Writes to the SQLite file `path`, or (PostgreSQL) on connections `connector` makes,
        whose `db_errors` are faults to hold writes through; `label` names the store in the
        player's lines."""
        self.path = path
        self._connector = connector
        self._db_errors: tuple[type[BaseException], ...] = (sqlite3.Error, OSError, *db_errors)
        self.label = label or (path.name if path is not None else "the store")
        self._store_lock = lock  # the store's: held around each commit and its `done`
        self._tell = tell
        self._queue: deque[Write] = deque()
        self._queued_keys: set[Hashable] = set()
        self._busy = False  # a write is being applied
        self._condition = threading.Condition()
        self._closing = False
        self._connection: Any = None
        self.paused: str | None = None  # why writes are held, while they are
        self.written = 0
        self._thread = threading.Thread(target=self._run, name="kaeru-store-writer", daemon=True)
        self._thread.start()

    # ---- the caller's side -------------------------------------------------------------------
    def submit(self, write: Write) -> None:
        with self._condition:
            if write.key is not None:
                if write.key in self._queued_keys:
                    return  # the one waiting will write the latest state
                self._queued_keys.add(write.key)
            self._queue.append(write)
            self._condition.notify_all()

    @property
    def pending(self) -> int:
        with self._condition:
            return len(self._queue) + (1 if self._busy else 0)

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until every write given so far is made; False when `timeout` passed first."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._condition:
            while self._queue or self._busy:
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    return False
                self._condition.wait(left if left is not None else 0.5)
        return True

    def close(self) -> int:
        """Wait for the writes in line (at most PAUSED_CLOSE_SECONDS while paused), stop the
        thread; the number of writes that could not be made."""
        started = time.monotonic()
        with self._condition:
            while self._queue or self._busy:
                waited = time.monotonic() - started
                if waited > CLOSE_SECONDS or (self.paused and waited > PAUSED_CLOSE_SECONDS):
                    break
                self._condition.wait(0.05)
            self._closing = True
            left = len(self._queue) + (1 if self._busy else 0)
            self._condition.notify_all()
        self._thread.join(WRITE_BUSY_SECONDS + 1)
        if self._connection is not None and not self._thread.is_alive():
            try:
                self._connection.close()
            except self._db_errors:
                pass
        return left

    # ---- the writer thread -------------------------------------------------------------------
    def _run(self) -> None:
        tries = 0
        while True:
            with self._condition:
                while not self._queue and not self._closing:
                    self._condition.wait()
                if self._closing:
                    return
                write = self._queue.popleft()
                if write.key is not None:
                    self._queued_keys.discard(write.key)
                self._busy = True
            error = self._apply(write)
            with self._condition:
                self._busy = False
                if error is not None:
                    if write.key is None or write.key not in self._queued_keys:
                        self._queue.appendleft(write)
                        if write.key is not None:
                            self._queued_keys.add(write.key)
                self._condition.notify_all()
            if error is None:
                self.written += 1
                tries = 0
                if self.paused is not None:
                    self.paused = None
                    target = self.path if self.path is not None else self.label
                    self._tell(f"Saves are back: everything kept was written to {target}.")
                continue
            why = _why(error)
            if self.paused != why:
                self.paused = why
                self._tell(
                    f"Saves are paused: {why}. Your game is kept and will be saved as soon as"
                    f" {self.label} can take it."
                )
            with self._condition:
                if not self._closing:
                    self._condition.wait(RETRY_SECONDS[min(tries, len(RETRY_SECONDS) - 1)])
            tries += 1

    def _apply(self, write: Write) -> BaseException | None:
        """Run one write in its transaction; the error when it could not be made."""
        try:
            db = self._db()
            db.execute("BEGIN IMMEDIATE")
            try:
                write.apply(db)
                with self._store_lock:
                    db.execute("COMMIT")
                    write.done()
            except BaseException:
                try:
                    db.execute("ROLLBACK")
                except self._db_errors:
                    pass
                raise
        except self._db_errors as error:
            write.failed()
            self._drop_connection()
            return error
        except Exception as error:  # a bug: said, logged, and the write tried again
            log.exception("a store write failed")
            write.failed()
            return error
        return None

    def _db(self) -> Any:
        if self._connection is None:
            if self._connector is not None:
                self._connection = self._connector()
            elif self.path is not None:
                self._connection = connect(self.path, busy_seconds=WRITE_BUSY_SECONDS)
            else:
                raise OSError("the store has nowhere to write")
        return self._connection

    def _drop_connection(self) -> None:
        """After a failure the next try starts on a fresh connection (a file replaced or made
        writable again is seen anew)."""
        if self._connection is not None:
            try:
                self._connection.close()
            except self._db_errors:
                pass
            self._connection = None


def _why(error: BaseException) -> str:
    """The cause in a player's words."""
    text = str(error) or type(error).__name__
    lowered = text.lower()
    if "locked" in lowered or "busy" in lowered:
        return "another program holds the saved data's lock"
    if "full" in lowered:
        return "the disk is full"
    if "reach" in lowered or "connection" in lowered or "terminating" in lowered:
        return "the database server cannot be reached"
    if "readonly" in lowered or "read-only" in lowered:
        return "the saved data cannot be written (read-only)"
    return f"cannot write the saved data ({text})"
