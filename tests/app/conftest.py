"""Helpers for driving the real app with Pilot: open a game, let workers finish, read the screen."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot
from textual.worker import WorkerCancelled, WorkerFailed

from kaeru.screens.play import PlayScreen
from kaeru.tui.app import KaeruApp

SIZE = (100, 30)
SNAPSHOT_SIZE = (80, 24)


async def settle(pilot: Pilot) -> None:
    """Wait until every worker is done (cancelled ones included) and their messages handled."""
    for _ in range(20):
        await pilot.pause()
        running = [worker for worker in pilot.app.workers if not worker.is_finished]
        if not running:
            break
        for worker in running:
            try:
                await worker.wait()
            except (WorkerCancelled, WorkerFailed):
                pass  # a replaced search: its successor is what the test waits for
    await pilot.pause()


def play_screen(app: KaeruApp) -> PlayScreen:
    screen = app.screen
    assert isinstance(screen, PlayScreen), f"expected the play screen, got {screen!r}"
    return screen


@pytest.fixture(autouse=True)
def fresh_saves(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A test-private saved-games folder (so no earlier test's game is resumed)."""
    monkeypatch.setenv("KAERU_DATA_DIR", str(tmp_path / "data"))


def snapshot_app(game_id: str | None = None) -> KaeruApp:
    """An app for snapshot tests: no resumed games."""
    return KaeruApp(game_id, resume=False)
