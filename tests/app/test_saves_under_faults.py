"""Saves under faults, seen by the player: another program locking the saved data at start and
mid-game pauses saves with one line at once, no move is lost, and everything is written when
the lock goes; a second arcade on the same puzzle plays a game of its own."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import pytest

from kaeru.engine.store import DB_NAME, Store, writer
from kaeru.tui.app import KaeruApp
from kaeru.tui.palette import theme_setting
from tests.app.conftest import SIZE, play_screen, settle


def notices(app: KaeruApp) -> list[str]:
    return [str(n.message) for n in app._notifications]


async def wait_for(pilot, condition, seconds: float = 10.0) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        await pilot.pause(0.02)
    return True


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(writer, "WRITE_BUSY_SECONDS", 0.05)
    monkeypatch.setattr(writer, "RETRY_SECONDS", (0.05,))
    folder = tmp_path / "data"
    Store.open(folder).close()
    return folder


async def test_a_lock_held_from_start_pauses_saves_loses_no_move_and_writes_later(data_dir):
    other = sqlite3.connect(data_dir / DB_NAME, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another program holds the write lock
    app = KaeruApp("flip-it-6", resume=False, data_dir=data_dir)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        session = play_screen(app).session
        for _ in range(5):
            session.push(session.legal_moves()[0])
        app.theme = "nord"  # a settings write waits on nothing either
        await settle(pilot)
        assert await wait_for(pilot, lambda: any("Saves are paused" in n for n in notices(app)))
        other.execute("ROLLBACK")
        assert await wait_for(pilot, lambda: any("Saves are back" in n for n in notices(app)))
        made = len(session.history)
        theme_key = theme_setting(app.few_colours)
    with Store.open(data_dir) as store:
        [game] = store.games_in_progress("flip-it-6")
        assert len(game.moves) == made == 5
        assert store.get_setting(theme_key) == "nord"


async def test_a_second_arcade_on_the_same_puzzle_plays_its_own_game(data_dir):
    first = KaeruApp("flip-it-6", data_dir=data_dir)
    async with first.run_test(size=SIZE) as pilot:
        await settle(pilot)
        session = play_screen(first).session
        session.push(session.legal_moves()[0])
        await settle(pilot)
        assert first.store.flush(10)
        second = KaeruApp("flip-it-6", data_dir=data_dir)
        async with second.run_test(size=SIZE) as other_pilot:
            await settle(other_pilot)
            assert play_screen(second).session.history == ()  # not the first one's game
            assert any("open in another arcade" in n for n in notices(second))
            own = play_screen(second).session
            own.push(own.legal_moves()[-1])
            await settle(other_pilot)
        session.push(session.legal_moves()[0])
        await settle(pilot)
    with Store.open(data_dir) as store:
        games = store.games_in_progress("flip-it-6")
        assert sorted(len(g.moves) for g in games) == [1, 2]  # neither game lost a move
