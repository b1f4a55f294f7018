"""The warm parent of `kaeru serve ssh`'s fork model: one process, started by the server, that
imports everything an arcade imports (Textual, the engine, the catalogue, the screens), freezes
what it holds (`gc.freeze()`, so the collector never writes to the shared pages), and then forks
one arcade per connection on request. A forked arcade shares every page it does not write with
this parent and with every other arcade: a new player costs a few megabytes and reaches the first
frame without importing anything.

    python -m kaeru.tui.serve.processes.warm_parent FD

FD is this end of a unix socket pair held by the server. Each request is one datagram-sized
message: a JSON header {"env": {...}, "memory": BYTES, "command": [...]} with the arcade's
terminal passed alongside (SCM_RIGHTS): one descriptor, a pty's slave side (`kaeru serve ssh`),
or three, the pipes for stdin, stdout and stderr (`kaeru serve web`: textual-serve's web driver
speaks its own packets on pipes). The answer is {"pid": N} or {"error": "..."}.

The arcade is forked twice (the middle process ends at once), so it is adopted by the server,
which made itself a child subreaper (`forked_arcade`): the server waits for it and hangs up on it
exactly as on a spawned one. In the arcade, after the fork: a new session (whose controlling
terminal is the pty, if a pty was passed), the pty or the pipes on 0/1/2, every other
descriptor closed, the environment replaced by
the player's, the memory limit, the default signal handlers; then the arcade runs (or COMMAND is
executed). This parent has no thread (checked at start): forking it is safe.
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import gc
import importlib
import io
import json
import logging
import os
import pkgutil
import signal
import socket
import sys
import termios
import threading
from typing import TextIO, cast

log = logging.getLogger(__name__)

MAX_MESSAGE = 256 * 1024
IN_PROCESS = "kaeru"  # a command ["kaeru", ARGS...] runs `kaeru ARGS` in the arcade's process
WEB_TAB = "kaeru-web-tab"  # a command [WEB_TAB] runs a browser tab's arcade (`web_app`)
ENV_ROOM = "KAERU_ENV_ROOM"  # padding in the parent's environment block (`show_environment`)
ENV_ROOM_SIZE = 16384
# What an arcade imports before its first frame, and what it imports as the player goes on
# (numba stays out: a served arcade searches in the server's pool, not in its own process).
PRELOAD_PACKAGES = ("kaeru.screens", "kaeru.tui.widgets")
PRELOAD_MODULES = (
    "kaeru.tui.cli.main",
    "kaeru.tui.app",
    "kaeru.engine.puzzles.registry",
    "kaeru.engine.catalogue.entries",
    "kaeru.engine.catalogue.survey",
    "kaeru.engine.service",
    "kaeru.engine.service.pool_runner",
    "kaeru.engine.store",
    "kaeru.tui.serve.web.tab",
    # what Textual imports only once it runs on a terminal
    "textual.drivers.linux_driver",
    "textual.drivers._writer_thread",
    "textual._xterm_parser",
    "textual._keyboard_protocol",
    "textual.layouts.factory",
    "textual.layouts.horizontal",
    "textual.layouts.vertical",
    "textual.layouts.grid",
    "textual.layouts.stream",
    # what the web driver imports (a `kaeru serve web` tab)
    "textual.drivers.web_driver",
    "textual.drivers._byte_stream",
    "textual.drivers._input_reader",
    "textual._binary_encode",
    "queue",
    "tty",
    "pwd",
)
SKIPPED = ("numba", "jit", "kernel")  # module names that would load numba


def preload() -> list[str]:
    """Import what a session will import; the names that failed (logged, not fatal)."""
    failed = []
    names = list(PRELOAD_MODULES)
    for package_name in PRELOAD_PACKAGES:
        try:
            package = importlib.import_module(package_name)
        except Exception:
            failed.append(package_name)
            continue
        for info in pkgutil.walk_packages(package.__path__, prefix=f"{package_name}."):
            if not any(word in info.name for word in SKIPPED):
                names.append(info.name)
    for name in names:
        try:
            importlib.import_module(name)
        except Exception:  # a module that cannot load here loads (or fails) in the session
            failed.append(name)
    if "numba" in sys.modules:
        log.info("the warm parent loaded numba")
    try:
        warm_caches()
    except Exception:  # each arcade fills them itself then
        failed.append("caches")
    return failed


def warm_caches() -> None:
    """Fill what every arcade computes the same way before its home screen (the catalogue and
    each preset's puzzle, kept in the engine's own caches), so the arcades share one copy."""
    from rich._unicode_data import load as load_cell_table

    from kaeru.engine.catalogue.cache import fingerprint
    from kaeru.engine.catalogue.entries import catalogue, preset
    from kaeru.engine.puzzles.registry import get_puzzle

    load_cell_table()  # the character widths' table (UNICODE_VERSION is the server's)

    for entry in catalogue():
        for item in entry.presets:
            puzzle = get_puzzle(item.puzzle_id)
            preset(item.puzzle_id)
            fingerprint(puzzle)  # the start position formatted, once


def receive(channel: socket.socket) -> tuple[dict[str, object], list[int]] | None:
    """One request and the descriptors passed with it; None when the server is gone."""
    try:
        data, fds, _flags, _address = socket.recv_fds(channel, MAX_MESSAGE, 4)
    except (ConnectionError, OSError):
        return None
    if not data:
        return None
    return json.loads(data.decode("utf-8")), list(fds)


def serve(channel: socket.socket) -> None:
    """Answer spawn requests until the server closes its end."""
    while True:
        got = receive(channel)
        if got is None:
            return
        request, fds = got
        answer: dict[str, object] = {"id": request.get("id")}
        try:
            if len(fds) not in (1, 3):
                raise ValueError("a pty descriptor, or three pipes, expected")
            answer["pid"] = fork_arcade(request, fds, channel)
        except (OSError, ValueError) as error:
            answer["error"] = str(error)
        finally:
            for fd in fds:
                os.close(fd)
        channel.sendall(json.dumps(answer).encode("utf-8"))


def fork_arcade(request: dict[str, object], stdio: list[int], channel: socket.socket) -> int:
    """Fork the middle process, which forks the arcade and ends; the arcade's pid."""
    read_end, write_end = os.pipe()
    middle = os.fork()
    if middle == 0:  # the middle process: fork the arcade, tell its pid, end
        try:
            os.close(read_end)
            arcade = os.fork()
            if arcade == 0:
                os.close(write_end)
                run_arcade(request, stdio, channel)  # never returns
            os.write(write_end, str(arcade).encode())
        finally:
            os._exit(0)
    os.close(write_end)
    try:
        text = b""
        while chunk := os.read(read_end, 32):
            text += chunk
    finally:
        os.close(read_end)
        os.waitpid(middle, 0)
    if not text:
        raise OSError("the arcade could not be forked")
    return int(text)


def run_arcade(request: dict[str, object], stdio: list[int], channel: socket.socket) -> None:
    """In the forked arcade: become the player's process, run the arcade; never returns."""
    code = 4
    try:
        channel.close()
        become_player(request, stdio)
        command = request_command(request)
        if command[:1] == [WEB_TAB]:
            from kaeru.tui.serve.web.tab import run_tab

            code = run_tab()
        else:
            if command and command[0] != IN_PROCESS:
                os.execvp(command[0], command)
            from kaeru.tui.cli.main import main as kaeru_main

            code = kaeru_main(command[1:])
    except SystemExit as ended:
        code = ended.code if isinstance(ended.code, int) else 1
    except BaseException:  # the arcade's own handler logs what it can
        code = 4
    finally:
        with contextlib.suppress(Exception):
            sys.stdout.flush()
        os._exit(code)


def request_command(request: dict[str, object]) -> list[str]:
    command = request.get("command")
    return [str(part) for part in command] if isinstance(command, list) else []


def become_player(request: dict[str, object], stdio: list[int]) -> None:
    """A new session (on the pty, when `stdio` is one), the player's environment, limits and
    signals."""
    os.setsid()
    if len(stdio) == 1:
        fcntl.ioctl(stdio[0], termios.TIOCSCTTY, 0)
        stdio = stdio * 3
    for fd, target in zip(stdio, (0, 1, 2), strict=True):
        if fd != target:
            os.dup2(fd, target)
        os.set_inheritable(target, True)
    os.closerange(3, os.sysconf("SC_OPEN_MAX"))  # the server's socket, the passed copies...
    for signum in (signal.SIGHUP, signal.SIGINT, signal.SIGTERM, signal.SIGCHLD, signal.SIGPIPE):
        signal.signal(signum, signal.SIG_DFL)
    given = request.get("env")
    env = {str(k): str(v) for k, v in given.items()} if isinstance(given, dict) else {}
    os.environ.clear()
    os.environ.update(env)
    home = env.get("HOME")
    if home:
        with contextlib.suppress(OSError):
            os.chdir(home)
    given_memory = request.get("memory")
    memory = given_memory if isinstance(given_memory, int) else 0
    from kaeru.tui.serve.processes.limits import apply_memory_limit

    apply_memory_limit(memory or None)
    show_environment(env)
    fresh_stdio()
    reread_environment()
    sys.argv = ["kaeru"]


def show_environment(env: dict[str, str]) -> None:
    """Write the player's environment over the parent's in this process's environment block
    (what /proc/PID/environ and `ps e` show; the parent is started with ENV_ROOM to make it
    large enough), so an operator sees what the arcade really runs with. Nothing is written if
    it does not fit."""
    try:
        with open("/proc/self/stat", "rb") as stat:
            fields = stat.read().rsplit(b")", 1)[1].split()
        start, end = int(fields[47]), int(fields[48])
    except (OSError, IndexError, ValueError):
        return
    block = b"".join(f"{k}={v}".encode("utf-8", "replace") + b"\0" for k, v in env.items())
    if start and end - start >= len(block):
        ctypes.memmove(start, block + b"\0" * (end - start - len(block)), end - start)


def fresh_stdio() -> None:
    """Python's text streams on the pty (the parent's were on the server's files)."""
    def stream(fd: int, mode: str, errors: str) -> TextIO:
        return cast(  # the process's own streams, never closed
            TextIO, open(fd, mode, encoding="utf-8", errors=errors, closefd=False)
        )

    sys.stdin = stream(0, "r", "strict")
    sys.stdout = stream(1, "w", "strict")
    sys.stderr = stream(2, "w", "backslashreplace")
    for out in (sys.stdout, sys.stderr):
        if isinstance(out, io.TextIOWrapper):
            out.reconfigure(line_buffering=True)
    for name in ("stdin", "stdout", "stderr"):  # what Textual's driver writes to
        setattr(sys, f"__{name}__", getattr(sys, name))


def reread_environment() -> None:
    """The modules that read the environment when imported read the player's now."""
    import locale

    with contextlib.suppress(locale.Error):
        locale.setlocale(locale.LC_CTYPE, "")
    for name in ("textual.constants", "kaeru.tui.glyphs"):
        module = sys.modules.get(name)
        if module is not None:
            with contextlib.suppress(Exception):
                importlib.reload(module)


def quiet_stdio() -> None:
    """Nothing of the parent's reaches the server's terminal (its log goes to stderr only)."""
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    os.dup2(devnull, 1)
    os.close(devnull)


def main(argv: list[str]) -> int:
    channel = socket.socket(fileno=int(argv[0]))
    fcntl.fcntl(channel.fileno(), fcntl.F_SETFD, 0)
    quiet_stdio()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the server stops us by closing the socket
    failed = preload()
    if failed:
        print(f"kaeru serve: warm parent: not preloaded: {', '.join(failed)}", file=sys.stderr)
    if threading.active_count() > 1:  # forking a process with threads is not safe
        print("kaeru serve: warm parent: a thread was started by an import", file=sys.stderr)
        return 4
    gc.collect()
    gc.freeze()  # the collector leaves the preloaded objects (shared pages) alone
    channel.sendall(json.dumps({"ready": os.getpid()}).encode("utf-8"))
    serve(channel)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

