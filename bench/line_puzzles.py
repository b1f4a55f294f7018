"""Benchmark for issue 2's line puzzles, every table measured in one run.

1. Flip It enumeration, N = 10..16: the engine (numpy depth table) beside the seed-style baseline
   (strings, a dict, a deque: bench/line_baseline.py), with the time ratio and each one's peak
   memory (a fresh process per measurement; ru_maxrss above the idle interpreter).
2. Flip It solving from every all-black start, N = 12..16: the colour-swap bidirectional search,
   an ordinary two-sided search and plain BFS (all three numpy, in the engine), positions stored
   and time, each beside the seed's own method in strings and dicts, with the ratios; then a
   summary per N of what the colour-swap trick saves.
3. `kaeru solve` end to end (a fresh `python -m kaeru.tui.cli solve ...` each time) for every line
   puzzle id and the hardest starts found, beside the search time alone. Target: under 1 s.
4. Flip It 19 and 20 (issue 24): the solver's CPU and peak memory against enumerating the whole
   space (target: within 1.5×), the former sorted-layer solver beside it, and the time from a
   cancel to the search stopping (target: 100 ms).

    python bench/line_puzzles.py             # the full run: 5 to 10 minutes on 2 busy cores
    python bench/line_puzzles.py --quick     # N = 12 and 16 only, half the starts (reflections)
    python bench/line_puzzles.py --tables 4  # issue 24's figures only (about a minute)
"""

from __future__ import annotations

import argparse
import concurrent.futures
import multiprocessing
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from statistics import median
from typing import Any

import numpy as np

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
sys.path[:0] = [str(REPO), str(BENCH)]

from line_baseline import seed_bfs, seed_bidirectional, seed_enumerate  # noqa: E402

from kaeru.engine.puzzles.registry import get_puzzle  # noqa: E402
from kaeru.engine.rules.control import Control  # noqa: E402
from kaeru.engine.rules.protocol import Cancelled  # noqa: E402
from kaeru.engine.search import dispatch  # noqa: E402
from kaeru.engine.search.packed import solve_packed  # noqa: E402

LINE_FAMILIES = ("flip-it", "oshidori", "frogs", "number-reversal")
TARGET_SECONDS = 1.0


# ---- measuring -----------------------------------------------------------------------------------
def best_time(run: Callable[[], Any], repeat: int = 3, patience: float = 3.0) -> tuple[float, Any]:
    """Best wall time of up to `repeat` runs (fewer once `patience` seconds are spent)."""
    times, result = [], None
    for _ in range(repeat):
        began = time.perf_counter()
        result = run()
        times.append(time.perf_counter() - began)
        if sum(times) > patience:
            break
    return min(times), result


def _rss_peak_kb() -> int:
    """This process's peak resident memory so far, in KB. VmHWM starts afresh at exec, unlike
    ru_maxrss, which a spawned child inherits from the process that forked it."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def _peak_mb(kind: str, size: int) -> float:
    """In a fresh process: the peak RSS one enumeration adds to the idle interpreter, in MB."""
    puzzle = get_puzzle(f"flip-it-{size}")
    start = puzzle.initial()
    before = _rss_peak_kb()
    if kind == "engine":
        dispatch.enumerate_space(puzzle, start)
    else:
        seed_enumerate(start)
    return (_rss_peak_kb() - before) / 1024


def peak_mb(kind: str, size: int) -> float:
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(1, mp_context=context) as pool:
        return pool.submit(_peak_mb, kind, size).result()


def _cost(kind: str, size: int) -> tuple[float, float]:
    """In a fresh process: (CPU seconds, peak MB above the idle interpreter) of one run: `enum`
    enumerates the space; `solve` the byte-table solver (today's); `layers` the former
    sorted-layer solver, from the all-black start with the gap first."""
    puzzle = get_puzzle(f"flip-it-{size}")
    start = puzzle.initial()
    before = _rss_peak_kb()
    began = time.process_time()
    if kind == "enum":
        dispatch.enumerate_space(puzzle, start)
    elif kind == "solve":
        dispatch.solve(puzzle, start, start)
    else:
        puzzle.solve_layers(start, start, Control())
    return time.process_time() - began, (_rss_peak_kb() - before) / 1024


def cost(kind: str, size: int) -> tuple[float, float]:
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(1, mp_context=context) as pool:
        return pool.submit(_cost, kind, size).result()


def _cancel_latency(kind: str, size: int, after: float) -> float:
    """In a fresh process: seconds from the cancel flag to the search stopping."""
    import threading

    puzzle = get_puzzle(f"flip-it-{size}")
    start = puzzle.initial()
    flag = threading.Event()
    raised: list[float] = []

    def run() -> None:
        control = Control(cancelled=flag.is_set)
        try:
            if kind == "solve":
                dispatch.solve(puzzle, start, start, control)
            else:
                puzzle.solve_layers(start, start, control)
        except Cancelled:
            raised.append(time.perf_counter())

    worker = threading.Thread(target=run)
    worker.start()
    time.sleep(after)
    flagged = time.perf_counter()
    flag.set()
    worker.join()
    return raised[0] - flagged if raised else -1.0  # -1: it had finished before the cancel


def cancel_latency(kind: str, size: int, after: float) -> float:
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(1, mp_context=context) as pool:
        return pool.submit(_cancel_latency, kind, size, after).result()


def waited(waits: Sequence[float]) -> str:
    """The worst wait of the cancels that came while the search ran."""
    counted = [w for w in waits if w >= 0]
    return f"{max(counted) * 1000:,.0f}" if counted else "finished first"


def solver_cost_table(sizes: Sequence[int]) -> None:
    """Table 4: the solver's cost against enumerating the whole space (issue 24, target 1.5×),
    today's byte-table solver beside the former sorted layers, and how fast each stops on a
    cancel (target 100 ms)."""
    rows = []
    for size in sizes:
        enum_s, enum_mb = cost("enum", size)
        new_s, new_mb = cost("solve", size)
        old_s, old_mb = cost("layers", size)
        waits = [cancel_latency(kind, size, after) for kind in ("solve", "layers")
                 for after in (0.3, 0.8)]
        rows.append([
            f"flip-it-{size}", f"{enum_s:.2f}", f"{enum_mb:,.0f}",
            f"{new_s:.2f}", f"{new_mb:,.0f}", f"{new_s / enum_s:.2f}×", f"{new_mb / enum_mb:.2f}×",
            f"{old_s:.2f}", f"{old_mb:,.0f}", f"{old_s / enum_s:.2f}×", f"{old_mb / enum_mb:.2f}×",
            waited(waits[:2]), waited(waits[2:]),
        ])
    print_table(
        "4. Flip It, solving from _BBB…B against enumerating the whole space (fresh process each; "
        "CPU s, peak MB above the idle interpreter)",
        ["puzzle", "enum s", "enum MB", "solve s", "solve MB", "s/enum", "MB/enum",
         "layers s", "layers MB", "s/enum", "MB/enum", "cancel ms", "layers cancel ms"],
        rows,
        "   solve: byte table (engine.search.dense_path, today's); layers: the former sorted-layer "
        "search (FlipIt.solve_layers)\n   cancel ms: worst of a cancel 0.3 s and 0.8 s into the "
        "search, flag to Cancelled (target 100 ms)",
    )


# ---- printing ------------------------------------------------------------------------------------
def print_table(title: str, headers: Sequence[str], rows: list[list[str]], notes: str = "") -> None:
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]

    def line(cells: Sequence[str]) -> str:
        first = cells[0].ljust(widths[0])
        return "  ".join([first, *(c.rjust(w) for c, w in zip(cells[1:], widths[1:], strict=True))])

    print(f"\n{title}")
    print(line(headers))
    print("-" * len(line(headers)))
    for row in rows:
        print(line(row))
    if notes:
        print(notes)
    sys.stdout.flush()


def ms(seconds: float) -> str:
    return f"{seconds * 1000:,.1f}" if seconds < 10 else f"{seconds * 1000:,.0f}"


def ratio(slow: float, fast: float) -> str:
    return f"{slow / fast:,.1f}×" if fast > 0 else "-"


def median_ratio(tops: Sequence[float], bottoms: Sequence[float]) -> str:
    return f"{median(t / b for t, b in zip(tops, bottoms, strict=True)):.2f}×"


def stored(solution: Any) -> int:
    return int(dict(solution.stats.extra)["positions"].replace(",", ""))


# ---- 1. enumeration ------------------------------------------------------------------------------
def enumeration_table(sizes: Sequence[int], memory: bool) -> None:
    rows = []
    for size in sizes:
        puzzle = get_puzzle(f"flip-it-{size}")
        start = puzzle.initial()
        engine_s, found = best_time(lambda p=puzzle, s=start: dispatch.enumerate_space(p, s))
        seed_s, histogram = best_time(lambda s=start: seed_enumerate(s), patience=1.0)
        assert tuple(histogram) == found.histogram, f"flip-it-{size}: the two counts disagree"
        row = [f"flip-it-{size}", f"{found.positions:,}", str(found.max_depth), ms(engine_s),
               ms(seed_s), ratio(seed_s, engine_s)]
        if memory:
            row += [f"{peak_mb('engine', size):.1f}", f"{peak_mb('seed', size):.1f}"]
        rows.append(row)
    headers = ["puzzle", "positions", "depth", "engine ms", "seed ms", "seed/engine"]
    if memory:
        headers += ["engine MB", "seed MB"]
    print_table(
        "1. Flip It enumeration from _BBB…B (engine: numpy depth table; seed: strings, dict, "
        "deque)",
        headers, rows,
        "   best of 3 (one run when slow); MB = peak RSS added to an idle interpreter, own process",
    )


# ---- 2. solving every start ---------------------------------------------------------------------
def solve_table(sizes: Sequence[int], half: bool) -> list[tuple[str, str, float]]:
    """Print the per-start table and the summary; return (puzzle, start, engine s) rows."""
    rows, timings, per_size = [], [], {}
    for size in sizes:
        puzzle = get_puzzle(f"flip-it-{size}")
        empties = range((size + 1) // 2) if half else range(size)
        figures = []
        for empty in empties:
            start = "B" * empty + "_" + "B" * (size - empty - 1)
            swap_s, swap = best_time(lambda p=puzzle, s=start: dispatch.solve(p, s, s))
            two_s, two = best_time(lambda p=puzzle, s=start: solve_packed(p, s, s))
            bfs_s, bfs = best_time(lambda p=puzzle, s=start: solve_packed(p, s, s, two_sided=False))
            seed_swap_s, (seed_path, seed_stored) = best_time(
                lambda s=start: seed_bidirectional(s), patience=1.0)
            seed_bfs_s, (seed_bfs_path, _) = best_time(lambda s=start: seed_bfs(s), patience=1.0)
            lengths = {swap.length, two.length, bfs.length, len(seed_bfs_path) - 1}
            assert len(lengths) == 1, f"{start}: the searches disagree {lengths}"
            seed_len = len(seed_path) - 1
            flag = "" if seed_len == swap.length else f" (seed: {seed_len})"
            rows.append([
                start, f"{swap.length}{flag}", f"{stored(swap):,}", ms(swap_s), ms(seed_swap_s),
                ratio(seed_swap_s, swap_s), f"{stored(two):,}", ms(two_s), f"{stored(bfs):,}",
                ms(bfs_s), ms(seed_bfs_s), ratio(seed_bfs_s, bfs_s),
            ])
            timings.append((puzzle.id, start, swap_s))
            figures.append((stored(swap), swap_s, stored(two), two_s, stored(bfs), bfs_s,
                            seed_stored))
        per_size[size] = figures
    print_table(
        "2. Flip It, solving every all-black start: colour-swap bidirectional | two-sided "
        "bidirectional | plain BFS",
        ["start", "moves", "swap pos", "swap ms", "seed ms", "seed/eng", "2-side pos", "2-side ms",
         "BFS pos", "BFS ms", "seed ms", "seed/eng"],
        rows,
        "   engine: numpy layered search (engine.search.packed), best of 3; seed: bench/"
        "line_baseline.py\n   pos = positions stored; the seed's colour-swap stores each one "
        "twice (%head and its swap in %tail)",
    )
    summary = []
    for size, figures in per_size.items():
        swap_pos, swap_s, two_pos, two_s, bfs_pos, bfs_s, seed_pos = zip(*figures, strict=True)
        summary.append([
            f"flip-it-{size}", str(len(figures)), ms(max(swap_s)), ms(max(bfs_s)),
            median_ratio(bfs_pos, swap_pos), median_ratio(bfs_s, swap_s),
            median_ratio(two_pos, swap_pos), median_ratio(two_s, swap_s),
            median_ratio(seed_pos, swap_pos),
        ])
    print_table(
        "   What the colour-swap trick saves (medians over the starts)",
        ["puzzle", "starts", "worst swap ms", "worst BFS ms", "BFS/swap pos", "BFS/swap time",
         "2-side/swap pos", "2-side/swap time", "seed/swap pos"],
        summary,
    )
    return timings


# ---- 3. kaeru solve end to end -------------------------------------------------------------------
def line_ids() -> list[str]:
    """Every offered id of the four line-puzzle families."""
    from kaeru.engine.puzzles.registry import families

    return [pid for f in families() if f.key in LINE_FAMILIES for pid in f.ids]


def child_env() -> dict[str, str]:
    """The environment for the end-to-end runs: bytecode cached (in a folder of its own), as an
    installed `kaeru` would have it, even where PYTHONDONTWRITEBYTECODE is set."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = tempfile.mkdtemp(prefix="kaeru-bench-pyc-")
    return env


def timed_command(command: list[str], env: dict[str, str], repeat: int) -> tuple[float, float]:
    """(best wall seconds, best CPU seconds of the child) over `repeat` runs."""
    wall, cpu = float("inf"), float("inf")
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        began = time.perf_counter()
        done = subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True,
                              check=False)
        wall = min(wall, time.perf_counter() - began)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = min(cpu, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(command)} failed: {done.stderr.strip()}")
    return wall, cpu


def cli_table(extra_starts: list[tuple[str, str]], repeat: int) -> None:
    if not (REPO / "tui" / "cli.py").exists():
        print("\n3. kaeru solve: tui/cli.py does not exist yet, skipped")
        return
    env = child_env()
    solve = [sys.executable, "-m", "kaeru.tui.cli", "solve"]
    timed_command([*solve, "oshidori"], env, 1)  # fills the bytecode cache
    idle_wall, idle_cpu = timed_command([sys.executable, "-c", "import numpy, engine"], env,
                                        repeat)
    cases = [(pid, None) for pid in line_ids()] + extra_starts
    rows, worst = [], (0.0, 0.0)
    for pid, start in cases:
        puzzle = get_puzzle(pid)
        begin = start if start is not None else puzzle.initial()
        search_s, solution = best_time(lambda p=puzzle, s=begin: dispatch.solve(p, s, s))
        command = [*solve, pid] + (["--from", start] if start is not None else [])
        wall, cpu = timed_command(command, env, repeat)
        worst = max(worst, (wall, cpu))
        verdict = "yes" if wall < TARGET_SECONDS else "CPU only" if cpu < TARGET_SECONDS else "NO"
        rows.append([pid, begin, str(solution.length), solution.stats.algorithm, ms(search_s),
                     ms(wall), ms(cpu), verdict])
    print_table(
        f"3. kaeru solve, end to end (python -m kaeru.tui.cli solve ID [--from START]), "
        f"best of {repeat}",
        ["puzzle", "start", "moves", "algorithm", "search ms", "wall ms", "CPU ms", "< 1 s"],
        rows,
        f"   wall = elapsed; CPU = the child's user + system time (what an idle machine would "
        f"take). An interpreter that only\n   imports numpy and engine: {ms(idle_wall)} ms wall, "
        f"{ms(idle_cpu)} ms CPU. Worst: {ms(worst[0])} ms wall. 'CPU only': over 1 s of wall "
        "time\n   because the cores were busy, under 1 s of CPU.",
    )


def hardest_number_reversal_start() -> str:
    """The start farthest from number-reversal-10's goal: the goal's mirror of the start's
    farthest position (found by enumeration)."""
    puzzle = get_puzzle("number-reversal-10")
    farthest = dispatch.enumerate_space(puzzle, puzzle.initial()).farthest[0]
    return farthest[::-1]


def load_average() -> str:
    return ", ".join(f"{x:.1f}" for x in os.getloadavg())


# ---- the whole run -------------------------------------------------------------------------------
def sizes(text: str) -> list[int]:
    low, _, high = text.partition("-")
    return list(range(int(low), int(high or low) + 1))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--enumerate", type=sizes, default=sizes("10-16"), metavar="N-M")
    parser.add_argument("--solve", type=sizes, default=sizes("12-16"), metavar="N-M")
    parser.add_argument("--quick", action="store_true", help="N = 12 and 16, half the starts")
    parser.add_argument("--tables", default="1,2,3,4", help="which tables, e.g. 1,3 (default all)")
    parser.add_argument("--costs", type=sizes, default=sizes("19-20"), metavar="N-M",
                        help="sizes of table 4 (solver against enumeration)")
    parser.add_argument("--no-memory", action="store_true", help="skip the peak-memory runs")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each kaeru solve")
    args = parser.parse_args(argv)
    if args.quick:
        args.enumerate, args.solve = [12, 16], [12, 16]
    print(f"Kaeru Arcade, line puzzles — Python {platform.python_version()}, numpy "
          f"{np.__version__}, {os.cpu_count()} cores, load average {load_average()}")
    tables = set(args.tables.split(","))
    began = time.perf_counter()
    if "1" in tables:
        enumeration_table(args.enumerate, memory=not args.no_memory)
    timings = solve_table(args.solve, half=args.quick) if "2" in tables else []
    if "3" in tables:
        extra = []
        if timings:
            pid, start, _ = max(timings, key=lambda t: t[2])
            extra.append((pid, start))
        extra.append(("number-reversal-10", hardest_number_reversal_start()))
        cli_table(extra, args.repeat)
    if "4" in tables:
        solver_cost_table(args.costs)
    print(f"\n(whole run: {time.perf_counter() - began:.0f} s; load average now {load_average()})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
