"""A `kaeru serve web` tab's arcade forked from the warm parent (the fork model), on pipes.

textual-serve's `AppService` starts each tab's app with `asyncio.create_subprocess_shell` on
three pipes and reads the web driver's packets from its stdout. Here the three pipes are made by
the server and their far ends passed to the warm parent (as the SSH server passes a pty's slave
side), which forks the tab's arcade onto them: the arcade shares the parent's preloaded pages and
the server's one search pool instead of importing everything in a fresh Python. `PipedArcade`
is what `AppService.run` reads from (its `stdout` and `stderr` stream readers) and writes to
(`stdin`), with the forked process's pid; `end` ends it and everything in its session.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import signal
from collections.abc import Mapping

from kaeru.tui.serve.processes.forked_arcade import ForkedChild, WarmParent
from kaeru.tui.serve.processes.warm_parent import WEB_TAB
from kaeru.tui.serve.ssh.pty_session import kill_session, reap

QUIT_GRACE_SECONDS = 5.0  # a tab told to quit, to end by itself (its game is saved)
TERM_GRACE_SECONDS = 1.0  # after SIGTERM (the web driver's own exit), before SIGKILL
STREAM_LIMIT = 2**16  # asyncio's default for a subprocess's pipes


class PipedArcade:
    """A forked tab's arcade: its pipes as asyncio streams, and its process."""

    def __init__(
        self,
        child: ForkedChild,
        stdin: asyncio.StreamWriter,
        stdout: asyncio.StreamReader,
        stderr: asyncio.StreamReader,
    ) -> None:
        self.child = child
        self.stdin = stdin
        self.stdout = stdout
        self.stderr = stderr

    @property
    def pid(self) -> int:
        return self.child.pid

    @property
    def returncode(self) -> int | None:
        return self.child.returncode

    async def end(self, quit_grace: float = QUIT_GRACE_SECONDS) -> int:
        """Wait up to `quit_grace` for the arcade to end (it was told to quit), then SIGTERM it
        (the web driver exits cleanly on it), then SIGKILL whatever is left in its session; its
        exit code."""
        child = self.child
        with contextlib.suppress(Exception):
            self.stdin.close()
        for grace, signum in ((quit_grace, signal.SIGTERM), (TERM_GRACE_SECONDS, 0)):
            waited = 0.0
            while child.poll() is None and waited < grace:
                await asyncio.sleep(0.05)
                waited += 0.05
            if child.poll() is None and signum:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(child.pid, signum)
        killed = kill_session(child.pid)
        code = await asyncio.to_thread(child.wait)
        reap(killed + kill_session(child.pid))
        return code


async def fork_tab(
    warm: WarmParent, env: Mapping[str, str], memory_bytes: int | None
) -> PipedArcade:
    """Fork a tab's arcade from `warm` on three new pipes (OSError, with nothing left open, when
    it cannot be done)."""
    loop = asyncio.get_running_loop()
    pipes = [os.pipe() for _ in range(3)]  # (read, write) each: stdin, stdout, stderr
    theirs = [pipes[0][0], pipes[1][1], pipes[2][1]]
    ours = [pipes[0][1], pipes[1][0], pipes[2][0]]
    try:
        child = await asyncio.to_thread(warm.spawn, theirs, env, memory_bytes, [WEB_TAB])
    except BaseException:
        for fd in ours:
            os.close(fd)
        raise
    finally:
        for fd in theirs:
            os.close(fd)
    stdout = asyncio.StreamReader(limit=STREAM_LIMIT, loop=loop)
    stderr = asyncio.StreamReader(limit=STREAM_LIMIT, loop=loop)
    try:
        for reader, fd in ((stdout, ours[1]), (stderr, ours[2])):
            await loop.connect_read_pipe(
                functools.partial(asyncio.StreamReaderProtocol, reader, loop=loop),
                os.fdopen(fd, "rb", buffering=0),
            )
        transport, protocol = await loop.connect_write_pipe(
            asyncio.streams.FlowControlMixin, os.fdopen(ours[0], "wb", buffering=0)
        )
    except OSError:
        for fd in ours:
            with contextlib.suppress(OSError):
                os.close(fd)
        reap(kill_session(child.pid))
        raise
    stdin = asyncio.StreamWriter(transport, protocol, None, loop)
    return PipedArcade(child, stdin, stdout, stderr)
