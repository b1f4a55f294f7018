"""Helpers for the serving tests: a `kaeru serve ssh` server in a subprocess, and a real OpenSSH
client on a pseudo-terminal whose screen is read back with pyte; the `serve` and `web_server`
fixtures start servers (ssh, web: tests/serve/web_server.py) and stop them after the test."""

from __future__ import annotations

import fcntl
import os
import pty
import select
import shutil
import signal
import struct
import subprocess
import sys
import termios
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

pyte = pytest.importorskip("pyte")

from kaeru.tui.serve.ssh.pty_session import stat_fields  # noqa: E402
from tests.serve.stop_process import stop_process  # noqa: E402
from tests.serve.web_server import WebServer  # noqa: E402

SSH_OPTIONS = [
    "-o",
    "StrictHostKeyChecking=no",
    "-o",
    "UserKnownHostsFile=/dev/null",
    "-o",
    "LogLevel=ERROR",
    "-o",
    "BatchMode=yes",
    "-o",
    "ConnectTimeout=10",
]
KEYS = {
    "enter": b"\r",
    "right": b"\x1b[C",
    "down": b"\x1b[B",
    "ctrl+p": b"\x10",
    "ctrl+q": b"\x11",
    "escape": b"\x1b",
}

needs_ssh = pytest.mark.skipif(
    shutil.which("ssh") is None or shutil.which("ssh-keygen") is None,
    reason="OpenSSH client not installed (.ci/run installs openssh-client)",
)


REPO = Path(__file__).resolve().parents[2]


def with_open_files(limit: int, command: list[str]) -> list[str]:
    """`command` run with at most `limit` open files (soft and hard: it cannot raise them)."""
    set_limit = (
        "import os, resource, sys; "
        f"resource.setrlimit(resource.RLIMIT_NOFILE, ({limit}, {limit})); "
        "os.execv(sys.argv[1], sys.argv[1:])"
    )
    return [sys.executable, "-c", set_limit, *command]


class Server:
    """`kaeru serve ssh ...` running in a subprocess, on a free loopback port."""

    def __init__(self, root: Path, *args: str, open_files: int | None = None) -> None:
        self.root = root
        env = dict(os.environ, KAERU_CACHE_DIR=str(root / "cache"), PYTHONUNBUFFERED="1")
        command = [
            sys.executable,
            "-m",
            "kaeru.tui.cli",
            "serve",
            "ssh",
            "--port",
            "0",
            "--data-dir",
            str(root / "serve"),
            *args,
        ]
        if open_files is not None:
            command = with_open_files(open_files, command)
        self.log_path = root / f"server-{time.monotonic_ns()}.log"  # a file: a pipe could fill
        with open(self.log_path, "w") as log:
            self.process = subprocess.Popen(
                command, stdout=subprocess.PIPE, stderr=log, env=env, text=True
            )
        assert self.process.stdout is not None
        self.banner = self.process.stdout.readline()
        if "listening on 127.0.0.1:" not in self.banner:
            self.process.kill()
            raise AssertionError(f"server did not start: {self.banner!r} {self.log()}")
        self.port = int(self.banner.split("127.0.0.1:")[1].split()[0])

    def log(self) -> str:
        """The server's log (its stderr) so far."""
        return self.log_path.read_text(errors="replace")

    @property
    def players(self) -> Path:
        return self.root / "serve" / "players"

    def arcade_pids(self) -> list[int]:
        """The arcade processes: children of the server that lead a session of their own
        (spawned, or forked from the warm parent and adopted; not the warm parent, the search
        pool or the survey, which stay in the server's session)."""
        return [
            pid
            for pid in live_pids()
            if parent_of(pid) == self.process.pid and session_of(pid) == pid
        ]

    def helper_pids(self) -> list[int]:
        """The server's other children: the warm parent, the search pool, the survey."""
        return [
            pid
            for pid in live_pids()
            if parent_of(pid) == self.process.pid and session_of(pid) != pid
        ]

    def stop(self) -> None:
        stop_process(self.process)


class CommandServer:
    """`tests.serve.command_server`: a guest server whose sessions run `command`."""

    def __init__(self, root: Path, command: list[str], **limits: object) -> None:
        import json

        self.log_path = root / "command-server.log"
        with open(self.log_path, "w") as log:
            self.process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "tests.serve.command_server",
                    str(root),
                    json.dumps(limits),
                    *command,
                ],
                stdout=subprocess.PIPE,
                stderr=log,
                cwd=REPO,
                env=dict(os.environ, PYTHONUNBUFFERED="1"),
                text=True,
            )
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line.startswith("port "):
            self.process.kill()
            raise AssertionError(f"server did not start: {line!r} {self.log()}")
        self.port = int(line.split()[1])
        self.pid = self.process.pid

    def open_files(self) -> int:
        return len(os.listdir(f"/proc/{self.pid}/fd"))

    def rss_mb(self) -> float:
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        raise AssertionError("no VmRSS")

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def stop(self) -> str:
        """Stop it; its log (stderr)."""
        stop_process(self.process)
        return self.log()


def live_pids() -> list[int]:
    return [int(entry) for entry in os.listdir("/proc") if entry.isdigit()]


def parent_of(pid: int) -> int | None:
    fields = stat_fields(pid)
    return int(fields[1]) if fields else None


def session_of(pid: int) -> int | None:
    fields = stat_fields(pid)
    return int(fields[3]) if fields else None


def alive(pid: int) -> bool:
    fields = stat_fields(pid)
    return fields is not None and fields[0] != b"Z"


class Terminal:
    """A command (the ssh client) on a pty of `columns`×`rows`, its screen kept by pyte."""

    def __init__(self, command: list[str], columns: int = 100, rows: int = 30) -> None:
        self.screen = pyte.Screen(columns, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.lock = threading.Lock()
        self.raw = bytearray()
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        self.master = master
        self.process = subprocess.Popen(
            command,
            stdin=slave,
            stdout=slave,
            stderr=slave,
            start_new_session=True,
            close_fds=True,
            env=dict(os.environ, TERM="xterm-256color"),
        )
        os.close(slave)
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        while True:
            ready, _, _ = select.select([self.master], [], [], 0.2)
            if not ready:
                if self.process.poll() is not None:
                    return
                continue
            try:
                data = os.read(self.master, 65536)
            except OSError:
                return
            if not data:
                return
            with self.lock:
                self.raw += data
                self.stream.feed(data)

    def text(self) -> str:
        with self.lock:
            return "\n".join(self.screen.display)

    def output(self) -> str:
        with self.lock:
            return self.raw.decode("utf-8", "replace")

    def wait_for(self, needle: str, timeout: float = 20.0) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            screen = self.text()
            if needle in screen or needle in self.output():
                return screen
            if self.process.poll() is not None and not self.reader.is_alive():
                if needle in self.text() or needle in self.output():
                    return self.text()
                break
            time.sleep(0.05)
        raise AssertionError(
            f"{needle!r} not seen; screen:\n{self.text()}\nraw tail: {self.output()[-400:]!r}"
        )

    def press(self, *keys: str) -> None:
        for key in keys:
            os.write(self.master, KEYS.get(key, key.encode()))
            time.sleep(0.05)

    def resize(self, columns: int, rows: int) -> None:
        """Resize the client's terminal (the ssh client hears of it by SIGWINCH)."""
        with self.lock:
            self.screen.resize(rows, columns)
        fcntl.ioctl(self.master, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        self.process.send_signal(signal.SIGWINCH)

    def wait_until(self, check: Callable[[str], bool], what: str, timeout: float = 20.0) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            screen = self.text()
            if check(screen):
                return screen
            time.sleep(0.05)
        raise AssertionError(f"{what} not seen; screen:\n{self.text()}")

    def wait_exit(self, timeout: float = 10.0) -> int:
        code = self.process.wait(timeout)
        self.reader.join(2)
        return code

    def close(self) -> None:
        stop_process(self.process, grace=5.0)
        self.reader.join(2)
        if self.master >= 0:  # closed once, whoever closes it first
            os.close(self.master)
            self.master = -1


def ssh_command(port: int, *extra: str, user: str = "player") -> list[str]:
    return ["ssh", *SSH_OPTIONS, "-p", str(port), *extra, f"{user}@127.0.0.1"]


def make_key(folder: Path, name: str) -> Path:
    """A fresh ed25519 key pair (no passphrase); returns the private key's path."""
    path = folder / name
    subprocess.run(
        ["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", name, "-f", str(path)], check=True
    )
    return path


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[object]:
    """A factory: `serve(*args)` starts a server (stopped at the end of the test)."""
    servers: list[Server] = []

    def start(*args: str) -> Server:
        server = Server(tmp_path, *args)
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


@pytest.fixture
def web_server(tmp_path: Path) -> Iterator[Callable[..., WebServer]]:
    """A factory: `web_server(*args)` starts `kaeru serve web` (stopped at the end of the test)."""
    servers: list[WebServer] = []

    def start(*args: str) -> WebServer:
        servers.append(WebServer(tmp_path, *args))
        return servers[-1]

    yield start
    for server in servers:
        server.stop()
