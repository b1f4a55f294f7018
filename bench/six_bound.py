"""The 6×6's proved lower bound (issue 24 point 4), before and after, from the same run.

Seven boards: the first two `make_sliding(6, 6).random_start(random.Random(6))` (the bench
boards of `bench/sliding.py --big`) and the first five of `random.Random(36)`. For each, the
lower bound a 6×6 answer states, measured alone: the lower-bound step called with a long
answer (400 moves, so nothing it proves is cut short) and the seconds of the answer's share
(`peel.SIX_SHARES.lower` of a 58 s answer: about 10.4 s of CPU). "Before" is the code at
8c186b9 (plain IDA* on five additive sums of blocks and strips of four), unpacked by
`git archive` and run in a child process (`bench/sliding.py`'s `BeforeCode`); "now" is
`near_optimal.lower_bound` in this process.

    python bench/six_bound.py                 # seven boards, about 2 × 7 × 10 s of CPU
    python bench/six_bound.py --boards 0,4    # a screen on two of them
    python bench/six_bound.py --seconds 5     # a shorter spell each
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from sliding import BeforeCode  # noqa: E402

from kaeru.engine.rules.control import Control, Meter  # noqa: E402
from kaeru.engine.sliding.board.geometry import State  # noqa: E402

BEFORE_REV = "8c186b9"  # five additive sums of blocks and strips of four
SECONDS = 0.18 * 58  # the `lower` share of a 6x6 answer
LONG = 400  # an answer length past any bound: the bound is not cut short by it

BOARDS_CODE = """
def six_boards():
    import random
    from kaeru.engine.puzzles.sliding import make_sliding
    puzzle = make_sliding(6, 6)
    rng = random.Random(6)
    out = [puzzle.random_start(rng) for _ in range(2)]
    rng = random.Random(36)
    return out + [puzzle.random_start(rng) for _ in range(5)]
"""

BEFORE_CHILD = BOARDS_CODE + """
import json, sys, time
import kaeru
from kaeru.engine.rules.control import Control, Meter
from kaeru.engine.sliding.board.geometry import grid
from kaeru.engine.sliding.databases.pdb_big import big_database, six_views
from kaeru.engine.sliding.near_optimal.peel import _lower_bound
assert kaeru.__file__.startswith(sys.argv[3]), kaeru.__file__
seconds, which = float(sys.argv[1]), [int(i) for i in sys.argv[2].split(",")]
full = grid(6, 6)
database = big_database(full)
six_views(full)  # its tables loaded before the clock starts, as in an answer
_lower_bound(full, six_boards()[0], database, Meter("warm", Control().unlimited()), LONG, 0.1,
             1 << 62)  # the kernel compiled (a fresh folder has no numba cache)
out = []
for i in which:
    state = six_boards()[i]
    meter = Meter("before", Control().unlimited())
    began = time.process_time()
    bound = _lower_bound(full, state, database, meter, LONG, seconds, 1 << 62)
    out.append([bound, time.process_time() - began, meter.generated])
print(json.dumps(out))
""".replace("LONG", str(LONG))


def six_boards() -> list[State]:
    """The seven boards (the same code the child runs)."""
    space: dict[str, object] = {}
    exec(BOARDS_CODE, space)
    boards: list[State] = space["six_boards"]()  # type: ignore[operator]
    return boards


NAMES = ["bench 0", "bench 1", "Random(36) #0", "Random(36) #1", "Random(36) #2",
         "Random(36) #3", "Random(36) #4"]


def before(seconds: float, which: list[int]) -> list[list[float]] | None:
    code = BeforeCode(BEFORE_REV)
    try:
        if not code.ok:
            return None
        env = dict(os.environ, PYTHONPATH=str(code.folder))
        done = subprocess.run(
            [sys.executable, "-c", BEFORE_CHILD, str(seconds), ",".join(map(str, which)),
             str(code.folder)], env=env, cwd=code.folder, capture_output=True, text=True)
        if done.returncode != 0:
            print(f"(before: {done.stderr.strip().splitlines()[-1:]})")
            return None
        rows: list[list[float]] = json.loads(done.stdout.strip().splitlines()[-1])
        return rows
    finally:
        code.close()


def now(seconds: float, which: list[int]) -> list[list[float]]:
    from kaeru.engine.sliding.board.geometry import grid
    from kaeru.engine.sliding.databases.line_conflicts import conflicts
    from kaeru.engine.sliding.databases.pdb_big import big_database
    from kaeru.engine.sliding.near_optimal.lower_bound import lower_bound

    full = grid(6, 6)
    database = big_database(full)
    conflicts(full)  # its table filled before the clock starts, as the answer's lines do
    boards = six_boards()
    out = []
    for i in which:
        meter = Meter("now", Control().unlimited())
        began = time.process_time()
        bound = lower_bound(full, boards[i], database, meter, LONG, seconds, 1 << 62)
        out.append([bound, time.process_time() - began, meter.generated])
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=SECONDS,
                        help=f"CPU seconds of IDA* per board (default {SECONDS:.1f})")
    parser.add_argument("--boards", default="0,1,2,3,4,5,6", metavar="0,4",
                        help="which of the seven boards (default all)")
    args = parser.parse_args(argv)
    which = [int(i) for i in args.boards.split(",")]
    now(0.5, which[:1])  # compiled before the clock (numba's cache on later runs)
    old = before(args.seconds, which)
    new = now(args.seconds, which)
    print(f"6x6 proved lower bound, {args.seconds:.1f} s of IDA* CPU per board "
          f"(before = {BEFORE_REV}, now = this tree)")
    print(f"{'board':<15} {'before':>7} {'cpu s':>6} {'nodes':>12}   "
          f"{'now':>5} {'cpu s':>6} {'nodes':>12}   {'gain':>4}")
    for n, i in enumerate(which):
        b, b_cpu, b_nodes = old[n] if old else (float("nan"),) * 3
        a, a_cpu, a_nodes = new[n]
        gain = f"{a - b:+.0f}" if old else "?"
        print(f"{NAMES[i]:<15} {b:>7.0f} {b_cpu:>6.1f} {b_nodes:>12,.0f}   "
              f"{a:>5.0f} {a_cpu:>6.1f} {a_nodes:>12,.0f}   {gain:>4}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
