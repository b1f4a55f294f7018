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
- A valid SQLite file whose tables are not the arcade's (another program's file, or one that
  lost a table): set aside like a damaged file (`schema.check_schema`).
- Any other SQLite failure (locked past the busy timeout, I/O error, a schema from a newer
  version): the file is left alone and the store runs in memory, on a copy of what the file
  holds whenever it can be read (`readable_copy`: read-only, else from a copy of its bytes, so
  a lock held elsewhere or a folder where no `-shm` file can be made does not hide the data).

Every outcome is an `Opened` value whose `notice` is one line for the player, or None.
"""

from __future__ import annotations

import functools
import os
import shutil
import sqlite3
import stat
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from kaeru.engine.store.schema import NewerSchema, check_schema, foreign_file, migrate

DB_NAME = "kaeru.sqlite3"
BUSY_TIMEOUT_SECONDS = 15.0
COPY_TIMEOUT_SECONDS = 2.0  # how long a read-only copy waits for a locked file
SQLITE_HEADER = b"SQLite format 3\x00"
DAMAGE_CODES = {11, 26}  # SQLITE_CORRUPT, SQLITE_NOTADB
SIDE_FILES = ("-wal", "-shm", "-journal")


@dataclass
class Opened:
    connection: Any  # a sqlite3.Connection, or a postgres.PgConnection that runs its SQL
    writable: bool
    notice: str | None
    path: Path | None  # the database file; None when running in memory or on PostgreSQL
    connector: Callable[[], Any] | None = None  # the writer's connections (PostgreSQL)
    db_errors: tuple[type[BaseException], ...] = field(default=())  # faults besides SQLite's
    label: str | None = None  # the store's name in the player's lines


class Damaged(Exception):
    """The database file cannot be used as it is; the message says why in a few words."""


def connect(path: Path | str, busy_seconds: float | None = None) -> sqlite3.Connection:
    """A connection in autocommit mode (the store runs its own transactions), usable from the
    worker threads of the app (the store serialises calls with a lock)."""
    busy = BUSY_TIMEOUT_SECONDS if busy_seconds is None else busy_seconds
    connection = sqlite3.connect(
        str(path), timeout=busy, isolation_level=None, check_same_thread=False
    )
    connection.execute(f"PRAGMA busy_timeout = {int(busy * 1000)}")
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
        return in_memory(f"Saves are off: {path} comes from a newer Kaeru Arcade.", copy_from=path)
    except (sqlite3.Error, OSError) as error:
        return in_memory(f"Saves are off: cannot use {path} ({_why(error)}).", copy_from=path)


def _open_file(path: Path) -> sqlite3.Connection:
    """Open, check and migrate the file; Damaged when it is not a usable database."""
    check_file_type(path)
    connection: sqlite3.Connection | None = None
    try:
        connection = connect(path)
        verdict = connection.execute("PRAGMA quick_check").fetchone()
        if verdict is None or verdict[0] != "ok":
            raise Damaged(f"check failed: {verdict[0] if verdict else 'no answer'}")
        foreign = foreign_file(connection)  # before WAL mode changes a byte of it
        if foreign is not None:
            raise Damaged(f"not the arcade's tables: {foreign}")
        connection.execute("PRAGMA journal_mode = WAL")
        try:
            migrate(connection)
        except sqlite3.OperationalError as error:
            if _is_foreign(error):  # a step met tables that are not the arcade's
                raise Damaged(f"not the arcade's tables: {error}") from error
            raise
        missing = check_schema(connection)
        if missing is not None:
            raise Damaged(f"not the arcade's tables: {missing}")
    except BaseException as error:
        if connection is not None:
            connection.close()
        if isinstance(error, sqlite3.DatabaseError) and _is_damage(error):
            raise Damaged(str(error)) from error
        raise
    return connection


def _is_foreign(error: sqlite3.OperationalError) -> bool:
    """A migration failed on the tables themselves (not on a lock, the disk or the I/O)."""
    text = str(error)
    return any(
        clue in text
        for clue in ("no such table", "no such column", "duplicate column", "already exists")
    )


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
    """A store in memory (saves are off), holding a copy of `copy_from` when it can be read:
    migrated when it is older, read as it is when it is newer and still has what this code
    reads."""
    connection = connect(":memory:")
    if copy_from is not None:
        readable_copy(copy_from, connection)
    try:
        migrate(connection)
        usable = check_schema(connection) is None
    except NewerSchema:
        usable = check_schema(connection) is None
    except sqlite3.Error:
        usable = False
    if not usable:
        connection.close()
        connection = connect(":memory:")
        migrate(connection)
    return Opened(connection, False, notice, None)


def readable_copy(path: Path, target: sqlite3.Connection) -> bool:
    """Copy the database in `path` into `target` (in memory); whether it was copied.

    First read-only through SQLite; when that fails or waits too long (an exclusive lock held
    elsewhere, a read-only folder where SQLite cannot make the `-shm` file it needs, a full
    disk), from a copy of the file's bytes (with its `-wal`/`-journal`, so committed changes
    are not lost) in a temporary folder, else from the main file's bytes alone. A lock held
    elsewhere never hangs the arcade's start: a read that does not end in time is left behind
    in its thread, and its copy is not used."""
    try:
        check_file_type(path)
        if not path.exists():
            return False
    except (Damaged, OSError):
        return False
    readers: list[Callable[[Path], bytes | None]] = [
        _read_only_image, _image_from_copied_files, _image_of_main_file
    ]
    for read in readers:
        image = _in_time(functools.partial(read, path))
        if image:
            try:
                load_image(image, target)
                return True
            except sqlite3.Error:
                continue
    return False


def _in_time(read: Callable[[], bytes | None]) -> bytes | None:
    """`read()` in a thread of its own, or None when it fails or does not end in time."""
    image: list[bytes | None] = []

    def run() -> None:
        try:
            image.append(read())
        except (sqlite3.Error, OSError, ValueError):
            pass

    reader = threading.Thread(target=run, name="kaeru-store-copy", daemon=True)
    reader.start()
    reader.join(COPY_TIMEOUT_SECONDS * 2 + 1)
    return image[0] if image else None


def _read_only_image(path: Path) -> bytes:
    source = sqlite3.connect(
        f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=COPY_TIMEOUT_SECONDS
    )
    try:
        return source.serialize()
    finally:
        source.close()


def _image_from_copied_files(path: Path) -> bytes:
    """The database as SQLite reads it from copies of its files (no lock, no -shm in place)."""
    with tempfile.TemporaryDirectory(prefix="kaeru-store-") as folder:
        copy = Path(folder) / path.name
        shutil.copyfile(path, copy)
        for suffix in ("-wal", "-journal"):
            side = path.with_name(path.name + suffix)
            if side.is_file():
                shutil.copyfile(side, copy.with_name(copy.name + suffix))
        source = sqlite3.connect(str(copy), timeout=COPY_TIMEOUT_SECONDS)
        try:
            return source.serialize()
        finally:
            source.close()


def _image_of_main_file(path: Path) -> bytes | None:
    """The main file's bytes (what the last checkpoint wrote), when it starts like SQLite."""
    with open(path, "rb") as handle:
        raw = handle.read()
    return raw if raw.startswith(SQLITE_HEADER) else None


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
