"""Issue 24's seven 6x6 boards: answer length, proved lower bound, ratio and CPU, before and now.

The boards: the first two `make_sliding(6, 6).random_start(rng)` with rng = random.Random(6)
(the bench boards of bench/sliding.py's table 4b) and the first five with random.Random(36).
Target: every answer within 1.5x of its proved lower bound, at about a minute of CPU each.
"now" runs in this process; "before" is the engine at an older commit (8c186b9 by default),
unpacked by `git archive` (bench/sliding.py's BeforeCode) and run in a child process at the same
time, so the two columns come from one run on the same machine. CPU is the process's own
(`time.process_time`), which is what each search's time share is measured in.

    python bench/six_boards.py                  # both columns (~7 minutes of CPU each)
    python bench/six_boards.py --before none    # today's code only
    python bench/six_boards.py --boards 2       # the first two boards only
    python bench/six_boards.py --held-out       # four boards no setting was chosen on
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from sliding import BeforeCode, table  # noqa: E402

from kaeru.engine.puzzles.sliding import make_sliding  # noqa: E402
from kaeru.engine.rules.control import Control  # noqa: E402

BEFORE_REV = "8c186b9"
SEEDS = ((6, 2), (36, 5))  # (seed of random.Random, boards drawn from it)
HELD_OUT = ((7, 4),)  # boards no setting was chosen on (`--held-out`)

CHILD = """
import json, random, resource, sys, time
import kaeru
from kaeru.engine.puzzles.sliding import make_sliding
from kaeru.engine.rules.control import Control
assert kaeru.__file__.startswith(sys.argv[1]), kaeru.__file__
puzzle = make_sliding(6, 6)
out = []
for seed, count in json.loads(sys.argv[2]):
    rng = random.Random(seed)
    for _ in range(count):
        state = puzzle.random_start(rng)
        began = time.process_time()
        found = puzzle.own_solve(state, state, Control())
        assert found.states[-1] == puzzle.grid.goal
        out.append([found.length, found.lower_bound, time.process_time() - began])
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"rows": out, "peak_mb": peak}))
"""


def boards(limit: int, seeds: tuple[tuple[int, int], ...] = SEEDS
           ) -> list[tuple[str, tuple[int, ...]]]:
    """(name, start) of the seven boards (or `seeds`' boards), the first `limit` of them."""
    puzzle = make_sliding(6, 6)
    out = []
    for seed, count in seeds:
        rng = random.Random(seed)
        out += [(f"Random({seed}) #{i}", puzzle.random_start(rng)) for i in range(count)]
    return out[:limit]


def seeds_for(limit: int, seeds: tuple[tuple[int, int], ...] = SEEDS) -> list[tuple[int, int]]:
    """`seeds` cut to the first `limit` boards."""
    out, left = [], limit
    for seed, count in seeds:
        if left > 0:
            out.append((seed, min(count, left)))
        left -= count
    return out


class BeforeSix(BeforeCode):
    """The older engine on the seven boards, started in the background."""

    def start(self, limit: int, seeds: tuple[tuple[int, int], ...] = SEEDS
              ) -> subprocess.Popen[str] | None:
        if not self.ok:
            return None
        env = dict(os.environ, PYTHONPATH=str(self.folder))
        return subprocess.Popen(
            [sys.executable, "-c", CHILD, str(self.folder), json.dumps(seeds_for(limit, seeds))],
            env=env, cwd=self.folder, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def cells(length: int, bound: int, seconds: float) -> list[str]:
    return [str(length), str(bound), f"{length / bound:.2f}", f"{seconds:.1f}"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default=BEFORE_REV, help="commit to compare ('none': skip)")
    parser.add_argument("--boards", type=int, default=7, help="the first N of the seven")
    parser.add_argument("--held-out", action="store_true",
                        help="the first four boards of random.Random(7) instead of the seven")
    args = parser.parse_args(argv)
    seeds = HELD_OUT if args.held_out else SEEDS
    before = BeforeSix(args.before) if args.before != "none" else None
    child = before.start(args.boards, seeds) if before else None
    puzzle = make_sliding(6, 6)
    now = []
    for name, state in boards(args.boards, seeds):
        began = time.process_time()
        found = puzzle.own_solve(state, state, Control())
        spent = time.process_time() - began
        assert found.states[-1] == puzzle.grid.goal and found.lower_bound is not None
        now.append((name, found.length, found.lower_bound, spent))
        print(f"  {name}: {found.length} / {found.lower_bound} in {spent:.1f} s", flush=True)
    old: list[list[float]] = []
    old_peak = None
    if child is not None:
        out, err = child.communicate()
        if child.returncode == 0:
            done = json.loads(out.strip().splitlines()[-1])
            old, old_peak = done["rows"], done["peak_mb"]
        else:
            print(f"(before: {err.strip().splitlines()[-1:]})")
    if before:
        before.close()
    rows = []
    for i, (name, length, bound, spent) in enumerate(now):
        was = old[i] if i < len(old) else None
        rows.append([name, *(cells(int(was[0]), int(was[1]), was[2]) if was else ["-"] * 4),
                     *cells(length, bound, spent)])
    head = ["board", f"before ({args.before}) moves", "proved >=", "x bound", "CPU s",
            "now moves", "proved >=", "x bound", "CPU s"]
    print(table(rows, head))
    worst = max(length / bound for _, length, bound, _ in now)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"now: worst {worst:.2f}x, peak {peak:.0f} MB"
          + (f"; before: worst {max(r[0] / r[1] for r in old):.2f}x, peak {old_peak:.0f} MB"
             if old else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
