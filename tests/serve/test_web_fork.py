"""`kaeru serve web` in the fork model (issue 21): a tab's arcade is forked from the server's
warm parent onto pipes (never a fresh interpreter), searches in the server's one search pool,
and ends with its tab; `--process-model spawn` keeps textual-serve's fresh Python per tab.
Driven over the tab's WebSocket as the page drives it (the browser test is test_web's)."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from kaeru.tui.serve.ssh.pty_session import session_processes
from tests.serve.conftest import alive, live_pids, parent_of
from tests.serve.web_server import WebServer

aiohttp = pytest.importorskip("aiohttp")
WAIT = 40.0


def cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def shared_dirty_mb(pid: int) -> float:
    """Pages written by a parent before the fork and still shared with it (a fresh interpreter
    has none)."""
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        if line.startswith("Shared_Dirty:"):
            return int(line.split()[1]) / 1024
    return 0.0


def pid_after(line: str, what: str) -> int:
    found = re.search(rf"{what} \(pid (\d+)\)", line)
    assert found, line
    return int(found.group(1))


class Tab:
    """A browser tab's WebSocket: keys in, the web driver's output gathered."""

    def __init__(self, session: object, socket: object) -> None:
        self.session = session
        self.socket = socket
        self.output = bytearray()
        self.reader = asyncio.create_task(self._read())

    @classmethod
    async def open(cls, port: int) -> Tab:
        session = aiohttp.ClientSession()
        socket = await session.ws_connect(f"http://127.0.0.1:{port}/ws?width=110&height=34")
        return cls(session, socket)

    async def _read(self) -> None:
        async for message in self.socket:  # type: ignore[attr-defined]
            if message.type == aiohttp.WSMsgType.BINARY:
                self.output += message.data

    async def wait_for(self, needle: bytes, since: int = 0) -> int:
        """Wait until `needle` is in the output after `since`; where the output ends then."""
        deadline = time.monotonic() + WAIT
        while needle not in self.output[since:]:
            assert time.monotonic() < deadline, f"{needle!r} never shown"
            await asyncio.sleep(0.05)
        return len(self.output)

    async def press(self, keys: str) -> None:
        await self.socket.send_json(["stdin", keys])  # type: ignore[attr-defined]

    async def close(self) -> None:
        await self.socket.close()  # type: ignore[attr-defined]
        await self.session.close()  # type: ignore[attr-defined]
        self.reader.cancel()


async def until(check: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + WAIT
    while not check():
        assert time.monotonic() < deadline, what
        await asyncio.sleep(0.05)


async def open_flip_it(tab: Tab) -> int:
    """From the home screen, the filter to Flip It (5 cells), Enter plays it."""
    seen = await tab.wait_for(b"Kaeru Arcade")
    await tab.press("/")
    await asyncio.sleep(0.3)  # the filter takes the focus (nothing on screen says when)
    await tab.press("flip-it-5")
    seen = await tab.wait_for(b"flip-it-5", seen)
    await asyncio.sleep(0.5)  # the list follows the filter
    await tab.press("\r")
    return await tab.wait_for(b"flip-it-5:", seen)  # its game id, on the play screen


@pytest.mark.slow  # ~7 s; the default run's test_web_hostile tabs are forked too
def test_a_tab_is_forked_from_the_warm_parent_and_searches_in_the_shared_pool(web_server):
    server: WebServer = web_server()
    warm = pid_after(server.lines, "arcades forked from a warm parent")
    pool = pid_after(server.lines, r"one search pool for all, \d+ worker\(s\)")

    def pool_workers() -> list[int]:
        return [p for p in live_pids() if parent_of(p) == pool and b"spawn_main" in cmdline(p)]

    async def play() -> int:
        tab = await Tab.open(server.port)
        try:
            await until(lambda: len(server.arcades()) == 1, "no arcade for the tab")
            (arcade,) = server.arcades()
            # forked from the warm parent (its command line: it never started a Python of its
            # own) and adopted by the server, leading a session of its own
            assert cmdline(arcade) == cmdline(warm)
            assert b"kaeru.tui.serve.web.tab" not in cmdline(arcade)
            assert shared_dirty_mb(arcade) > 10  # the warm parent's preloaded pages, shared
            assert parent_of(arcade) == server.process.pid
            assert session_processes(arcade) == [arcade]
            environ = Path(f"/proc/{arcade}/environ").read_bytes().split(b"\0")
            assert any(item.startswith(b"KAERU_SEARCH_POOL=") for item in environ)
            seen = await open_flip_it(tab)
            await tab.press("s")  # solve: 8 moves
            await tab.wait_for(b"Solution: 8 moves", seen)
            assert pool_workers()  # the shared pool's worker searched ...
            assert session_processes(arcade) == [arcade]  # ... not one of the tab's own
        finally:
            await tab.close()
        return arcade

    arcade = asyncio.run(play())
    deadline = time.monotonic() + WAIT
    while alive(arcade):  # the tab closed: its arcade ends and is reaped
        assert time.monotonic() < deadline, "the tab's arcade outlived its tab"
        time.sleep(0.05)
    assert server.arcades() == []
    assert alive(warm)  # the warm parent stays for the next tab

    async def open_and_stop() -> int:  # a tab still open when the server stops
        tab = await Tab.open(server.port)
        try:
            await tab.wait_for(b"Kaeru Arcade")
            (arcade,) = server.arcades()
            server.stop()
            return arcade
        finally:
            await tab.close()

    left = asyncio.run(open_and_stop())
    assert not alive(left) and not alive(warm) and not alive(pool)  # nothing outlives it


@pytest.mark.slow
def test_the_spawn_model_keeps_a_fresh_python_per_tab(web_server):
    server: WebServer = web_server("--process-model", "spawn")
    assert "each arcade a fresh process (spawn)" in server.lines

    async def look() -> list[bytes]:
        tab = await Tab.open(server.port)
        try:
            await tab.wait_for(b"Kaeru Arcade")
            return [cmdline(pid) for pid in server.arcades()]
        finally:
            await tab.close()

    (started,) = asyncio.run(look())
    assert b"kaeru.tui.serve.web.tab" in started
