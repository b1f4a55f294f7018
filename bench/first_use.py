"""Benchmark: every table built on first use, from an empty cache, against the estimate its
progress note starts with (engine.tables.first_use; issue 12 "first-use waits explained").

Each build runs in a fresh process (`nice -n 10`, as the search worker runs) with an empty
KAERU_CACHE_DIR and no NUMBA_CACHE_DIR, so compiled code is not reused either. Printed per
build: the seconds it took, the estimate the first note gives (the plan's measured figure),
their ratio, the size on disk, and how many progress reports carried a note (one every
0.2 s) with the first and last fraction done.

    python bench/first_use.py             # everything but the 15-puzzle's 7-8 databases (~1 min)
    python bench/first_use.py --pdb78     # those too (minutes, about 1.6 GB of memory)
    python bench/first_use.py --only two-blank-4x4
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

# name -> the code that builds it (given `control`) and the code that gives its BuildPlan
CASES: dict[str, tuple[str, str]] = {
    "sliding-3x3": (
        "from kaeru.engine.sliding.optimal import full_table as m; "
        "from kaeru.engine.sliding.board.geometry "
        "import grid; full_table = lambda c: m.full_table(grid(3, 3), c)",
        "from math import factorial; plan = m.build_plan(grid(3, 3), factorial(9))",
    ),
    "sliding-5x2": (
        "from kaeru.engine.sliding.optimal import full_table as m; "
        "from kaeru.engine.sliding.board.geometry "
        "import grid; full_table = lambda c: m.full_table(grid(5, 2), c)",
        "from math import factorial; plan = m.build_plan(grid(5, 2), factorial(10))",
    ),
    "two-blank-3x3": (
        "from kaeru.engine.puzzles.registry import get_puzzle; p = get_puzzle('two-blank-3x3'); "
        "full_table = p.depth_table",
        "from kaeru.engine.two_blank.table import build_plan; plan = build_plan(p.index)",
    ),
    "two-blank-4x3": (
        "from kaeru.engine.puzzles.registry import get_puzzle; p = get_puzzle('two-blank-4x3'); "
        "full_table = p.depth_table",
        "from kaeru.engine.two_blank.table import build_plan; plan = build_plan(p.index)",
    ),
    "two-blank-4x4": (
        "from kaeru.engine.puzzles.registry import get_puzzle; p = get_puzzle('two-blank-4x4'); "
        "full_table = p.depth_table",
        "from kaeru.engine.two_blank.table import build_plan; plan = build_plan(p.index)",
    ),
    "pdb-4x3": (
        "from kaeru.engine.sliding.databases import pattern_db as m; "
        "from kaeru.engine.sliding.board.geometry "
        "import grid; g = grid(4, 3); full_table = lambda c: m.pattern_database(g, None, c)",
        "groups = m.default_partition(g).groups; "
        "plan = [m.build_plan(g, x, 1, len(groups)) for x in groups]",
    ),
    "pdb-4x4-663": (
        "from kaeru.engine.sliding.databases import pattern_db as m; "
        "from kaeru.engine.sliding.board.geometry "
        "import grid; g = grid(4, 4); full_table = lambda c: m.pattern_database(g, None, c)",
        "groups = m.default_partition(g).groups; "
        "plan = [m.build_plan(g, x, 1, len(groups)) for x in groups]",
    ),
    "compile-walking": (
        "from kaeru.engine.sliding.optimal import ida; "
        "from kaeru.engine.puzzles.registry import get_puzzle; "
        "s = get_puzzle('sliding-4x4').grid.goal; s = s[:14] + (s[15], s[14]); "
        "full_table = lambda c: ida.solve_walking(4, s, c)",
        "from kaeru.engine.sliding.optimal.ida_kernels import ida_walking; "
        "plan = ida.compile_plan(ida_walking)",
    ),
    "pdb78": (
        "from kaeru.engine.sliding.databases import pdb78; full_table = pdb78.pattern_set",
        "plan = [pdb78.build_plan(g) for g in pdb78.GROUPS]",
    ),
}
SLOW = {"pdb78"}

CHILD = """
import json, time
from kaeru.engine.rules.control import Control
{build}
{plan}
plans = plan if isinstance(plan, list) else [plan]
notes = []
control = Control(progress=lambda s: notes.append((s.note, s.progress)) if s.note else None)
started = time.perf_counter()
full_table(control)
seconds = time.perf_counter() - started
fractions = [f for n, f in notes if f is not None and not n.startswith("Saving")]
print(json.dumps({{
    "seconds": seconds,
    "estimate": sum(p.seconds for p in plans),
    "notes": len(notes),
    "first": fractions[0] if fractions else None,
    "last": fractions[-1] if fractions else None,
    "note": notes[0][0] if notes else "",
}}))
"""


def run(name: str) -> dict[str, object]:
    build, plan = CASES[name]
    with tempfile.TemporaryDirectory(prefix="kaeru-first-use-") as folder:
        env = dict(os.environ, KAERU_CACHE_DIR=folder, KAERU_PDB_BUILD="off")
        env.pop("NUMBA_CACHE_DIR", None)
        code = CHILD.format(build=build, plan=plan)
        started = time.perf_counter()
        done = subprocess.run(
            ["nice", "-n", "10", sys.executable, "-c", code],
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        wall = time.perf_counter() - started
        if done.returncode != 0:
            return {"error": done.stderr.strip().splitlines()[-1]}
        figures = json.loads(done.stdout.strip().splitlines()[-1])
        size = sum(p.stat().st_size for p in Path(folder).rglob("*") if p.is_file())
        figures.update(wall=wall, megabytes=size / 1e6)
        return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pdb78", action="store_true", help="also the 7-8 databases (minutes)")
    parser.add_argument("--only", nargs="*", help="these cases only", choices=sorted(CASES))
    args = parser.parse_args()
    names = args.only or [n for n in CASES if args.pdb78 or n not in SLOW]
    print(
        f"{'build':16} {'seconds':>8} {'estimate':>9} {'ratio':>6} {'MB':>7} "
        f"{'notes':>6} {'from':>5} {'to':>5}"
    )
    for name in names:
        f = run(name)
        if "error" in f:
            print(f"{name:16} failed: {f['error']}")
            continue
        seconds, estimate = float(f["seconds"]), float(f["estimate"])  # type: ignore[arg-type]
        first = "-" if f["first"] is None else f"{f['first']:.2f}"
        last = "-" if f["last"] is None else f"{f['last']:.2f}"
        print(
            f"{name:16} {seconds:8.1f} {estimate:9.1f} {estimate / seconds:6.2f} "
            f"{f['megabytes']:7.1f} {f['notes']:6} {first:>5} {last:>5}",
            flush=True,
        )
    print(f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")


if __name__ == "__main__":
    main()
