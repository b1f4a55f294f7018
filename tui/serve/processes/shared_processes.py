"""What one `kaeru serve ssh` (or `kaeru serve web`) runs once for all its players (issue 21's
process model):

- the warm parent (`forked_arcade.WarmParent`), from which each arcade is forked, in the fork
  model (`--process-model fork`, the default; `spawn` starts a fresh Python per player);
- the shared search pool (`engine.service.pool_server`), `--search-workers N` processes (0: one
  per core), reached by every arcade through $KAERU_SEARCH_POOL;
- the catalogue survey (`survey_ahead`), run once in the background at a low priority: the
  arcades read its facts from the shared cache (KAERU_SURVEY=server) and never run it.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Protocol

from kaeru.tui.serve.operator_log import log
from kaeru.tui.serve.processes.forked_arcade import WarmParent, WarmParentError
from kaeru.tui.serve.processes.limits import SessionLimits
from kaeru.tui.serve.ssh.pty_session import (
    PASSED_SERVER_ENV,
    SERVED_ANIMATIONS,
    limit_table_builds,
)

POOL_ENV = "KAERU_SEARCH_POOL"
SURVEY_ENV = "KAERU_SURVEY"  # "server": the server surveys the catalogue, the arcades read it
POOL_READY_SECONDS = 30.0
SURVEY_NICENESS = 15


class SharedSettings(Protocol):
    """What the shared processes need of a server's settings (`ssh_server.ServeConfig`, or the
    web server's `web.WebSettings`)."""

    root: Path  # the shared processes' HOME
    cache_dir: Path  # the one table cache
    limits: SessionLimits  # its memory_mb: each pool worker's, and what it may build
    command: list[str] | None  # an arcade command swapped in (tests): no survey
    process_model: str  # "fork" or "spawn"
    search_workers: int  # 0: one per core; -1: no pool


def shared_environment(config: SharedSettings) -> dict[str, str]:
    """The environment every session shares (the warm parent's, the pool's, the survey's)."""
    env = {name: os.environ[name] for name in PASSED_SERVER_ENV if name in os.environ}
    env.setdefault("PATH", os.defpath)
    env.setdefault("TEXTUAL_ANIMATIONS", SERVED_ANIMATIONS)
    env.update(
        HOME=str(config.root),
        LANG="C.UTF-8",
        TERM="xterm-256color",
        KAERU_CACHE_DIR=str(config.cache_dir),
        OPENBLAS_NUM_THREADS="1",
    )
    return env


def pool_size(requested: int) -> int:
    return requested if requested > 0 else (os.cpu_count() or 1)


class SharedProcesses:
    """The warm parent (or None), the search pool's process and socket (or None), the survey."""

    def __init__(self) -> None:
        self.warm: WarmParent | None = None
        self.pool: subprocess.Popen[str] | None = None
        self.pool_folder: Path | None = None
        self.pool_address: str | None = None
        self.pool_workers = 0
        self.survey: subprocess.Popen[bytes] | None = None

    @classmethod
    async def start(cls, config: SharedSettings) -> SharedProcesses:
        shared = cls()
        env = shared_environment(config)
        if config.search_workers >= 0:
            try:
                await asyncio.to_thread(shared._start_pool, config, env)
            except OSError as error:
                log.warning("no shared search pool (%s): each arcade searches alone", error)
        if shared.pool_address is not None:
            env[POOL_ENV] = shared.pool_address
        if config.process_model == "fork":
            try:
                shared.warm = await asyncio.to_thread(WarmParent, env)
            except WarmParentError as error:
                log.warning("no warm parent (%s): each arcade is a fresh process", error)
        if config.command is None:
            shared._start_survey(env)
        return shared

    def _start_pool(self, config: SharedSettings, env: dict[str, str]) -> None:
        folder = Path(tempfile.mkdtemp(prefix="kaeru-pool-"))  # mode 0700
        address = str(folder / "pool.sock")
        workers = pool_size(config.search_workers)
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "kaeru.engine.service.pool_server",
                address,
                str(workers),
                str(config.limits.memory_mb),
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=limit_table_builds(dict(env), config.limits.memory_mb),  # as in the arcades
            text=True,
        )
        assert process.stdout is not None
        line = process.stdout.readline()
        if line.strip() != "ready":
            process.kill()
            process.wait()
            shutil.rmtree(folder, ignore_errors=True)
            raise OSError(f"the search pool did not start ({line.strip() or 'no answer'})")
        self.pool, self.pool_folder, self.pool_address = process, folder, address
        self.pool_workers = workers
        log.info("search pool: %d worker(s), pid %d", workers, process.pid)

    def _start_survey(self, env: dict[str, str]) -> None:
        try:
            self.survey = subprocess.Popen(
                [sys.executable, "-m", "kaeru.tui.serve.processes.survey_ahead",
                 str(SURVEY_NICENESS)],
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        except OSError as error:
            log.warning("the catalogue survey could not start: %s", error)

    def describe(self) -> str:
        """The start line: how arcades are made and where they search."""
        made = (
            f"arcades forked from a warm parent (pid {self.warm.pid})"
            if self.warm is not None
            else "each arcade a fresh process (spawn)"
        )
        search = (
            f"one search pool for all, {self.pool_workers} worker(s) (pid {self.pool.pid})"
            if self.pool is not None
            else "each arcade its own search worker"
        )
        return f"{made}; {search}"

    def session_env(self) -> dict[str, str]:
        """What each arcade's environment gets from these."""
        env = {SURVEY_ENV: "server"} if self.survey is not None else {}
        if self.pool_address is not None:
            env[POOL_ENV] = self.pool_address
        return env

    def close(self) -> None:
        if self.warm is not None:
            self.warm.close()
        if self.survey is not None:
            self.survey.terminate()
            end(self.survey)
        if self.pool is not None:
            if self.pool.stdin is not None:
                self.pool.stdin.close()  # the pool ends when its stdin closes
            end(self.pool)
        if self.pool_folder is not None:
            shutil.rmtree(self.pool_folder, ignore_errors=True)


def end(process: subprocess.Popen[str] | subprocess.Popen[bytes]) -> None:
    """Wait a moment for `process` to end, then kill it."""
    try:
        process.wait(5)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
