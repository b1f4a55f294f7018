"""`kaeru serve web` against unfriendly visitors: the tabs are capped, each arcade runs under the
memory limit at a clamped window size, and a visitor can neither clear the shared table cache
nor change the serving user's settings. (A page from another origin refused the WebSocket:
test_web's browser test, which has Chromium up already.)"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from textual.app import App
from textual.widgets import OptionList

from kaeru.engine.store import Store
from kaeru.screens.settings import CACHE, SettingsScreen, setting
from kaeru.tui.serve.served import SHARED_SETTINGS_NOTE
from kaeru.tui.serve.web.server import visitor_environment


async def open_tab(port: int, width: int, height: int) -> tuple[object, object]:
    import aiohttp

    session = aiohttp.ClientSession()
    try:
        tab = await session.ws_connect(f"http://127.0.0.1:{port}/ws?width={width}&height={height}")
    except aiohttp.WSServerHandshakeError as error:
        await session.close()
        return None, error.status
    return session, tab


def address_space(pid: int) -> list[str]:
    """RLIMIT_AS of `pid`, soft and hard."""
    limits = Path(f"/proc/{pid}/limits").read_text()
    line = next(row for row in limits.splitlines() if row.startswith("Max address space"))
    return line.split()[3:5]


def test_tabs_are_capped_and_each_arcade_is_limited_and_clamped(web_server):
    server = web_server("--max-sessions", "1", "--memory-limit", "1024")

    async def attack() -> tuple[list[int], object]:
        session, tab = await open_tab(server.port, 16000, 8000)
        assert session is not None, tab
        try:
            deadline = time.monotonic() + 20
            while not server.arcades() and time.monotonic() < deadline:
                await asyncio.sleep(0.1)
            pids = server.arcades()
            while pids and time.monotonic() < deadline and "unlimited" in address_space(pids[0]):
                await asyncio.sleep(0.1)  # the limit is set once the arcade has its imports
            _, second = await open_tab(server.port, 80, 24)
            return pids, second
        finally:
            await tab.close()  # type: ignore[attr-defined]
            await session.close()  # type: ignore[attr-defined]

    pids, second = asyncio.run(attack())
    assert second == 503  # the one tab allowed is open
    (pid,) = pids
    environ = dict(
        item.split(b"=", 1) for item in Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
        if b"=" in item
    )
    assert (environ[b"COLUMNS"], environ[b"ROWS"]) == (b"1000", b"1000")
    assert address_space(pid) == [str(1024 * 2**20)] * 2
    assert environ[b"KAERU_PDB_BUILD"] == b"middle"  # 1024 MB cannot hold a 7-8 build
    # what makes the tab's settings screen refuse the cache clear and the server's settings
    # (test_a_web_visitor_cannot_clear_the_cache_or_change_the_settings, below)
    assert environ[b"KAERU_SERVED"] == b"web" and environ[b"KAERU_PLAYER"]


class SettingsHost(App[None]):
    def on_mount(self) -> None:
        self.push_screen(SettingsScreen(Store.open()))


async def test_a_web_visitor_cannot_clear_the_cache_or_change_the_settings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / "two-blank-4x4.depth.v2.table").write_bytes(b"\0" * 1000)
    monkeypatch.setenv("KAERU_CACHE_DIR", str(cache))
    monkeypatch.setenv("KAERU_DATA_DIR", str(tmp_path / "data"))
    for name, value in visitor_environment({}, 2048).items():  # what a tab's arcade gets
        monkeypatch.setenv(name, value)
    app = SettingsHost()
    async with app.run_test(size=(110, 34)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SettingsScreen)
        before = setting(screen.store, "coach")
        await pilot.press("c")  # clear the cache: refused, nothing asked
        await pilot.pause()
        assert app.screen is screen
        options = screen.query_one(OptionList)
        options.highlighted = options.get_option_index(CACHE)
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is screen
        options.highlighted = options.get_option_index("coach")
        await pilot.press("enter")  # change the coach: refused
        await pilot.pause()
        assert setting(screen.store, "coach") == before
        assert SHARED_SETTINGS_NOTE in str(screen.query_one("#settings-about").render())
    assert (cache / "two-blank-4x4.depth.v2.table").exists()
