"""The settings screen shows the cache folder (where, how big) and clears it after asking.

The clearing test hosts the screen alone: in the whole app the home screen's survey may still be
building a small table in a thread when settings opens (a cancel stops it only between steps),
and that table would land in the folder just cleared."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.app import App
from textual.widgets import OptionList

from kaeru.engine.store import Store
from kaeru.screens.settings import CACHE, ConfirmClear, SettingsScreen
from kaeru.tui.app import KaeruApp
from kaeru.tui.messages import OpenScreen
from tests.app.conftest import SIZE, settle


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "kaeru-cache"
    folder.mkdir()
    (folder / "two-blank-4x4.depth.v2.table").write_bytes(b"\0" * 2_500_000)
    monkeypatch.setenv("KAERU_CACHE_DIR", str(folder))
    monkeypatch.delenv("KAERU_PLAYER", raising=False)
    return folder


class SettingsHost(App[None]):
    """The settings screen on its own."""

    def on_mount(self) -> None:
        self.push_screen(SettingsScreen(Store.open()))


def cache_row(screen: SettingsScreen) -> str:
    options = screen.query_one(OptionList)
    return str(options.get_option(CACHE).prompt)


async def open_settings(app: KaeruApp, pilot) -> SettingsScreen:
    app.post_message(OpenScreen("settings"))
    await settle(pilot)
    screen = app.screen
    assert isinstance(screen, SettingsScreen)
    return screen


async def test_settings_shows_the_cache_folder_and_clears_it_after_asking(cache: Path) -> None:
    app = SettingsHost()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SettingsScreen)
        row = cache_row(screen)
        assert str(cache) in row and "2.5 MB" in row
        await pilot.press("c")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmClear)
        await pilot.press("n")  # keep it
        await pilot.pause()
        assert app.screen is screen and (cache / "two-blank-4x4.depth.v2.table").exists()
        options = screen.query_one(OptionList)
        options.highlighted = options.get_option_index(CACHE)
        await pilot.press("enter")  # the row itself asks too
        await pilot.pause()
        assert isinstance(app.screen, ConfirmClear)
        await pilot.press("y")
        await pilot.pause()
        assert app.screen is screen
        left = sorted(p.name for p in cache.iterdir())
        assert left == [], left
        assert "0 MB" in cache_row(screen)
        about = str(screen.query_one("#settings-about").render())
        assert "Cleared 2.5 MB (1 file)." in about


async def test_the_app_s_settings_show_a_server_s_shared_cache_and_do_not_clear_it(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KAERU_PLAYER", "frog")
    app = KaeruApp(resume=False)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_settings(app, pilot)
        assert "shared by every player" in cache_row(screen)
        await pilot.press("c")
        await pilot.pause()
        assert app.screen is screen
        assert (cache / "two-blank-4x4.depth.v2.table").exists()
