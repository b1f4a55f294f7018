"""A guest-mode `kaeru serve ssh` server whose sessions run a given command instead of the arcade
(a flood of output, `stty size`...), for the tests that attack the server rather than play:

    python -m tests.serve.command_server ROOT LIMITS_JSON COMMAND...

prints `port N` once it listens; SIGTERM stops it. LIMITS_JSON sets fields of SessionLimits
(fields this version does not know are left out, so the same test runs on older code), and
"search_workers" the shared search pool's size."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import signal
import sys
from pathlib import Path


async def serve(root: Path, limits: dict[str, object], command: list[str]) -> None:
    from kaeru.tui.serve.processes.limits import SessionLimits
    from kaeru.tui.serve.ssh.server import ServeConfig, start_server, stop_server

    try:
        from kaeru.tui.serve import operator_log

        operator_log.setup()
    except ImportError:  # older code: no operator's log
        pass
    known = {f.name for f in dataclasses.fields(SessionLimits)}
    config = ServeConfig(
        port=0,
        guest=True,
        limits=SessionLimits(**{k: v for k, v in limits.items() if k in known}),  # type: ignore[arg-type]
        root=root,
        cache_dir=root / "cache",
        command=command,
    )
    if "search_workers" in limits:  # the shared pool's size (not a SessionLimits field)
        config.search_workers = int(str(limits["search_workers"]))
    acceptor, state = await start_server(config)
    print(f"port {acceptor.sockets[0].getsockname()[1]}", flush=True)
    stopped = asyncio.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):
        asyncio.get_running_loop().add_signal_handler(signum, stopped.set)
    await stopped.wait()
    await stop_server(acceptor, state)


if __name__ == "__main__":
    asyncio.run(serve(Path(sys.argv[1]), json.loads(sys.argv[2]), sys.argv[3:]))
