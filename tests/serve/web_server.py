"""`kaeru serve web` in a subprocess for the web serving tests: its port, the lines it prints at
start, the tabs' arcade processes it serves, and its stop (the log returned). The `web_server`
fixture (tests/serve/conftest.py) starts them and stops them after the test."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.serve.stop_process import stop_process
from tests.serve.test_web import free_port, wait_listening


class WebServer:
    def __init__(self, tmp_path: Path, *args: str) -> None:
        self.port = free_port()
        env = dict(
            os.environ,
            KAERU_DATA_DIR=str(tmp_path / "data"),
            KAERU_CACHE_DIR=str(tmp_path / "cache"),
            KAERU_CONFIG_DIR=str(tmp_path / "conf"),
        )
        env.pop("KAERU_PDB_BUILD", None)  # (the tests' "off"): the limit decides, below
        self.log_path = tmp_path / "web.log"
        with open(self.log_path, "w") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "kaeru.tui.cli", "serve", "web", "--port", str(self.port),
                 *args],
                stdout=subprocess.PIPE, stderr=log, env=env, text=True,
            )
        assert self.process.stdout is not None
        self.banner = self.process.stdout.readline()
        assert "listening on 127.0.0.1:" in self.banner
        self.lines = self.process.stdout.readline()  # who may play; how arcades are made
        wait_listening(self.port)

    def arcades(self) -> list[int]:
        """The tabs' arcade processes: forked from the warm parent and adopted by the server
        (the fork model), or started by textual-serve through a shell (spawn); either way
        served to the web (the environment the tab's arcade runs with)."""
        found = []
        for entry in os.listdir("/proc"):
            try:
                cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
                environ = Path(f"/proc/{entry}/environ").read_bytes().split(b"\0")
            except OSError:
                continue
            if b"KAERU_SERVED=web" in environ and not cmdline.startswith(b"/bin/sh"):
                found.append(int(entry))
        return [pid for pid in found if self._descends(pid)]

    def _descends(self, pid: int) -> bool:
        for _ in range(4):
            try:
                stat = Path(f"/proc/{pid}/stat").read_text()
            except OSError:
                return False
            pid = int(stat.rsplit(")", 1)[1].split()[1])
            if pid == self.process.pid:
                return True
        return False

    def stop(self) -> str:
        stop_process(self.process)
        return self.log_path.read_text(errors="replace")
