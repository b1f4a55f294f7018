"""Two terminals (or SSH players) writing at once lose no record: several processes each save
and finish N games in the same database at the same time, then every record is counted."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from kaeru.engine.store import Store

WORKER = """
import sys, time
from pathlib import Path

import pytest
from kaeru.engine.store import FinishedGame, SavedGame, Store

folder, games, name = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
while not (folder / "go").exists():
    time.sleep(0.005)
store = Store.open(folder)
assert store.writable and store.notice is None, store.notice
for n in range(games):
    slot = store.save_game(SavedGame(None, "oshidori", f"oshidori:{name}-{n}", ("1",)))
    store.save_game(SavedGame(slot, "oshidori", f"oshidori:{name}-{n}", ("1", "2")))
    store.finish_game(slot, FinishedGame(f"oshidori:{name}-{n}", "oshidori", ("1", "2"), 2, 2,
                                         1.0, 0, False))
    store.set_setting(name, str(n))
store.close()
"""

PROCESSES, GAMES = 4, 40


def test_concurrent_writers_lose_no_record(tmp_path: Path):
    Store.open(tmp_path).close()  # the file exists; the workers race on writes, not creation
    workers = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER, str(tmp_path), str(GAMES), f"p{i}"],
            stderr=subprocess.PIPE,
            text=True,
        )
        for i in range(PROCESSES)
    ]
    (tmp_path / "go").touch()
    for worker in workers:
        _, err = worker.communicate(timeout=120)
        assert worker.returncode == 0, err
    with Store.open(tmp_path) as store:
        records = store.records()
        assert len(records) == PROCESSES * GAMES, (store.notice, sorted(tmp_path.iterdir()))
        assert len({r.game_id for r in records}) == PROCESSES * GAMES
        assert store.games_in_progress() == []
        assert all(store.get_setting(f"p{i}") == str(GAMES - 1) for i in range(PROCESSES))


@pytest.mark.slow
def test_concurrent_first_opens_migrate_once(tmp_path: Path):
    """Processes racing to create the same new database all get a working store."""
    code = WORKER.replace('while not (folder / "go").exists():', "while False:")
    workers = [
        subprocess.Popen(
            [sys.executable, "-c", code, str(tmp_path), "3", f"q{i}"],
            stderr=subprocess.PIPE,
            text=True,
        )
        for i in range(3)
    ]
    for worker in workers:
        _, err = worker.communicate(timeout=120)
        assert worker.returncode == 0, err
    with Store.open(tmp_path) as store:
        assert len(store.records()) == 9
