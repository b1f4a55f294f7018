"""Memory per idle browser tab of `kaeru serve web`: the fork model (each tab's arcade forked
from the warm parent, one shared search pool: the default) beside the spawn model (textual-serve's
fresh Python per tab, each with its own search worker: `--process-model spawn --search-workers
-1`, as before issue 21), in one run.

N tabs (8 by default) are opened one after another over the page's WebSocket on loopback and
left on the home screen. PSS (/proc/PID/smaps_rollup) per tab = every process of the server's
tree that runs with the tab's environment (KAERU_SERVED=web: the arcade, and in the spawn model
the shell textual-serve starts it through); "fixed" = the server, the warm parent, the search
pool, the survey. "Fit in 24 GB" = (24 GB - fixed) / per tab. Tabs are opened only while the
server's processes hold less than half of the memory available when the bench started. The
table cache is the machine's (KAERU_CACHE_DIR or the user cache folder): a cold one makes the
survey run first.

    python bench/serve_web_memory.py               # 8 tabs per model
    python bench/serve_web_memory.py --tabs 4 --models fork
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parent))
from serve_memory import HOST_MB, available_kb, pss_kb, rss_kb

from kaeru.tui.serve.ssh.pty_session import stat_fields

MODELS = {
    "spawn": ["--process-model", "spawn", "--search-workers", "-1"],
    "fork": [],
}
HOME_TITLE = b"Kaeru Arcade"
SERVED = b"KAERU_SERVED=web"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def descendants(root: int) -> dict[int, int]:
    """Every live process under `root`, with its parent."""
    parents = {
        pid: int(fields[1])
        for pid in map(int, filter(str.isdigit, os.listdir("/proc")))
        if (fields := stat_fields(pid)) is not None and fields[0] != b"Z"
    }
    found: dict[int, int] = {}
    frontier = [root]
    while frontier:
        parent = frontier.pop()
        for pid, ppid in parents.items():
            if ppid == parent and pid not in found:
                found[pid] = ppid
                frontier.append(pid)
    return found


def served(pid: int) -> bool:
    try:
        return SERVED in Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    except OSError:
        return False


def tab_groups(server: int) -> tuple[list[list[int]], list[int]]:
    """The tabs' processes (one list per tab) and the server's shared ones."""
    tree = descendants(server)
    tabbed = {pid for pid in tree if served(pid)}
    tops = [pid for pid in tabbed if tree[pid] not in tabbed]
    groups = []
    for top in tops:
        members, frontier = [top], [top]
        while frontier:
            parent = frontier.pop()
            children = [pid for pid, ppid in tree.items() if ppid == parent]
            members += children
            frontier += children
        groups.append(members)
    in_tabs = {pid for group in groups for pid in group}
    return groups, [pid for pid in tree if pid not in in_tabs]


class Tab:
    def __init__(self, session: aiohttp.ClientSession, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.session, self.ws = session, ws
        self.output = bytearray()
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for message in self.ws:
            if message.type == aiohttp.WSMsgType.BINARY:
                self.output += message.data

    async def close(self) -> None:
        await self.ws.close()
        await self.session.close()
        self.reader.cancel()


async def open_tab(port: int) -> tuple[Tab, float]:
    started = time.monotonic()
    session = aiohttp.ClientSession()
    ws = await session.ws_connect(f"http://127.0.0.1:{port}/ws?width=100&height=30")
    tab = Tab(session, ws)
    deadline = started + 120
    while HOME_TITLE not in tab.output:
        if time.monotonic() > deadline:
            raise TimeoutError("the home screen never came")
        await asyncio.sleep(0.02)
    return tab, time.monotonic() - started


@dataclass
class Row:
    model: str
    tabs: int
    pss_mb: float
    pss_max_mb: float
    fixed_mb: float
    first_frame: list[float]

    @property
    def fit(self) -> int:
        return int((HOST_MB - self.fixed_mb) / self.pss_mb) if self.pss_mb else 0


def start_server(model: str, folder: Path, tabs: int) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    env = dict(
        os.environ,
        KAERU_DATA_DIR=str(folder / "data"),
        KAERU_CONFIG_DIR=str(folder / "conf"),
        PYTHONUNBUFFERED="1",
    )
    lines = folder / "stdout"
    with open(lines, "wb") as out, open(folder / "log", "wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "kaeru.tui.cli", "serve", "web", "--port", str(port),
             "--max-sessions", str(tabs + 1), *MODELS[model]],
            stdout=out, stderr=log, env=env,
        )
    deadline = time.monotonic() + 120
    while True:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return process, port
        if process.poll() is not None or time.monotonic() > deadline:
            raise SystemExit(f"the {model} web server did not start: {lines.read_text()}")
        time.sleep(0.05)


async def measure(model: str, folder: Path, wanted: int, budget_kb: int) -> Row:
    folder.mkdir(parents=True)
    process, port = start_server(model, folder, wanted)
    tabs: list[Tab] = []
    frames: list[float] = []
    try:
        await asyncio.sleep(2.0)  # the server's own start settles
        while len(tabs) < wanted:
            groups, shared = tab_groups(process.pid)
            total = sum(rss_kb(p) for p in [process.pid, *shared, *sum(groups, [])])
            per = total / len(tabs) if tabs else 300 * 1024
            if total + per > budget_kb:
                print(f"  {model}: stopped at {len(tabs)} tabs (memory)", file=sys.stderr)
                break
            tab, frame = await open_tab(port)
            tabs.append(tab)
            frames.append(frame)
        await asyncio.sleep(5.0)  # first frames drawn, survey reads settled
        groups, shared = tab_groups(process.pid)
        pss = [sum(pss_kb(p) for p in group) for group in groups]
        fixed = pss_kb(process.pid) + sum(pss_kb(p) for p in shared)
        row = Row(model, len(pss), statistics.mean(pss) / 1024, max(pss) / 1024, fixed / 1024,
                  frames)
    finally:
        for tab in tabs:
            await tab.close()
        await asyncio.sleep(1.0)
        process.terminate()
        process.wait(30)
    print(f"  {model}: {row.tabs} tabs, {row.pss_mb:.1f} MB PSS each", file=sys.stderr)
    return row


async def main_async(args: argparse.Namespace) -> None:
    budget_kb = available_kb() // 2
    with tempfile.TemporaryDirectory(prefix="kaeru-web-memory-") as folder:
        rows = [await measure(m, Path(folder) / m, args.tabs, budget_kb) for m in args.models]
    print(
        f"kaeru serve web: memory per idle tab (PSS) on the home screen, {os.cpu_count()} cores; "
        f"fit = tabs in {HOST_MB // 1024} GB beside the fixed processes"
    )
    print(f"{'model':>6} {'tabs':>5} {'PSS MB':>7} {'max MB':>7} {'fixed MB':>8} "
          f"{'fit 24GB':>8} {'frame p50 s':>11}")
    for row in rows:
        print(f"{row.model:>6} {row.tabs:>5} {row.pss_mb:>7.1f} {row.pss_max_mb:>7.1f} "
              f"{row.fixed_mb:>8.1f} {row.fit:>8} {statistics.median(row.first_frame):>11.3f}")
    by_model = {row.model: row for row in rows}
    if "fork" in by_model and "spawn" in by_model and by_model["spawn"].pss_mb:
        fork, spawn = by_model["fork"], by_model["spawn"]
        frame = statistics.median(fork.first_frame) / statistics.median(spawn.first_frame)
        print(f"fork vs spawn: PSS x{fork.pss_mb / spawn.pss_mb:.2f}, first frame x{frame:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tabs", type=int, default=8, help="tabs per model")
    parser.add_argument("--models", nargs="+", choices=list(MODELS), default=list(MODELS))
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
