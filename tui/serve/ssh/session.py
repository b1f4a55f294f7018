"""One SSH session of the arcade: a pty and a shell request start the player's arcade process
(`pty_session.ArcadeProcess`); nothing else is served.

Whatever the client does, the session ends once, cleanly, and gives back what it held (the pty
pair, the arcade's processes, its slot, a guest's folder), with one line in the operator's log:
- the player quits the arcade, or the connection drops;
- the client sends end-of-input (`ssh -tt host </dev/null`): there will be no more keys;
- no key for `--idle-timeout` seconds, counted from the last key whatever the channel's state;
- flow control: when the client's unsent output passes `HIGH_WATER` the arcade's terminal is not
  read (the arcade waits on it) until the backlog drains below `LOW_WATER`; a client that leaves
  it unread for `--stall-timeout` seconds is disconnected (the arcade is hung up on; its moves
  are saved as they are played). The other way, keys that come while the arcade has not taken
  HIGH_WATER of them already are dropped. The server holds at most about 2 × HIGH_WATER + the
  SSH window (2 MB) per session.
"""

from __future__ import annotations

import asyncio
import shutil
import time
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

import asyncssh

from kaeru.tui.serve.operator_log import log
from kaeru.tui.serve.processes.limits import IDLE_MESSAGE, clamp_size
from kaeru.tui.serve.ssh.identity import player_folders
from kaeru.tui.serve.ssh.pty_session import TERMINAL_RESET, ArcadeProcess, arcade_environment

if TYPE_CHECKING:
    from kaeru.tui.serve.ssh.server import ArcadeState

NO_TERMINAL_MESSAGE = "kaeru serve: this server runs only the arcade; connect with a terminal."
EOF_MESSAGE = "kaeru serve: your input ended (no key can come); disconnected."
STALL_MESSAGE = "kaeru serve: the arcade's output went unread for {seconds:g} s; disconnected."
HIGH_WATER = 256 * 1024  # unsent bytes for one client before its arcade's output is not read
LOW_WATER = 64 * 1024  # ... and below which it is read again
DRAIN_CHECK_SECONDS = 0.05
CLOSE_GRACE_SECONDS = 10.0  # after the session ends, for the client to close the channel


class ArcadeSession(asyncssh.SSHServerSession[bytes]):
    """One player's session: the arcade, its flow control, its timeouts and its ending."""

    def __init__(
        self,
        state: ArcadeState,
        player: str,
        address: str,
        on_start: Callable[[], None] = lambda: None,
        on_end: Callable[[], None] = lambda: None,
    ) -> None:
        """`on_start` when the client starts the session (a shell request), `on_end` when its
        channel closes after that (the connection counts its sessions)."""
        self.state = state
        self.player = player
        self.address = address
        self.on_start, self.on_end = on_start, on_end
        self._started = False
        self.chan: asyncssh.SSHServerChannel[bytes] | None = None
        self.term_type: str | None = None
        self.size = (80, 24)
        self.arcade: ArcadeProcess | None = None
        self.counted = False
        self.started_at = time.monotonic()
        self.last_input = time.monotonic()
        self.end_reason = "the connection closed"
        self.keys_dropped = 0
        self._watchers: set[asyncio.Task[None]] = set()
        self._closing = False
        self._released = False

    # ---- requests --------------------------------------------------------------------------
    def connection_made(self, chan: asyncssh.SSHServerChannel[bytes]) -> None:
        self.chan = chan

    def pty_requested(
        self, term_type: str, term_size: tuple[int, int, int, int], term_modes: Any
    ) -> bool:
        self.term_type = term_type
        if term_size[0] and term_size[1]:
            self.size = clamp_size(term_size[0], term_size[1])
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        log.info("refused %s from %s: an exec request", self.player, self.address)
        return False

    def subsystem_requested(self, subsystem: str) -> bool:
        log.info("refused %s from %s: subsystem %r", self.player, self.address, subsystem[:40])
        return False

    def session_started(self) -> None:
        assert self.chan is not None
        self._started = True
        self.on_start()
        if self._closing:  # the client sent end-of-input before its shell request
            return
        if self.term_type is None:
            log.info("refused %s from %s: no terminal asked for", self.player, self.address)
            self._refuse(NO_TERMINAL_MESSAGE)
            return
        reason = self.state.admission.try_session(self.player, self.address)
        if reason is not None:
            log.warning("limit: refused %s from %s: %s", self.player, self.address, reason)
            self._refuse(reason)
            return
        self.counted = True
        config = self.state.config
        try:
            folders = player_folders(config.root, self.player)
            client_env = dict(self.chan.get_environment())
            client_env["TERM"] = self.term_type
            env = arcade_environment(folders, config.cache_dir, client_env, config.limits.memory_mb)
            shared = self.state.shared
            if shared is not None:
                env.update(shared.session_env())
            self.arcade = ArcadeProcess(
                env,
                *self.size,
                on_output=self._output,
                on_exit=self._arcade_ended,
                memory_bytes=config.limits.memory_bytes,
                command=config.command,
                warm=shared.warm if shared is not None else None,
            )
            self.arcade.start()
        except OSError as error:
            self.arcade = None
            log.warning("player %s: could not start the arcade: %s", self.player, error)
            self._release()
            self._refuse(f"kaeru serve: could not start the arcade ({error.strerror or error}).")
            return
        self.started_at = time.monotonic()
        self.state.arcades.add(self)
        log.info(
            "session %s from %s: arcade pid %s, %dx%d (%d running)",
            self.player,
            self.address,
            self.arcade.pid,
            *self.size,
            self.state.admission.sessions,
        )
        if config.limits.idle_timeout:
            self._watch(self._watch_idle())

    # ---- data both ways ----------------------------------------------------------------------
    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        self.last_input = time.monotonic()
        if self.arcade is None or self._closing:
            return
        if self.arcade.input_backlog > HIGH_WATER:
            # The arcade does not take its keys: these are dropped, as a full terminal drops
            # them. (Pausing the channel would not bound them: asyncssh grants the client a
            # whole window again at each resume, whatever is still buffered.)
            if not self.keys_dropped:
                log.warning("player %s: keys dropped, the arcade is not taking them", self.player)
            self.keys_dropped += len(data)
            return
        self.arcade.write(data)

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        if width and height:
            self.size = clamp_size(width, height)
            if self.arcade is not None:
                self.arcade.resize(*self.size)

    def _output(self, data: bytes) -> None:
        if self._closing or not self._send(data):
            return
        if self.arcade is not None and self.backlog() > HIGH_WATER:
            self.arcade.pause_output()
            self._watch(self._wait_for_drain())

    def backlog(self) -> int:
        """Bytes written for this client and not yet taken by it: the channel's buffer (past the
        client's window) and the connection's socket buffer."""
        if self.chan is None:
            return 0
        size = self.chan.get_write_buffer_size()
        transport = getattr(self.chan.get_extra_info("connection"), "_transport", None)
        if transport is not None:
            size += transport.get_write_buffer_size()
        return size

    async def _wait_for_drain(self) -> None:
        stalled_at = time.monotonic()
        timeout = self.state.config.limits.stall_timeout
        while not self._closing and self.arcade is not None:
            if self.backlog() <= LOW_WATER:
                self.arcade.resume_output()
                return
            if time.monotonic() - stalled_at > timeout:
                message = STALL_MESSAGE.format(seconds=timeout)
                self._spawn(self._end(f"output unread for {timeout:g} s", message, abort=True))
                return
            await asyncio.sleep(DRAIN_CHECK_SECONDS)

    def _send(self, data: bytes) -> bool:
        """Write to the client; False (and the session ends) when the channel cannot take it."""
        if self.chan is None:
            return False
        try:
            self.chan.write(data)
        except OSError:  # BrokenPipeError: the client closed its side
            self._spawn(self._end("the channel closed for output"))
            return False
        return True

    # ---- endings ----------------------------------------------------------------------------
    def eof_received(self) -> bool:
        """End of input: no key will come again, so the session ends (not half-open)."""
        self._spawn(self._end("the client closed its input", EOF_MESSAGE))
        return True

    def _arcade_ended(self, code: int) -> None:
        """The arcade quit (the player pressed q / ctrl+q): end the SSH session."""
        self._spawn(self._end("the player quit", code=code if code >= 0 else 1))

    async def _watch_idle(self) -> None:
        timeout = self.state.config.limits.idle_timeout
        while not self._closing:
            left = self.last_input + timeout - time.monotonic()
            if left <= 0:
                message = IDLE_MESSAGE.format(seconds=timeout)
                self._spawn(self._end(f"no key for {timeout:g} s", message))
                return
            await asyncio.sleep(min(left, 5.0))

    async def _end(
        self, reason: str, message: str | None = None, code: int = 1, abort: bool = False
    ) -> None:
        """End the session once: the arcade, then the channel (or the whole connection, for a
        client that does not read), then what the session held."""
        if self._closing:
            return
        self._closing = True
        self.end_reason = reason
        arcade, self.arcade = self.arcade, None
        if arcade is not None:
            await arcade.stop()
        self._release()
        chan = self.chan
        if chan is None:
            return
        if abort:
            chan.get_extra_info("connection").abort()
            return
        if arcade is not None and message:
            self._write_quietly(TERMINAL_RESET + b"\r\n" + message.encode() + b"\r\n")
        try:
            chan.exit(code)
        except OSError:
            chan.close()
        await asyncio.sleep(CLOSE_GRACE_SECONDS)
        if self.chan is not None:  # the client never closed its side
            chan.get_extra_info("connection").abort()

    def _refuse(self, message: str) -> None:
        assert self.chan is not None
        self._closing = True
        self._write_quietly(message.encode("utf-8") + b"\r\n")
        try:
            self.chan.exit(1)
        except OSError:
            self.chan.close()

    def _write_quietly(self, data: bytes) -> None:
        if self.chan is not None:
            try:
                self.chan.write(data)
            except OSError:
                pass

    def connection_lost(self, exc: Exception | None) -> None:
        self.chan = None
        if self._started:
            self._started = False
            self.on_end()
        for task in list(self._watchers):
            task.cancel()
        if self._closing:  # an ending under way gives back what the session held
            return
        self._closing = True
        if exc is not None:
            self.end_reason = f"the connection was lost ({exc})"
        arcade, self.arcade = self.arcade, None
        if arcade is not None:
            self._spawn(self._stop_then_release(arcade))
        else:
            self._release()

    async def _stop_then_release(self, arcade: ArcadeProcess) -> None:
        try:
            await arcade.stop()
        finally:
            self._release()

    def _release(self) -> None:
        """Give back the slot and a guest's folder; say so in the operator's log (once)."""
        if self._released:
            return
        self._released = True
        self.state.arcades.discard(self)
        if self.counted:
            self.counted = False
            self.state.admission.leave_session(self.player, self.address)
            seconds = time.monotonic() - self.started_at
            log.info(
                "disconnect %s from %s after %.1f s: %s",
                self.player,
                self.address,
                seconds,
                self.end_reason,
            )
            if self.player.startswith("guest-") and not self.state.admission.by_player[self.player]:
                # a guest's last session (one connection may open several): its folder goes
                shutil.rmtree(self.state.config.root / "players" / self.player, ignore_errors=True)

    def _watch(self, work: Coroutine[Any, Any, None]) -> None:
        """A watcher (idle, drain): cancelled when the connection goes."""
        task = asyncio.get_running_loop().create_task(work)
        self._watchers.add(task)
        task.add_done_callback(self._watchers.discard)

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        """An ending: runs to its end even if the connection goes meanwhile."""
        task = asyncio.get_running_loop().create_task(work)
        _endings.add(task)
        task.add_done_callback(_endings.discard)


_endings: set[asyncio.Task[None]] = set()  # endings under way (kept from the garbage collector)
