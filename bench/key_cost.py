"""CPU per key of one arcade on a real terminal, this checkout against a baseline commit.

What limits `bench/serve_latency.py` at 24 players is each arcade's own drawing: the CPU its
process spends per key. This drives `kaeru play GAME` on a pty of 100×30 (as a served arcade
runs, animations off) in the two roles that bench uses, and reads the arcade process's CPU
(/proc, its own threads only: the search worker is another process):
- player: Flip It (5 cells), right/left in turn (the cursor moves, the position does not);
- solver: a 15-puzzle, `s` (solve) then `T` (the header's clock on/off) while the search runs,
  every 40 keys Escape and `s` again.
The baseline (default 2486320, before the drawing work of this round) is `git archive`d into a
temporary folder and run from there with the same interpreter, in turn with this checkout.

    python bench/key_cost.py                      # 150 keys a role, a key every 100 ms
    python bench/key_cost.py --keys 300 --baseline HEAD~3
    python bench/key_cost.py --profile /tmp/prof   # cProfile of this checkout's arcades

Figures are CPU, not wall time, so the machine's load moves them little; idle = the arcade's
CPU per second on the same screen with no key (the clock's tick), measured before the keys.
"""

from __future__ import annotations

import argparse
import fcntl
import os
import pty
import signal
import struct
import subprocess
import sys
import tempfile
import termios
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from kaeru.engine.tables.folder import configured_dir

HERE = Path(__file__).resolve().parent.parent
SOLVE_CYCLE = 40
ROLES = {
    "player": "flip-it-5",
    "solver": "sliding-4x4:9,3,12,2/6,14,11,13/1,7,10,15/5,4,8,_",
}
RIGHT, LEFT, ESCAPE = b"\x1b[C", b"\x1b[D", b"\x1b"
TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """utime + stime of the process (all its threads, not its children)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def key_for(role: str, index: int) -> bytes:
    if role == "player":
        return RIGHT if index % 2 == 0 else LEFT
    step = index % SOLVE_CYCLE
    if step == 0:
        return b"s"
    if step == SOLVE_CYCLE - 1:
        return ESCAPE
    return b"T"


class Reader(threading.Thread):
    """Drains the pty (an arcade blocks on a full terminal) and notes when output last came."""

    def __init__(self, fd: int) -> None:
        super().__init__(daemon=True)
        self.fd = fd
        self.bytes = 0
        self.last = time.monotonic()

    def run(self) -> None:
        while True:
            try:
                data = os.read(self.fd, 65536)
            except OSError:
                return
            if not data:
                return
            self.bytes += len(data)
            self.last = time.monotonic()

    def wait_quiet(self, quiet: float, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.bytes and time.monotonic() - self.last >= quiet:
                return
            time.sleep(0.05)


@dataclass
class Figures:
    idle_ms_per_s: float
    ms_per_key: float
    kb_per_key: float


def run_role(tree: Path, role: str, keys: int, interval: float, scratch: Path,
             profile: Path | None) -> Figures:
    data = Path(tempfile.mkdtemp(dir=scratch))
    env = dict(os.environ, TERM="xterm-256color", LANG="C.UTF-8", TEXTUAL_ANIMATIONS="none",
               KAERU_DATA_DIR=str(data), KAERU_CONFIG_DIR=str(data / "config"),
               KAERU_CACHE_DIR=str(configured_dir()), PYTHONPATH=str(tree),
               OPENBLAS_NUM_THREADS="1")
    command = [sys.executable]
    if profile is not None:
        command += ["-m", "cProfile", "-o", str(profile / f"{role}.prof")]
    command += ["-m", "kaeru.tui.cli", "play", ROLES[role]]
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
    child = subprocess.Popen(command, cwd=tree, env=env, stdin=slave, stdout=slave,
                             stderr=slave, start_new_session=True, close_fds=True)
    os.close(slave)
    reader = Reader(master)
    reader.start()
    try:
        reader.wait_quiet(1.5, 60.0)  # the first frame, and the game's start-up work
        idle_start, cpu0 = time.monotonic(), cpu_seconds(child.pid)
        time.sleep(3.0)
        idle = (cpu_seconds(child.pid) - cpu0) / (time.monotonic() - idle_start)
        cpu0, bytes0 = cpu_seconds(child.pid), reader.bytes
        started = time.monotonic()
        for index in range(keys):
            os.write(master, key_for(role, index))
            time.sleep(max(0.0, started + (index + 1) * interval - time.monotonic()))
        reader.wait_quiet(0.3, 5.0)
        spent = cpu_seconds(child.pid) - cpu0
        sent = reader.bytes - bytes0
        if profile is not None:
            os.write(master, ESCAPE)  # a running search first
            time.sleep(0.3)
            os.write(master, b"\x11")  # ctrl+q: a clean exit writes the profile
            child.wait(timeout=20)
        return Figures(idle * 1000, spent * 1000 / keys, sent / 1024 / keys)
    finally:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGTERM)
            try:
                child.wait(timeout=5)
            except subprocess.TimeoutExpired:
                os.killpg(child.pid, signal.SIGKILL)
                child.wait()
        os.close(master)


def unpack(ref: str, into: Path) -> Path:
    tree = into / f"kaeru-{ref.replace('/', '_')}"
    tree.mkdir()
    archive = subprocess.run(["git", "archive", ref], cwd=HERE, check=True,
                             capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
    return tree


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--baseline", default="2486320", help="the commit to compare with")
    parser.add_argument("--keys", type=int, default=150, help="keys per role (150)")
    parser.add_argument("--interval", type=float, default=0.1, help="seconds between keys")
    parser.add_argument("--roles", nargs="+", choices=tuple(ROLES), default=list(ROLES))
    parser.add_argument("--profile", type=Path,
                        help="cProfile this checkout's arcades into DIR/ROLE.prof (no baseline)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="kaeru-key-cost-") as scratch_name:
        scratch = Path(scratch_name)
        trees = {"this": HERE}
        if args.profile is None:
            trees = {args.baseline: unpack(args.baseline, scratch), "this": HERE}
        else:
            args.profile.mkdir(parents=True, exist_ok=True)
        print(f"{args.keys} keys a role, one every {args.interval * 1000:.0f} ms, "
              f"{os.cpu_count()} cores; CPU of the arcade process only")
        print(f"{'role':<8}{'tree':<10}{'idle ms/s':>10}{'ms CPU/key':>12}{'kB/key':>8}")
        results: dict[tuple[str, str], Figures] = {}
        for role in args.roles:
            for name, tree in trees.items():
                figures = run_role(tree, role, args.keys, args.interval, scratch, args.profile)
                results[role, name] = figures
                print(f"{role:<8}{name:<10}{figures.idle_ms_per_s:>10.1f}"
                      f"{figures.ms_per_key:>12.2f}{figures.kb_per_key:>8.2f}", flush=True)
            if len(trees) == 2:
                old, new = results[role, args.baseline], results[role, "this"]
                print(f"{role:<8}{'ratio':<10}{'':>10}"
                      f"{old.ms_per_key / max(new.ms_per_key, 1e-9):>11.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
