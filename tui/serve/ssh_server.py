"""`kaeru serve ssh`: a shared arcade over SSH, on asyncssh.

Each connection that asks for a terminal and a shell gets its own arcade process on a pty
(`pty_session.ArcadeProcess`) with its own player folders (`identity`): the SHA256 fingerprint
of the key it logged in with, or a fresh guest name in guest mode. Only the arcade runs: exec
requests, subsystems (SFTP), TCP/UNIX forwarding either way, agent and X11 forwarding, passwords
and keyboard-interactive logins are all refused.
"""

from __future__ import annotations

import asyncio
import logging
import os
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncssh

from kaeru.tui.serve.identity import (
    guest_player_name,
    key_player_name,
    player_folders,
)
from kaeru.tui.serve.limits import FULL_MESSAGE, IDLE_MESSAGE, SessionCounter, SessionLimits
from kaeru.tui.serve.pty_session import TERMINAL_RESET, ArcadeProcess, arcade_environment

log = logging.getLogger(__name__)

HOST_KEY_NAME = "ssh_host_ed25519_key"
NO_TERMINAL_MESSAGE = "kaeru serve: this server runs only the arcade; connect with a terminal."


class ServeError(Exception):
    """A problem that stops the server from starting (one line for the user)."""


def ensure_host_key(folder: Path) -> Path:
    """The server's host key, generated once (mode 0600) in `folder`."""
    path = folder / HOST_KEY_NAME
    if path.exists():
        if path.stat().st_mode & 0o077:
            os.chmod(path, 0o600)
        return path
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    key = asyncssh.generate_private_key("ssh-ed25519", comment="kaeru-serve host key")
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "wb") as out:
        out.write(key.export_private_key())
    return path


def read_authorized_keys(path: Path) -> asyncssh.SSHAuthorizedKeys | None:
    """The keys allowed in (read again at each login, so edits apply at once); None if none."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return None
    try:
        return asyncssh.import_authorized_keys(text)
    except ValueError:  # no usable entry
        return None


@dataclass
class ServeConfig:
    """What `kaeru serve ssh` was told."""

    host: str = "127.0.0.1"
    port: int = 2222
    authorized_keys: Path | None = None
    guest: bool = False
    limits: SessionLimits = field(default_factory=SessionLimits)
    root: Path = Path(".")
    cache_dir: Path = Path(".")
    command: list[str] | None = None  # the arcade command (tests and the bench may swap it)


class ArcadeState:
    """What the server's sessions share: the config, the session count, the live arcades."""

    def __init__(self, config: ServeConfig) -> None:
        self.config = config
        self.sessions = SessionCounter(config.limits.max_sessions)
        self.arcades: set[ArcadeSession] = set()


class ArcadeSSHServer(asyncssh.SSHServer):
    """One connection: authentication (keys or guest) and what it may open (one session)."""

    def __init__(self, state: ArcadeState) -> None:
        self.state = state
        self.conn: asyncssh.SSHServerConnection | None = None
        self.player: str | None = None
        self._accepted_key: str | None = None

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn

    def begin_auth(self, username: str) -> bool:
        if self.state.config.guest:
            self.player = guest_player_name()
            return False  # guest mode: no authentication
        return True

    def password_auth_supported(self) -> bool:
        return False

    def kbdint_auth_supported(self) -> bool:
        return False

    def host_based_auth_supported(self) -> bool:
        return False

    def public_key_auth_supported(self) -> bool:
        return not self.state.config.guest

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        path = self.state.config.authorized_keys
        keys = read_authorized_keys(path) if path else None
        if keys is None or self.conn is None:
            log.warning("no usable key in %s: login refused", path)
            return False
        peer = self.conn.get_extra_info("peername") or ("", 0)
        if keys.validate(key, str(peer[0]), str(peer[0])) is None:
            return False
        self._accepted_key = key.get_fingerprint("sha256")
        return True

    def auth_completed(self) -> None:
        if self.player is None and self._accepted_key is not None:
            self.player = key_player_name(self._accepted_key)

    def session_requested(self) -> asyncssh.SSHServerSession[bytes] | bool:
        if self.player is None:
            return False
        return ArcadeSession(self.state, self.player)

    # forwarding of any kind: refused (these are asyncssh's defaults too, stated here on purpose)
    def connection_requested(
        self, dest_host: str, dest_port: int, orig_host: str, orig_port: int
    ) -> bool:
        return False

    def server_requested(self, listen_host: str, listen_port: int) -> bool:
        return False

    def unix_connection_requested(self, dest_path: str) -> bool:
        return False

    def unix_server_requested(self, listen_path: str) -> bool:
        return False


class ArcadeSession(asyncssh.SSHServerSession[bytes]):
    """One SSH session: a pty and a shell request start the arcade; nothing else is served."""

    def __init__(self, state: ArcadeState, player: str) -> None:
        self.state = state
        self.player = player
        self.chan: asyncssh.SSHServerChannel[bytes] | None = None
        self.term_type: str | None = None
        self.size = (80, 24)
        self.arcade: ArcadeProcess | None = None
        self.counted = False
        self.last_input = time.monotonic()
        self._idle_task: asyncio.Task[None] | None = None
        self._closing = False

    def connection_made(self, chan: asyncssh.SSHServerChannel[bytes]) -> None:  # type: ignore[override]
        self.chan = chan

    def pty_requested(
        self, term_type: str, term_size: tuple[int, int, int, int], term_modes: Any
    ) -> bool:
        self.term_type = term_type
        if term_size[0] and term_size[1]:
            self.size = (term_size[0], term_size[1])
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        log.info("refused an exec request from %s", self.player)
        return False

    def subsystem_requested(self, subsystem: str) -> bool:
        log.info("refused subsystem %r from %s", subsystem, self.player)
        return False

    def session_started(self) -> None:
        assert self.chan is not None
        if self.term_type is None:
            self._refuse(NO_TERMINAL_MESSAGE)
            return
        if not self.state.sessions.try_enter():
            self._refuse(FULL_MESSAGE.format(limit=self.state.sessions.limit))
            return
        self.counted = True
        config = self.state.config
        folders = player_folders(config.root, self.player)
        client_env = dict(self.chan.get_environment())
        client_env["TERM"] = self.term_type
        env = arcade_environment(folders, config.cache_dir, client_env, config.limits.memory_mb)
        self.arcade = ArcadeProcess(
            env,
            *self.size,
            on_output=self._output,
            on_exit=self._arcade_ended,
            memory_bytes=config.limits.memory_bytes,
            command=config.command,
        )
        try:
            self.arcade.start()
        except OSError as error:
            self.arcade = None
            self._refuse(f"kaeru serve: could not start the arcade ({error.strerror}).")
            return
        self.state.arcades.add(self)
        log.info("player %s: arcade pid %s", self.player, self.arcade.pid)
        if config.limits.idle_timeout:
            self._idle_task = asyncio.get_running_loop().create_task(self._watch_idle())

    def _refuse(self, message: str) -> None:
        assert self.chan is not None
        self.chan.write(message.encode("utf-8") + b"\r\n")
        self.chan.exit(1)

    def _output(self, data: bytes) -> None:
        if self.chan is not None and not self._closing:
            self.chan.write(data)

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        self.last_input = time.monotonic()
        if self.arcade is not None:
            self.arcade.write(data)

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        if width and height:
            self.size = (width, height)
            if self.arcade is not None:
                self.arcade.resize(width, height)

    def eof_received(self) -> bool:
        return False  # close the channel: the arcade ends in connection_lost

    def _arcade_ended(self, code: int) -> None:
        """The arcade quit (the player pressed q / ctrl+q): end the SSH session."""
        if self.chan is not None and not self._closing:
            self._closing = True
            self.chan.exit(code if code >= 0 else 1)

    async def _watch_idle(self) -> None:
        timeout = self.state.config.limits.idle_timeout
        while self.arcade is not None and not self._closing:
            left = self.last_input + timeout - time.monotonic()
            if left > 0:
                await asyncio.sleep(min(left, 5.0))
                continue
            self._closing = True
            await self.arcade.stop()
            if self.chan is not None:
                self.chan.write(
                    TERMINAL_RESET
                    + b"\r\n"
                    + IDLE_MESSAGE.format(seconds=timeout).encode()
                    + b"\r\n"
                )
                self.chan.exit(1)
            return

    def connection_lost(self, exc: Exception | None) -> None:
        self._closing = True
        if self._idle_task is not None:
            self._idle_task.cancel()
        arcade, self.arcade = self.arcade, None
        if arcade is not None:
            asyncio.get_running_loop().create_task(self._cleanup(arcade))
        elif self.counted:
            self.counted = False
            self.state.sessions.leave()

    async def _cleanup(self, arcade: ArcadeProcess) -> None:
        try:
            await arcade.stop()
        finally:
            self.state.arcades.discard(self)
            if self.counted:
                self.counted = False
                self.state.sessions.leave()
            if self.player.startswith("guest-"):
                shutil.rmtree(self.state.config.root / "players" / self.player, ignore_errors=True)
            log.info("player %s: arcade ended", self.player)


async def start_server(config: ServeConfig) -> tuple[asyncssh.SSHAcceptor, ArcadeState]:
    """Listen; return the acceptor (its port, and `close()`) and the shared state."""
    if not config.guest:
        if config.authorized_keys is None:
            raise ServeError("give --authorized-keys FILE, or --guest to let anyone in")
        if read_authorized_keys(config.authorized_keys) is None:
            raise ServeError(f"no usable public key in {config.authorized_keys}")
    host_key = ensure_host_key(config.root)
    state = ArcadeState(config)
    factory: Callable[[], asyncssh.SSHServer] = lambda: ArcadeSSHServer(state)  # noqa: E731
    acceptor = await asyncssh.create_server(
        factory,
        config.host,
        config.port,
        server_host_keys=[str(host_key)],
        encoding=None,
        line_editor=False,
        allow_pty=True,
        agent_forwarding=False,
        x11_forwarding=False,
        allow_scp=False,
        sftp_factory=None,
        login_timeout=30,
        keepalive_interval=60,
        reuse_address=True,
    )
    return acceptor, state


async def stop_server(acceptor: asyncssh.SSHAcceptor, state: ArcadeState) -> None:
    """Stop listening and end every arcade."""
    acceptor.close()
    await acceptor.wait_closed()
    arcades = [session.arcade for session in state.arcades if session.arcade is not None]
    await asyncio.gather(*(arcade.stop() for arcade in arcades))
    for session in list(state.arcades):
        if session.chan is not None:
            session.chan.write(TERMINAL_RESET + b"\r\nkaeru serve: the server stopped.\r\n")
            session.chan.exit(0)
