"""Benchmark for issue 4's sliding puzzles, every table measured in one run.

1. Full depth tables (8-puzzle, 2x5): the engine's numpy BFS beside seed 002's method (strings,
   a dict, a queue: bench/sliding_baseline.py), with the ratio. Target: >= 5x on the 8-puzzle.
2. The 6-6-3 pattern databases of the 15-puzzle built from scratch in a fresh process: time,
   size on disk, peak memory (target <= 600 MB).
3. 25 random solvable 15-puzzles (seed 003's shuffle, random.Random(15)) solved optimally by the
   engine (BFIDA* over numpy, 6-6-3 databases + mirror): length, positions, time; median and
   max (targets: <= 2 s and <= 60 s). Beside it, with a time cap per position: the same search
   with Manhattan + linear conflict (what the databases save), pure-Python IDA* with the same
   databases (what the numpy frontier search saves), and the PyPI package `slidingpuzzle`'s
   optimal A* (its linear-conflict heuristic) in a child process, with the ratio. Random
   15-puzzles are beyond it within any sensible cap, so 3b adds shorter positions (random
   walks from the goal) where it finishes, for ratios that are not lower bounds.
4. Big boards (issue 24): the near-optimal search with its proved bound beside row-by-row
   reduction (the former solver), from the same run: Korf & Taylor's 24-puzzles with their
   published optima (target: within 1.15x in <= 30 s of CPU), random 6x6 (target: within 1.5x
   of the proved bound), 7x7, 8x8 and 10x10 (an answer in seconds).

    python bench/sliding.py                      # the full run (about 10 minutes on 2 cores)
    python bench/sliding.py --quick              # 8 positions, 5 s caps
    python bench/sliding.py --install-baseline   # first fetch `slidingpuzzle` for the bench
    python bench/sliding.py --big                # table 4 only (about 8 minutes of CPU)
    python bench/sliding.py --big --sides 6      # table 4b's 6x6 rows only, before and after

`slidingpuzzle` is not a project dependency. `--install-baseline` puts version 0.1.5 into a
folder of its own under the cache directory with `pip install --no-deps --target` (its metadata
pins numpy==1.23.5, which would downgrade the project's numpy; it runs fine on numpy 2), and the
child processes that use it get that folder on PYTHONPATH. Without it that column is skipped.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import numpy as np  # noqa: E402
from sliding_baseline import SLIDINGPUZZLE_CHILD, ida_star_python, seed_enumerate  # noqa: E402

from kaeru.engine.puzzles.sliding import HEURISTICS, make_sliding  # noqa: E402
from kaeru.engine.rules.control import Control, Meter  # noqa: E402
from kaeru.engine.rules.protocol import BudgetExceeded, Cancelled  # noqa: E402
from kaeru.engine.search import dispatch  # noqa: E402
from kaeru.engine.sliding.board.geometry import grid  # noqa: E402
from kaeru.engine.sliding.board.perm_codes import PermutationCodes  # noqa: E402
from kaeru.engine.sliding.databases.pattern_db import (  # noqa: E402
    default_partition,
    group_file,
    pattern_database,
)
from kaeru.engine.sliding.optimal.full_table import layered_depths  # noqa: E402
from kaeru.engine.tables.folder import configured_dir  # noqa: E402

BASELINE_VERSION = "slidingpuzzle==0.1.5"


BASELINE_DIR = configured_dir() / "bench" / "slidingpuzzle"  # fixed before main() moves the cache


def baseline_dir() -> Path:
    return BASELINE_DIR


def table(rows: list[list[str]], head: list[str]) -> str:
    widths = [max(len(str(r[i])) for r in [head, *rows]) for i in range(len(head))]
    lines = ["  ".join(f"{h:>{w}}" for h, w in zip(head, widths, strict=True))]
    lines.append("  ".join("-" * w for w in widths))
    lines += ["  ".join(f"{c:>{w}}" for c, w in zip(r, widths, strict=True)) for r in rows]
    return "\n".join(lines)


def ratio_text(ratio: float) -> str:
    return f"{ratio:.1f}x" if ratio < 10 else f"{ratio:,.0f}x"


def timed(fn, *args, **kwargs):
    started = time.perf_counter()
    result = fn(*args, **kwargs)
    return result, time.perf_counter() - started


# ---- 1. full tables ------------------------------------------------------------------------------
def engine_table(width: int, height: int) -> list[int]:
    """The engine's table build (what `full_table` runs when nothing is cached)."""
    codes = PermutationCodes(grid(width, height))
    depth = layered_depths(codes, grid(width, height).goal, Meter("bench"))
    return np.bincount(depth[depth != 255]).tolist()


def section_tables(quick: bool) -> str:
    rows = []
    for w, h in [(3, 3)] if quick else [(3, 3), (2, 5)]:
        engine, t_engine = min((timed(engine_table, w, h) for _ in range(3)), key=lambda r: r[1])
        seed, t_seed = min((timed(seed_enumerate, w, h) for _ in range(1 if quick else 3)),
                           key=lambda r: r[1])
        assert engine == seed, "the two enumerations disagree"
        rows.append([f"{w}x{h}", f"{sum(engine):,}", str(len(engine) - 1), f"{t_seed:.2f} s",
                     f"{t_engine:.3f} s", ratio_text(t_seed / t_engine)])
    head = ["board", "positions", "max depth", "seed-style", "engine (numpy)", "speed-up"]
    return "1. Full depth tables from the goal (best of 3 each)\n" + table(rows, head)


# ---- 2. pattern databases ----------------------------------------------------------------------
def child_build(folder: str) -> None:
    os.environ["KAERU_CACHE_DIR"] = folder
    g = grid(4, 4)
    _, seconds = timed(pattern_database, g)
    size = sum((Path(folder) / group_file(g, grp)).stat().st_size
               for grp in default_partition(g).groups)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print(json.dumps({"seconds": seconds, "bytes": size, "peak": peak}))


def section_build(folder: str) -> str:
    out = subprocess.run([sys.executable, __file__, "--child-build", folder],
                         capture_output=True, text=True, check=True)
    got = json.loads(out.stdout)
    rows = [[default_partition(grid(4, 4)).name, f"{got['seconds']:.1f} s",
             f"{got['bytes'] / 2**20:.1f} MB", f"{got['peak'] / 2**20:.0f} MB"]]
    head = ["partition", "build time", "size on disk", "peak memory (process)"]
    return "2. 15-puzzle pattern databases, built from scratch in a fresh process\n" + table(
        rows, head)


# ---- 3. optimal 15-puzzles -----------------------------------------------------------------------
def deadline_check(seconds: float):
    end = time.perf_counter() + seconds
    return lambda: time.perf_counter() > end


def other_heuristic(puzzle, state, cap: float) -> str:
    try:
        control = Control(None, deadline_check(cap), 6_000_000)
        solution, seconds = timed(dispatch.solve, puzzle, state, state, control,
                                  heuristic=HEURISTICS[1])
    except (Cancelled, BudgetExceeded) as error:
        return f"> {cap:.0f} s" if isinstance(error, Cancelled) else "> budget"
    return f"{seconds:.2f} s ({solution.stats.generated:,})"


def python_ida(puzzle, state, cap: float) -> str:
    database = pattern_database(puzzle.grid)
    (length, generated), seconds = timed(ida_star_python, puzzle.grid, state, database, cap)
    return f"> {cap:.0f} s" if length is None else f"{seconds:.2f} s ({generated:,})"


def slidingpuzzle_run(state: tuple[int, ...], cap: float) -> tuple[str, float | None]:
    folder = baseline_dir()
    if not (folder / "slidingpuzzle").exists():
        return "not installed", None
    env = dict(os.environ, PYTHONPATH=str(folder))
    args = [sys.executable, "-c", SLIDINGPUZZLE_CHILD, json.dumps([4, 4, list(state)])]
    try:
        out = subprocess.run(args, capture_output=True, text=True, env=env, timeout=cap)
    except subprocess.TimeoutExpired:
        return f"> {cap:.0f} s", None
    if out.returncode != 0:
        return "failed", None
    got = json.loads(out.stdout)
    return f"{got['seconds']:.2f} s", got["seconds"]


def section_fifteen(count: int, cap: float, python_count: int) -> str:
    puzzle = make_sliding(4, 4)
    rng = random.Random(15)
    starts = [puzzle.random_start(rng) for _ in range(count)]
    rows, times = [], []
    for number, state in enumerate(starts, 1):
        solution, seconds = timed(puzzle.solve, state, state)
        times.append(seconds)
        theirs, their_seconds = slidingpuzzle_run(state, cap)
        ratio = ratio_text(their_seconds / seconds) if their_seconds else (
            ">" + ratio_text(cap / seconds) if theirs.startswith(">") else "")
        rows.append([
            str(number), str(solution.length), f"{solution.stats.generated:,}",
            f"{seconds:.2f} s", other_heuristic(puzzle, state, cap),
            python_ida(puzzle, state, cap) if number <= python_count else "",
            theirs, ratio,
        ])
    head = ["#", "optimal", "positions", "engine", "engine, MD+LC (positions)",
            "Python IDA* + same PDB", "slidingpuzzle A*", "ratio"]
    summary = (f"median {statistics.median(times):.2f} s, max {max(times):.2f} s, "
               f"total {sum(times):.1f} s (targets: median <= 2 s, max <= 60 s)")
    return (f"3. {count} random 15-puzzles (random.Random(15)), all solved optimally; "
            f"other columns capped at {cap:.0f} s\n" + table(rows, head) + "\n" + summary)


def random_walk(puzzle, rng: random.Random, steps: int) -> tuple[int, ...]:
    """A position `steps` slides from the goal, never sliding straight back."""
    state, previous = puzzle.grid.goal, None
    for _ in range(steps):
        options = [m for m in puzzle.moves(state) if puzzle.apply(state, m) != previous]
        state, previous = puzzle.apply(state, rng.choice(options)), state
    return state


def section_short(count: int, cap: float) -> str:
    puzzle = make_sliding(4, 4)
    rng = random.Random(16)
    rows = []
    for number in range(count):
        state = random_walk(puzzle, rng, 24 + 4 * number)
        solution, seconds = timed(puzzle.solve, state, state)
        theirs, their_seconds = slidingpuzzle_run(state, cap)
        ratio = ratio_text(their_seconds / seconds) if their_seconds else (
            ">" + ratio_text(cap / seconds) if theirs.startswith(">") else "")
        rows.append([str(number + 1), str(24 + 4 * number), str(solution.length),
                     f"{seconds:.3f} s", theirs, ratio])
    head = ["#", "walk", "optimal", "engine", "slidingpuzzle A*", "ratio"]
    return ("3b. Shorter 15-puzzles (random walks from the goal, random.Random(16)), where "
            f"slidingpuzzle can finish within {cap:.0f} s\n" + table(rows, head))


# ---- 4. big boards -------------------------------------------------------------------------------
KORF24 = ROOT / "bench" / "data" / "korf24.txt"
ISSUE_KORF = (2, 6, 8, 9)  # the four of issue 24: optima 95, 96, 97, 113
BEFORE_REV = "2f31758"  # before the 6x6 candidates and the five-sum lower bound (issue 24)
SIDES = (6, 7, 8, 10)


def cpu_timed(fn, *args):
    began = time.process_time()
    result = fn(*args)
    return result, time.process_time() - began


def section_big(count: int, every_korf: bool, before_rev: str = BEFORE_REV,
                sides: tuple[int, ...] = SIDES) -> str:
    """Issue 24: near-optimal answers with a proved bound (today's) beside row-by-row reduction
    (the former solver, `solve_reduction`), from the same run; CPU seconds."""
    from kaeru.engine.sliding.board.text import parse_state

    rows = []
    five = make_sliding(5, 5)
    for line in KORF24.read_text().splitlines() if sides == SIDES else []:
        if line.startswith("#"):
            continue
        number, optimum, layout = line.split(" ", 2)
        if not every_korf and int(number) not in ISSUE_KORF:
            continue
        state = parse_state(five.grid, layout, five.id)
        old, old_s = cpu_timed(five.solve_reduction, state, Control())
        new, new_s = cpu_timed(five.own_solve, state, state, Control())
        assert new.states[-1] == five.grid.goal and new.lower_bound <= int(optimum)
        rows.append([f"korf24 #{number}", optimum, str(old.length),
                     f"{old.length / int(optimum):.2f}", f"{old_s:.2f}", str(new.length),
                     f"{new.length / int(optimum):.2f}", str(new.lower_bound),
                     str(new.over_optimum), f"{new_s:.1f}"])
    head = ["24-puzzle", "optimum", "reduction", "x opt", "CPU s", "near-opt", "x opt",
            "proved >=", "over <=", "CPU s"]
    text = ("4. Big boards (issue 24): near-optimal search with a proved bound (today's) beside "
            "row-by-row reduction (the former solver)\n4a. Korf & Taylor's 24-puzzles, published "
            "optima (target: within 1.15x in <= 30 s CPU)\n" + table(rows, head)) if rows else ""
    rows = []
    before = BeforeCode(before_rev)
    for side in sides:
        puzzle = make_sliding(side, side)  # 10x10 through the engine: ids stop at 8x8
        rng = random.Random(side)
        boards = count if side in (6, 8) else 1
        old_rows = before.run(side, boards)
        for i in range(boards):
            state = puzzle.random_start(rng)
            old, old_s = cpu_timed(puzzle.solve_reduction, state, Control())
            new, new_s = cpu_timed(puzzle.own_solve, state, state, Control())
            assert new.states[-1] == puzzle.grid.goal and new.lower_bound is not None
            was = old_rows[i] if old_rows else None
            rows.append([f"{side}x{side}", str(new.lower_bound), str(old.length),
                         f"{old.length / new.lower_bound:.2f}", f"{old_s:.2f}",
                         *(was_cells(was) if was else ["-", "-", "-", "-"]),
                         str(new.length), f"{new.length / new.lower_bound:.2f}",
                         str(new.over_optimum), f"{new_s:.1f}", new.stats.algorithm[:28]])
    before.close()
    head = ["board", "proved >=", "reduction", "x bound", "CPU s", f"before ({before_rev})",
            "its bound", "x its bound", "CPU s", "near-opt", "x bound", "over <=", "CPU s",
            "search"]
    return (text + "\n4b. Random boards (seed 003's shuffle; target 6x6: within 1.5x of the "
            "proved bound; up to 10x10: seconds). 'before' is the near-optimal search at "
            f"{before_rev}, run in a child process from `git archive` on the same boards\n"
            + table(rows, head))


def was_cells(was: list[float]) -> list[str]:
    length, bound, seconds = int(was[0]), int(was[1]), was[2]
    return [str(length), str(bound), f"{length / bound:.2f}", f"{seconds:.1f}"]


BEFORE_CHILD = """
import json, random, sys, time
import kaeru
from kaeru.engine.puzzles.sliding import make_sliding
from kaeru.engine.rules.control import Control
assert kaeru.__file__.startswith(sys.argv[3]), kaeru.__file__
side, count = int(sys.argv[1]), int(sys.argv[2])
puzzle = make_sliding(side, side)
rng = random.Random(side)
out = []
for _ in range(count):
    state = puzzle.random_start(rng)
    began = time.process_time()
    found = puzzle.own_solve(state, state, Control())
    assert found.states[-1] == puzzle.grid.goal
    out.append([found.length, found.lower_bound, time.process_time() - began])
print(json.dumps(out))
"""


class BeforeCode:
    """The engine at an older commit, unpacked by `git archive`, run in child processes."""

    def __init__(self, rev: str) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="kaeru-before-"))
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev], capture_output=True)
        self.ok = archive.returncode == 0 and subprocess.run(
            ["tar", "-x", "-C", str(self.folder)], input=archive.stdout).returncode == 0
        if not self.ok:
            print(f"(could not unpack {rev}: the 'before' columns are left empty)")

    def run(self, side: int, count: int) -> list[list[float]] | None:
        if not self.ok:
            return None
        env = dict(os.environ, PYTHONPATH=str(self.folder))
        done = subprocess.run(
            [sys.executable, "-c", BEFORE_CHILD, str(side), str(count), str(self.folder)],
            env=env, cwd=self.folder, capture_output=True, text=True)
        if done.returncode != 0:
            print(f"(before, {side}x{side}: {done.stderr.strip().splitlines()[-1:]})")
            return None
        return json.loads(done.stdout.strip().splitlines()[-1])

    def close(self) -> None:
        import shutil

        shutil.rmtree(self.folder, ignore_errors=True)


def install_baseline() -> None:
    folder = baseline_dir()
    folder.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target",
                    str(folder), BASELINE_VERSION], check=True)
    print(f"installed {BASELINE_VERSION} into {folder} (for this benchmark only)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer positions, shorter caps")
    parser.add_argument("--cap", type=float, help="seconds allowed per position to the others")
    parser.add_argument("--install-baseline", action="store_true",
                        help=f"fetch {BASELINE_VERSION} into a folder used only by this bench")
    parser.add_argument("--child-build", metavar="DIR", help=argparse.SUPPRESS)
    parser.add_argument("--big", action="store_true",
                        help="only table 4 (big boards, issue 24), in the usual cache folder")
    parser.add_argument("--before", default=BEFORE_REV, metavar="REV",
                        help=f"table 4b: the commit to compare with (default {BEFORE_REV})")
    parser.add_argument("--sides", metavar="6,7", help="with --big: only these board sides "
                        "(and not the 24-puzzles)")
    parser.add_argument("--boards", type=int, help="with --big: random 6x6 and 8x8 boards "
                        "(default 2)")
    parser.add_argument("--every-korf", action="store_true",
                        help="table 4: all ten 24-puzzles (default: the issue's four)")
    args = parser.parse_args(argv)
    if args.child_build:
        child_build(args.child_build)
        return 0
    if args.install_baseline:
        install_baseline()
    if not (baseline_dir() / "slidingpuzzle").exists():
        print("(slidingpuzzle not found: run with --install-baseline to compare with it)\n")
    cap = args.cap or (5.0 if args.quick else 15.0)
    if args.big:
        sides = tuple(int(x) for x in args.sides.split(",")) if args.sides else SIDES
        print(section_big(args.boards or (1 if args.quick else 2), args.every_korf, args.before,
                          sides))
        return 0
    with tempfile.TemporaryDirectory() as folder:
        os.environ["KAERU_CACHE_DIR"] = folder  # fresh tables, and nothing left behind
        sections = [section_tables(args.quick), section_build(folder),
                    section_fifteen(8 if args.quick else 25, cap, 3 if args.quick else 5),
                    section_short(4 if args.quick else 7, cap),
                    section_big(1 if args.quick else 2, args.every_korf, args.before)]
    print("\n\n".join(sections))
    return 0


if __name__ == "__main__":
    sys.exit(main())
