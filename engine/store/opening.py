"""Opening the store's database so that no fault loses data or stops the game.

- The data folder is a file, cannot be created, or is read-only (by `os.access`): the store runs
  in memory ("saves are off"), starting from a copy of the existing database when it can be
  read, so the player still sees their records.
- Something other than a regular file sits where the database goes (a FIFO, a folder, a
  dangling link): its type is checked with `os.stat` before anything opens it (opening a FIFO
  would block), and it is set aside like a damaged file.
- The file is damaged (not SQLite, truncated, malformed pages: a wrong header, SQLITE_CORRUPT or
  SQLITE_NOTADB, or `PRAGMA quick_check` not "ok"): it is renamed
  `kaeru.sqlite3.damaged-<UTC time stamp>` (with its `-wal`/`-shm` files under the same
  name), never deleted, and a fresh database is made.
- Any other SQLite failure (locked past the busy timeout, I/O error, a schema from a newer
  version): the file is left alone and the store runs in memory.

Every outcome is an `Opened` value whose `notice` is one line for the player, or None.
"""

from __future__ import annotations

import os
import sqlite3
import stat
import threading
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from kaeru.engine.store.schema import NewerSchema, migrate

DB_NAME = "kaeru.sqlite3"
BUSY_TIMEOUT_SECONDS = 15.0
COPY_TIMEOUT_SECONDS = 2.0  # how long a read-only copy waits for a locked file
SQLITE_HEADER = b"SQLite format 3\x00"
DAMAGE_CODES = {11, 26}  # SQLITE_CORRUPT, SQLITE_NOTADB
SIDE_FILES = ("-wal", "-shm", "-journal")


@dataclass
class Opened:
    connection: sqlite3.Connection
    writable: bool
    notice: str | None
    path: Path | None  # the database file; None when running in memory


class Damaged(Exception):
    """The database file cannot be used as it is; the message says why in a few words."""


def connect(path: Path | str) -> sqlite3.Connection:
    """A connection in autocommit mode (the store runs its own transactions), usable from the
    worker threads of the app (the store serialises calls with a lock)."""
    connection = sqlite3.connect(
        str(path), timeout=BUSY_TIMEOUT_SECONDS, isolation_level=None, check_same_thread=False
    )
    connection.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_SECONDS * 1000)}")
    # In WAL mode NORMAL never corrupts the file; a power cut may lose the last commits only.
    connection.execute("PRAGMA synchronous = NORMAL")
    return connection


def open_database(folder: Path) -> Opened:
    """The store's database in `folder`, or an in-memory one with a notice saying why."""
    if folder.exists() and not folder.is_dir():
        return in_memory(f"Saves are off: {folder} is a file, not a folder.")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        return in_memory(f"Saves are off: cannot make the folder {folder} ({_why(error)}).")
    path = folder / DB_NAME
    if not os.access(folder, os.W_OK | os.X_OK):
        return in_memory(f"Saves are off: {folder} is read-only.", copy_from=path)
    try:
        return Opened(_open_file(path), True, None, path)
    except Damaged as damage:
        try:
            aside = set_aside(path)
        except OSError as error:
            return in_memory(
                f"Saves are off: {path} is damaged and cannot be moved ({_why(error)})."
            )
        notice = (
            f"Your saved data was damaged ({damage}): set aside as {aside.name}; starting fresh."
        )
        try:
            return Opened(_open_file(path), True, notice, path)
        except (Damaged, sqlite3.Error, OSError) as error:
            return in_memory(f"Saves are off: cannot make a fresh {path} ({_why(error)}).")
    except NewerSchema:
        return in_memory(f"Saves are off: {path} comes from a newer Kaeru Arcade.", copy_from=None)
    except (sqlite3.Error, OSError) as error:
        return in_memory(f"Saves are off: cannot use {path} ({_why(error)}).", copy_from=path)


def _open_file(path: Path) -> sqlite3.Connection:
    """Open, check and migrate the file; Damaged when it is not a usable database."""
    check_file_type(path)
    connection: sqlite3.Connection | None = None
    try:
        connection = connect(path)
        connection.execute("PRAGMA journal_mode = WAL")
        verdict = connection.execute("PRAGMA quick_check").fetchone()
        if verdict is None or verdict[0] != "ok":
            raise Damaged(f"check failed: {verdict[0] if verdict else 'no answer'}")
        migrate(connection)
    except BaseException as error:
        if connection is not None:
            connection.close()
        if isinstance(error, sqlite3.DatabaseError) and _is_damage(error):
            raise Damaged(str(error)) from error
        raise
    return connection


def _is_damage(error: sqlite3.DatabaseError) -> bool:
    """SQLITE_CORRUPT or SQLITE_NOTADB (primary codes: the low byte of an extended one)."""
    code = getattr(error, "sqlite_errorcode", None)
    return code is not None and code & 0xFF in DAMAGE_CODES


def check_file_type(path: Path) -> None:
    """Damaged unless `path` is missing, empty, or a regular file that starts like SQLite.

    Runs before anything opens the file: a FIFO must never be opened (it would block)."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        if os.path.lexists(path):
            raise Damaged("a link to nothing") from None
        return
    if not stat.S_ISREG(info.st_mode):
        kind = "a folder" if stat.S_ISDIR(info.st_mode) else "not a regular file"
        if stat.S_ISFIFO(info.st_mode):
            kind = "a FIFO, not a file"
        raise Damaged(kind)
    if info.st_size == 0:
        return
    with open(path, "rb") as handle:
        header = handle.read(len(SQLITE_HEADER))
    if header != SQLITE_HEADER:
        raise Damaged("not an SQLite file")


def set_aside(path: Path) -> Path:
    """Rename `path` (and its -wal/-shm/-journal files) with a time stamp; returns the new path.

    A file another process already moved is not an error."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    aside = path.with_name(f"{path.name}.damaged-{stamp}")
    n = 1
    while os.path.lexists(aside):
        n += 1
        aside = path.with_name(f"{path.name}.damaged-{stamp}-{n}")
    try:
        os.rename(path, aside)
    except FileNotFoundError:
        pass
    for suffix in SIDE_FILES:
        side = path.with_name(path.name + suffix)
        if os.path.lexists(side):
            try:
                os.rename(side, aside.with_name(aside.name + suffix))
            except FileNotFoundError:
                pass
    return aside


def in_memory(notice: str, copy_from: Path | None = None) -> Opened:
    """A store in memory (saves are off), holding a copy of `copy_from` when it can be read."""
    connection = connect(":memory:")
    if copy_from is not None:
        _copy_readable(copy_from, connection)
    try:
        migrate(connection)
    except (sqlite3.Error, NewerSchema):
        connection.close()
        connection = connect(":memory:")
        migrate(connection)
    return Opened(connection, False, notice, None)


def _copy_readable(path: Path, target: sqlite3.Connection) -> None:
    """Copy a database opened read-only into `target`; nothing when it cannot be read, or when
    reading it does not end within a few seconds (a lock held elsewhere must never hang the
    arcade's start: the reading thread is left behind, and its copy is not used)."""
    try:
        check_file_type(path)
        if not path.exists():
            return
    except (Damaged, OSError):
        return
    image: list[bytes] = []

    def read() -> None:
        try:
            source = sqlite3.connect(
                f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=COPY_TIMEOUT_SECONDS
            )
            try:
                image.append(source.serialize())
            finally:
                source.close()
        except (sqlite3.Error, OSError):
            pass

    reader = threading.Thread(target=read, name="kaeru-store-copy", daemon=True)
    reader.start()
    reader.join(COPY_TIMEOUT_SECONDS * 2 + 1)
    if image:
        try:
            load_image(image[0], target)
        except sqlite3.Error:
            pass


def copy_database(source: sqlite3.Connection, target: sqlite3.Connection) -> None:
    """Copy `source`'s main database into `target` (an in-memory connection).

    `serialize` reads under one read transaction and fails after the busy timeout when the
    file is locked; `Connection.backup` would retry a locked source for ever. The image's
    header is switched from WAL to the rollback journal (bytes 18-19), which a database in
    memory needs."""
    load_image(source.serialize(), target)


def load_image(serialized: bytes, target: sqlite3.Connection) -> None:
    """Load a serialized database into `target`, switched from WAL to the rollback journal."""
    image = bytearray(serialized)
    if len(image) >= 20:
        image[18:20] = b"\x01\x01"
    target.deserialize(bytes(image))


def _why(error: BaseException) -> str:
    if isinstance(error, OSError) and error.strerror:
        return error.strerror.lower()
    return str(error) or type(error).__name__
