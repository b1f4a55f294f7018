"""Benchmark: building depth tables with `engine.tables` against the code it replaced, one run.

Rows (each old and new measured in this process, alternately; the tables must be equal):
1. the 8-puzzle's table (181,440 layouts in 9! codes): the old `sliding/full_table.py` search
   (copied below) against `dense_bfs_carrying`;
2. the 14-puzzle's table (two-blank-4x4, 76,204,800 positions): the old `two_blank/bfs.py`
   search (copied below) against `dense_bfs`;
3. keeping a table: the old `np.save` + `os.replace` and `np.load` with a shape check, against
   the store's checked file (`files.write_table` / `read_table`, CRC-32 over the data); and
   opening it again: read and checked each time (before issue 24) against mapped read-only,
   checked once per file version (`files.map_table`);
4. the whole first use through the store (`load_or_build`: lock, build, write) against the old
   build + save.

    python bench/tables.py            # 8-puzzle best of 5, 14-puzzle best of 2: ~4 minutes
    python bench/tables.py --quick    # the 10-puzzle (two-blank-4x3) in place of the 14-puzzle
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kaeru.engine.rules.control import Control, Meter
from kaeru.engine.sliding.board.geometry import State, grid
from kaeru.engine.sliding.board.perm_codes import PermutationCodes
from kaeru.engine.sliding.optimal.full_table import layered_depths
from kaeru.engine.tables import files, store
from kaeru.engine.two_blank.geometry import Geometry
from kaeru.engine.two_blank.index import TwoBlankIndex
from kaeru.engine.two_blank.table import index_depths

UNREACHED = 255
OLD_CHUNK = 1 << 18


# ---- the old code, kept here only as the baseline ------------------------------------------------
def old_sliding_depths(codes: PermutationCodes, root: State, meter: Meter) -> np.ndarray:
    """engine/sliding/optimal/full_table.py's `layered_depths` before engine.tables (verbatim
    logic)."""
    depth = np.full(codes.space_size, UNREACHED, dtype=np.uint8)
    owner = np.zeros(codes.space_size, dtype=np.int32)
    frontier = np.array([codes.encode(root)], dtype=np.int64)
    boards = np.array([codes.pack(root)], dtype=np.int64)
    blanks = np.array([root.index(0)], dtype=np.int64)
    depth[frontier] = 0
    d = 0
    while frontier.size:
        meter.depth, meter.frontier = d, int(frontier.size)
        found, parents, cells = [], [], []
        for ok, targets in codes.slides(blanks):
            rows = np.flatnonzero(ok)
            child = codes.child_codes(frontier[rows], boards[rows], blanks[rows], targets)
            fresh = depth[child] == UNREACHED
            found.append(child[fresh])
            parents.append(rows[fresh])
            cells.append(targets[fresh])
            meter.generated += int(child.size)
        child, parent, cell = (np.concatenate(x) for x in (found, parents, cells))
        owner[child] = np.arange(child.size, dtype=np.int32)
        keep = owner[child] == np.arange(child.size, dtype=np.int32)
        child, parent, cell = child[keep], parent[keep], cell[keep]
        depth[child] = d + 1
        boards, old_blank = boards[parent], blanks[parent]
        tile = (boards >> (cell << 2)) & 15
        boards += (tile << (old_blank << 2)) - (tile << (cell << 2))
        frontier, blanks = child, cell
        meter.tick(int(frontier.size))
        meter.check()
        d += 1
    return depth


def old_two_blank_depths(index: TwoBlankIndex, root: int, meter: Meter) -> np.ndarray:
    """engine/two_blank/bfs.py's `layered_bfs` before engine.tables (verbatim logic)."""
    depth = np.full(index.space_size, UNREACHED, dtype=np.uint8)
    depth[root] = 0
    frontier = np.array([root], dtype=np.int64)
    found = 1
    d = 0
    while frontier.size:
        meter.depth, meter.frontier = d, int(frontier.size)
        for begin in range(0, frontier.size, OLD_CHUNK):
            chunk = frontier[begin : begin + OLD_CHUNK]
            children = index.expand_codes(chunk)
            meter.generated += int(children.size)
            fresh = children[depth[children] == UNREACHED]
            depth[fresh] = d + 1
            meter.tick(int(chunk.size))
            meter.check()
        d += 1
        frontier = np.flatnonzero(depth == d)
        found += int(frontier.size)
    if found != index.space_size:
        raise RuntimeError("two-blank index is wrong")
    return depth


def old_save(path: Path, table: np.ndarray) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    with os.fdopen(fd, "wb") as handle:
        np.save(handle, table, allow_pickle=False)
    os.replace(tmp, path)


def old_load(path: Path, shape: tuple[int, ...]) -> np.ndarray | None:
    table = np.load(path, allow_pickle=False)
    return table if table.shape == shape and table.dtype == np.uint8 else None


# ---- measuring -----------------------------------------------------------------------------------
def meter() -> Meter:
    return Meter("bench", Control(budget=None))


def best(function: Callable[[], object], runs: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(runs):
        started = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - started)
    return min(times), result


def compare(name: str, old: Callable[[], object], new: Callable[[], object], runs: int) -> list:
    """Old and new alternately, best of `runs` each; the results must agree."""
    old_times, new_times = [], []
    old_result = new_result = None
    for _ in range(runs):
        t, old_result = best(old, 1)
        old_times.append(t)
        t, new_result = best(new, 1)
        new_times.append(t)
    if isinstance(old_result, np.ndarray):
        assert np.array_equal(old_result, new_result), f"{name}: tables differ"
    return [name, min(old_times), min(new_times)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the 10-puzzle for the 14-puzzle")
    parser.add_argument("--runs", type=int, default=5, help="runs of the 8-puzzle rows")
    parser.add_argument("--big-runs", type=int, default=2, help="runs of the 14-puzzle build")
    args = parser.parse_args(argv)
    rows = []

    eight = grid(3, 3)
    codes = PermutationCodes(eight)
    rows.append(
        compare(
            "8-puzzle table (9! codes)",
            lambda: old_sliding_depths(codes, eight.goal, meter()),
            lambda: layered_depths(codes, eight.goal, meter()),
            args.runs,
        )
    )

    size = (4, 3) if args.quick else (4, 4)
    label = "10-puzzle" if args.quick else "14-puzzle"
    index = TwoBlankIndex(Geometry(*size))
    root = index.encode(index.geometry.goal)
    big_runs = args.runs if args.quick else args.big_runs
    rows.append(
        compare(
            f"{label} table ({index.space_size:,} codes)",
            lambda: old_two_blank_depths(index, root, meter()),
            lambda: index_depths(index, root, meter()),
            big_runs,
        )
    )

    table = index_depths(index, root, meter())
    with tempfile.TemporaryDirectory() as folder:
        old_path, new_path = Path(folder) / "old.npy", Path(folder) / "new.table"
        shape = (index.space_size,)
        rows.append(
            compare(
                f"{label} table saved",
                lambda: old_save(old_path, table),
                lambda: files.write_table(new_path, table),
                3,
            )
        )
        rows.append(
            compare(
                f"{label} table loaded (new: with CRC-32)",
                lambda: old_load(old_path, shape),
                lambda: files.read_table(new_path, shape, np.dtype(np.uint8)),
                3,
            )
        )
        files.map_table(new_path, shape, np.dtype(np.uint8))  # checked once, stamped
        rows.append(
            compare(
                f"{label} table opened again: read + CRC-32 vs mapped (issue 24)",
                lambda: files.read_table(new_path, shape, np.dtype(np.uint8)),
                lambda: files.map_table(new_path, shape, np.dtype(np.uint8)),
                3,
            )
        )
        os.environ["KAERU_CACHE_DIR"] = folder

        def old_first_use() -> np.ndarray:
            depth = old_sliding_depths(codes, eight.goal, meter())
            old_save(Path(folder) / "old-eight.npy", depth)
            return depth

        def new_first_use() -> np.ndarray:
            store.forget()
            for path in Path(folder).glob("bench-eight*"):
                path.unlink()
            loaded = store.load_or_build(
                "bench-eight",
                1,
                lambda ctl: layered_depths(codes, eight.goal, meter()),
                shape=(codes.space_size,),
            )
            assert loaded.source == "built"
            return loaded.table

        rows.append(
            compare("8-puzzle first use (build + save)", old_first_use, new_first_use, args.runs)
        )

    width = max(len(r[0]) for r in rows)
    print(f"{'':{width}}  {'old s':>9}  {'new s':>9}  {'new/old':>7}")
    for name, old, new in rows:
        print(f"{name:{width}}  {old:9.3f}  {new:9.3f}  {new / old:7.2f}")
    print("\n(best of the runs; old = the code before engine.tables, copied into this script)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
