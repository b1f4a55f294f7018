"""`kaeru serve ssh` against unfriendly clients: oversized windows, a client that stops reading,
one that sends end-of-input. asyncssh plays the client where a request must be malformed (the
OpenSSH client would not send it); the sessions run a small command instead of the arcade
(`command_server`), except where the arcade itself is what is attacked. Loopback only; every
loop is bounded and stops by itself."""

from __future__ import annotations

import asyncio
import select
import socket
import subprocess
import threading
import time

import asyncssh
import pytest

from tests.serve.conftest import CommandServer, Server, needs_ssh, ssh_command

CLIENT = {"known_hosts": None, "username": "guest", "client_keys": None}
FLOOD = "import os\nblock = b'x' * 65536\nwhile True:\n    os.write(1, block)\n"


async def oversized_sessions(port: int, connections: int, per_connection: int) -> list[str]:
    """Open sessions asking for a 70000×24 window; the output of each (what `stty size` said)."""
    seen = []
    for _ in range(connections):
        async with asyncssh.connect("127.0.0.1", port, **CLIENT) as conn:
            for _ in range(per_connection):
                try:
                    process = await conn.create_process(
                        term_type="xterm", term_size=(70000, 24), encoding=None
                    )
                except asyncssh.ChannelOpenError as error:
                    seen.append(f"refused: {error.reason}")
                    continue
                try:
                    output = await asyncio.wait_for(process.stdout.read(200), 10)
                except (TimeoutError, asyncssh.Error):
                    output = b""
                seen.append(output.decode(errors="replace"))
                process.close()
                await process.wait_closed()
    return seen


@pytest.mark.parametrize(
    ("connections", "per_connection"),
    [(4, 2), pytest.param(100, 1, marks=pytest.mark.slow)],  # the 100: 15 s on 2 cores
)
def test_oversized_windows_are_clamped_and_leak_no_descriptor(
    tmp_path, connections, per_connection
):
    server = CommandServer(
        tmp_path, ["sh", "-c", "stty size; exec sleep 30"], max_per_player=100, max_sessions=100
    )
    requests = connections * per_connection
    try:
        asyncio.run(oversized_sessions(server.port, 1, 2))  # warm up: the first fds it keeps
        before = server.open_files()
        seen = asyncio.run(oversized_sessions(server.port, connections, per_connection))
        deadline = time.monotonic() + 10
        while server.open_files() > before + 2 and time.monotonic() < deadline:
            time.sleep(0.1)  # the last sessions' clean-up
        after = server.open_files()
    finally:
        log = server.stop()
    print(f"server fds before {before}, after {requests} oversized windows {after}")
    assert after <= before + 2, f"{after - before} descriptors leaked"
    assert seen.count("24 1000\r\n") == requests, seen[:3]  # drawn at most 1000 columns wide
    assert "Traceback" not in log


async def stalled_client(port: int, server: CommandServer, seconds: float) -> tuple[float, float]:
    """A client whose session never reads its output and sends keys its arcade never reads;
    (largest server RSS growth in MB, seconds until the server closed the connection, or
    `seconds` if it did not)."""
    start = server.rss_mb()
    grown = 0.0
    async with asyncssh.connect("127.0.0.1", port, **CLIENT) as conn:
        chan, _ = await conn.create_session(
            asyncssh.SSHClientSession, term_type="xterm", term_size=(80, 24), encoding=None
        )
        chan.pause_reading()  # takes nothing: the server's window runs out, then its buffer fills
        chan.write(b"x" * 16 * 2**20)  # and keys the arcade never reads: 16 MB of them
        began = time.monotonic()
        while time.monotonic() - began < seconds:
            grown = max(grown, server.rss_mb() - start)
            if grown > 400:  # unbounded: stop here rather than fill the machine
                break
            try:
                await asyncio.wait_for(conn.wait_closed(), 0.25)
                return grown, time.monotonic() - began
            except TimeoutError:
                pass
        return grown, seconds


def test_a_client_that_stops_reading_cannot_grow_the_server(tmp_path):
    import sys

    server = CommandServer(tmp_path, [sys.executable, "-c", FLOOD], stall_timeout=2.0)
    try:
        grown, closed_after = asyncio.run(stalled_client(server.port, server, 10.0))
    finally:
        log = server.stop()
    print(f"server RSS grew {grown:.0f} MB; disconnected after {closed_after:.1f} s")
    assert grown < 40, f"the server grew {grown:.0f} MB for one client that does not read"
    assert closed_after < 8, "a client that never reads was not disconnected"
    assert "output unread for 2 s" in log
    assert "keys dropped" in log  # past 256 kB the arcade has not taken
    assert "Traceback" not in log


@needs_ssh
def test_end_of_input_ends_the_session_and_frees_its_slot(tmp_path):
    server = Server(tmp_path, "--guest", "--max-sessions", "1", "--idle-timeout", "20")
    try:
        for _ in range(2):  # the second gets the slot the first had
            began = time.monotonic()
            run = subprocess.run(
                ssh_command(server.port, "-tt"),
                stdin=subprocess.DEVNULL,
                capture_output=True,
                timeout=30,
            )
            took = time.monotonic() - began
            output = run.stdout.decode(errors="replace")
            assert "the arcade is full" not in output
            assert "your input ended" in output and run.returncode == 1, (run, took)
        assert not list(server.players.iterdir())  # the guests' folders went with them
    finally:
        server.stop()
    log = server.log()
    assert "Traceback" not in log
    assert log.count("the client closed its input") == 2
    assert log.count("login guest-") == 2


class Flood:
    """Up to `size` connections from `source` (another loopback address) that never send a
    byte, opened again as the server closes them, for at most `attempts` connections in all."""

    def __init__(self, port: int, source: str, size: int, attempts: int) -> None:
        self.port, self.source, self.size, self.attempts = port, source, size, attempts
        self.opened = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _connect(self) -> socket.socket:
        sock = socket.socket()
        sock.setblocking(False)
        sock.bind((self.source, 0))
        sock.connect_ex(("127.0.0.1", self.port))
        self.opened += 1
        return sock

    def _run(self) -> None:
        socks = []
        try:
            while not self.stop.is_set():
                while len(socks) < self.size and self.opened < self.attempts:
                    socks.append(self._connect())
                readable, _, _ = select.select(socks, [], [], 0.1)
                for sock in readable:
                    try:
                        closed = sock.recv(4096) == b""
                    except OSError:
                        closed = True
                    if closed:
                        socks.remove(sock)
                        sock.close()
        finally:
            for sock in socks:
                sock.close()

    def __enter__(self) -> Flood:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join(10)


def login_seconds(port: int) -> float:
    """A real login (OpenSSH, guest, no terminal): seconds until the server's answer."""
    began = time.monotonic()
    run = subprocess.run(
        ssh_command(port, "-T"), stdin=subprocess.DEVNULL, capture_output=True, timeout=40
    )
    assert b"runs only the arcade" in run.stdout + run.stderr, run
    return time.monotonic() - began


@needs_ssh
def test_a_flood_of_idle_connections_does_not_keep_a_real_login_out(tmp_path):
    server = Server(tmp_path, "--guest", open_files=64)
    try:
        alone = login_seconds(server.port)
        with Flood(server.port, "127.0.0.2", size=300, attempts=3000) as flood:
            deadline = time.monotonic() + 10
            while flood.opened < 300 and time.monotonic() < deadline:
                time.sleep(0.05)
            time.sleep(1.0)  # the flood holds what the server lets it hold
            flooded = login_seconds(server.port)
    finally:
        server.stop()
    log = server.log()
    print(f"login alone {alone:.2f} s, under a flood of {flood.opened} connections "
          f"{flooded:.2f} s; log {len(log.splitlines())} lines")
    assert flooded < alone + 2.0
    assert "Traceback" not in log
    assert len(log.splitlines()) < 50


async def idle_logged_in(port: int, wait: float) -> tuple[bool, bool]:
    """Log in (guest) and open no session, and again after a session ended: (closed by the
    server within `wait` s, each time)."""
    closed = []
    for with_session in (False, True):
        async with asyncssh.connect("127.0.0.1", port, **CLIENT) as conn:
            if with_session:
                process = await conn.create_process(term_type="xterm", encoding=None)
                await process.wait_closed()  # `true` ran and ended: the connection stays open
            try:
                await asyncio.wait_for(conn.wait_closed(), wait)
                closed.append(True)
            except TimeoutError:
                closed.append(False)
    return closed[0], closed[1]


def test_a_connection_without_a_session_is_closed(tmp_path):
    server = CommandServer(tmp_path, ["true"], login_timeout=0.5)
    try:
        idle, after = asyncio.run(idle_logged_in(server.port, 3.0))
    finally:
        log = server.stop()
    assert idle and after, (idle, after)
    assert "no session for 0.5 s" in log
