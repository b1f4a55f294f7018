"""Benchmark for issue 15's 15-puzzle goals, every table measured in one run.

1. Cold start: the first optimal hint on a fresh install (empty KAERU_CACHE_DIR, so no pattern
   database and no compiled code), each in a fresh process: before (BFIDA* over the 6-6-3
   databases, which it must build first) and now (compiled IDA* with walking distance, which
   needs nothing); then the same again with the cache warm (compiled code kept).
2. Korf's 100 (bench/data/korf100.txt): compiled IDA* with max(walking distance, 7-8 pattern
   databases + mirror), CPU seconds per instance (mean, median, max), all checked optimal; beside
   it walking distance alone (capped).
3. The seventeen 80-move positions (bench/data/fifteen_80.txt): CPU seconds, nodes and the
   process's peak memory each, one fresh process per position (length checked: 80).
4. The 7-8 databases built from scratch in a fresh process (--build): time, peak memory.

Published anchors, printed beside ours (other machines, other languages): an additive 7-8
pattern database solver in C++ averages 15 s on the 80-move positions (worst 30 s); a Java
solver with 7-8 databases and symmetry reports a worst of 44 s; a plain 6-6-3 IDA* in C takes
150-390 s each.

    python bench/fifteen.py --tables DIR         # DIR: a cache folder holding (or to hold)
                                                 # the 7-8 databases; built there if missing
    python bench/fifteen.py --tables DIR --quick # 20 of Korf's 100, 3 of the 80-move positions
    python bench/fifteen.py --build              # section 4 too (minutes)
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "bench" / "data"
sys.path.insert(0, str(ROOT))

ANCHORS = [
    ("C++, additive 7-8 PDB", "mean 15 s, worst 30 s"),
    ("Java, 7-8 PDB + symmetry", "worst 44 s"),
    ("C, plain 6-6-3 IDA*", "150-390 s each"),
]


def korf100() -> list[tuple[int, int, tuple[int, ...]]]:
    rows = []
    for line in (DATA / "korf100.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            number, length, *tiles = (int(x) for x in line.split())
            state = tuple(16 - t if t else 0 for t in reversed(tiles))  # Korf's convention
            rows.append((number, length, state))
    return rows


def eighty() -> list[tuple[int, ...]]:
    return [tuple(int(x) for x in line.split())
            for line in (DATA / "fifteen_80.txt").read_text().splitlines()
            if line and not line.startswith("#")]


def table(rows: list[list[str]], head: list[str]) -> str:
    widths = [max(len(str(r[i])) for r in [head, *rows]) for i in range(len(head))]
    lines = ["  ".join(f"{h:>{w}}" for h, w in zip(head, widths, strict=True))]
    lines.append("  ".join("-" * w for w in widths))
    lines += ["  ".join(f"{c:>{w}}" for c, w in zip(r, widths, strict=True)) for r in rows]
    return "\n".join(lines)


def child(mode: str, payload: dict) -> dict:
    """Run this script in a fresh process in `mode`; its last output line is JSON."""
    env = dict(os.environ)
    if "cache" in payload:
        env["KAERU_CACHE_DIR"] = payload["cache"]
        env.pop("NUMBA_CACHE_DIR", None)
    done = subprocess.run([sys.executable, __file__, "--child", mode, json.dumps(payload)],
                          capture_output=True, text=True, env=env, check=False)
    if done.returncode != 0:
        return {"error": done.stderr.strip().splitlines()[-1] if done.stderr else "failed"}
    return json.loads(done.stdout.strip().splitlines()[-1])


def run_child(mode: str, payload: dict) -> None:
    started = time.perf_counter()
    from kaeru.engine.control import Control
    from kaeru.engine.puzzles.sliding import FIFTEEN_ONLY, HEURISTICS, make_sliding

    puzzle = make_sliding(4, 4)
    state = tuple(payload["state"])
    free = Control(budget=None)
    cpu = time.process_time()
    if mode == "hint-old":
        solution = puzzle.solve_with(HEURISTICS[0], state, state, free)
    elif mode == "hint-new":
        solution = puzzle.own_solve(state, state, free)
    else:  # "pdb": the 7-8 databases (built if missing)
        solution = puzzle.solve_with(FIFTEEN_ONLY[1], state, state, free)
    out = {
        "length": solution.length,
        "wall": time.perf_counter() - started,
        "cpu": time.process_time() - cpu,
        "nodes": solution.stats.generated,
        "algorithm": solution.stats.algorithm,
        "peak": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
        "process_cpu": sum(resource.getrusage(resource.RUSAGE_SELF)[:2]),
    }
    print(json.dumps(out))


# ---- 1. cold start -------------------------------------------------------------------------------
def section_cold(quick: bool) -> str:
    cases = [("Korf #1", korf100()[0][2]), ("Korf #60", korf100()[59][2])]
    rows = []
    for name, state in cases[:1] if quick else cases:
        times = {}
        for mode in ("hint-old", "hint-new"):
            with tempfile.TemporaryDirectory() as folder:
                cold = child(mode, {"cache": folder, "state": state})
                again = mode == "hint-new"
                warm = child(mode, {"cache": folder, "state": state}) if again else {}
            times[mode] = (cold, warm)
        old, new, warm = times["hint-old"][0], times["hint-new"][0], times["hint-new"][1]
        def both(got: dict) -> str:
            return f"{got.get('wall', 0):.1f} s / {got.get('process_cpu', 0):.1f} s"

        rows.append([name, str(new.get("length")), both(old), both(new), both(warm),
                     f"{old.get('wall', 0) / max(new.get('wall', 1e-9), 1e-9):.0f}x"])
    head = ["position", "moves", "before: 6-6-3 build + BFIDA*", "now, cold: WD IDA*",
            "now, warm", "speed-up (wall)"]
    return ("1. First optimal hint on a fresh install: whole process (wall / CPU), empty cache "
            "folder (target < 5 s)\n" + table(rows, head))


# ---- 2. Korf's 100 -------------------------------------------------------------------------------
def section_korf(quick: bool, cap: float) -> str:
    from kaeru.engine.control import Control
    from kaeru.engine.results import Cancelled
    from kaeru.engine.sliding import ida, pdb78

    pdb78.pattern_set()
    instances = korf100()[:20] if quick else korf100()
    pdb_times, wd_times, wd_capped, nodes = [], [], 0, []
    worst = (0.0, 0)
    for number, length, state in instances:
        cpu = time.process_time()
        found = ida.solve_pattern(state, Control(budget=None))
        seconds = time.process_time() - cpu
        assert len(found.states) - 1 == length, f"Korf #{number}: not optimal"
        pdb_times.append(seconds)
        nodes.append(found.stats.generated)
        worst = max(worst, (seconds, number))
        cpu = time.process_time()
        try:
            over = lambda c=cpu: time.process_time() - c > cap  # noqa: E731
            walked = ida.solve_walking(4, state, Control(budget=None, cancelled=over))
            assert walked is not None and len(walked.states) - 1 == length
            wd_times.append(time.process_time() - cpu)
        except Cancelled:
            wd_capped += 1
            wd_times.append(cap)
    rows = [
        ["IDA*, max(WD+ID, 7-8 PDB + mirror)", str(len(instances)),
         f"{statistics.mean(pdb_times):.3f} s", f"{statistics.median(pdb_times):.3f} s",
         f"{worst[0]:.2f} s (#{worst[1]})", f"{statistics.mean(nodes):,.0f}"],
        ["IDA*, walking + inversion distance", str(len(instances)),
         f"{statistics.mean(wd_times):.3f} s", f"{statistics.median(wd_times):.3f} s",
         f"{max(wd_times):.2f} s" + (f" ({wd_capped} hit the {cap:.0f} s cap)" if wd_capped
                                     else ""),
         ""],
        ["before: BFIDA*, 6-6-3 PDB (numpy)", "100", "0.8 s", "", "4.3 s", "(issue 15)"],
    ]
    head = ["solver", "instances", "mean CPU", "median", "max", "mean nodes"]
    return ("2. Korf's 100, every one optimal (CPU seconds, databases loaded)\n"
            + table(rows, head))


# ---- 3. the 80-move positions --------------------------------------------------------------------
def section_eighty(quick: bool, tables: str) -> str:
    rows, times = [], []
    positions = eighty()[:3] if quick else eighty()
    for number, state in enumerate(positions, 1):
        got = child("pdb", {"cache": tables, "state": list(state)})
        if "error" in got:
            rows.append([str(number), "-", got["error"][:60], "", ""])
            continue
        assert got["length"] == 80
        times.append(got["cpu"])
        rows.append([str(number), str(got["length"]), f"{got['cpu']:.1f} s",
                     f"{got['nodes']:,}", f"{got['peak'] / 2**20:.0f} MB"])
    head = ["#", "moves", "CPU", "nodes", "peak memory (process)"]
    summary = (f"mean {statistics.mean(times):.1f} s, worst {max(times):.1f} s "
               f"(target: each < 60 s, < 2 GB)" if times else "none finished")
    anchors = "\n".join(f"  published: {who}: {what}" for who, what in ANCHORS)
    return ("3. The seventeen 80-move positions, one fresh process each (databases on disk)\n"
            + table(rows, head) + "\n" + summary + "\n" + anchors)


# ---- 4. the build --------------------------------------------------------------------------------
def section_build() -> str:
    with tempfile.TemporaryDirectory() as folder:
        got = child("pdb", {"cache": folder, "state": list(korf100()[11][2])})
    if "error" in got:
        return "4. 7-8 databases from scratch: " + got["error"]
    return ("4. 7-8 databases from scratch in a fresh process (then Korf #12)\n" + table(
        [[f"{got['wall']:.0f} s", f"{got['cpu']:.0f} s", f"{got['peak'] / 2**20:.0f} MB"]],
        ["wall", "CPU", "peak memory"]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", help="cache folder for the 7-8 databases (default: yours)")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--build", action="store_true", help="also time a build from scratch")
    parser.add_argument("--cap", type=float, default=30.0,
                        help="CPU seconds allowed to walking distance alone per instance")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        run_child(args.child[0], json.loads(args.child[1]))
        return 0
    if args.tables:
        os.environ["KAERU_CACHE_DIR"] = args.tables
    from kaeru.engine.tables.folder import cache_dir

    tables = str(cache_dir())
    sections = [section_cold(args.quick), section_korf(args.quick, args.cap),
                section_eighty(args.quick, tables)]
    if args.build:
        sections.append(section_build())
    print("\n\n".join(sections))
    return 0


if __name__ == "__main__":
    sys.exit(main())
