"""Helpers for driving the real app with Pilot: open a game, let workers finish
(`tui.headless.settle`), read the screen, open the new-game dialog."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from kaeru.screens.new_game import NewGameScreen
from kaeru.screens.play.screen import PlayScreen
from kaeru.tui.app import KaeruApp
from kaeru.tui.headless import settle as settle  # the tests import it from here
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


def play_screen(app: KaeruApp) -> PlayScreen:
    screen = app.screen
    assert isinstance(screen, PlayScreen), f"expected the play screen, got {screen!r}"
    return screen


async def new_game_dialog(pilot: Pilot[None]) -> NewGameScreen:
    """The new-game dialog, opened with `n` once the game on screen has settled."""
    await settle(pilot)
    await pilot.press("n")
    await pilot.pause()
    dialog = pilot.app.screen
    assert isinstance(dialog, NewGameScreen), f"expected the new-game dialog, got {dialog!r}"
    return dialog


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
