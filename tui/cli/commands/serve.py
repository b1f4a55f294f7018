"""`kaeru serve ssh ...` and `kaeru serve web ...`: share the arcade with other people.

`ssh` runs one arcade process per SSH connection, each player with their own saves; `web`
serves the arcade to browsers through textual-serve with a page that loads nothing from outside.
Both listen on loopback unless `--host` says otherwise, and say so when they start.
"""

from __future__ import annotations

import argparse
import asyncio
import ipaddress
import os
import signal
import socket
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from kaeru.engine.rules.protocol import BadInput
from kaeru.tui.cli.exit_codes import EXIT_OK

if TYPE_CHECKING:
    from kaeru.tui.serve.ssh.server import ServeConfig

NAME = "serve"
HELP = "serve the arcade over SSH or to a web browser"
ORDER = 90


def configure(sub: argparse.ArgumentParser) -> None:
    kinds = sub.add_subparsers(
        dest="serve_kind", metavar="{ssh,web}", required=True, parser_class=type(sub)
    )
    ssh = kinds.add_parser("ssh", help="one arcade per SSH connection, each player their own saves")
    ssh.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    ssh.add_argument("--port", type=int, default=2222, help="port (2222; 0 picks a free one)")
    who = ssh.add_mutually_exclusive_group()
    who.add_argument(
        "--authorized-keys",
        type=Path,
        metavar="FILE",
        help="public keys allowed in (OpenSSH authorized_keys format)",
    )
    who.add_argument(
        "--guest",
        action="store_true",
        help="let anyone in without a key; each connection is a new guest",
    )
    ssh.add_argument(
        "--max-sessions", type=int, default=16, metavar="N", help="players at once (16)"
    )
    ssh.add_argument(
        "--idle-timeout",
        type=float,
        default=1800.0,
        metavar="S",
        help="disconnect after S seconds without a key (1800; 0: never)",
    )
    ssh.add_argument(
        "--memory-limit",
        type=int,
        default=2048,
        metavar="MB",
        help="address space per arcade process and its search (2048; 0: none)",
    )
    ssh.add_argument(
        "--max-per-key",
        type=int,
        default=3,
        metavar="N",
        help="sessions at once for one key (3)",
    )
    ssh.add_argument(
        "--max-per-address",
        type=int,
        default=8,
        metavar="N",
        help="sessions at once from one address (8)",
    )
    ssh.add_argument(
        "--stall-timeout",
        type=float,
        default=60.0,
        metavar="S",
        help="disconnect a client that leaves the arcade's output unread S seconds (60)",
    )
    ssh.add_argument(
        "--login-timeout",
        type=float,
        default=10.0,
        metavar="S",
        help="seconds a connection has to log in (10)",
    )
    ssh.add_argument(
        "--process-model",
        choices=("fork", "spawn"),
        default="fork",
        help="fork: each arcade forked from a warm, preloaded parent (the default: a few MB and "
        "no start-up per player); spawn: a fresh Python per player",
    )
    ssh.add_argument(
        "--search-workers",
        type=int,
        default=0,
        metavar="N",
        help="processes of the one search pool every player shares (0: one per core; -1: "
        "none, each arcade searches in its own worker)",
    )
    ssh.add_argument(
        "--check",
        action="store_true",
        help="check the configuration (keys, host key, folders, limits, tables) and exit",
    )
    ssh.add_argument(
        "--data-dir",
        type=Path,
        metavar="DIR",
        help="host key and players' folders (the user data folder's serve/)",
    )
    ssh.add_argument(
        "--store",
        metavar="URL",
        help="players' data and the shared leaderboards on PostgreSQL (postgresql://…), for"
        " several hosts; default $KAERU_STORE, else SQLite in the data folder",
    )
    web = kinds.add_parser("web", help="the arcade in a web browser (textual-serve)")
    web.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    web.add_argument("--port", type=int, default=8000, help="port (8000)")
    web.add_argument(
        "--public-url",
        metavar="URL",
        help="the address browsers use, when behind a proxy (http://HOST:PORT)",
    )
    web.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="URL",
        help="another page origin allowed to open the arcade (repeatable; this server's own "
        "page always is)",
    )
    web.add_argument("--max-sessions", type=int, default=8, metavar="N", help="tabs at once (8)")
    web.add_argument(
        "--memory-limit",
        type=int,
        default=2048,
        metavar="MB",
        help="address space per tab's arcade and its search (2048; 0: none)",
    )
    web.add_argument(
        "--process-model",
        choices=("fork", "spawn"),
        default="fork",
        help="fork: each tab's arcade forked from a warm, preloaded parent (the default); "
        "spawn: a fresh Python per tab",
    )
    web.add_argument(
        "--search-workers",
        type=int,
        default=0,
        metavar="N",
        help="processes of the one search pool every tab shares (0: one per core; -1: none, "
        "each tab searches in its own worker)",
    )


def run(args: argparse.Namespace) -> int:
    check_port(args.port)
    if args.serve_kind == "web":
        return run_web(args)
    return run_ssh(args)


def check_port(port: int) -> None:
    if not 0 <= port <= 65535:
        raise BadInput(f"--port must be 0..65535, not {port}")


def where_message(kind: str, host: str, port: int) -> str:
    """The line printed at start: where it listens and who can reach it."""
    try:
        loopback = ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = host == "localhost"
    reach = (
        "loopback only: this machine's users"
        if loopback
        else "NOT loopback: anyone who can reach this address"
    )
    return f"kaeru serve {kind}: listening on {host}:{port} ({reach})"


def run_ssh(args: argparse.Namespace) -> int:
    from kaeru.engine.tables.folder import configured_dir
    from kaeru.tui.serve.preflight import ensure_temp_dir
    from kaeru.tui.serve.processes.limits import SessionLimits
    from kaeru.tui.serve.ssh.identity import serve_root

    if not args.guest and args.authorized_keys is None:
        raise BadInput("serve ssh needs --authorized-keys FILE, or --guest to let anyone in")
    if args.search_workers < -1:
        raise BadInput("--search-workers must be -1 (none), 0 (one per core) or more")
    try:
        limits = SessionLimits(
            max_sessions=args.max_sessions,
            idle_timeout=args.idle_timeout,
            memory_mb=args.memory_limit,
            max_per_player=args.max_per_key,
            max_per_address=args.max_per_address,
            stall_timeout=args.stall_timeout,
            login_timeout=args.login_timeout,
        )
    except ValueError as error:
        raise BadInput(str(error)) from None
    root = args.data_dir or serve_root()
    store_env = choose_store(args.store, root)
    try:
        temp_note = ensure_temp_dir(root)  # before asyncssh is imported: it needs one
    except OSError as error:
        raise BadInput(f"no writable temp folder, and {root} is not writable: {error}") from None
    from kaeru.tui.serve.ssh.server import ServeConfig

    config = ServeConfig(
        host=args.host,
        port=args.port,
        authorized_keys=args.authorized_keys,
        guest=args.guest,
        limits=limits,
        root=root,
        cache_dir=configured_dir(),  # one table cache for every player
        process_model=args.process_model,
        search_workers=args.search_workers,
    )
    if args.check:
        return check_ssh(config, temp_note)
    os.environ.update(store_env)  # the arcades' environment (pty_session.PASSED_SERVER_ENV)
    asyncio.run(serve_ssh(config, temp_note))
    print("kaeru serve ssh: stopped", file=sys.stderr)
    return EXIT_OK


def choose_store(url: str | None, root: Path) -> dict[str, str]:
    """The players' store for the arcades this server starts, as the environment they get:
    PostgreSQL when `url` (or $KAERU_STORE) names it, checked now (BadInput: one line, exit 2,
    when it cannot be reached); the shared place's SQLite file in `root` otherwise."""
    from kaeru.engine.place.place import PLACE_ENV
    from kaeru.engine.store.postgres import (
        STORE_ENV,
        StoreUnavailable,
        check,
        is_postgres_url,
        store_url,
    )

    url = url or store_url()
    if url is None:
        return {PLACE_ENV: str(root / "place.sqlite3")}
    if not is_postgres_url(url):
        raise BadInput(f"--store takes a postgresql:// address, not {url.split(':', 1)[0]!r}")
    try:
        check(url)
    except StoreUnavailable as error:
        raise BadInput(f"serve ssh --store: {error}") from None
    return {STORE_ENV: url}


def check_ssh(config: ServeConfig, temp_note: str | None) -> int:
    from kaeru.tui.serve.ssh.check import check_lines

    lines = check_lines(config)
    if temp_note:
        lines.insert(0, (True, temp_note))
    for fine, line in lines:
        print(f"kaeru serve ssh --check: {'ok' if fine else 'PROBLEM'}: {line}", flush=True)
    if all(fine for fine, _ in lines):
        return EXIT_OK
    raise BadInput("serve ssh --check: the configuration has a problem (see above)")


async def serve_ssh(config: ServeConfig, temp_note: str | None) -> None:
    from kaeru.tui.serve import operator_log
    from kaeru.tui.serve.preflight import raise_fd_limit, table_line
    from kaeru.tui.serve.ssh.server import (
        HOST_KEY_NAME,
        ServeError,
        host_key_line,
        load_host_key,
        start_server,
        stop_server,
    )

    operator_log.setup()
    soft, _ = raise_fd_limit()
    try:
        acceptor, state = await start_server(config)
    except ServeError as error:
        raise BadInput(str(error)) from None
    except OSError as error:
        raise BadInput(f"cannot listen on {config.host}:{config.port}: {error.strerror}") from None
    port = acceptor.sockets[0].getsockname()[1]
    mode = (
        "guest mode: anyone who connects plays"
        if config.guest
        else (f"keys in {config.authorized_keys}")
    )
    limits = config.limits
    print(where_message("ssh", config.host, port), flush=True)
    print(f"kaeru serve ssh: {mode}; players' data in {config.root / 'players'}", flush=True)
    print(
        f"kaeru serve ssh: {host_key_line(load_host_key(config.root / HOST_KEY_NAME))}",
        flush=True,
    )
    print(
        f"kaeru serve ssh: at most {limits.max_sessions} players, {limits.max_per_player} per "
        f"key, {limits.max_per_address} per address; {soft} open files",
        flush=True,
    )
    pooled = state.shared is not None and state.shared.pool is not None
    print(f"kaeru serve ssh: {table_line(limits.memory_mb, pooled=pooled)}", flush=True)
    if state.shared is not None:
        print(f"kaeru serve ssh: {state.shared.describe()}", flush=True)
    if temp_note:
        print(f"kaeru serve ssh: {temp_note}", flush=True)
    stopped = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stopped.set)
    await stopped.wait()
    await stop_server(acceptor, state)


def run_web(args: argparse.Namespace) -> int:
    from kaeru.engine.tables.folder import configured_dir
    from kaeru.tui.serve import operator_log
    from kaeru.tui.serve.processes.limits import SessionLimits
    from kaeru.tui.serve.processes.shared_processes import SharedProcesses
    from kaeru.tui.serve.web.server import WebSettings, make_server

    try:
        limits = SessionLimits(max_sessions=args.max_sessions, memory_mb=args.memory_limit)
    except ValueError as error:
        raise BadInput(str(error)) from None
    if args.search_workers < -1:
        raise BadInput("--search-workers must be -1 (none), 0 (one per core) or more")
    for origin in args.allow_origin:
        if not origin.startswith(("http://", "https://")):
            raise BadInput(f"--allow-origin must be an http:// or https:// origin, not {origin!r}")
    server = make_server(
        args.host,
        args.port,
        args.public_url,
        allow_origins=tuple(args.allow_origin),
        max_sessions=args.max_sessions,
        memory_mb=args.memory_limit,
    )
    try:
        with socket.create_server((args.host, args.port)):  # fail early, in one line
            pass
    except OSError as error:
        raise BadInput(f"cannot listen on {args.host}:{args.port}: {error.strerror}") from None
    operator_log.setup()
    settings = WebSettings(
        root=Path.home(),
        cache_dir=configured_dir(),  # one table cache for every tab and the pool
        limits=limits,
        process_model=args.process_model,
        search_workers=args.search_workers,
    )
    server.shared = asyncio.run(SharedProcesses.start(settings))  # before it listens
    try:
        print(where_message("web", args.host, args.port), flush=True)
        print(
            f"kaeru serve web: pages from {', '.join(sorted(server.allowed_origins))} may "
            f"play; at most {args.max_sessions} tabs; {server.shared.describe()}",
            flush=True,
        )
        server.serve()
    finally:
        server.shared.close()
    return EXIT_OK
