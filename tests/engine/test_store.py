"""The store's API: games in progress, finished games, summaries, settings, migrations and the
one-time import of the old JSON saves."""

from __future__ import annotations

import json
import sqlite3
import uuid
from dataclasses import replace
from pathlib import Path

import pytest

from kaeru.engine.puzzles.registry import get_puzzle
from kaeru.engine.store import DB_NAME, FinishedGame, SavedGame, Store, data_folder
from kaeru.engine.store.legacy import move_text
from kaeru.engine.store.schema import LATEST, MIGRATIONS, schema_version
from tests.place.pg_cluster import SKIP_REASON, shared


@pytest.fixture(params=["sqlite", "postgresql"])
def open_store(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Opens the test's store (again): in `tmp_path`, or one player's on a real PostgreSQL."""
    if request.param == "sqlite":
        return lambda: Store.open(tmp_path)
    cluster = shared()
    if cluster is None:
        pytest.skip(SKIP_REASON)
    monkeypatch.setenv("KAERU_PLAYER", f"test-{uuid.uuid4().hex}")
    url = cluster.url()
    return lambda: Store.open(tmp_path, url=url)


@pytest.fixture
def store(open_store) -> Store:
    opened = open_store()
    assert opened.writable and opened.notice is None
    yield opened
    opened.close()


def finished(
    puzzle_id: str = "sliding-3x3",
    count: int = 30,
    optimal: int | None = 28,
    helped: bool = False,
    seconds: float = 60.0,
    when: str = "2026-11-20T10:00:00+00:00",
) -> FinishedGame:
    return FinishedGame(
        f"{puzzle_id}:x",
        puzzle_id,
        ("1 up",) * count,
        count,
        optimal,
        seconds,
        1 if helped else 0,
        helped,
        when,
    )


def test_open_makes_a_wal_database_at_the_latest_version(tmp_path: Path):
    store = Store.open(tmp_path)
    assert store.writable and store.notice is None and store.path == tmp_path / DB_NAME
    db = sqlite3.connect(tmp_path / DB_NAME)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert schema_version(db) == LATEST == len(MIGRATIONS)
    store.close()


def test_data_folder_follows_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    monkeypatch.setenv("KAERU_DATA_DIR", str(tmp_path / "here"))
    assert data_folder() == tmp_path / "here"


def test_games_in_progress_insert_update_load_delete(store: Store):
    slot = store.save_game(SavedGame(None, "sliding-3x3", "sliding-3x3:a", ("4 right",)))
    other = store.save_game(SavedGame(None, "flip-it-5", "flip-it-5:_BBBB", daily="2026-11-23"))
    assert (
        store.save_game(
            replace(
                store.load_game(slot), moves=("4 right", "5 up"), seconds=12.5, hints=1, helped=True
            )
        )
        == slot
    )
    game = store.load_game(slot)
    assert game.moves == ("4 right", "5 up") and game.seconds == 12.5 and game.helped
    assert [g.slot for g in store.games_in_progress()] == [slot, other]  # newest save first
    assert [g.slot for g in store.games_in_progress("flip-it-5")] == [other]
    assert store.load_game(other).daily == "2026-11-23"
    store.delete_game(other)
    assert store.load_game(other) is None
    assert store.progress_marks() == {"sliding-3x3": "in progress"}


def test_finish_game_records_and_drops_the_save_in_one_go(store: Store):
    slot = store.save_game(SavedGame(None, "sliding-3x3", "sliding-3x3:a"))
    store.finish_game(slot, finished(when="2026-11-20T10:00:00+00:00"))
    store.finish_game(None, finished(count=40, when="2026-11-21T10:00:00+00:00", helped=True))
    assert store.load_game(slot) is None
    records = store.records()
    assert [r.move_count for r in records] == [40, 30]  # newest first
    assert records[0].as_json() == {
        "game_id": "sliding-3x3:x",
        "moves": 40,
        "optimal": 28,
        "seconds": 60.0,
        "hints": 1,
        "helped": True,
        "finished": "2026-11-21T10:00:00+00:00",
    }
    assert len(store.records(limit=1)) == 1 and store.records("flip-it-5") == []
    assert store.progress_marks() == {"sliding-3x3": "solved"}


def test_summary_bests_streaks_and_chart(store: Store):
    games = [  # oldest first
        finished(count=34, seconds=90, when="2026-11-18T10:00:00+00:00"),
        finished(count=30, seconds=120, when="2026-11-19T10:00:00+00:00"),
        finished(count=28, seconds=20, helped=True, when="2026-11-20T10:00:00+00:00"),
        finished(count=32, seconds=70, when="2026-11-21T10:00:00+00:00"),
        finished(count=31, seconds=80, optimal=None, when="2026-11-22T10:00:00+00:00"),
    ]
    for game in games:
        store.finish_game(None, game)
    summary = store.summary("sliding-3x3")
    assert (summary.solved, summary.clean, summary.helped) == (5, 4, 1)
    assert summary.best_over_optimal == 2 and summary.best_moves == 30
    assert summary.best_seconds == 70  # the helped 20 s does not count
    assert summary.streak == 2
    assert summary.recent == ((6, False), (2, False), (0, True), (4, False))
    assert store.summary("flip-it-5").solved == 0


def test_day_streak_counts_days_in_a_row():
    from datetime import date

    from kaeru.engine.store.records import day_streak

    days = {date(2026, 11, d) for d in (18, 20, 21, 22)}
    assert day_streak(days, date(2026, 11, 22)) == 3
    assert day_streak(days, date(2026, 11, 23)) == 3  # today not played yet
    assert day_streak(days, date(2026, 11, 24)) == 0


def test_settings(store: Store, open_store):
    assert store.get_setting("theme") is None and store.get_setting("theme", "x") == "x"
    store.set_setting("theme", "nord")
    store.set_setting("theme", "gruvbox")
    store.close()
    with open_store() as again:
        assert again.get_setting("theme") == "gruvbox"


VERSION_1 = """
CREATE TABLE games (slot INTEGER PRIMARY KEY AUTOINCREMENT, puzzle_id TEXT NOT NULL,
  game_id TEXT NOT NULL, moves TEXT NOT NULL DEFAULT '[]', redo TEXT NOT NULL DEFAULT '[]',
  seconds REAL NOT NULL DEFAULT 0, hints INTEGER NOT NULL DEFAULT 0,
  helped INTEGER NOT NULL DEFAULT 0, updated TEXT NOT NULL);
CREATE TABLE finished (id INTEGER PRIMARY KEY AUTOINCREMENT, game_id TEXT NOT NULL,
  puzzle_id TEXT NOT NULL, moves TEXT NOT NULL DEFAULT '[]', move_count INTEGER NOT NULL,
  optimal INTEGER, seconds REAL NOT NULL DEFAULT 0, hints INTEGER NOT NULL DEFAULT 0,
  helped INTEGER NOT NULL DEFAULT 0, finished TEXT NOT NULL);
CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO games (puzzle_id, game_id, moves, updated)
  VALUES ('flip-it-5', 'flip-it-5:_BBBB', '["4 -> 1"]', '2026-01-01T00:00:00+00:00');
INSERT INTO finished (game_id, puzzle_id, moves, move_count, optimal, seconds, finished)
  VALUES ('oshidori:BWBWBWBW__', 'oshidori', '[]', 4, 4, 33.0, '2026-01-02T00:00:00+00:00');
INSERT INTO settings VALUES ('theme', 'nord');
PRAGMA user_version = 1;
"""


def test_a_version_1_database_made_by_hand_migrates_keeping_its_rows(tmp_path: Path):
    db = sqlite3.connect(tmp_path / DB_NAME)
    db.executescript(VERSION_1)
    db.close()
    (tmp_path / "saves").mkdir()  # nothing to import
    with Store.open(tmp_path) as store:
        assert store.writable and store.notice is None
        [game] = store.games_in_progress()
        assert game.moves == ("4 -> 1",) and game.daily is None
        [record] = store.records()
        assert record.move_count == 4 and record.seconds == 33.0 and record.daily is None
        assert store.get_setting("theme") == "nord"
        store.finish_game(game.slot, replace(record, daily="2026-11-23"))
        assert store.records()[0].daily == "2026-11-23"
    check = sqlite3.connect(tmp_path / DB_NAME)
    assert schema_version(check) == LATEST
    assert {"meta"} <= {r[0] for r in check.execute("SELECT name FROM sqlite_master")}


def test_a_database_from_a_newer_version_is_left_alone(tmp_path: Path):
    db = sqlite3.connect(tmp_path / DB_NAME)
    db.execute(f"PRAGMA user_version = {LATEST + 5}")
    db.close()
    store = Store.open(tmp_path)
    assert not store.writable and "newer" in store.notice
    store.save_game(SavedGame(None, "oshidori", "oshidori:BWBWBWBW__"))  # in memory
    assert schema_version(sqlite3.connect(tmp_path / DB_NAME)) == LATEST + 5


def legacy_save(folder: Path, puzzle_id: str, data: object) -> Path:
    (folder / "saves").mkdir(exist_ok=True)
    path = folder / "saves" / f"{puzzle_id}.json"
    path.write_text(json.dumps(data))
    return path


def test_json_saves_are_imported_once_as_move_texts_and_kept(tmp_path: Path):
    puzzle = get_puzzle("flip-it-5")
    start = puzzle.initial()
    first = list(puzzle.moves(start))[1]
    second_state = puzzle.apply(start, first)
    second = list(puzzle.moves(second_state))[0]
    third = list(puzzle.moves(puzzle.apply(second_state, second)))[2]
    good = legacy_save(
        tmp_path,
        "flip-it-5",
        {"version": 1, "game_id": puzzle.game_id(start), "moves": [1, 0], "redo": [2]},
    )
    bad = legacy_save(tmp_path, "oshidori", {"version": 1, "game_id": "oshidori", "moves": [99]})
    (tmp_path / "saves" / "frogs-3.json").write_text("[" * 100_000)
    (tmp_path / "saves" / "knights-3x4.json").write_text(
        '{"game_id": "knights-3x4", "moves": [Infinity]}'
    )
    with Store.open(tmp_path) as store:
        assert store.imported == 1
        assert set(store.import_skipped) == {"oshidori.json", "frogs-3.json", "knights-3x4.json"}
        [game] = store.games_in_progress()
        assert game.puzzle_id == "flip-it-5" and game.game_id == puzzle.game_id(start)
        assert game.moves == (move_text(puzzle, first), move_text(puzzle, second))
        assert game.redo == (move_text(puzzle, third),)
        assert puzzle.parse_move(game.moves[0], start) == first  # the texts read back
    assert good.exists() and bad.exists()
    with Store.open(tmp_path) as store:  # not imported twice
        assert store.imported == 0 and len(store.games_in_progress()) == 1
