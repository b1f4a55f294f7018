"""One arcade process on its own pseudo-terminal, for one remote player.

The child (`arcade_child`, which runs the arcade) starts a new session whose controlling
terminal is the pty's slave side, so a window-size change (TIOCSWINSZ on the master) reaches it
as SIGWINCH from the kernel. Its environment is built from scratch: the player's folders, the
shared table cache, and only the terminal variables the client may set (TERM, COLORTERM,
NO_COLOR, LANG). Textual's animations are off unless the server's own environment sets
TEXTUAL_ANIMATIONS: a board's slide is up to 7 frames at 60 fps, each a redraw of the whole board
sent over the connection (a 15-puzzle move over SSH cost the arcade 50 ms of CPU with the slide,
37 ms without, on the 2 shared cores of the serving issue's measurements).

Ending it sends SIGHUP to its process group, then SIGKILL to every process still in its session
(the search worker included), so a disconnect leaves nothing behind.
"""

from __future__ import annotations

import asyncio
import fcntl
import logging
import os
import pty
import signal
import struct
import subprocess
import sys
import termios
from collections.abc import Callable, Mapping
from pathlib import Path

from kaeru.tui.serve.processes.forked_arcade import ForkedChild, WarmParent, WarmParentError
from kaeru.tui.serve.processes.limits import clamp_size
from kaeru.tui.serve.ssh.identity import PlayerFolders

log = logging.getLogger("kaeru.serve")
CLIENT_ENV_NAMES = ("TERM", "COLORTERM", "NO_COLOR", "LANG")
PASSED_SERVER_ENV = (
    "PATH",
    "PYTHONPATH",
    "KAERU_SEARCH_MODE",
    "OPENBLAS_CORETYPE",
    "OPENBLAS_L2_SIZE",
    "TZ",
    "TMPDIR",  # the server's temp folder (it makes one when the system has none)
    "KAERU_PDB_BUILD",  # the operator's choice; the memory limit may narrow it
    "TEXTUAL_ANIMATIONS",  # the operator's choice; else SERVED_ANIMATIONS
    "KAERU_STORE",  # players' data on PostgreSQL (`serve ssh --store`), shared by every host
    "KAERU_PLACE",  # else the server's shared place (names, leaderboards): one SQLite file
)
SERVED_ANIMATIONS = "none"
PDB_BUILD_ENV = "KAERU_PDB_BUILD"  # "off": no 15-puzzle database built unasked; "middle": the
# 7-7-1 ones only (115 MB), never the 7-8 ones
# The address space the 7-8 pattern databases' build needs: `kaeru tables build` under
# RLIMIT_AS 1536 MiB builds them (`prlimit --as=1610612736 kaeru tables build sliding-4x4:7-8`:
# peak RSS 786 MB, 55 s of CPU, measured niced on the 2 shared cores). Under a smaller
# --memory-limit an arcade builds only the middle tier and loads the 7-8 ones if built: the
# operator builds them ahead of time (`kaeru tables build`).
PDB_BUILD_MEMORY_MB = 1536
HANGUP_GRACE_SECONDS = 1.0  # after SIGHUP, before SIGKILL
QUIT_GRACE_SECONDS = 5.0  # an arcade that closed its terminal, to end by itself
# What a killed Textual app leaves switched on in the client's terminal: turn it off again.
TERMINAL_RESET = (
    b"\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1015l\x1b[?2004l\x1b[?1004l"
    b"\x1b[?25h\x1b[?1049l\x1b[0m"
)


def arcade_environment(
    folders: PlayerFolders,
    cache_dir: Path,
    client_env: Mapping[str, str],
    memory_mb: int,
    server_env: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """The child's environment: nothing of the server's but PATH and a few runtime settings."""
    server_env = os.environ if server_env is None else server_env
    env = {name: server_env[name] for name in PASSED_SERVER_ENV if name in server_env}
    env.setdefault("PATH", os.defpath)
    env["HOME"] = str(folders.home)
    env["LANG"] = "C.UTF-8"
    env["TERM"] = "xterm-256color"
    for name in CLIENT_ENV_NAMES:
        value = client_env.get(name)
        if value is not None and value.isprintable() and len(value) < 100:
            env[name] = value
    env["KAERU_DATA_DIR"] = str(folders.data)
    env["KAERU_CONFIG_DIR"] = str(folders.config)
    env["KAERU_CACHE_DIR"] = str(cache_dir)
    env["KAERU_PLAYER"] = folders.name
    env["OPENBLAS_NUM_THREADS"] = "1"  # one player, one core at most; keeps the address space small
    env.setdefault("TEXTUAL_ANIMATIONS", SERVED_ANIMATIONS)
    if memory_mb:
        env["KAERU_SEARCH_MEMORY_MB"] = str(memory_mb)
    return limit_table_builds(env, memory_mb)


def limit_table_builds(env: dict[str, str], memory_mb: int) -> dict[str, str]:
    """No 7-8 build where the limit cannot hold one (the operator's "off" stays)."""
    if not table_build_allowed(memory_mb) and env.get(PDB_BUILD_ENV) != "off":
        env[PDB_BUILD_ENV] = "middle"
    return env


def table_build_allowed(memory_mb: int) -> bool:
    """Whether an arcade with `memory_mb` of address space (0: no limit) may build the 15-puzzle's
    7-8 pattern databases itself (the engine's own rules then say when)."""
    return memory_mb == 0 or memory_mb >= PDB_BUILD_MEMORY_MB


def set_window_size(fd: int, columns: int, rows: int) -> None:
    """Tell the pty its size (clamped: `limits.clamp_size`); the kernel signals SIGWINCH to the
    terminal's foreground group."""
    columns, rows = clamp_size(columns, rows)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))


def stat_fields(pid: int) -> list[bytes] | None:
    """The fields of /proc/PID/stat after the command name: state, ppid, pgrp, session, ...
    (utime and stime at 11 and 12); None when there is no such process."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            return stat.read().rsplit(b")", 1)[1].split()
    except OSError:
        return None


def session_processes(session_id: int) -> list[int]:
    """Every live process whose session is `session_id` (from /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        fields = stat_fields(int(entry)) if entry.isdigit() else None
        if fields and int(fields[3]) == session_id and fields[0] != b"Z":
            found.append(int(entry))
    return found


class ArcadeProcess:
    """The arcade for one player: start it, feed it keys, relay its output, resize, end it."""

    def __init__(
        self,
        env: Mapping[str, str],
        columns: int,
        rows: int,
        on_output: Callable[[bytes], None],
        on_exit: Callable[[int], None],
        memory_bytes: int | None,
        command: list[str] | None = None,
        warm: WarmParent | None = None,
    ) -> None:
        """`warm`: fork the arcade from this preloaded parent (the fork model), else start
        a fresh Python (the spawn model)."""
        self.env = dict(env)
        self.warm = warm
        self.command = command or []
        self.columns, self.rows = clamp_size(columns, rows)
        self.on_output = on_output
        self.on_exit = on_exit
        self.memory_bytes = memory_bytes
        self.master = -1
        self.process: subprocess.Popen[bytes] | ForkedChild | None = None
        self._pending = bytearray()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._ended = False
        self._reading = False  # the master is watched for output
        self._output_paused = False  # the client has too much unread output: not read for now

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process else None

    def start(self) -> None:
        """Open the pty and start the arcade on it; on any failure nothing stays open (OSError
        for the caller)."""
        self._loop = asyncio.get_running_loop()
        master, slave = pty.openpty()
        launcher = [sys.executable, "-m", "kaeru.tui.serve.processes.arcade_child"]
        try:
            set_window_size(master, self.columns, self.rows)
            if self.warm is not None:
                try:
                    self.process = self.warm.spawn(
                        slave, self.env, self.memory_bytes, self.command
                    )
                    os.set_blocking(master, False)
                    return
                except WarmParentError as error:  # this player gets a fresh Python instead
                    log.warning("the warm parent failed (%s): this arcade is spawned", error)
            self.process = subprocess.Popen(
                [*launcher, str(self.memory_bytes or 0), *self.command],
                stdin=slave,
                stdout=slave,
                stderr=slave,
                env=self.env,
                cwd=self.env.get("HOME"),
                start_new_session=True,  # its own session: the pty becomes its terminal
                close_fds=True,
            )
            os.set_blocking(master, False)
        except BaseException:
            os.close(master)
            raise
        finally:
            os.close(slave)
            if self.process is not None:
                self.master = master
                self._watch_output()

    def _watch_output(self) -> None:
        if self.master >= 0 and not self._reading and not self._output_paused:
            assert self._loop is not None
            self._loop.add_reader(self.master, self._readable)
            self._reading = True

    def pause_output(self) -> None:
        """Stop reading the arcade's output (it blocks on a full terminal) until `resume_output`:
        the client has not taken what was sent already."""
        self._output_paused = True
        if self._reading and self.master >= 0:
            assert self._loop is not None
            self._loop.remove_reader(self.master)
        self._reading = False

    def resume_output(self) -> None:
        self._output_paused = False
        self._watch_output()

    @property
    def output_paused(self) -> bool:
        return self._output_paused

    def resize(self, columns: int, rows: int) -> None:
        self.columns, self.rows = clamp_size(columns, rows)
        if self.master >= 0 and not self._ended:
            set_window_size(self.master, self.columns, self.rows)

    @property
    def input_backlog(self) -> int:
        """Keys received and not yet taken by the arcade's terminal."""
        return len(self._pending)

    def write(self, data: bytes) -> None:
        """Send the player's keys to the arcade (the caller bounds `input_backlog`)."""
        if self._ended or self.master < 0:
            return
        self._pending += data
        self._flush()

    def _flush(self) -> None:
        assert self._loop is not None
        while self._pending:
            try:
                written = os.write(self.master, self._pending)
            except BlockingIOError:
                self._loop.add_writer(self.master, self._writable)
                return
            except OSError:
                self._pending.clear()
                return
            del self._pending[:written]

    def _writable(self) -> None:
        assert self._loop is not None
        self._loop.remove_writer(self.master)
        self._flush()

    def _readable(self) -> None:
        try:
            data = os.read(self.master, 65536)
        except BlockingIOError:
            return
        except OSError:  # EIO: the arcade closed its terminal (and ended)
            data = b""
        if data:
            self.on_output(data)
            return
        self._finished()

    def _finished(self) -> None:
        if self._ended:
            return
        self._close_master()
        assert self._loop is not None
        self._loop.create_task(self._report_exit())

    async def _report_exit(self) -> None:
        """The arcade closed its terminal: it is quitting. Let it finish (it stops its search
        worker first) before `stop` hangs up on whatever is left."""
        process = self.process
        waited = 0.0
        while process is not None and process.poll() is None and waited < QUIT_GRACE_SECONDS:
            await asyncio.sleep(0.05)
            waited += 0.05
        self.on_exit(await self.stop())

    def _close_master(self) -> None:
        if self.master >= 0:
            assert self._loop is not None
            self._loop.remove_reader(self.master)
            self._loop.remove_writer(self.master)
            self._reading = False
            os.close(self.master)
            self.master = -1

    async def stop(self) -> int:
        """End the arcade and everything it started; return its exit code (negative: signal).

        SIGHUP to its process group first (Textual restores the terminal and stops its search
        worker), then SIGKILL to every process left in its session."""
        self._ended = True
        self._close_master()
        process = self.process
        if process is None:
            return 0
        session = process.pid
        if process.poll() is None:
            try:
                os.killpg(session, signal.SIGHUP)
            except ProcessLookupError:
                pass
            waited = 0.0
            while process.poll() is None and waited < HANGUP_GRACE_SECONDS:
                await asyncio.sleep(0.05)
                waited += 0.05
        killed = kill_session(session)
        code = process.wait()
        killed += kill_session(session)  # anything that started while the leader was ending
        reap(killed)
        return code


def kill_session(session_id: int) -> list[int]:
    """SIGKILL every process of a session; their ids."""
    pids = session_processes(session_id)
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    return pids


def reap(pids: list[int]) -> None:
    """Wait for those of `pids` that are this process's children (a fork-model server, a
    child subreaper, adopts what an ended arcade leaves): no zombie stays."""
    for pid in pids:
        try:
            os.waitpid(pid, 0)
        except ChildProcessError:
            pass
