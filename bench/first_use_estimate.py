"""Benchmark: how near the truth a first-use build's "time left" is as the build goes (issue 25:
the 14-puzzle's said "about 15 s left" at 1 %, 10 % and 44 % and took 27 s).

One real build from an empty cache in a fresh niced process (as bench/first_use.py), each
progress report kept with its time; then, at a few fractions done, the seconds truly left beside
what the note said (engine.tables.first_use.Pace: the build's own rate, smoothed) and what the
old estimate (the measured figure blended into the rate up to half way) would have said for the
same report.

    python bench/first_use_estimate.py                       # the 14-puzzle (two blanks), ~30 s
    python bench/first_use_estimate.py --only pdb-4x3
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.first_use import CASES

CHILD = """
import json, time
from kaeru.engine.rules.control import Control
{build}
{plan}
plans = plan if isinstance(plan, list) else [plan]
reports = []
started = time.perf_counter()
def seen(s):
    if s.note and not s.note.startswith("Saving") and s.progress is not None:
        reports.append((time.perf_counter() - started, s.progress, s.note))
full_table(Control(progress=seen))
print(json.dumps({{"seconds": time.perf_counter() - started, "measured": plans[0].seconds,
                   "reports": reports}}))
"""
AT = (0.01, 0.05, 0.10, 0.25, 0.44, 0.60, 0.80, 0.95)


def old_estimate(measured: float, fraction: float, elapsed: float) -> float:
    """The estimate before issue 25's fix, for the same report."""
    by_measure = measured - elapsed
    if fraction < 0.05 or elapsed <= 0:
        return by_measure
    by_rate = elapsed * (1.0 - fraction) / fraction
    weight = min(1.0, 2.0 * fraction)
    return weight * by_rate + (1.0 - weight) * max(by_measure, 0.0)


def said(note: str) -> str:
    return note.split("on disk, ", 1)[1].split(".", 1)[0] if "on disk, " in note else note[-30:]


def main() -> None:
    from kaeru.engine.tables.first_use import say_time_left

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="two-blank-4x4", choices=sorted(CASES))
    args = parser.parse_args()
    build, plan = CASES[args.only]
    with tempfile.TemporaryDirectory(prefix="kaeru-estimate-") as folder:
        env = dict(os.environ, KAERU_CACHE_DIR=folder, KAERU_PDB_BUILD="off")
        done = subprocess.run(
            ["nice", "-n", "10", sys.executable, "-c", CHILD.format(build=build, plan=plan)],
            env=env, capture_output=True, text=True, check=False,
        )
    if done.returncode != 0:
        print(f"{args.only} failed: {done.stderr.strip().splitlines()[-1]}")
        return
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    total, measured = float(figures["seconds"]), float(figures["measured"])
    print(f"{args.only}: built in {total:.1f} s (measured figure {measured:.1f} s), "
          f"{len(figures['reports'])} reports")
    print(f"{'done':>5} {'at s':>6} {'truly left':>10}  {'the note says (new)':<26} old said")
    for target in AT:
        report = next((r for r in figures["reports"] if r[1] >= target), None)
        if report is None:
            continue
        elapsed, fraction, note = report
        old = say_time_left(old_estimate(measured, fraction, elapsed))
        print(f"{fraction:5.0%} {elapsed:6.1f} {total - elapsed:9.1f}s  {said(note):<26} {old:<20}")
    print(f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")


if __name__ == "__main__":
    main()
