"""`kaeru serve ssh`: a shared arcade over SSH, on asyncssh.

Each connection that asks for a terminal and a shell gets its own arcade process on a pty
(`ssh_session.ArcadeSession`) with its own player folders (`identity`): the SHA256 fingerprint
of the key it logged in with, or a fresh guest name in guest mode. Only the arcade runs: exec
requests, subsystems (SFTP), TCP/UNIX forwarding either way, agent and X11 forwarding, passwords
and keyboard-interactive logins are all refused.

Connections still logging in are capped in all and per source address (`admission`), and a
login has `--login-timeout` seconds: a flood of idle connections is closed as it comes and holds
few file descriptors. Every login, refusal, disconnect and limit hit is one line of the
operator's log (`operator_log`).
"""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import asyncssh

from kaeru.tui.serve.operator_log import install_loop_handler, log, throttle
from kaeru.tui.serve.processes.limits import SessionLimits
from kaeru.tui.serve.processes.shared_processes import SharedProcesses
from kaeru.tui.serve.ssh.admission import Admission, login_caps, open_files_limit
from kaeru.tui.serve.ssh.identity import guest_player_name, key_player_name
from kaeru.tui.serve.ssh.pty_session import TERMINAL_RESET
from kaeru.tui.serve.ssh.session import ArcadeSession

HOST_KEY_NAME = "ssh_host_ed25519_key"
LISTEN_QUEUE = 1024


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
    # connections logging in at once (in all, per address); None: from the open-files limit
    login_caps: tuple[int, int] | None = None
    process_model: str = "fork"  # "fork": from a warm parent; "spawn": a fresh Python each
    search_workers: int = 0  # processes of the shared search pool (0: one per core; -1: none,
    # each arcade its own worker as in the single-player app)


class ArcadeState:
    """What the server's sessions share: the config, the admission counts, the live arcades."""

    def __init__(self, config: ServeConfig) -> None:
        self.config = config
        caps = config.login_caps or login_caps(open_files_limit())
        self.admission = Admission(config.limits, *caps)
        self.arcades: set[ArcadeSession] = set()
        self.shared: SharedProcesses | None = None  # the warm parent, the search pool


def load_host_key(path: Path) -> asyncssh.SSHKey:
    """The host key at `path`; ServeError (one line) when it is empty or not a private key."""
    try:
        return asyncssh.read_private_key(path)
    except (OSError, ValueError, asyncssh.KeyImportError) as error:
        reason = "it is empty" if path.exists() and path.stat().st_size == 0 else str(error)
        raise ServeError(
            f"the host key {path} cannot be used ({reason}): remove it to have a new one made"
        ) from None


def host_key_line(key: asyncssh.SSHKey) -> str:
    return f"host key {key.get_fingerprint('sha256')} ({key.get_algorithm()})"


def remove_stale_guests(root: Path) -> int:
    """Guest folders left by a server that did not stop cleanly (no guest outlives its
    connection, so at start every one is stale); how many were removed."""
    players = root / "players"
    stale = [entry for entry in players.glob("guest-*") if entry.is_dir()]
    for folder in stale:
        shutil.rmtree(folder, ignore_errors=True)
    return len(stale)


class ArcadeSSHServer(asyncssh.SSHServer):
    """One connection: admission, authentication (keys or guest) and what it may open."""

    def __init__(self, state: ArcadeState) -> None:
        self.state = state
        self.conn: asyncssh.SSHServerConnection | None = None
        self.player: str | None = None
        self.address = "?"
        self._accepted_key: str | None = None
        self._logging_in = False
        self._sessions = 0  # sessions started on this connection and not ended
        self._no_session_timer: asyncio.TimerHandle | None = None

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        peer = conn.get_extra_info("peername") or ("?", 0)
        self.address = str(peer[0])
        refusal = self.state.admission.try_connect(self.address)
        if refusal is not None:
            throttle.say("refused:flood", f"limit: refused a connection from {self.address}: "
                         f"{refusal}")
            conn.abort()  # closed at once: a flood holds no descriptor
            return
        self._logging_in = True

    def _login_over(self) -> None:
        if self._logging_in:
            self._logging_in = False
            self.state.admission.leave_login(self.address)

    def connection_lost(self, exc: Exception | None) -> None:
        self.conn = None
        if self._no_session_timer is not None:
            self._no_session_timer.cancel()
            self._no_session_timer = None
        if self._logging_in:
            self._login_over()
            why = str(exc) if exc is not None else "closed before logging in"
            throttle.say(f"refused:login:{self.address}", f"refused {self.address}: {why}")

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
        if keys is None:
            throttle.say("keys", f"no usable key in {path}: login refused")
            return False
        fingerprint = key.get_fingerprint("sha256")
        if keys.validate(key, self.address, self.address) is None:
            throttle.say(
                f"refused:key:{self.address}",
                f"refused {self.address}: key {fingerprint} is not in {path}",
            )
            return False
        self._accepted_key = fingerprint
        return True

    def auth_completed(self) -> None:
        if self.player is None and self._accepted_key is not None:
            self.player = key_player_name(self._accepted_key)
        how = "guest" if self.state.config.guest else f"key {self._accepted_key}"
        log.info("login %s from %s (%s)", self.player, self.address, how)
        self._expect_session()  # still counted as logging in until a session starts

    def session_requested(self) -> asyncssh.SSHServerSession[bytes] | bool:
        if self.player is None:
            return False
        return ArcadeSession(
            self.state,
            self.player,
            self.address,
            on_start=self._session_started,
            on_end=self._session_ended,
        )

    # A connection holds a descriptor: one without a session (logged in and idle, or kept open
    # after its session) is closed after --login-timeout seconds.
    def _expect_session(self) -> None:
        if self._no_session_timer is not None:
            self._no_session_timer.cancel()
        self._no_session_timer = asyncio.get_running_loop().call_later(
            self.state.config.limits.login_timeout, self._no_session
        )

    def _no_session(self) -> None:
        self._no_session_timer = None
        if self._sessions == 0 and self.conn is not None:
            throttle.say(
                f"closed:{self.address}",
                f"closed a connection from {self.address}: no session for "
                f"{self.state.config.limits.login_timeout:g} s",
            )
            self.conn.abort()

    def _session_started(self) -> None:
        self._sessions += 1
        self._login_over()
        if self._no_session_timer is not None:
            self._no_session_timer.cancel()
            self._no_session_timer = None

    def _session_ended(self) -> None:
        self._sessions -= 1
        if self._sessions == 0 and self.conn is not None:
            self._expect_session()

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


def check_keys(config: ServeConfig) -> None:
    """ServeError unless there is a way in: guest mode, or a keys file with a usable key."""
    if config.guest:
        return
    if config.authorized_keys is None:
        raise ServeError("give --authorized-keys FILE, or --guest to let anyone in")
    if read_authorized_keys(config.authorized_keys) is None:
        raise ServeError(f"no usable public key in {config.authorized_keys}")


async def start_server(config: ServeConfig) -> tuple[asyncssh.SSHAcceptor, ArcadeState]:
    """Listen; return the acceptor (its port, and `close()`) and the shared state."""
    check_keys(config)
    try:
        host_key = load_host_key(ensure_host_key(config.root))
        stale = remove_stale_guests(config.root)
    except OSError as error:
        raise ServeError(
            f"cannot use {config.root} for the host key and players' folders: "
            f"{error.strerror or error}"
        ) from None
    if stale:
        log.info("removed %d guest folder(s) left by an earlier run", stale)
    install_loop_handler()
    state = ArcadeState(config)
    state.shared = await SharedProcesses.start(config)
    factory: Callable[[], asyncssh.SSHServer] = lambda: ArcadeSSHServer(state)  # noqa: E731
    acceptor = await asyncssh.create_server(
        factory,
        config.host,
        config.port,
        server_host_keys=[host_key],
        encoding=None,
        line_editor=False,
        allow_pty=True,
        agent_forwarding=False,
        x11_forwarding=False,
        allow_scp=False,
        sftp_factory=None,
        login_timeout=config.limits.login_timeout,
        keepalive_interval=60,
        reuse_address=True,
        backlog=accept_batch(open_files_limit()),
    )
    for listening in acceptor.sockets:
        deepen_queue(listening.fileno())
    return acceptor, state


def accept_batch(open_files: int) -> int:
    """How many connections asyncio accepts at a time (its `backlog`): each holds a descriptor
    until the loop runs again, so a burst must fit in what is left (an eighth of the limit)."""
    return max(4, min(100, open_files // 8))


def deepen_queue(fileno: int) -> None:
    """The kernel's queue of connections waiting to be accepted, longer than the batch: a real
    login waits in it behind a flood instead of having its SYN dropped (a retry a second later)."""
    with socket.socket(fileno=os.dup(fileno)) as listening:
        listening.listen(LISTEN_QUEUE)


async def stop_server(acceptor: asyncssh.SSHAcceptor, state: ArcadeState) -> None:
    """Stop listening and end every arcade."""
    acceptor.close()
    await acceptor.wait_closed()
    arcades = [session.arcade for session in state.arcades if session.arcade is not None]
    await asyncio.gather(*(arcade.stop() for arcade in arcades))
    if state.shared is not None:
        await asyncio.to_thread(state.shared.close)
    for session in list(state.arcades):
        if session.chan is not None:
            try:
                session.chan.write(TERMINAL_RESET + b"\r\nkaeru serve: the server stopped.\r\n")
                session.chan.exit(0)
            except OSError:
                pass
