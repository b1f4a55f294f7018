"""Faults lose nothing: each damaged or unusable database is set aside (renamed, never deleted)
or left alone, the store still opens, and `notice` says what happened in one line.

Tests run as root, where chmod does not stop writes, so "read-only" is simulated two ways: a
monkeypatched `os.access` saying the folder is not writable, and a data folder under a regular
file (which nobody can create).
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from kaeru.engine.store import DB_NAME, FinishedGame, SavedGame, Store

GAME = FinishedGame("oshidori:BWBWBWBW__", "oshidori", ("1-2 → 9-10",), 4, 4, 10.0, 0, False)


def make_store_with_a_record(folder: Path) -> None:
    with Store.open(folder) as store:
        store.finish_game(None, GAME)
        store.set_setting("theme", "nord")
    for suffix in ("-wal", "-shm"):  # closed cleanly: everything is in the main file
        assert not (folder / (DB_NAME + suffix)).exists()


def aside_files(folder: Path) -> list[Path]:
    """What was set aside: the database itself (its -wal/-shm files go with it, renamed)."""
    found = [p for p in folder.iterdir() if ".damaged-" in p.name]
    return sorted(p for p in found if not p.name.endswith(("-wal", "-shm", "-journal")))


def assert_fresh_and_working(store: Store) -> None:
    assert store.writable
    assert store.records() == []
    store.finish_game(None, GAME)
    assert len(store.records()) == 1


def damage_truncate(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2 + 100])


def damage_random_bytes(path: Path) -> None:
    path.write_bytes(os.urandom(3000))


def damage_not_sqlite(path: Path) -> None:
    path.write_text('{"version": 1, "game_id": "sliding-3x3"}')


def damage_pages(path: Path) -> None:
    """Keep the header, scribble over the schema page."""
    data = bytearray(path.read_bytes())
    data[100:4096] = b"\xff" * (4096 - 100)
    path.write_bytes(bytes(data))


@pytest.mark.parametrize(
    "damage", [damage_truncate, damage_random_bytes, damage_not_sqlite, damage_pages]
)
def test_a_damaged_file_is_set_aside_byte_for_byte(tmp_path: Path, damage):
    make_store_with_a_record(tmp_path)
    path = tmp_path / DB_NAME
    damage(path)
    before = path.read_bytes()
    store = Store.open(tmp_path)
    [aside] = aside_files(tmp_path)
    assert aside.read_bytes() == before
    assert store.notice.startswith("Your saved data was damaged")
    assert aside.name in store.notice and "\n" not in store.notice
    assert_fresh_and_working(store)
    store.close()
    with Store.open(tmp_path) as again:  # the fresh file is fine next time
        assert again.notice is None and len(again.records()) == 1


def test_a_fifo_in_place_of_the_database_does_not_hang(tmp_path: Path):
    os.mkfifo(tmp_path / DB_NAME)
    store = Store.open(tmp_path)  # opening the FIFO would block forever
    [aside] = aside_files(tmp_path)
    assert aside.is_fifo() and "FIFO" in store.notice
    assert_fresh_and_working(store)
    store.close()


def test_a_folder_in_place_of_the_database_is_set_aside(tmp_path: Path):
    (tmp_path / DB_NAME).mkdir()
    (tmp_path / DB_NAME / "keep.txt").write_text("mine")
    with Store.open(tmp_path) as store:
        [aside] = aside_files(tmp_path)
        assert (aside / "keep.txt").read_text() == "mine"
        assert_fresh_and_working(store)


def test_a_data_folder_that_is_a_file_turns_saves_off(tmp_path: Path):
    folder = tmp_path / "data"
    folder.write_text("not a folder")
    store = Store.open(folder)
    assert (
        not store.writable and store.notice == f"Saves are off: {folder} is a file, not a folder."
    )
    slot = store.save_game(SavedGame(None, "oshidori", "oshidori:BWBWBWBW__"))  # in memory
    assert store.load_game(slot) is not None
    assert folder.read_text() == "not a folder"
    store.close()


def test_a_data_folder_under_a_file_turns_saves_off(tmp_path: Path):
    (tmp_path / "file").write_text("x")
    store = Store.open(tmp_path / "file" / "data")
    assert not store.writable and store.notice.startswith("Saves are off: cannot make the folder")
    store.finish_game(None, GAME)
    assert len(store.records()) == 1


def test_a_read_only_folder_runs_in_memory_on_a_copy_of_the_data(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    make_store_with_a_record(tmp_path)
    before = (tmp_path / DB_NAME).read_bytes()
    real_access = os.access
    monkeypatch.setattr(
        os, "access", lambda p, mode, **kw: False if mode & os.W_OK else real_access(p, mode)
    )
    store = Store.open(tmp_path)
    assert not store.writable and store.notice == f"Saves are off: {tmp_path} is read-only."
    assert len(store.records()) == 1 and store.get_setting("theme") == "nord"  # still shown
    store.finish_game(None, GAME)
    assert len(store.records()) == 2
    store.close()
    assert (tmp_path / DB_NAME).read_bytes() == before
    assert aside_files(tmp_path) == []


def test_a_write_failing_later_is_held_told_at_once_and_written_when_it_can(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    from kaeru.engine.store import writer

    monkeypatch.setattr(writer, "WRITE_BUSY_SECONDS", 0.05)
    monkeypatch.setattr(writer, "RETRY_SECONDS", (0.05,))
    store = Store.open(tmp_path)
    store.finish_game(None, GAME)
    assert store.flush(10)
    seen: list[str] = []
    store.on_notice = seen.append
    other = sqlite3.connect(tmp_path / DB_NAME, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")  # hold the write lock past the busy timeout
    slot = store.save_game(SavedGame(None, "oshidori", "oshidori:BWBWBWBW__", ("1",)))
    assert wait_for(lambda: seen)
    assert seen[0].startswith("Saves are paused: another program holds")
    assert store.load_game(slot) is not None and len(store.records()) == 1  # nothing lost
    assert store.writable and store.pending
    other.execute("ROLLBACK")
    assert wait_for(lambda: len(seen) == 2) and seen[1].startswith("Saves are back")
    store.close()
    with Store.open(tmp_path) as again:
        assert again.load_game(slot) is not None and again.load_game(slot).moves == ("1",)


def wait_for(condition, seconds: float = 10.0) -> bool:
    import time

    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def test_a_locked_database_is_not_mistaken_for_damage(tmp_path: Path, monkeypatch):
    make_store_with_a_record(tmp_path)
    import kaeru.engine.store.opening as opening

    monkeypatch.setattr(opening, "BUSY_TIMEOUT_SECONDS", 0.05)
    monkeypatch.setattr(opening, "COPY_TIMEOUT_SECONDS", 0.05)
    other = sqlite3.connect(tmp_path / DB_NAME, isolation_level=None)
    other.execute("PRAGMA journal_mode = DELETE")
    other.execute("BEGIN EXCLUSIVE")
    store = Store.open(tmp_path)
    other.execute("ROLLBACK")
    assert not store.writable and store.notice.startswith("Saves are off: cannot use")
    assert aside_files(tmp_path) == []
    store.close()
    with Store.open(tmp_path) as again:
        assert len(again.records()) == 1
