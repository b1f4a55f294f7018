"""The store on PostgreSQL (psycopg 3, the optional extra `kaeru-arcade[postgres]`), for a
server spread over several hosts: `KAERU_STORE=postgresql://…` (or `kaeru serve ssh --store`).

The store's SQL is written once, for SQLite's `sqlite3` module; `PgConnection` runs it on
PostgreSQL: `?` placeholders become `%s`, `BEGIN IMMEDIATE` becomes `BEGIN`, and the player's
schema comes first on the search path (then the shared `kaeru_place`), so the same table
names reach that player's tables. The few statements that differ between the two (the schema,
its version, the checks of a file) are in `postgres_schema` and `schema`.

Why not SQLAlchemy Core: the statements the two share are plain (INSERT … ON CONFLICT DO
UPDATE, which both speak; SELECT, DELETE); what differs is not SQL a toolkit writes for us but
SQLite's own machinery (PRAGMA quick_check, WAL, serialize/deserialize of a damaged file's
copy, user_version) and PostgreSQL's (schemas, advisory locks); and a single-player install
would carry a large dependency for a placeholder translation of a few lines.

A connection is made when first used and made again after it is lost; while the server cannot
be reached, `connect` is not tried again for RETRY_SECONDS, so reads made on the app's thread
never wait on it twice in a row.
"""

from __future__ import annotations

import getpass
import os
import re
import threading
import time
from collections.abc import Iterable, Sequence
from typing import Any
from urllib.parse import urlsplit

from kaeru.engine.store.postgres_schema import (
    PLACE_SCHEMA,
    PLAYER_MIGRATIONS,
    migrate_namespace,
    player_schema,
)

STORE_ENV = "KAERU_STORE"
PLAYER_ENV = "KAERU_PLAYER"
CONNECT_TIMEOUT_SECONDS = 3
RETRY_SECONDS = 2.0  # after a failed connect, reads give up at once for this long
_PLACEHOLDER = re.compile(r"\?")


class StoreUnavailable(Exception):
    """PostgreSQL cannot be used (no driver, cannot connect, refused): one line why."""


def store_url() -> str | None:
    """The PostgreSQL address in $KAERU_STORE, or None (the embedded SQLite store)."""
    value = os.environ.get(STORE_ENV, "").strip()
    return value or None


def is_postgres_url(text: str) -> bool:
    return text.startswith(("postgresql://", "postgres://"))


def where(url: str) -> str:
    """The address without its password, for the player's and operator's lines."""
    parts = urlsplit(url)
    host = parts.hostname or "local socket"
    port = f":{parts.port}" if parts.port else ""
    return f"PostgreSQL at {host}{port}{parts.path or ''}"


def current_player() -> str:
    """Whose data this arcade keeps: $KAERU_PLAYER (set by `kaeru serve`), else the user."""
    name = os.environ.get(PLAYER_ENV, "").strip()
    if name:
        return name
    try:
        return "local-" + getpass.getuser()
    except (KeyError, OSError):
        return "local"


def driver() -> Any:
    """The psycopg module; StoreUnavailable naming the extra when it is not installed."""
    try:
        import psycopg
    except ImportError as error:
        raise StoreUnavailable(
            "the PostgreSQL store needs psycopg: pip install 'kaeru-arcade[postgres]'"
        ) from error
    return psycopg


def errors() -> tuple[type[BaseException], ...]:
    """The driver's errors (nothing when it is not installed)."""
    try:
        import psycopg
    except ImportError:
        return ()
    return (psycopg.Error,)


def open_raw(url: str) -> Any:
    """A psycopg connection in autocommit mode; StoreUnavailable with one line when not."""
    psycopg = driver()
    try:
        return psycopg.connect(url, autocommit=True, connect_timeout=CONNECT_TIMEOUT_SECONDS)
    except psycopg.Error as error:
        first = (str(error).strip().splitlines() or [type(error).__name__])[0]
        raise StoreUnavailable(f"cannot reach {where(url)}: {first}") from error
    except ValueError as error:  # a malformed address
        raise StoreUnavailable(f"not a PostgreSQL address ({error})") from error


def check(url: str) -> None:
    """Connect once and make the shared schema (for `kaeru serve ssh --store` at start)."""
    from kaeru.engine.place.schema import migrate_place

    db = open_raw(url)
    try:
        migrate_place(db)
    finally:
        db.close()


class PgConnection:
    """What the store calls on a `sqlite3.Connection`, run on one player's PostgreSQL schema.

    Made lazily; a call that fails on a lost connection drops it (the next call connects
    again) and raises the driver's error, which the store handles as it does SQLite's."""

    def __init__(self, url: str, player: str, *, own_schema: bool = True) -> None:
        """`own_schema`: the player's tables first on the search path (the store); else the
        shared place's alone (engine.place, and the operator's `kaeru leaderboard`)."""
        self.url = url
        self.schema = player_schema(player) if own_schema else None
        self._db: Any = None
        self._failed_at = 0.0
        self._why = ""
        self._lock = threading.Lock()

    def _connection(self) -> Any:
        if self._db is not None and not self._db.closed:
            return self._db
        if time.monotonic() - self._failed_at < RETRY_SECONDS:
            raise driver().OperationalError(self._why)
        try:
            db = open_raw(self.url)
        except StoreUnavailable as error:
            self._failed_at, self._why = time.monotonic(), str(error)
            raise driver().OperationalError(str(error)) from error
        try:
            from kaeru.engine.place.schema import migrate_place

            migrate_place(db)
            if self.schema is None:
                db.execute(f"SET search_path TO {PLACE_SCHEMA}")
            else:
                migrate_namespace(db, self.schema, PLAYER_MIGRATIONS)
                db.execute(f"SET search_path TO {self.schema}, {PLACE_SCHEMA}")
        except BaseException:
            db.close()
            raise
        self._db = db
        return db

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        with self._lock:
            db = self._connection()
            try:
                return db.execute(translate(sql), tuple(params))
            except driver().OperationalError:
                self._drop()
                raise

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        batch = [tuple(row) for row in rows]
        if not batch:
            return
        with self._lock:
            db = self._connection()
            try:
                with db.cursor() as cursor:
                    cursor.executemany(translate(sql), batch)
            except driver().OperationalError:
                self._drop()
                raise

    def _drop(self) -> None:
        if self._db is not None:
            try:
                self._db.close()
            except Exception:  # closing a broken connection: nothing more to do
                pass
            self._db = None

    def close(self) -> None:
        with self._lock:
            self._drop()


def translate(sql: str) -> str:
    """SQLite's spelling of the store's statements in PostgreSQL's."""
    text = sql.strip()
    if text.upper() == "BEGIN IMMEDIATE":
        return "BEGIN"
    return _PLACEHOLDER.sub("%s", text.replace("%", "%%"))
