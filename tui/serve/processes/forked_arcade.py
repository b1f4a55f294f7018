"""The server's side of the fork model (`--process-model fork`, the default): the warm parent
(`warm_parent`) started once, and each player's arcade forked from it.

The server makes itself a child subreaper first (Linux `prctl(PR_SET_CHILD_SUBREAPER)`), so an
arcade the warm parent forks (twice: its middle process ends at once) becomes the server's own
child: `ForkedChild` waits for it as `subprocess.Popen` waits for a spawned one, and ending a
session works the same way in both models. Where there is no subreaper (not Linux) the server
falls back to the spawn model.
"""

from __future__ import annotations

import ctypes
import json
import logging
import os
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Mapping, Sequence

from kaeru.tui.serve.processes.warm_parent import ENV_ROOM, ENV_ROOM_SIZE

log = logging.getLogger(__name__)

PR_SET_CHILD_SUBREAPER = 36
PROCESS_MODELS = ("fork", "spawn")
READY_SECONDS = 60.0  # the warm parent's imports, on a loaded machine
ANSWER_SECONDS = 10.0


class WarmParentError(OSError):
    """The warm parent could not start or answer."""


def become_subreaper() -> bool:
    """Orphaned descendants of this process become its children; False where not possible."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


class ForkedChild:
    """An adopted arcade, with the part of `subprocess.Popen` the sessions use."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            self._wait(os.WNOHANG)
        return self.returncode

    def wait(self) -> int:
        while self.returncode is None:
            self._wait(0)
        return self.returncode

    def _wait(self, options: int) -> None:
        try:
            pid, status = os.waitpid(self.pid, options)
        except ChildProcessError:  # reaped elsewhere: its code is lost
            self.returncode = -signal.SIGKILL
            return
        if pid == self.pid:
            self.returncode = os.waitstatus_to_exitcode(status)


class WarmParent:
    """The preloaded parent: `spawn` forks an arcade onto a pty slave; `close` ends it."""

    def __init__(self, env: Mapping[str, str]) -> None:
        """Start it with `env` (what every session shares: the table cache, the server's
        settings); blocks until it has imported everything (WarmParentError if it cannot)."""
        if not become_subreaper():
            raise WarmParentError("no child subreaper on this system")
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.channel = ours
        self._lock = threading.Lock()
        self._requests = 0
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "kaeru.tui.serve.processes.warm_parent",
                 str(theirs.fileno())],
                pass_fds=(theirs.fileno(),),
                env={**env, ENV_ROOM: "." * ENV_ROOM_SIZE},
                stdin=subprocess.DEVNULL,
                close_fds=True,
            )
        finally:
            theirs.close()
        try:
            self._answer(READY_SECONDS)
        except WarmParentError:
            self.close()
            raise

    @property
    def pid(self) -> int:
        return self.process.pid

    def _answer(self, timeout: float) -> dict[str, object]:
        self.channel.settimeout(timeout)
        try:
            data = self.channel.recv(65536)
        except OSError as error:
            raise WarmParentError(f"the warm parent did not answer ({error})") from None
        if not data:
            raise WarmParentError("the warm parent ended")
        answer: dict[str, object] = json.loads(data.decode("utf-8"))
        return answer

    def spawn(
        self,
        stdio: int | Sequence[int],
        env: Mapping[str, str],
        memory_bytes: int | None,
        command: list[str],
    ) -> ForkedChild:
        """Fork an arcade on the pty whose slave side is `stdio`, or on three descriptors (its
        stdin, stdout and stderr: pipes); the caller closes them."""
        fds = [stdio] if isinstance(stdio, int) else list(stdio)
        with self._lock:
            self._requests += 1
            number = self._requests
            request = {
                "id": number,
                "env": dict(env),
                "memory": memory_bytes or 0,
                "command": command,
            }
            try:
                self.channel.settimeout(ANSWER_SECONDS)
                socket.send_fds(self.channel, [json.dumps(request).encode("utf-8")], fds)
            except OSError as error:
                raise WarmParentError(f"the warm parent is gone ({error})") from None
            answer = self._answer(ANSWER_SECONDS)
            while answer.get("id") != number:  # a late answer to a request that timed out
                end_stray(answer.get("pid"))
                answer = self._answer(ANSWER_SECONDS)
        pid = answer.get("pid")
        if not isinstance(pid, int):
            raise WarmParentError(str(answer.get("error", "no arcade forked")))
        return ForkedChild(pid)

    def close(self) -> None:
        """End the warm parent (its arcades go on until their sessions end)."""
        self.channel.close()
        try:
            self.process.wait(5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def end_stray(pid: object) -> None:
    """An arcade forked for a session that stopped waiting for it: ended and reaped."""
    if not isinstance(pid, int):
        return
    log.warning("an arcade forked too late (pid %d) is ended", pid)
    try:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    except (ProcessLookupError, ChildProcessError):
        pass
