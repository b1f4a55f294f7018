"""Memory per session, first frame and key echo of `kaeru serve ssh`: the fork model (arcades
forked from a warm parent, one shared search pool: the default) beside the spawn model (a fresh
Python and a search worker per player, as before issue 21), in one run.

1. Memory: N guest sessions (50 by default) opened through a server on loopback, first idle on
   the home screen, then (another server) in a game of the 15-puzzle whose start a search looks
   at. PSS (/proc/PID/smaps_rollup: shared pages divided among the processes sharing them) per
   session = its arcade and its session's other processes; "fixed" = the server, the warm
   parent, the search pool and its workers. "Fit in 24 GB" = (24 GB - fixed) / per session.
   Sessions are opened only while the server's processes hold less than half of the memory
   that was available when the bench started (the machines that run it are shared).
2. First frame: from the end of authentication (asyncssh.connect returned) to the first byte
   of output and to the home screen's title drawn, sessions opened one after another.
3. Key echo (`serve_latency.phase`): a key every 100 ms per player, one player in four solving
   the 15-puzzle, 8, 16, 24 and 32 players, each model.

    python bench/serve_memory.py                      # all three, both models (~10 min)
    python bench/serve_memory.py --sessions 20 --players 8 16 --seconds 10
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import asyncssh

sys.path.insert(0, str(Path(__file__).resolve().parent))
from serve_latency import (
    PLAYER_GAME,
    SOLVER_GAME,
    Server,
    percentile,
    phase,
    print_tables,
)

from kaeru.tui.serve.ssh.pty_session import stat_fields

MODELS = ("spawn", "fork")
HOME_TITLE = b"Kaeru Arcade"
GAME = "sliding-4x4"
HOST_MB = 24 * 1024
OPEN_AT_ONCE = 4


def pss_kb(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/smaps_rollup") as rollup:
            for line in rollup:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def rss_kb(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def available_kb() -> int:
    with open("/proc/meminfo") as meminfo:
        for line in meminfo:
            if line.startswith("MemAvailable:"):
                return int(line.split()[1])
    return 0


@dataclass
class Tree:
    """A server's processes: arcade sessions (leader -> members) and the shared ones."""

    server: int
    sessions: dict[int, list[int]]
    shared: list[int]

    @classmethod
    def of(cls, server_pid: int) -> Tree:
        fields = {
            pid: f
            for pid in map(int, filter(str.isdigit, os.listdir("/proc")))
            if (f := stat_fields(pid)) is not None and f[0] != b"Z"
        }
        parents = {pid: int(f[1]) for pid, f in fields.items()}
        sids = {pid: int(f[3]) for pid, f in fields.items()}
        descendants: set[int] = set()
        frontier = [server_pid]
        while frontier:
            parent = frontier.pop()
            for pid, ppid in parents.items():
                if ppid == parent and pid not in descendants:
                    descendants.add(pid)
                    frontier.append(pid)
        leaders = [pid for pid in descendants if sids[pid] == pid]
        sessions = {lead: [p for p in descendants if sids[p] == lead] for lead in leaders}
        in_sessions = {p for members in sessions.values() for p in members}
        shared = [p for p in descendants if p not in in_sessions]
        return cls(server_pid, sessions, shared)

    def session_pss_kb(self) -> list[int]:
        return [sum(pss_kb(p) for p in members) for members in self.sessions.values()]

    def fixed_pss_kb(self) -> int:
        return pss_kb(self.server) + sum(pss_kb(p) for p in self.shared)

    def rss_total_kb(self) -> int:
        members = [p for ps in self.sessions.values() for p in ps]
        return sum(rss_kb(p) for p in [self.server, *self.shared, *members])


class Collect(asyncssh.SSHClientSession[bytes]):
    def __init__(self) -> None:
        self.output = bytearray()
        self.first_byte: float | None = None
        self.seen = asyncio.Event()
        self.needle = HOME_TITLE

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        if self.first_byte is None:
            self.first_byte = time.monotonic()
        self.output += data
        if self.needle in self.output:
            self.seen.set()


@dataclass
class Opened:
    conn: asyncssh.SSHClientConnection
    chan: asyncssh.SSHClientChannel[bytes]
    first_byte: float
    first_frame: float


async def open_session(port: int, index: int, needle: bytes) -> Opened:
    conn = await asyncssh.connect(
        "127.0.0.1",
        port,
        username=f"bench{index}",
        known_hosts=None,
        client_keys=None,
        agent_path=None,
        config=None,
    )
    authenticated = time.monotonic()
    session = Collect()
    session.needle = needle
    chan, _ = await conn.create_session(
        lambda: session, term_type="xterm-256color", term_size=(100, 30), encoding=None
    )
    await asyncio.wait_for(session.seen.wait(), 120)
    drawn = time.monotonic()
    first = (session.first_byte or drawn) - authenticated
    return Opened(conn, chan, first, drawn - authenticated)


@dataclass
class MemoryRow:
    model: str
    where: str
    sessions: int
    pss_mb: float
    pss_max_mb: float
    fixed_mb: float
    first_byte: list[float] = field(default_factory=list)
    first_frame: list[float] = field(default_factory=list)

    @property
    def fit(self) -> int:
        return int((HOST_MB - self.fixed_mb) / self.pss_mb) if self.pss_mb else 0


async def memory_phase(
    model: str, root: Path, game: str, wanted: int, budget_kb: int, one_by_one: bool
) -> MemoryRow:
    server = Server(game, root, model)
    server.start()
    opened: list[Opened] = []
    needle = game.split(":")[0].encode() if game else HOME_TITLE
    try:
        await asyncio.sleep(2.0)  # the server's own start settles
        while len(opened) < wanted:
            tree = Tree.of(server.pid)
            per = tree.rss_total_kb() / max(1, len(opened)) if opened else 300 * 1024
            batch = 1 if one_by_one else min(OPEN_AT_ONCE, wanted - len(opened))
            if tree.rss_total_kb() + per * batch > budget_kb:
                print(f"  {model} {where(game)}: stopped at {len(opened)} sessions (memory)",
                      file=sys.stderr)
                break
            base = len(opened)
            opened += await asyncio.gather(
                *(open_session(server.port, base + i, needle) for i in range(batch))
            )
        await asyncio.sleep(5.0)  # first searches and survey reads settle
        tree = Tree.of(server.pid)
        pss = tree.session_pss_kb()
        row = MemoryRow(
            model,
            where(game),
            len(pss),
            statistics.mean(pss) / 1024 if pss else 0.0,
            max(pss) / 1024 if pss else 0.0,
            tree.fixed_pss_kb() / 1024,
            [o.first_byte for o in opened],
            [o.first_frame for o in opened],
        )
    finally:
        for item in opened:
            item.conn.close()
        await asyncio.sleep(1.0)
        server.stop()
    print(f"  {model} {row.where}: {row.sessions} sessions, {row.pss_mb:.1f} MB PSS each",
          file=sys.stderr)
    return row


def where(game: str) -> str:
    return "in a game" if game else "idle on home"


async def main_async(args: argparse.Namespace) -> None:
    budget_kb = available_kb() // 2
    memory: list[MemoryRow] = []
    echo: dict[str, list[dict[str, float]]] = {}
    with tempfile.TemporaryDirectory(prefix="kaeru-serve-memory-") as folder:
        root = Path(folder)
        for model in args.models:
            if args.sessions:
                memory.append(
                    await memory_phase(model, root / f"{model}-home", "", args.sessions,
                                       budget_kb, one_by_one=True)
                )
                memory.append(
                    await memory_phase(model, root / f"{model}-game", GAME, args.sessions,
                                       budget_kb, one_by_one=False)
                )
            if args.players:
                echo[model] = await echo_phases(model, root, args.players, args.seconds)
    if memory:
        print_memory(memory, budget_kb)
    for model, rows in echo.items():
        print()
        print(f"-- key echo, {model} model --")
        print_tables(rows, args.seconds)


async def echo_phases(
    model: str, root: Path, players: list[int], seconds: float
) -> list[dict[str, float]]:
    servers = {
        False: Server(PLAYER_GAME, root / f"{model}-players", model),
        True: Server(SOLVER_GAME, root / f"{model}-solvers", model),
    }
    rows = []
    try:
        for server in servers.values():
            server.start()
        for count in [1, *players]:
            try:
                rows.append(await phase(servers, count, seconds))
            except (OSError, TimeoutError, asyncssh.Error) as error:
                print(f"  {model} {count} players: failed ({error}); no more rows", file=sys.stderr)
                break
            print(f"  {model} {count} players: p90 {rows[-1]['p90']:.1f} ms", file=sys.stderr)
    finally:
        for server in servers.values():
            server.stop()
    return rows


def print_memory(rows: list[MemoryRow], budget_kb: int) -> None:
    print(
        f"kaeru serve ssh: memory per session (PSS) and first frame, {os.cpu_count()} cores; "
        f"sessions capped at half the memory available at start ({budget_kb // 1024} MB); "
        f"fit = sessions in {HOST_MB // 1024} GB beside the fixed processes"
    )
    print(
        f"{'model':>6} {'where':>13} {'sessions':>8} {'PSS MB':>7} {'max MB':>7} "
        f"{'fixed MB':>8} {'fit 24GB':>8} {'1st byte p50':>12} {'frame p50':>9} "
        f"{'frame p90':>9}"
    )
    base = {r.where: r for r in rows if r.model == "spawn"}
    for row in rows:
        print(
            f"{row.model:>6} {row.where:>13} {row.sessions:>8} {row.pss_mb:>7.1f} "
            f"{row.pss_max_mb:>7.1f} {row.fixed_mb:>8.1f} {row.fit:>8} "
            f"{statistics.median(row.first_byte):>12.3f} "
            f"{statistics.median(row.first_frame):>9.3f} {percentile(row.first_frame, 9):>9.3f}"
        )
    for row in rows:
        old = base.get(row.where)
        if row.model != "spawn" and old is not None and row.pss_mb:
            frame = statistics.median(row.first_frame) / statistics.median(old.first_frame)
            print(
                f"{row.model} vs spawn, {row.where}: PSS x{row.pss_mb / old.pss_mb:.2f}, "
                f"first frame x{frame:.2f}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sessions", type=int, default=50, help="sessions per memory phase")
    parser.add_argument("--players", type=int, nargs="*", default=[8, 16, 24, 32])
    parser.add_argument("--seconds", type=float, default=15.0, help="per key-echo row")
    parser.add_argument("--models", nargs="+", choices=MODELS, default=list(MODELS))
    args = parser.parse_args()
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
