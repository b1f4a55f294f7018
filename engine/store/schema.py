"""The store's schema as a list of migration steps, and the code that applies them.

`PRAGMA user_version` holds the number of steps applied: a fresh database runs them all, an old
one only those it lacks, each step and the version bump in one transaction (`BEGIN IMMEDIATE`,
so two processes opening an old database at once migrate it once: the second waits, re-reads
the version inside its own transaction and finds nothing left to do). To change the schema,
append a step; never edit one that has shipped.

Version 1: games in progress, finished games, settings.
Version 2: the date of a daily puzzle on both kinds of game; an index for records by puzzle;
a `meta` table of one-time jobs done (the import of the old JSON saves).
Version 3: the coach's hint counts by level.
Version 4: a game's moves one row each (`moves`), so a move appends a row instead of rewriting
the list; `games.position` says how many of them are played (the rest are to redo; NULL: the
game is still in the JSON columns of before); `games.holder` names the arcade playing it.
Version 5: knights' squares named by row from the top as peg holes are (they were chess ranks
from the bottom): every saved knights move renamed (`knights_rows_from_the_top`), in the moves
table and the JSON columns, so an old game resumes to the same position.

`check_schema` says whether a file holds the tables and columns this code reads: a valid SQLite
file made by something else is not the arcade's data.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass


@dataclass(frozen=True)
class Migration:
    """One step: `version` is the schema version it produces."""

    version: int
    description: str
    sql: str


def knights_rows_from_the_top() -> str:
    """SQL (SQLite's and PostgreSQL's alike) renaming the saved moves of the knights boards from
    ranks counted from the bottom to rows from the top: on a board of height h, rank r becomes
    row h + 1 - r. In a knights move's text (`a4-c3`) and in a JSON list of them every digit is
    a rank, so the digits are swapped in place (through `!`, which no move text holds)."""

    def swapped(column: str, height: int) -> str:
        expression = column
        for rank in range(1, height // 2 + 1):
            other = str(height + 1 - rank)
            for old, new in ((str(rank), "!"), (other, str(rank)), ("!", other)):
                expression = f"replace({expression}, '{old}', '{new}')"
        return expression

    statements = []
    for board, height in (("knights-3x4", 4), ("knights-3x3", 3)):
        ids = f"(puzzle_id = '{board}' OR puzzle_id LIKE '{board}@%')"
        statements += [
            f"UPDATE moves SET move = {swapped('move', height)}"
            f" WHERE slot IN (SELECT slot FROM games WHERE {ids})",
            f"UPDATE games SET moves = {swapped('moves', height)},"
            f" redo = {swapped('redo', height)} WHERE {ids}",
            f"UPDATE finished SET moves = {swapped('moves', height)} WHERE {ids}",
        ]
    return ";\n".join(statements) + ";\n"


MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        1,
        "games in progress, finished games, settings",
        """
        CREATE TABLE games (
            slot INTEGER PRIMARY KEY AUTOINCREMENT,
            puzzle_id TEXT NOT NULL,
            game_id TEXT NOT NULL,
            moves TEXT NOT NULL DEFAULT '[]',   -- JSON list of move texts
            redo TEXT NOT NULL DEFAULT '[]',    -- JSON list: the next move to redo first
            seconds REAL NOT NULL DEFAULT 0,
            hints INTEGER NOT NULL DEFAULT 0,
            helped INTEGER NOT NULL DEFAULT 0,
            updated TEXT NOT NULL               -- ISO 8601, UTC
        );
        CREATE INDEX games_by_puzzle ON games (puzzle_id, updated);
        CREATE TABLE finished (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            game_id TEXT NOT NULL,
            puzzle_id TEXT NOT NULL,
            moves TEXT NOT NULL DEFAULT '[]',
            move_count INTEGER NOT NULL,
            optimal INTEGER,
            seconds REAL NOT NULL DEFAULT 0,
            hints INTEGER NOT NULL DEFAULT 0,
            helped INTEGER NOT NULL DEFAULT 0,
            finished TEXT NOT NULL
        );
        CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        """,
    ),
    Migration(
        2,
        "daily puzzles; records by puzzle; one-time jobs",
        """
        ALTER TABLE games ADD COLUMN daily TEXT;
        ALTER TABLE finished ADD COLUMN daily TEXT;
        CREATE INDEX finished_by_puzzle ON finished (puzzle_id, finished);
        CREATE INDEX finished_by_time ON finished (finished);
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        """,
    ),
    Migration(
        3,
        "the coach's graded hints: presses by level (JSON list of 3 counts)",
        """
        ALTER TABLE games ADD COLUMN hint_levels TEXT NOT NULL DEFAULT '[0, 0, 0]';
        ALTER TABLE finished ADD COLUMN hint_levels TEXT NOT NULL DEFAULT '[0, 0, 0]';
        """,
    ),
    Migration(
        4,
        "moves one row each (appended, not rewritten); where a game stands; who plays it",
        """
        CREATE TABLE moves (
            slot INTEGER NOT NULL,
            ply INTEGER NOT NULL,               -- 0-based place in the game's line
            move TEXT NOT NULL,
            PRIMARY KEY (slot, ply)
        ) WITHOUT ROWID;
        ALTER TABLE games ADD COLUMN position INTEGER;  -- moves played; NULL: the JSON columns
        ALTER TABLE games ADD COLUMN holder TEXT;       -- host:pid:token of the arcade playing it
        """,
    ),
    Migration(
        5,
        "knights' squares named by row from the top: their saved moves renamed",
        knights_rows_from_the_top(),
    ),
)

LATEST = MIGRATIONS[-1].version

# What this code reads and writes: a file lacking any of it is not the arcade's (or is damaged).
REQUIRED: dict[str, set[str]] = {
    "games": {
        "slot", "puzzle_id", "game_id", "moves", "redo", "seconds", "hints", "helped", "updated",
        "daily", "hint_levels", "position", "holder",
    },
    "finished": {
        "id", "game_id", "puzzle_id", "moves", "move_count", "optimal", "seconds", "hints",
        "helped", "finished", "daily", "hint_levels",
    },
    "settings": {"key", "value"},
    "meta": {"key", "value"},
    "moves": {"slot", "ply", "move"},
}


def foreign_file(connection: sqlite3.Connection) -> str | None:
    """Before anything is changed in a file: None when it may be the arcade's (empty, or with
    the tables of its version), else what says it is another program's."""
    version = schema_version(connection)
    names = {
        row[0]
        for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        if not str(row[0]).startswith("sqlite_")
    }
    if version > LATEST:
        return None  # a newer arcade's: left alone (NewerSchema), never set aside
    if version == 0:
        return f"tables of another program ({', '.join(sorted(names))})" if names else None
    missing = {"games", "finished", "settings"} - names
    if missing:
        return f"no {' or '.join(sorted(missing))} table"
    return None


def check_schema(connection: sqlite3.Connection) -> str | None:
    """None when every table and column the store uses is there, else what is missing."""
    for table, columns in REQUIRED.items():
        found = {row[1] for row in connection.execute(f"PRAGMA table_info({table})")}
        if not found:
            return f"no {table} table"
        missing = columns - found
        if missing:
            return f"the {table} table lacks {', '.join(sorted(missing))}"
    return None


class NewerSchema(Exception):
    """The database was written by a newer Kaeru Arcade: left alone, never downgraded."""


def schema_version(connection: sqlite3.Connection) -> int:
    row = connection.execute("PRAGMA user_version").fetchone()
    return int(row[0])


def migrate(connection: sqlite3.Connection) -> int:
    """Apply the missing steps (each in its own transaction); returns the version reached.

    The connection must be in autocommit mode (`isolation_level=None`). Raises NewerSchema
    when the file is ahead of this code, sqlite3 errors when it cannot be read or written."""
    for step in MIGRATIONS:
        if schema_version(connection) >= step.version:
            continue
        connection.execute("BEGIN IMMEDIATE")
        try:
            if schema_version(connection) < step.version:  # another process may have done it
                for statement in _statements(step.sql):
                    connection.execute(statement)
                connection.execute(f"PRAGMA user_version = {int(step.version)}")
            connection.execute("COMMIT")
        except BaseException:
            connection.execute("ROLLBACK")
            raise
    version = schema_version(connection)
    if version > LATEST:
        raise NewerSchema(f"schema version {version}, this program knows up to {LATEST}")
    return version


def _statements(script: str) -> list[str]:
    """A script split into statements (`executescript` would commit the open transaction)."""
    lines = [line.split("--", 1)[0] for line in script.splitlines()]
    return [part.strip() for part in "\n".join(lines).split(";") if part.strip()]
