"""`kaeru serve web` in a real browser: Debian's chromium, headless, driven by Playwright's Python
package (never Playwright's own browser download). A page from another origin cannot open the
arcade's WebSocket; the server's own page loads, keys reach the arcade, the board changes, and
every request the page makes stays on this server."""

from __future__ import annotations

import http.server
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from kaeru.engine.store import Store

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
pytestmark = pytest.mark.skipif(
    not os.path.exists(CHROMIUM), reason="chromium not installed (.ci/run installs it)"
)
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


OPEN_SOCKET = """url => new Promise(resolve => {
    const socket = new WebSocket(url);
    socket.onopen = () => { socket.close(); resolve("open"); };
    socket.onerror = () => resolve("refused");
    setTimeout(() => resolve("no answer"), 15000);
})"""


class PageFromElsewhere(http.server.BaseHTTPRequestHandler):
    """Another site's page (another port of loopback: another origin)."""

    timeout = 5  # a connection the browser opens ahead and never uses ends by itself

    def do_GET(self) -> None:  # http.server's name (not ours to spell)
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.end_headers()
        self.wfile.write(b"<html><body>a page from elsewhere</body></html>")

    def log_message(self, format: str, *args: object) -> None:
        pass


def refused_from_elsewhere(page: object, port: int) -> str:
    """What a page of another origin gets when it opens the arcade's WebSocket."""
    # threads: a connection the browser keeps open never holds up the shutdown below
    elsewhere = http.server.ThreadingHTTPServer(("127.0.0.1", 0), PageFromElsewhere)
    elsewhere.daemon_threads = True
    threading.Thread(target=elsewhere.serve_forever, daemon=True).start()
    try:
        page.goto(f"http://127.0.0.1:{elsewhere.server_address[1]}/")  # type: ignore[attr-defined]
        url = f"ws://127.0.0.1:{port}/ws?width=80&height=24"
        return str(page.evaluate(OPEN_SOCKET, url))  # type: ignore[attr-defined]
    finally:
        elsewhere.shutdown()
        elsewhere.server_close()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_listening(port: int, timeout: float = 20.0) -> None:
    """Wait for the server to accept connections (its line comes just before it binds)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise AssertionError("the web server never listened")


def settled(terminal: object, unlike: bytes | None = None, timeout: float = 40.0) -> bytes:
    """A screenshot of the terminal once it differs from `unlike` and stops changing."""
    deadline = time.monotonic() + timeout
    last = terminal.screenshot()  # type: ignore[attr-defined]
    while time.monotonic() < deadline:
        time.sleep(0.25)
        shot = terminal.screenshot()  # type: ignore[attr-defined]
        if shot == last and shot != unlike:
            return bytes(shot)
        last = shot
    raise AssertionError("the page did not change (or did not settle)")


@pytest.mark.slow  # Chromium and a web server: about 8 s
def test_browser_plays_a_move_and_loads_nothing_from_outside(tmp_path: Path):
    sync_api = pytest.importorskip("playwright.sync_api")
    port = free_port()
    env = dict(
        os.environ,
        KAERU_DATA_DIR=str(tmp_path / "data"),
        KAERU_CACHE_DIR=str(tmp_path / "cache"),
        KAERU_CONFIG_DIR=str(tmp_path / "conf"),
    )
    with open(tmp_path / "web.log", "w") as log:  # the operator's log, apart from the lines
        server = subprocess.Popen(
            [sys.executable, "-m", "kaeru.tui.cli", "serve", "web", "--port", str(port)],
            stdout=subprocess.PIPE,
            stderr=log,
            env=env,
            text=True,
        )
    try:
        assert server.stdout is not None
        assert "listening on 127.0.0.1:" in server.stdout.readline()
        wait_listening(port)
        requests: list[str] = []
        with sync_api.sync_playwright() as playwright:
            browser = playwright.chromium.launch_persistent_context(
                str(tmp_path / "profile"),
                executable_path=CHROMIUM,
                args=FLAGS,
                headless=True,
                viewport={"width": 1000, "height": 700},
            )
            try:
                page = browser.new_page()
                # another site's page cannot open the arcade's socket (it would play as you)
                assert refused_from_elsewhere(page, port) == "refused"
                page.on("request", lambda request: requests.append(request.url))
                page.goto(f"http://127.0.0.1:{port}/")
                page.wait_for_selector("body.-first-byte", state="attached", timeout=30000)
                page.focus("textarea.xterm-helper-textarea")
                terminal = page.locator("#terminal")
                home = settled(terminal)
                page.keyboard.press("/")  # the home screen's filter: Flip It (5 cells)
                time.sleep(0.5)
                page.keyboard.type("flip-it-5", delay=50)
                filtered = settled(terminal, unlike=home)  # the list follows the filter
                page.keyboard.press("Enter")
                before = settled(terminal, unlike=filtered)
                page.keyboard.press("Enter")  # a move: the cursor starts on a stone that can
                after = settled(terminal, unlike=before)
                assert after != before
                page.keyboard.press("Control+q")  # quit: the game is saved
                page.wait_for_selector("body.-closed", state="attached", timeout=15000)
            finally:
                browser.close()
        outside = [
            url for url in requests if urlsplit(url).hostname not in {"127.0.0.1", "localhost"}
        ]
        assert outside == []
        assert any(url.endswith("/kaeru-static/DejaVuSansMono.ttf") for url in requests)
        store = Store.open(tmp_path / "data")
        try:
            games = store.games_in_progress("flip-it-5")
        finally:
            store.close()
        assert [len(game.moves) for game in games] == [1]
    finally:
        server.terminate()
        server.wait(10)
