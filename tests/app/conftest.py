"""Helpers for driving the real app with Pilot: open a game, let workers finish, read the screen."""

from __future__ import annotations

import asyncio
import time

import pytest
from textual.pilot import Pilot
from textual.worker import WorkerCancelled, WorkerFailed

from kaeru.screens.play import PlayScreen
from kaeru.tui.app import KaeruApp
from tests.app.fit_sweep import SIZES, SWEEP, Sweep

SIZE = (100, 30)
SNAPSHOT_SIZE = (80, 24)
SWEEP_TEST = "test_play_fits.py::test_every_puzzle_fits"


def pytest_collection_finish(session: pytest.Session) -> None:
    """The every-id fit sweeps start at once in a child process when selected (see
    `tests.app.fit_sweep`): it runs on the second core while the other tests run."""
    if any(SWEEP_TEST in item.nodeid for item in session.items):
        session.config.stash[SWEEP] = Sweep(SIZES)


def pytest_sessionfinish(session: pytest.Session) -> None:
    sweep = session.config.stash.get(SWEEP, None)
    if sweep is not None:
        sweep.close()


async def settle(pilot: Pilot, timeout: float = 60.0) -> None:
    """Wait until every worker and every search of the open game is done (cancelled ones
    included) and their messages handled."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        await pilot.pause()
        running = [
            worker
            for worker in pilot.app.workers
            if not worker.is_finished and worker.group != "catalogue-survey"  # home's long survey
        ]
        for worker in running:
            try:
                await worker.wait()
            except (WorkerCancelled, WorkerFailed):
                pass  # a replaced search: its successor is what the test waits for
        screen = pilot.app.screen
        searching = isinstance(screen, PlayScreen) and screen.session.jobs.tags
        if not running and not searching:
            break
        if searching:
            await asyncio.sleep(0.02)
    await pilot.pause()


def play_screen(app: KaeruApp) -> PlayScreen:
    screen = app.screen
    assert isinstance(screen, PlayScreen), f"expected the play screen, got {screen!r}"
    return screen


@pytest.fixture(autouse=True)
def fresh_saves(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A test-private saved-games folder (so no earlier test's game is resumed), and searches
    in threads (the worker process has its own tests), in a true-colour terminal (the theme
    does not follow the TERM of whoever runs the tests)."""
    monkeypatch.setenv("KAERU_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("KAERU_SEARCH_MODE", "thread")
    monkeypatch.setenv("COLORTERM", "truecolor")  # the default theme, whatever the terminal


def snapshot_app(game_id: str | None = None) -> KaeruApp:
    """An app for snapshot tests: no resumed games, and no game clock in the header (the
    seconds played would differ from run to run)."""
    app = KaeruApp(game_id, resume=False)
    app.store.set_setting("timer", "off")
    return app
