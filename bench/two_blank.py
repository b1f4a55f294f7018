"""Benchmark: the two-blank state spaces, enumerated three ways, side by side in one run.

1. the depth table over the perfect index (`engine.tables.dense.dense_bfs`, what the app uses);
2. the same search with the large chunks the generic CodedPuzzle route once used (1 << 21);
3. a plain numpy BFS written the simple way: each board packed into a uint64 (4 bits a cell),
   layers kept as sorted arrays of codes (sets), next layer = unique(children) minus the two
   previous layers.

Each run happens in a fresh process, so its peak memory (ru_maxrss) is its own. Then the table's
size on disk and the time to load it. Targets for the 14-puzzle: ≤ 120 s, ≤ 1.5 GB, table
≤ 80 MB on disk, loaded in ≤ 1 s.

    python bench/two_blank.py            # 7, 10 and 14: ~5 minutes on 2 cores (the plain BFS)
    python bench/two_blank.py --quick    # the same without the plain BFS on 4x4: ~30 s
    python bench/two_blank.py --boards 4x3
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

BOARDS = {"3x3": (3, 3), "4x3": (4, 3), "4x4": (4, 4)}
METHODS = ("index", "generic", "plain")
TITLES = {
    "index": "perfect index + layered BFS (app)",
    "generic": "same index, dense_bfs, chunks of 1<<21",
    "plain": "plain numpy BFS, sets of packed boards",
}


# ---- the three ways, each run in its own process -------------------------------------------------
def run_method(method: str, width: int, height: int) -> dict:
    from kaeru.engine.rules.control import Control, Meter
    from kaeru.engine.two_blank.geometry import Geometry
    from kaeru.engine.two_blank.index import TwoBlankIndex

    baseline = peak_mb()
    geometry = Geometry(width, height)
    started = time.perf_counter()
    if method == "plain":
        histogram = plain_bfs(geometry)
    else:
        index = TwoBlankIndex(geometry)
        root = np.array([index.encode(geometry.goal)])
        from kaeru.engine.tables.dense import dense_bfs

        chunk = 1 << 18 if method == "index" else 1 << 21
        meter = Meter("bench", Control(budget=None))
        depth = dense_bfs(index.space_size, root, index.expand_codes, meter, chunk)
        from kaeru.engine.tables.survey import count_depths

        histogram = count_depths(depth).tolist()
    seconds = time.perf_counter() - started
    return {
        "seconds": seconds,
        "peak_mb": peak_mb(),
        "baseline_mb": baseline,
        "positions": int(sum(histogram)),
        "max_depth": len(histogram) - 1,
    }


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: kilobytes


def plain_bfs(geometry) -> list[int]:
    """Breadth-first from the goal over boards packed 4 bits a cell; no index, no table.

    Layers are sorted arrays of unique codes (numpy's sets). The graph is undirected, so a
    child is new unless it is in the current layer or the one before.
    """
    goal = sum(tile << (4 * i) for i, tile in enumerate(geometry.goal))
    previous = np.empty(0, dtype=np.uint64)
    current = np.array([goal], dtype=np.uint64)
    histogram = [1]
    while True:
        parts = [
            plain_children(current[i : i + PLAIN_CHUNK], geometry)
            for i in range(0, current.size, PLAIN_CHUNK)
        ]
        children = np.unique(np.concatenate(parts))
        fresh = children[~(member(children, current) | member(children, previous))]
        if fresh.size == 0:
            return histogram
        histogram.append(int(fresh.size))
        previous, current = current, fresh


PLAIN_CHUNK = 1 << 20


def member(values: np.ndarray, sorted_set: np.ndarray) -> np.ndarray:
    """Which of `values` are in `sorted_set` (a sorted array of unique codes)."""
    if sorted_set.size == 0:
        return np.zeros(values.size, dtype=bool)
    where = np.minimum(np.searchsorted(sorted_set, values), sorted_set.size - 1)
    return sorted_set[where] == values


def plain_children(boards: np.ndarray, geometry) -> np.ndarray:
    """Every child of every packed board: find the pair, then move nibbles with shifts."""
    four, fifteen = np.uint64(4), np.uint64(15)
    width = np.uint64(geometry.width)
    left = np.zeros(boards.size, dtype=np.uint64)  # the pair's left cell: the first empty one
    for cell in reversed(range(geometry.cells)):
        left[((boards >> np.uint64(4 * cell)) & fifteen) == 0] = cell
    row, col = left // width, left % width
    out = []
    for direction in ("right", "left", "down", "up"):
        if direction == "right":
            ok = col >= 1
            moves = [(left - 1, left + 1)]
        elif direction == "left":
            ok = col + np.uint64(2) < width
            moves = [(left + 2, left)]
        elif direction == "down":
            ok = row >= 1
            moves = [(left - width, left), (left - width + 1, left + 1)]
        else:
            ok = row + np.uint64(1) < np.uint64(geometry.height)
            moves = [(left + width, left), (left + width + 1, left + 1)]
        b = boards[ok]
        moved = b.copy()
        for source, target in moves:
            source, target = source[ok] * four, target[ok] * four
            tile = (b >> source) & fifteen
            moved &= ~(fifteen << source)  # the tile leaves its cell ...
            moved |= tile << target  # ... and lands on an empty one
        out.append(moved)
    return np.concatenate(out)


# ---- the cache file ------------------------------------------------------------------------------
def cache_figures(width: int, height: int) -> dict:
    """Build once, save to a temporary cache folder, and time loading it back (best of 3)."""
    with tempfile.TemporaryDirectory() as folder:
        os.environ["KAERU_CACHE_DIR"] = folder
        from kaeru.engine.tables import store
        from kaeru.engine.two_blank import table as tables
        from kaeru.engine.two_blank.geometry import Geometry
        from kaeru.engine.two_blank.index import TwoBlankIndex

        index = TwoBlankIndex(Geometry(width, height))
        name = f"two-blank-{width}x{height}"
        store.forget()
        tables.load_or_build(name, index)
        size = tables.table_path(name).stat().st_size
        loads = []
        for _ in range(3):
            store.forget()
            started = time.perf_counter()
            loaded = tables.load_or_build(name, index)
            loads.append(time.perf_counter() - started)
            assert loaded.source == "disk"
        store.forget()
    return {"disk_mb": size / 1e6, "load_s": min(loads)}


def in_process(function, *args) -> dict:
    """Run `function(*args)` in a fresh interpreter (so memory figures are its own)."""
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        return pool.apply(function, args)


# ---- the table -----------------------------------------------------------------------------------
def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", nargs="+", choices=list(BOARDS), default=list(BOARDS))
    parser.add_argument("--methods", nargs="+", choices=METHODS, default=list(METHODS))
    parser.add_argument(
        "--quick", action="store_true", help="leave out the plain BFS on 4x4 (about 5 minutes)"
    )
    args = parser.parse_args(argv)
    print(f"two-blank enumeration from the goal ({os.cpu_count()} cores)")
    header = f"{'board':<6} {'method':<40} {'positions':>12} {'depth':>5} {'seconds':>8} "
    header += f"{'peak MB':>8} {'x time':>7} {'x mem':>6}"
    print(header)
    print("-" * len(header))
    for board in args.boards:
        width, height = BOARDS[board]
        methods = [m for m in args.methods if not (args.quick and board == "4x4" and m == "plain")]
        results = {m: in_process(run_method, m, width, height) for m in methods}
        first = results[methods[0]]
        for method, r in results.items():
            print(
                f"{board:<6} {TITLES[method]:<40} {r['positions']:>12,} {r['max_depth']:>5} "
                f"{r['seconds']:>8.2f} {r['peak_mb']:>8.0f} "
                f"{r['seconds'] / first['seconds']:>7.2f} {r['peak_mb'] / first['peak_mb']:>6.2f}"
            )
        counts = {r["positions"] for r in results.values()}
        assert len(counts) == 1, f"the methods disagree: {counts}"
        cache = in_process(cache_figures, width, height)
        print(
            f"{board:<6} {'cached table: size on disk, load time':<40} "
            f"{cache['disk_mb']:>10.2f} MB {'':>5} {cache['load_s']:>8.3f}"
        )
    print(
        f"(peak MB is the process's whole peak RSS; an idle interpreter with numpy is "
        f"~{first['baseline_mb']:.0f} MB; ratios are against the first method)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
