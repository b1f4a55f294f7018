"""Key-echo latency and memory of `kaeru serve ssh` with many players at once.

Starts `kaeru serve ssh --guest` on a free loopback port (a subprocess), then connects N asyncssh
clients. Each opens a puzzle and presses an arrow key every 100 ms; one player in four opens the
15-puzzle at a shuffled start and presses `s` (solve) first, so searches run while others play.
Key-echo latency = time from sending a key to the next output bytes. Memory = RSS of each arcade
process and everything in its session (its search worker), from /proc. The server's own CPU share
and the machine's load average are printed beside them, and p90 split between the players who
only play and those whose solve is running.

    python bench/serve_latency.py                 # 1 (baseline), 8 and 16 players, 15 s each
    python bench/serve_latency.py --players 8 --seconds 30

Only loopback traffic; every phase is bounded in time and in number of keys.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field

import asyncssh

KEY_INTERVAL = 0.100
ECHO_TIMEOUT = 2.0
RIGHT, LEFT = b"\x1b[C", b"\x1b[D"


@dataclass
class Player:
    index: int
    solver: bool
    latencies: list[float] = field(default_factory=list)
    missed: int = 0
    output: bytearray = field(default_factory=bytearray)
    event: asyncio.Event = field(default_factory=asyncio.Event)


class Client(asyncssh.SSHClientSession[bytes]):
    def __init__(self, player: Player) -> None:
        self.player = player

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        self.player.output += data
        self.player.event.set()


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


async def play(port: int, player: Player, seconds: float, start: asyncio.Event) -> None:
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
        await wait_for(player, b"pick a puzzle", 60)
        if player.solver:
            chan.write(b"\x10")
            await asyncio.sleep(0.4)
            chan.write("Play 15-puzzle (4×4)".encode())
            await asyncio.sleep(0.8)
            chan.write(b"\r")
            await wait_for(player, b"sliding-4x4:", 30)
        else:
            chan.write(b"\r")
            await wait_for(player, b"Moves: 0", 30)
        await asyncio.sleep(0.5)
        await start.wait()
        if player.solver:
            chan.write(b"s")
            await asyncio.sleep(KEY_INTERVAL)
        end = time.monotonic() + seconds
        presses = 0
        while time.monotonic() < end:
            player.event.clear()
            sent = time.monotonic()
            chan.write(RIGHT if presses % 2 == 0 else LEFT)
            presses += 1
            try:
                await asyncio.wait_for(player.event.wait(), ECHO_TIMEOUT)
                player.latencies.append(time.monotonic() - sent)
            except TimeoutError:
                player.missed += 1
            await asyncio.sleep(max(0.0, sent + KEY_INTERVAL - time.monotonic()))
        chan.write(b"\x11")  # ctrl+q
        chan.close()


def p90(values: list[float]) -> float:
    return statistics.quantiles(values, n=10)[8] if len(values) > 1 else float("nan")


def stat_fields(pid: int) -> list[bytes] | None:
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            return stat.read().rsplit(b")", 1)[1].split()
    except OSError:
        return None


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


def session_memory(server_pid: int) -> list[int]:
    """RSS (kB) of each arcade with everything in its session (search worker included)."""
    pids = [int(p) for p in os.listdir("/proc") if p.isdigit()]
    fields = {pid: stat_fields(pid) for pid in pids}
    arcades = [pid for pid, f in fields.items() if f and int(f[1]) == server_pid]
    return [
        sum(rss_kb(pid) for pid, f in fields.items() if f and int(f[3]) == arcade)
        for arcade in arcades
    ]


async def phase(port: int, server_pid: int, players: int, seconds: float) -> dict[str, float]:
    group = [Player(i, solver=(i % 4 == 3)) for i in range(players)]
    start = asyncio.Event()
    tasks = [asyncio.create_task(play(port, p, seconds, start)) for p in group]
    while not all(b"sliding-4x4:" in p.output or b"Moves: 0" in p.output for p in group):
        failed = [t for t in tasks if t.done() and t.exception()]
        if failed:
            raise failed[0].exception()  # type: ignore[misc]
        await asyncio.sleep(0.2)
    await asyncio.sleep(1.0)
    load = os.getloadavg()[0]
    server_cpu, started = cpu_seconds(server_pid), time.monotonic()
    start.set()
    await asyncio.sleep(seconds / 2)
    memory = session_memory(server_pid)
    await asyncio.gather(*tasks)
    server_share = (cpu_seconds(server_pid) - server_cpu) / (time.monotonic() - started)
    await asyncio.sleep(1.5)  # let the arcades end before the next phase
    latencies = sorted(x for p in group for x in p.latencies)
    deciles = statistics.quantiles(latencies, n=10)
    solving = [x for p in group if p.solver for x in p.latencies]
    playing = [x for p in group if not p.solver for x in p.latencies]
    return {
        "players": players,
        "keys": len(latencies),
        "missed": sum(p.missed for p in group),
        "p50": statistics.median(latencies) * 1000,
        "p90": deciles[8] * 1000,
        "max": latencies[-1] * 1000,
        "mb": statistics.mean(memory) / 1024 if memory else 0.0,
        "mb_max": max(memory) / 1024 if memory else 0.0,
        "server_cpu": server_share * 100,
        "p90_playing": p90(playing) * 1000,
        "p90_solving": p90(solving) * 1000 if solving else float("nan"),
        "load": load,
    }


async def main_async(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory(prefix="kaeru-serve-bench-") as root:
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "kaeru.tui.cli",
                "serve",
                "ssh",
                "--guest",
                "--port",
                "0",
                "--max-sessions",
                "64",
                "--data-dir",
                root,
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
            text=True,
        )
        try:
            assert server.stdout is not None
            banner = server.stdout.readline()
            port = int(banner.split("127.0.0.1:")[1].split()[0])
            rows = []
            for players in [1, *args.players]:
                rows.append(await phase(port, server.pid, players, args.seconds))
                row = rows[-1]
                print(f"  {players} players done: p90 {row['p90']:.1f} ms", file=sys.stderr)
        finally:
            server.terminate()
            server.wait(15)
    base = rows[0]
    print(
        f"kaeru serve ssh: key-echo latency, {os.cpu_count()} cores, a key every "
        f"{KEY_INTERVAL * 1000:.0f} ms per player, one in four solving the 15-puzzle, "
        f"{args.seconds:g} s per row; baseline = 1 player, same run"
    )
    print(
        f"{'players':>7} {'keys':>6} {'missed':>6} {'p50 ms':>7} {'p90 ms':>7} {'max ms':>7} "
        f"{'p50 vs 1':>8} {'p90 vs 1':>8} {'MB/session':>10} {'MB max':>7} {'server CPU%':>11} "
        f"{'load':>5} {'p90 no-solve':>12} {'p90 solving':>11}"
    )
    for row in rows:
        print(
            f"{row['players']:>7} {row['keys']:>6} {row['missed']:>6} {row['p50']:>7.1f} "
            f"{row['p90']:>7.1f} {row['max']:>7.1f} {row['p50'] / base['p50']:>8.2f} "
            f"{row['p90'] / base['p90']:>8.2f} {row['mb']:>10.1f} {row['mb_max']:>7.1f} "
            f"{row['server_cpu']:>11.1f} {row['load']:>5.1f} {row['p90_playing']:>12.1f} "
            f"{row['p90_solving']:>11.1f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[8, 16])
    parser.add_argument("--seconds", type=float, default=15.0)
    args = parser.parse_args()
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
