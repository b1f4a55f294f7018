"""The store under faults keeps every move and hides no data (issue 26): writes the file cannot
take are held, told at once and written later; files that are not the arcade's are set aside;
intact data stays readable whatever holds or blocks the file; rows edited into nonsense are
named; two arcades never share a save slot; a move appends a row instead of rewriting the list.
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import pytest

from kaeru.engine.store import DB_NAME, FinishedGame, SavedGame, Store, opening, writer
from kaeru.engine.store.schema import LATEST

GAME = FinishedGame("oshidori:BWBWBWBW__", "oshidori", ("1-2 → 9-10",), 4, 4, 10.0, 0, False)


@pytest.fixture(autouse=True)
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    """Locks are given up on and writes tried again within a few hundredths of a second."""
    monkeypatch.setattr(writer, "WRITE_BUSY_SECONDS", 0.05)
    monkeypatch.setattr(writer, "RETRY_SECONDS", (0.05,))
    monkeypatch.setattr(opening, "BUSY_TIMEOUT_SECONDS", 0.05)
    monkeypatch.setattr(opening, "COPY_TIMEOUT_SECONDS", 0.2)


def wait_for(condition, seconds: float = 10.0) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def store_with_a_record(folder: Path) -> None:
    with Store.open(folder) as store:
        store.finish_game(None, GAME)
        store.save_game(SavedGame(None, "oshidori", "oshidori:BWBWBWBW__", ("1", "2")))


def failing_writes(monkeypatch: pytest.MonkeyPatch, pragma: str) -> None:
    """The writer's next connections fail every write the way `pragma` makes them."""
    real = writer.connect

    def connect(path, busy_seconds=None):
        connection = real(path, busy_seconds)
        connection.execute(pragma)
        return connection

    monkeypatch.setattr(writer, "connect", connect)


@pytest.mark.parametrize(
    ("pragma", "said"),
    [("PRAGMA max_page_count = 1", "the disk is full"), ("PRAGMA query_only = 1", "read-only")],
    ids=["disk full", "read-only"],
)
def test_moves_made_while_the_file_cannot_take_them_are_held_and_written_later(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pragma: str, said: str
):
    Store.open(tmp_path).close()
    real = writer.connect
    failing_writes(monkeypatch, pragma)
    store = Store.open(tmp_path)
    seen: list[str] = []
    store.on_notice = seen.append
    slot = store.save_game(SavedGame(None, "oshidori", "oshidori:BWBWBWBW__", ("1",)))
    for n in range(2, 400):
        store.save_progress(slot, "oshidori", "oshidori:BWBWBWBW__", keep=n - 1,
                            added=(str(n),), position=n)
    assert wait_for(lambda: seen) and said in seen[0] and len(seen) == 1  # told once
    assert len(store.games_in_progress("oshidori")[0].moves) == 399  # read back from memory
    monkeypatch.setattr(writer, "connect", real)  # room again
    assert wait_for(lambda: len(seen) == 2) and seen[1].startswith("Saves are back")
    store.close()
    with Store.open(tmp_path) as again:
        assert again.load_game(slot).moves == tuple(str(n) for n in range(1, 400))


def test_closing_while_paused_says_what_could_not_be_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setattr(writer, "PAUSED_CLOSE_SECONDS", 0.1)
    Store.open(tmp_path).close()
    failing_writes(monkeypatch, "PRAGMA query_only = 1")
    store = Store.open(tmp_path)
    store.set_setting("theme", "nord")
    assert wait_for(lambda: store.notice is not None)
    store.close()
    assert store.unsaved >= 1 and "could not be written" in store.notice


def test_no_call_waits_on_another_programs_write_lock(tmp_path: Path):
    Store.open(tmp_path).close()
    other = sqlite3.connect(tmp_path / DB_NAME, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:  # (the old store waited out its 15 s busy timeout here, then turned saves off)
        store = Store.open(tmp_path)
        store.set_setting("theme", "nord")  # as every launch of the app does
        slot = store.save_game(SavedGame(None, "oshidori", "oshidori:BWBWBWBW__", ("1",)))
        assert store.get_setting("theme") == "nord" and store.load_game(slot) is not None
        assert store.pending  # held, not waited for
    finally:
        other.execute("ROLLBACK")
    store.close()
    with Store.open(tmp_path) as again:
        assert again.get_setting("theme") == "nord"


@pytest.mark.parametrize(
    "script",
    [
        "CREATE TABLE notes (x); PRAGMA user_version = 3;",
        "CREATE TABLE notes (x); PRAGMA user_version = 4;",
    ],
    ids=["another program's tables", "another program's tables at our version"],
)
def test_a_valid_sqlite_file_that_is_not_the_arcades_is_set_aside(tmp_path: Path, script: str):
    db = sqlite3.connect(tmp_path / DB_NAME)
    db.executescript(script)
    db.close()
    before = (tmp_path / DB_NAME).read_bytes()
    with Store.open(tmp_path) as store:
        assert store.writable and "not the arcade's tables" in store.notice
        store.finish_game(None, GAME)
        assert len(store.records()) == 1
    [aside] = [p for p in tmp_path.iterdir() if ".damaged-" in p.name]
    assert aside.read_bytes() == before


def test_a_file_lacking_the_finished_table_is_set_aside(tmp_path: Path):
    store_with_a_record(tmp_path)
    db = sqlite3.connect(tmp_path / DB_NAME)
    db.execute("DROP TABLE finished")
    db.commit()
    db.close()
    with Store.open(tmp_path) as store:
        assert store.writable and "no finished table" in store.notice
        assert store.records() == []


def test_a_newer_schema_is_left_alone_but_its_data_is_shown(tmp_path: Path):
    store_with_a_record(tmp_path)
    db = sqlite3.connect(tmp_path / DB_NAME)
    db.execute(f"PRAGMA user_version = {LATEST + 1}")
    db.close()
    with Store.open(tmp_path) as store:
        assert not store.writable and "newer" in store.notice
        assert len(store.records()) == 1 and len(store.games_in_progress()) == 1


def test_data_under_another_programs_exclusive_lock_is_still_shown(tmp_path: Path):
    store_with_a_record(tmp_path)
    other = sqlite3.connect(tmp_path / DB_NAME, isolation_level=None)
    other.execute("PRAGMA locking_mode = EXCLUSIVE")
    other.execute("BEGIN EXCLUSIVE")
    other.execute("INSERT INTO settings VALUES ('x', 'y')")
    other.execute("COMMIT")  # the exclusive lock stays held by this connection
    try:
        with Store.open(tmp_path) as store:
            assert not store.writable and store.notice.startswith("Saves are off")
            assert len(store.records()) == 1 and len(store.games_in_progress()) == 1
    finally:
        other.close()


def test_rows_edited_into_nonsense_are_named_and_left_in_the_file(tmp_path: Path):
    store_with_a_record(tmp_path)
    db = sqlite3.connect(tmp_path / DB_NAME)
    db.execute("UPDATE finished SET seconds = 'abc'")
    db.execute("INSERT INTO games (slot, puzzle_id, game_id, moves, updated)"
               " VALUES (7, 'oshidori', 'oshidori', 5, '2026-01-01')")
    db.execute("INSERT INTO games (slot, puzzle_id, game_id, moves, updated) VALUES"
               " (8, 'oshidori', 'oshidori', ?, '2026-01-01')", ("[" * 100_000,))
    db.commit()
    db.close()
    with Store.open(tmp_path) as store:
        seen: list[str] = []
        store.on_notice = seen.append
        assert store.records() == [] and len(store.games_in_progress()) == 1
        assert len(seen) == 3 and seen[-1].startswith("3 saved rows could not be read")
        assert "slot 7, 8" in seen[-1] and "finished games (id 1)" in seen[-1]
        store.records()
        assert len(seen) == 3  # told once per row
    db = sqlite3.connect(tmp_path / DB_NAME)
    assert db.execute("SELECT count(*) FROM games").fetchone()[0] == 3  # all still there
    assert db.execute("SELECT seconds FROM finished").fetchone()[0] == "abc"


def test_two_arcades_never_share_a_save_slot(tmp_path: Path):
    first, second = Store.open(tmp_path), Store.open(tmp_path)
    slot = first.save_game(SavedGame(None, "oshidori", "oshidori:BWBWBWBW__", ("1",)))
    assert first.flush(10)
    assert first.claim(slot)  # its own game
    assert not second.claim(slot)  # held by a running arcade: not resumed there
    first.close()
    assert second.claim(slot)  # let go when the first closed
    second.close()


def test_a_move_appends_a_row_and_rewrites_none(tmp_path: Path):
    store = Store.open(tmp_path)
    slot = store.save_game(SavedGame(None, "oshidori", "oshidori:BWBWBWBW__", ("a", "b")))
    assert store.flush(10)
    db = sqlite3.connect(tmp_path / DB_NAME, isolation_level=None)
    db.execute("UPDATE moves SET move = 'A' WHERE ply = 0")  # a mark a rewrite would erase
    store.save_progress(slot, "oshidori", "oshidori:BWBWBWBW__", keep=2, added=("c",),
                        position=3)
    store.save_progress(slot, "oshidori", "oshidori:BWBWBWBW__", keep=3, added=(), position=2)
    assert store.flush(10)
    rows = db.execute("SELECT ply, move FROM moves WHERE slot = ? ORDER BY ply", (slot,))
    assert rows.fetchall() == [(0, "A"), (1, "b"), (2, "c")]
    store.close()
    with Store.open(tmp_path) as again:
        game = again.load_game(slot)
        assert game.moves == ("A", "b") and game.redo == ("c",)


def test_a_read_only_folder_where_sqlite_cannot_open_the_file_still_shows_the_data(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """As for a WAL database in a read-only folder (no -shm can be made), or a full disk: the
    copy comes from the file's bytes, its -wal with them (changes not checkpointed yet)."""
    import os

    store_with_a_record(tmp_path)
    other = sqlite3.connect(tmp_path / DB_NAME, isolation_level=None)
    other.execute("PRAGMA wal_autocheckpoint = 0")
    other.execute("INSERT INTO settings VALUES ('theme', 'nord')")  # only in the -wal so far
    assert (tmp_path / (DB_NAME + "-wal")).stat().st_size > 0
    real_access = os.access
    monkeypatch.setattr(
        os, "access", lambda p, mode, **kw: False if mode & os.W_OK else real_access(p, mode)
    )

    def cannot_open(path: Path) -> bytes:
        raise sqlite3.OperationalError("unable to open database file")

    monkeypatch.setattr(opening, "_read_only_image", cannot_open)
    try:
        with Store.open(tmp_path) as store:
            assert not store.writable and "read-only" in store.notice
            assert len(store.records()) == 1 and store.get_setting("theme") == "nord"
    finally:
        other.close()
