"""Benchmark: the explorer's counts (`engine.catalogue.explorable.count_to_goal`) against the
figures its verdict (`explore_refusal`) decides from, one puzzle per subprocess (so each peak memory
is its own), to check the limits in `engine/catalogue/explorable.py`.

For each puzzle: the figure (perfect index or board arrangements), the positions counted, the
ratio counted / figure, the seconds, the rate, the peak memory, and how it was counted. The
baseline is the first row of the same kind of search in the same run (rate ratio).

    nice -n 10 python bench/explore_sizes.py            # every puzzle the explorer offers
    nice -n 10 python bench/explore_sizes.py frogs-10   # some ids
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kaeru.engine.catalogue.explorable import (
    count_to_goal,
    explore_refusal,
    position_count,
    uses_numpy,
)
from kaeru.engine.puzzles.registry import all_ids, get_puzzle


def measure(puzzle_id: str) -> dict[str, object]:
    puzzle = get_puzzle(puzzle_id)
    figure, exact = position_count(puzzle)
    began = time.perf_counter()
    counted = count_to_goal(puzzle)
    seconds = time.perf_counter() - began
    return {
        "id": puzzle_id,
        "figure": figure,
        "exact": exact,
        "positions": counted.positions,
        "seconds": seconds,
        "mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024,
        "kind": "numpy" if uses_numpy(puzzle) else "python",
    }


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[1] == "--one":
        print(json.dumps(measure(sys.argv[2])))
        return
    ids = sys.argv[1:] or [i for i in all_ids() if explore_refusal(get_puzzle(i)) is None]
    print(
        f"{'puzzle':<26}{'figure':>14}{'counted':>12}{'share':>7}{'s':>7}{'pos/s':>11}"
        f"{'vs base':>8}{'MB':>6}  search"
    )
    baseline: dict[str, float] = {}
    for puzzle_id in ids:
        run = subprocess.run(
            [sys.executable, __file__, "--one", puzzle_id],
            capture_output=True,
            text=True,
            check=False,
        )
        if run.returncode != 0:
            print(f"{puzzle_id:<26} failed: {run.stderr.strip().splitlines()[-1:]}")
            continue
        row = json.loads(run.stdout)
        rate = row["positions"] / max(row["seconds"], 1e-6)
        base = baseline.setdefault(row["kind"], rate)
        print(
            f"{row['id']:<26}{row['figure']:>14,}{row['positions']:>12,}"
            f"{row['positions'] / row['figure']:>7.2f}{row['seconds']:>7.2f}{rate:>11,.0f}"
            f"{rate / base:>8.2f}{row['mb']:>6}  {row['kind']}"
        )


if __name__ == "__main__":
    main()
