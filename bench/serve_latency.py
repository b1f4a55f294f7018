"""Key-echo latency, CPU and memory of `kaeru serve ssh` with many players at once.

Two guest-mode SSH servers run in subprocesses (this script with --serve): one whose arcades open
Flip It (5 cells) for the players who only play, one whose arcades open a fixed 15-puzzle start
(54 moves; its optimal solve takes the search worker a few seconds) for the solvers, one player in
four. N asyncssh clients connect; each presses a key every 100 ms:
- a player presses right/left: the row board's cursor moves (the position never changes);
- a solver presses `s` (solve), then `T` (the clock in the header on/off), which leaves the search
  running, and every 40 keys Escape (cancels the search, or leaves the solution's playback) and
  `s` again, so a search runs most of the time.
A move would cancel the search, which is why a solver presses no arrow key.

Key echo = from sending a key to the output it causes: for an arrow key, the first write to a row
below the header; for `T`, the first write to the header row; for the rest, the first output
bytes. Beside the latencies, what does not depend on the machine's load: the CPU each arcade
process (the UI thread's work) and each search worker used per second, and the bytes each
session sent per second, by role; memory = RSS of each arcade with its search worker (/proc).

    python bench/serve_latency.py                 # 1 (baseline), 8 and 16 players, 15 s each
    python bench/serve_latency.py --players 8 --seconds 30

Only loopback traffic; every phase is bounded in time and in number of keys.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import asyncssh

from kaeru.tui.serve.ssh.pty_session import stat_fields

KEY_INTERVAL = 0.100
ECHO_TIMEOUT = 2.0
SOLVE_CYCLE = 40  # a solver's keys between two solves: `s`, then T..., then Escape
PLAYER_GAME = "flip-it-5"
SOLVER_GAME = "sliding-4x4:9,3,12,2/6,14,11,13/1,7,10,15/5,4,8,_"
RIGHT, LEFT, ESCAPE = b"\x1b[C", b"\x1b[D", b"\x1b"
# a cursor move followed by a colour or a character: a line drawn there (a move followed by
# nothing, a newline or another move only places the cursor, as every frame's end does)
ROW_WRITE = re.compile(rb"\x1b\[([0-9]+);[0-9]+H(?:\x1b\[[0-9;]*m|[^\x1b\r\n])")
Echo = Callable[[bytes], bool]


def any_output(data: bytes) -> bool:
    return bool(data)


def header_write(data: bytes) -> bool:
    return any(row == b"1" for row in ROW_WRITE.findall(data))


def body_write(data: bytes) -> bool:
    return any(row != b"1" for row in ROW_WRITE.findall(data))


@dataclass
class Player:
    index: int
    solver: bool
    latencies: list[float] = field(default_factory=list)
    missed: int = 0
    output: bytearray = field(default_factory=bytearray)
    event: asyncio.Event = field(default_factory=asyncio.Event)
    mark: int = 0  # where the output after the last key starts
    echo: Echo = any_output
    sent_bytes: int = 0  # output during the measured keys
    done: bool = False  # its keys are all pressed

    def keys(self) -> list[tuple[bytes, Echo]]:
        if not self.solver:
            return [(RIGHT, body_write), (LEFT, body_write)]
        clock: list[tuple[bytes, Echo]] = [(b"T", header_write)] * (SOLVE_CYCLE - 2)
        return [(b"s", any_output), *clock, (ESCAPE, any_output)]


class Client(asyncssh.SSHClientSession[bytes]):
    def __init__(self, player: Player) -> None:
        self.player = player

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        player = self.player
        player.output += data
        if player.echo(bytes(player.output[player.mark :])):
            player.event.set()


async def wait_for(player: Player, needle: bytes, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while needle not in player.output:
        player.event.clear()
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError(f"player {player.index}: {needle!r} not seen")
        try:
            await asyncio.wait_for(player.event.wait(), left)
        except TimeoutError:
            pass


async def play(
    port: int, player: Player, seconds: float, start: asyncio.Event, release: asyncio.Event
) -> None:
    async with asyncssh.connect(
        "127.0.0.1",
        port,
        username=f"bench{player.index}",
        known_hosts=None,
        client_keys=None,
        agent_path=None,
        config=None,
    ) as conn:
        chan, _ = await conn.create_session(
            lambda: Client(player), term_type="xterm-256color", term_size=(100, 30), encoding=None
        )
        game = SOLVER_GAME if player.solver else PLAYER_GAME
        await wait_for(player, game.split(":")[0].encode(), 60)
        await asyncio.sleep(0.5)
        await start.wait()
        keys = player.keys()
        end = time.monotonic() + seconds
        first = len(player.output)
        presses = 0
        while time.monotonic() < end:
            key, player.echo = keys[presses % len(keys)]
            player.mark = len(player.output)
            player.event.clear()
            sent = time.monotonic()
            chan.write(key)
            presses += 1
            try:
                await asyncio.wait_for(player.event.wait(), ECHO_TIMEOUT)
                player.latencies.append(time.monotonic() - sent)
            except TimeoutError:
                player.missed += 1
            await asyncio.sleep(max(0.0, sent + KEY_INTERVAL - time.monotonic()))
        player.sent_bytes = len(player.output) - first
        player.echo = any_output
        player.done = True
        await release.wait()  # the CPU figures are read while every arcade still runs
        chan.write(b"\x11")  # ctrl+q
        chan.close()


def percentile(values: list[float], tenth: int) -> float:
    return statistics.quantiles(values, n=10)[tenth - 1] if len(values) > 1 else float("nan")


def cpu_seconds(pid: int) -> float:
    fields = stat_fields(pid)
    if not fields:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def rss_kb(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


@dataclass
class Processes:
    """The arcades of one server and, per arcade, the other processes of its session."""

    arcades: list[int]
    workers: dict[int, list[int]]

    shared: list[int] = field(default_factory=list)  # the warm parent, the pool, its workers

    @classmethod
    def of(cls, server_pid: int) -> Processes:
        fields = {
            pid: stat_fields(pid) for pid in map(int, filter(str.isdigit, os.listdir("/proc")))
        }
        children = [pid for pid, f in fields.items() if f and int(f[1]) == server_pid]
        arcades = [pid for pid in children if int(fields[pid][3]) == pid]  # type: ignore[index]
        workers = {
            arcade: [
                pid for pid, f in fields.items() if f and int(f[3]) == arcade and pid != arcade
            ]
            for arcade in arcades
        }
        helpers = [pid for pid in children if pid not in arcades]
        shared = helpers + [
            pid for pid, f in fields.items() if f and int(f[1]) in helpers
        ]  # the pool's workers
        return cls(arcades, workers, shared)

    def cpu(self) -> tuple[float, float]:
        """(arcades, search workers and the shared pool): CPU seconds so far, summed."""
        return (
            sum(cpu_seconds(pid) for pid in self.arcades),
            sum(cpu_seconds(pid) for pids in self.workers.values() for pid in pids)
            + sum(cpu_seconds(pid) for pid in self.shared),
        )

    def memory_kb(self) -> list[int]:
        return [rss_kb(a) + sum(rss_kb(w) for w in self.workers[a]) for a in self.arcades]


@dataclass
class Server:
    """One `--serve` subprocess: its arcades open `game`."""

    game: str
    root: Path
    model: str = "spawn"  # the process model (`kaeru serve ssh --process-model`)
    process: subprocess.Popen[str] | None = None
    port: int = 0

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                sys.executable,
                __file__,
                "--serve",
                self.game,
                "--data-dir",
                str(self.root),
                "--model",
                self.model,
            ],
            stdout=subprocess.PIPE,
            stderr=self.log(),
            env=dict(os.environ, PYTHONUNBUFFERED="1"),
            text=True,
        )
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line.startswith("port "):
            raise SystemExit(f"the bench server for {self.game} did not start")
        self.port = int(line.split()[1])

    def log(self) -> int:
        """The server's operator log: a file beside its data (KAERU_BENCH_LOG=1), else nowhere."""
        if os.environ.get("KAERU_BENCH_LOG") != "1":
            return subprocess.DEVNULL
        self.root.mkdir(parents=True, exist_ok=True)
        path = self.root.parent / f"{self.root.name}-{self.model}.log"
        print(f"  server log: {path}", file=sys.stderr)
        return os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(15)


async def phase(servers: dict[bool, Server], players: int, seconds: float) -> dict[str, float]:
    group = [Player(i, solver=(i % 4 == 3)) for i in range(players)]
    start, release = asyncio.Event(), asyncio.Event()
    tasks = [
        asyncio.create_task(play(servers[p.solver].port, p, seconds, start, release)) for p in group
    ]
    ready = [(SOLVER_GAME if p.solver else PLAYER_GAME).split(":")[0].encode() for p in group]
    while not all(needle in p.output for needle, p in zip(ready, group, strict=True)):
        failed = [t for t in tasks if t.done() and t.exception()]
        if failed:
            raise failed[0].exception()  # type: ignore[misc]
        await asyncio.sleep(0.2)
    await asyncio.sleep(1.0)
    load = os.getloadavg()[0]
    procs = {role: Processes.of(server.pid) for role, server in servers.items()}
    servers_cpu = sum(cpu_seconds(s.pid) for s in servers.values())
    cpu_before = {role: p.cpu() for role, p in procs.items()}
    started = time.monotonic()
    start.set()
    await asyncio.sleep(seconds / 2)
    memory = [kb for p in procs.values() for kb in p.memory_kb()]
    while not all(p.done for p in group):
        await asyncio.sleep(0.05)
    elapsed = time.monotonic() - started
    cpu_after = {role: p.cpu() for role, p in procs.items()}
    server_share = (sum(cpu_seconds(s.pid) for s in servers.values()) - servers_cpu) / elapsed
    release.set()
    await asyncio.gather(*tasks)
    await asyncio.sleep(1.5)  # let the arcades end before the next phase

    def per_session(role: bool, which: int) -> float:
        """ms of CPU per second per session of that role: 0 arcade, 1 search worker."""
        count = len(procs[role].arcades)
        used = cpu_after[role][which] - cpu_before[role][which]
        return used / elapsed / count * 1000 if count else float("nan")

    def kb_per_second(role: bool) -> float:
        chosen = [p.sent_bytes for p in group if p.solver == role]
        return statistics.mean(chosen) / elapsed / 1000 if chosen else float("nan")

    latencies = sorted(x for p in group for x in p.latencies)
    solving = [x for p in group if p.solver for x in p.latencies]
    playing = [x for p in group if not p.solver for x in p.latencies]
    return {
        "players": players,
        "keys": len(latencies),
        "missed": sum(p.missed for p in group),
        "p50": statistics.median(latencies) * 1000,
        "p90": percentile(latencies, 9) * 1000,
        "max": latencies[-1] * 1000,
        "mb": statistics.mean(memory) / 1024 if memory else 0.0,
        "mb_max": max(memory) / 1024 if memory else 0.0,
        "server_cpu": server_share * 100,
        "load": load,
        "p90_playing": percentile(playing, 9) * 1000,
        "p90_solving": percentile(solving, 9) * 1000 if solving else float("nan"),
        "ui_playing": per_session(False, 0),
        "ui_solving": per_session(True, 0) if True in procs else float("nan"),
        "search_solving": per_session(True, 1) if True in procs else float("nan"),
        "kb_playing": kb_per_second(False),
        "kb_solving": kb_per_second(True),
    }


async def main_async(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory(prefix="kaeru-serve-bench-") as root:
        servers = {
            False: Server(PLAYER_GAME, Path(root) / "players", args.model),
            True: Server(SOLVER_GAME, Path(root) / "solvers", args.model),
        }
        try:
            for server in servers.values():
                server.start()
            rows = []
            for players in [1, *args.players]:
                rows.append(await phase(servers, players, args.seconds))
                row = rows[-1]
                print(f"  {players} players done: p90 {row['p90']:.1f} ms", file=sys.stderr)
        finally:
            for server in servers.values():
                server.stop()
    print_tables(rows, args.seconds)


def print_tables(rows: list[dict[str, float]], seconds: float) -> None:
    base = rows[0]
    animations = os.environ.get("TEXTUAL_ANIMATIONS", "none (the served default)")
    print(
        f"kaeru serve ssh: key echo, {os.cpu_count()} cores, a key every "
        f"{KEY_INTERVAL * 1000:.0f} ms per player, one in four solving the 15-puzzle, "
        f"{seconds:g} s per row; baseline = 1 player, same run; animations: {animations}"
    )
    print(
        f"{'players':>7} {'keys':>6} {'missed':>6} {'p50 ms':>7} {'p90 ms':>7} {'max ms':>7} "
        f"{'p50 vs 1':>8} {'p90 vs 1':>8} {'p90 playing':>11} {'p90 solving':>11} "
        f"{'MB/session':>10} {'MB max':>7} {'load':>5}"
    )
    for row in rows:
        print(
            f"{row['players']:>7} {row['keys']:>6} {row['missed']:>6} {row['p50']:>7.1f} "
            f"{row['p90']:>7.1f} {row['max']:>7.1f} {row['p50'] / base['p50']:>8.2f} "
            f"{row['p90'] / base['p90']:>8.2f} {row['p90_playing']:>11.1f} "
            f"{row['p90_solving']:>11.1f} {row['mb']:>10.1f} {row['mb_max']:>7.1f} "
            f"{row['load']:>5.1f}"
        )
    print("CPU ms per second per session (arcade = its UI; search = its worker), kB/s sent:")
    print(
        f"{'players':>7} {'arcade playing':>14} {'arcade solving':>14} {'search':>7} "
        f"{'kB/s playing':>12} {'kB/s solving':>12} {'servers CPU%':>12}"
    )
    for row in rows:
        print(
            f"{row['players']:>7} {row['ui_playing']:>14.1f} {row['ui_solving']:>14.1f} "
            f"{row['search_solving']:>7.1f} {row['kb_playing']:>12.1f} "
            f"{row['kb_solving']:>12.1f} {row['server_cpu']:>12.1f}"
        )


# ---- --serve: one guest-mode server whose arcades open a given game -------------------------
async def serve(game: str, root: Path, model: str = "spawn") -> None:
    from kaeru.engine.tables.folder import configured_dir
    from kaeru.tui.serve.processes.limits import SessionLimits
    from kaeru.tui.serve.ssh.server import ServeConfig, start_server, stop_server

    config = ServeConfig(
        port=0,
        guest=True,
        limits=SessionLimits(max_sessions=1024, idle_timeout=0, max_per_address=1024),
        root=root,
        cache_dir=configured_dir(),
        command=["kaeru", "play", game] if game else None,  # `kaeru play GAME` in the arcade
        login_caps=(256, 256),  # every player logs in at once from 127.0.0.1
        process_model=model,
        search_workers=0 if model == "fork" else -1,  # spawn: each arcade its own worker
    )
    acceptor, state = await start_server(config)
    print(f"port {acceptor.sockets[0].getsockname()[1]}", flush=True)
    stopped = asyncio.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):
        asyncio.get_running_loop().add_signal_handler(signum, stopped.set)
    await stopped.wait()
    await stop_server(acceptor, state)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[8, 16])
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--serve", metavar="GAME", help=argparse.SUPPRESS)
    parser.add_argument("--data-dir", type=Path, help=argparse.SUPPRESS)
    parser.add_argument(
        "--model",
        choices=("spawn", "fork"),
        default="spawn",
        help="the process model: spawn (a fresh Python and worker per player, the old one) or "
        "fork (from the warm parent, one shared search pool); bench/serve_memory.py runs both",
    )
    args = parser.parse_args()
    if args.serve is not None:
        asyncio.run(serve(args.serve, args.data_dir, args.model))
    else:
        asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
