"""Optimal 15-puzzle solving with the compiled IDA* (`ida_kernels`), and the choice of heuristic.

- `solve_walking(n, state, control)`: walking + inversion distance, ready at once (side-n boards);
- `solve_pattern(state, control)`: the 7-8 pattern databases with the mirror (`pdb78`); builds
  them first when they are not on disk (minutes, once);
- `solve_fifteen(state, control)`: the databases when they can be had without building; else
  walking distance at once while the databases build in a background thread, switching to them
  when they are ready before the walking-distance search has finished.

The kernel runs in a worker thread (it releases the GIL); this thread reports its counters a
few times a second and stops it on cancel. IDA* holds no positions but its path, so the budget
of positions held never binds here.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache
from typing import cast

import numpy as np

from kaeru.engine.control import Control, Meter
from kaeru.engine.results import SearchStats
from kaeru.engine.sliding.geometry import State, grid
from kaeru.engine.sliding.walking_distance import inversions, walking_tables
from kaeru.engine.tables.first_use import BuildPlan, guess_fraction

POLL = 0.05  # seconds between looks at the running kernel
WALKING = "walking distance + inversion distance"
BUILD_AFTER = 10.0  # seconds of walking-distance search before the databases start building
# The first call of a kernel in a process compiles it, or loads it from numba's cache in the
# cache folder (under a second). Compiling, measured from an empty cache (bench/first_use.py):
# walking distance 3-11 s by the load of the machine, the pattern-database search about as
# long again (a niced process, 2 cores shared).
SAY_COMPILING_AFTER = 1.0  # seconds: a load from numba's cache ends before this
COMPILE_SIZE = 200_000  # bytes numba keeps per kernel in the cache folder, about
COMPILE_SECONDS = {"ida_walking": 5.0, "ida_pattern": 6.0}


@dataclass(frozen=True)
class Found:
    """An optimal path (states from the start to the goal) and the search's figures."""

    states: list[State]
    stats: SearchStats


@cache
def walking_arrays(n: int) -> tuple[np.ndarray, ...]:
    """(neighbours, distances, steps, goal rows, goal columns, row-major ranks, column-major
    ranks, cells passed) for the side-n board."""
    g = grid(n, n)
    cells = n * n
    tables = walking_tables(n)
    goal_row = np.zeros(cells, dtype=np.int64)
    goal_col = np.zeros(cells, dtype=np.int64)
    rank_rm = np.zeros(cells, dtype=np.int64)
    rank_cm = np.zeros(cells, dtype=np.int64)
    for tile in range(1, cells):
        r, c = divmod(tile - 1, n)
        goal_row[tile], goal_col[tile] = r, c
        rank_rm[tile], rank_cm[tile] = tile - 1, c * n + r
    between = np.zeros((cells, 4, n - 1), dtype=np.int64)
    for b in range(cells):
        cm = (b % n) * n + b // n
        for j in range(n - 1):
            between[b, 0, j] = b - n + 1 + j  # up: the tile comes from b - n
            between[b, 1, j] = b + 1 + j  # down: from b + n
            for k, place in ((2, cm - n + 1 + j), (3, cm + 1 + j)):  # left, right
                if 0 <= place < cells:
                    between[b, k, j] = (place % n) * n + place // n
    between = np.clip(between, 0, cells - 1)
    return (g.neighbour_array, tables.distance, tables.step, goal_row, goal_col, rank_rm,
            rank_cm, between)


def walking_start(n: int, state: State) -> np.ndarray:
    """The kernel's starting figures: matrix numbers (rows, columns), inversions (both ways)."""
    tables = walking_tables(n)
    rows = [[(t - 1) // n for t in state[r * n : (r + 1) * n] if t] for r in range(n)]
    cols = [[(t - 1) % n for t in state[c::n] if t] for c in range(n)]
    row_major = [t - 1 for t in state if t]
    column_major = [((t - 1) % n) * n + (t - 1) // n for c in range(n) for t in state[c::n] if t]
    return np.array([tables.lines_of(rows), tables.lines_of(cols), inversions(row_major),
                     inversions(column_major)], dtype=np.int64)


def compile_plan(kernel: object) -> BuildPlan | None:
    """What compiling `kernel` on its first call means for a player; None when it is compiled
    in this process already."""
    if getattr(kernel, "signatures", None):
        return None
    name = getattr(kernel, "__name__", "")
    return BuildPlan(
        "the 15-puzzle's solver (compiling it for this computer)",
        COMPILE_SIZE,
        COMPILE_SECONDS.get(name, 5.0),
        then="it starts at once",
        verb="Preparing",
    )


def run_kernel(
    call: Callable[[np.ndarray, np.ndarray], int],
    meter: Meter,
    give_way: Callable[[int], bool] | None = None,
    compiling: BuildPlan | None = None,
    annotate: Callable[[Meter], None] | None = None,
) -> tuple[int, np.ndarray] | None:
    """Run `call(ctl, path)` in a worker thread, reporting and checking cancel meanwhile.

    Returns (length, path), or None when `give_way(iterations begun)` turned true first (the
    kernel stopped). `compiling`: the kernel is not compiled yet; while its first iteration has
    not begun (past a load from numba's cache) the reports say so. `annotate(meter)` may add a
    note to each report of the search itself.
    """
    from kaeru.engine.sliding.ida_kernels import (
        BOUND,
        CONTROL_SIZE,
        ITERATIONS,
        MAX_DEPTH,
        NODES,
        STOP,
    )

    ctl = np.zeros(CONTROL_SIZE, dtype=np.int64)
    path = np.zeros(MAX_DEPTH + 1, dtype=np.int64)
    outcome: list[int] = []
    failure: list[BaseException] = []

    def work() -> None:
        try:
            outcome.append(call(ctl, path))
        except BaseException as error:  # noqa: BLE001 - handed to the caller's thread
            failure.append(error)

    started = time.perf_counter()

    def update() -> None:
        meter.generated = meter.expanded = int(ctl[NODES])
        meter.depth = int(ctl[BOUND])
        meter.held = int(ctl[BOUND])
        meter.extra["bound"] = str(int(ctl[BOUND]))
        meter.extra["iterations"] = str(int(ctl[ITERATIONS]))
        meter.note, meter.done = "", None
        waited = time.perf_counter() - started
        if compiling is not None and ctl[ITERATIONS] == 0 and waited > SAY_COMPILING_AFTER:
            guessed = guess_fraction(waited, compiling.seconds)
            meter.note, meter.done = compiling.note(None, waited), guessed
        elif annotate is not None:
            annotate(meter)

    worker = threading.Thread(target=work, name="kaeru-ida", daemon=True)
    worker.start()
    try:
        while worker.is_alive():
            worker.join(POLL)
            update()
            if give_way is not None and give_way(int(ctl[ITERATIONS])):
                ctl[STOP] = 1
                worker.join()
                return None
            meter.check()
    except BaseException:
        ctl[STOP] = 1
        worker.join()
        raise
    update()
    if failure:
        raise failure[0]
    length = outcome[0]
    if length < 0:  # pragma: no cover - only for an unsolvable start (callers check parity)
        raise ValueError("no solution within the depth limit")
    return length, path[: length + 1].copy()


def path_states(n: int, state: State, blanks: np.ndarray) -> list[State]:
    """The states along a path given by the blank's cells."""
    states = [state]
    for cell in blanks[1:]:
        current = list(states[-1])
        blank = current.index(0)
        current[blank], current[int(cell)] = current[int(cell)], 0
        states.append(tuple(current))
    if states[-1] != grid(n, n).goal:  # pragma: no cover - a kernel fault
        raise AssertionError("the compiled search ended off the goal")
    return states


def solve_walking(
    n: int,
    state: State,
    control: Control,
    give_way: Callable[[int], bool] | None = None,
    annotate: Callable[[Meter], None] | None = None,
) -> Found | None:
    """IDA* with walking + inversion distance (None when `give_way` stopped it first;
    `annotate` as in `run_kernel`)."""
    from kaeru.engine.sliding.ida_kernels import ida_walking as compiled

    ida_walking = cast(Callable[..., int], compiled)
    arrays = walking_arrays(n)
    start = walking_start(n, state)
    board = np.array(state, dtype=np.int64)
    meter = Meter(f"IDA* + {WALKING}", control)
    meter.extra["heuristic"] = WALKING
    ran = run_kernel(lambda ctl, path: ida_walking(board, n, *arrays, start, ctl, path), meter,
                     give_way, compile_plan(compiled), annotate)
    if ran is None:
        return None
    length, blanks = ran
    meter.depth = length
    return Found(path_states(n, state, blanks), meter.finish())


def solve_pattern(state: State, control: Control) -> Found:
    """IDA* with the 7-8 pattern databases and the mirror (built first if need be)."""
    from kaeru.engine.sliding import pdb78
    from kaeru.engine.sliding.ida_kernels import ida_pattern as compiled

    ida_pattern = cast(Callable[..., int], compiled)
    built_before = pdb78.ready()
    started = time.perf_counter()
    patterns = pdb78.pattern_set(control)
    waited = time.perf_counter() - started
    _, transpose, mirror, popcount, _ = pdb78._geometry()
    board = np.array(state, dtype=np.int64)
    nbr = grid(4, 4).neighbour_array
    name = f"max({WALKING}, {patterns.name})"
    meter = Meter(f"IDA* + {name}", control)
    meter.extra["heuristic"] = name
    meter.extra["h(start)"] = str(patterns.value(state))
    meter.extra["tables"] = ("loaded" if built_before else "built") + f" in {waited:.1f} s"
    walking = walking_arrays(4)[1:]
    start = walking_start(4, state)
    ran = run_kernel(
        lambda ctl, path: ida_pattern(board, nbr, patterns.tables, patterns.group_tiles,
                                      patterns.group_size, patterns.tile_group, mirror,
                                      transpose, popcount, *walking, start, ctl, path),
        meter,
        compiling=compile_plan(compiled),
    )
    assert ran is not None
    length, blanks = ran
    meter.depth = length
    return Found(path_states(4, state, blanks), meter.finish())


def solve_fifteen(state: State, control: Control) -> Found:
    """The 15-puzzle's optimal solver: the pattern databases when in memory; else walking
    distance at once, giving way to the databases when they arrive (loaded from disk, or built in
    the background for a search that runs long). The stats' "heuristic" says which served."""
    from kaeru.engine.sliding import pdb78

    if pdb78.is_loaded():
        return solve_pattern(state, control)
    started = time.perf_counter()
    on_disk = pdb78.ready()
    if on_disk:
        pdb78.start_background_build()  # only a load (a second or two): walking distance meanwhile

    def give_way(iterations: int) -> bool:
        # Without the databases on disk, a search still running after BUILD_AFTER seconds starts
        # their build beside it (not sooner: most positions are done by then, and a build costs
        # minutes of a core). Once they are in memory the walking-distance search gives way.
        if iterations > 0 and time.perf_counter() - started > BUILD_AFTER:
            pdb78.start_background_build()
        return pdb78.is_loaded()

    def annotate(meter: Meter) -> None:
        # The databases building beside this search: say so, with their progress.
        latest = pdb78.background_progress() if pdb78.background_running() else None
        if latest is not None and latest.note:
            meter.note = f"In the background: {latest.note[:1].lower()}{latest.note[1:]}"
            meter.done = latest.progress

    found = solve_walking(4, state, control, give_way=give_way, annotate=annotate)
    if found is None:
        return solve_pattern(state, control)
    if not pdb78.background_running():
        return found
    extra = dict(found.stats.extra)
    extra["databases"] = "loading" if on_disk else "building in the background"
    return Found(found.states, replace(found.stats, extra=tuple(extra.items())))
