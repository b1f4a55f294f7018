"""Optimal 15-puzzle solving with the compiled IDA* (`ida_kernels`), and the choice of heuristic.

- `solve_walking(n, state, control)`: walking + inversion distance, ready at once (side-n boards);
- `solve_pattern(state, control, tier)`: a tier of pattern databases with the mirror (`pdb78`),
  built first when not on disk (the middle tier in seconds, the 7-8 one in about a minute);
- `solve_fifteen(state, control)`: the strongest tier at hand; else walking distance at once,
  and for a position it has not solved within MIDDLE_AFTER seconds the middle tier is built
  (about 12 s of CPU, once) and searched.

The kernel runs in a worker thread (it releases the GIL); this thread reports its counters a
few times a second and stops it on cancel (the kernel looks every 16,384 positions, a few
milliseconds) or on budget: IDA* holds no positions but its path, so its budget counts the
positions it generates (`node_budget`), and giving up says the bound reached.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache
from typing import cast

import numpy as np

from kaeru.engine.rules.control import Control, Meter
from kaeru.engine.rules.results import DEFAULT_BUDGET, BudgetExceeded, SearchStats
from kaeru.engine.sliding.board.geometry import State, grid
from kaeru.engine.sliding.databases.pdb78 import FULL, MIDDLE
from kaeru.engine.sliding.optimal.known_lines import LINES
from kaeru.engine.sliding.optimal.walking_distance import inversions, walking_tables
from kaeru.engine.tables.first_use import BuildPlan, guess_fraction

POLL = 0.025  # seconds between looks at the running kernel (cancel within ~50 ms)
STOP_WAIT = 0.1  # seconds a stopped search waits for its kernel (which looks every few ms)
WALKING = "walking distance + inversion distance"
MIDDLE_AFTER = 2.0  # seconds of walking-distance search before the middle tier is built (most
# positions are done by then: Korf's 100 take 0.1 s in the median, 0.5 s on average)
BUILD_AFTER = 10.0  # seconds of search before the 7-8 databases start building (if allowed)
# The first call of a kernel in a process compiles it, or loads it from numba's cache in the
# cache folder (under a second). Compiling, measured from an empty cache (bench/first_use.py):
# walking distance 3-11 s by the load of the machine, the pattern-database search about as
# long again (a niced process, 2 cores shared).
SAY_COMPILING_AFTER = 1.0  # seconds: a load from numba's cache ends before this
COMPILE_SIZE = 200_000  # bytes numba keeps per kernel in the cache folder, about
COMPILE_SECONDS = {"ida_walking": 5.0, "ida_pattern": 6.0}
# IDA* holds no positions but its path: its budget counts the positions it generates. With no
# budget chosen, this many (a few minutes of a core; the hardest 15-puzzles take up to 300
# million with the 7-7-1 databases, a few million with the 7-8 ones).
DEFAULT_NODES = 2_000_000_000


def node_budget(control: Control) -> Control:
    """The control of an IDA*: the budget chosen, else DEFAULT_NODES positions generated."""
    if control.budget == DEFAULT_BUDGET:
        return Control(control.progress, control.cancelled, DEFAULT_NODES)
    return control


class NotWithin(Exception):  # a plain outcome, not a fault
    """No solution within the window of bounds asked for."""


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


def _numba_compiling() -> bool:
    """Whether numba is compiling in this process now (a load from its cache is not): the
    note then shows from the first report, not only once a compile has run a second (a quick
    compile would otherwise end between two reports with nothing said)."""
    from kaeru.engine.sliding import jit

    return jit.compiling()


def run_kernel(
    call: Callable[[np.ndarray, np.ndarray], int],
    meter: Meter,
    give_way: Callable[[int], bool] | None = None,
    compiling: BuildPlan | None = None,
    annotate: Callable[[Meter], None] | None = None,
    window: tuple[int, int] | None = None,
) -> tuple[int, np.ndarray] | None:
    """Run `call(ctl, path)` in a worker thread, reporting and checking cancel meanwhile.

    Returns (length, path), or None when `give_way(iterations begun)` turned true first (the
    kernel stopped). `compiling`: the kernel is not compiled yet; while its first iteration has
    not begun (past a load from numba's cache) the reports say so. `annotate(meter)` may add a
    note to each report of the search itself. `window` (floor, ceiling): the bounds tried;
    NotWithin when no solution is that short.
    """
    from kaeru.engine.sliding.optimal.ida_kernels import (
        BOUND,
        CEILING,
        CONTROL_SIZE,
        FLOOR,
        ITERATIONS,
        MAX_DEPTH,
        NODES,
        STOP,
    )

    ctl = np.zeros(CONTROL_SIZE, dtype=np.int64)
    if window is not None:
        ctl[FLOOR], ctl[CEILING] = window
    path = np.zeros(MAX_DEPTH + 1, dtype=np.int64)
    outcome: list[int] = []
    failure: list[BaseException] = []

    def work() -> None:
        try:
            outcome.append(call(ctl, path))
        except BaseException as error:  # handed to the caller's thread
            failure.append(error)

    started = time.perf_counter()
    spent = meter.generated  # by searches this one follows (they count in the budget)

    def update() -> None:
        meter.generated = meter.expanded = spent + int(ctl[NODES])
        meter.depth = int(ctl[BOUND])
        meter.extra["bound"] = str(int(ctl[BOUND]))
        meter.extra["iterations"] = str(int(ctl[ITERATIONS]))
        meter.note, meter.done = "", None
        waited = time.perf_counter() - started
        if compiling is not None and ctl[ITERATIONS] == 0 and (
                waited > SAY_COMPILING_AFTER or _numba_compiling()):
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
    except BudgetExceeded as error:
        ctl[STOP] = 1
        worker.join(STOP_WAIT)
        raise BudgetExceeded(
            f"{error}; every solution is at least {int(ctl[BOUND])} moves long", error.stats
        ) from None
    except BaseException:
        ctl[STOP] = 1
        worker.join(STOP_WAIT)  # the kernel stops within milliseconds; one still compiling
        raise  # (first use) ends its compile in the background and stops at its first look
    update()
    if failure:
        raise failure[0]
    length = outcome[0]
    if length == -2 and window is not None:
        raise NotWithin(f"no solution of at most {window[1]} moves")
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
    spent: list[int] | None = None,
    window: tuple[int, int] | None = None,
) -> Found | None:
    """IDA* with walking + inversion distance (None when `give_way` stopped it first;
    `annotate` as in `run_kernel`; `spent[0]`: positions generated before, counted in the
    budget, and on return those of this search too)."""
    from kaeru.engine.sliding.optimal.ida_kernels import ida_walking as compiled

    ida_walking = cast(Callable[..., int], compiled)
    arrays = walking_arrays(n)
    start = walking_start(n, state)
    board = np.array(state, dtype=np.int64)
    meter = Meter(f"IDA* + {WALKING}", node_budget(control))
    meter.extra["heuristic"] = WALKING
    meter.generated = spent[0] if spent else 0
    try:
        ran = run_kernel(lambda ctl, path: ida_walking(board, n, *arrays, start, ctl, path),
                         meter, give_way, compile_plan(compiled), annotate, window)
    finally:
        if spent:
            spent[0] = meter.generated
    if ran is None:
        return None
    length, blanks = ran
    meter.depth = length
    return Found(path_states(n, state, blanks), meter.finish())


def solve_pattern(
    state: State,
    control: Control,
    tier: str = FULL,
    give_way: Callable[[int], bool] | None = None,
    spent: list[int] | None = None,
    window: tuple[int, int] | None = None,
) -> Found | None:
    """IDA* with a tier of pattern databases and the mirror, maxed with walking distance
    (the tier built first if need be); None when `give_way` stopped it first (`spent` as for
    `solve_walking`)."""
    from kaeru.engine.sliding.databases import pdb78
    from kaeru.engine.sliding.optimal.ida_kernels import ida_pattern as compiled

    ida_pattern = cast(Callable[..., int], compiled)
    built_before = pdb78.ready(tier)
    started = time.perf_counter()
    patterns = pdb78.pattern_set(tier, control)
    waited = time.perf_counter() - started
    _, transpose, mirror, popcount = pdb78._geometry()
    board = np.array(state, dtype=np.int64)
    nbr = grid(4, 4).neighbour_array
    name = f"max({WALKING}, {patterns.name})"
    meter = Meter(f"IDA* + {name}", node_budget(control))
    meter.extra["heuristic"] = name
    meter.extra["h(start)"] = str(patterns.value(state))
    meter.extra["tables"] = ("loaded" if built_before else "built") + f" in {waited:.1f} s"
    walking = walking_arrays(4)[1:]
    start = walking_start(4, state)
    meter.generated = spent[0] if spent else 0
    try:
        ran = run_kernel(
            lambda ctl, path: ida_pattern(board, nbr, patterns.tables, patterns.group_tiles,
                                          patterns.group_size, patterns.tile_group, mirror,
                                          transpose, popcount, *walking, start, ctl,
                                          path),
            meter,
            give_way,
            compiling=compile_plan(compiled),
            window=window,
        )
    finally:
        if spent:
            spent[0] = meter.generated
    if ran is None:
        return None
    length, blanks = ran
    meter.depth = length
    return Found(path_states(4, state, blanks), meter.finish())


def best_tier() -> str | None:
    """The strongest tier of databases this process has loaded (None: walking distance)."""
    from kaeru.engine.sliding.databases import pdb78

    for tier in (FULL, MIDDLE):
        if pdb78.is_loaded(tier):
            return tier
    return None


def solve_fifteen(state: State, control: Control) -> Found:
    """The 15-puzzle's optimal solver, with the strongest heuristic at hand: the 7-8 databases
    when on disk (mapped at once); else walking distance at once, and when it has not finished
    within MIDDLE_AFTER seconds the 7-7-1 ones are built (about 12 s of CPU, once) and used. A
    long-lived process (the search worker) whose search runs long builds the 7-8 ones beside it
    in the background and switches to them. The stats' "heuristic" says which served.

    A position on an optimal line found before is answered at once, one next to such a line
    with a single IDA* iteration (`known_lines`)."""
    started = time.perf_counter()
    known = LINES.path_from(state)
    if known is not None:
        return Found(known, known_stats(len(known) - 1, started, "on an optimal line found before"))
    g = grid(4, 4)
    near = LINES.near(state, [g.slide(state, m) for m in g.slides(state)])
    if near is not None and near.distance > 0:
        shorter = near.distance - 1
        try:
            found = _search(state, control, (shorter, shorter))
        except NotWithin:  # not d - 1: d + 1, by the move back and the known line
            path = [state, *near.path]
            LINES.remember(path)
            return Found(path, known_stats(len(path) - 1, started,
                                           f"not {shorter}: one move from a known line"))
        LINES.remember(found.states)
        return found
    found = _search(state, control, None)
    LINES.remember(found.states)
    return found


def known_stats(length: int, started: float, how: str) -> SearchStats:
    return SearchStats(f"IDA*, {how}", depth=length, seconds=time.perf_counter() - started,
                       extra=(("heuristic", "a known optimal line"),))


def _search(state: State, control: Control, window: tuple[int, int] | None) -> Found:
    """The tiered search of `solve_fifteen`, over the bounds of `window` (NotWithin)."""
    from kaeru.engine.sliding.databases import pdb78

    started = time.perf_counter()
    spent = [0]  # positions generated, by the searches that gave way too (one budget)
    for tier in (FULL, MIDDLE):
        if pdb78.ready(tier):
            pdb78.pattern_set(tier, control)  # mapped: no read, no build
            break

    build_middle = [False]

    def give_way_from(current: str | None) -> Callable[[int], bool]:
        rank = {None: 0, MIDDLE: 1, FULL: 2}

        def give_way(iterations: int) -> bool:
            waited = time.perf_counter() - started
            if iterations > 0 and waited > BUILD_AFTER:
                pdb78.start_background_build(FULL)  # only where allowed: the search worker
            if (current is None and iterations > 0 and waited > MIDDLE_AFTER
                    and pdb78.may_build_unasked(MIDDLE)):
                build_middle[0] = True  # not an easy one: build the middle tier, then use it
                return True
            return rank[best_tier()] > rank[current]

        return give_way

    def annotate(meter: Meter) -> None:
        # A tier building beside this search: say so, with its progress.
        for building in (FULL, MIDDLE):
            latest = (pdb78.background_progress(building)
                      if pdb78.background_running(building) else None)
            if latest is not None and latest.note:
                meter.note = f"In the background: {latest.note[:1].lower()}{latest.note[1:]}"
                meter.done = latest.progress
                return

    while True:
        best = best_tier()
        if best is None and build_middle[0]:
            # In the foreground, not beside the search: about 12 s of CPU, with progress and
            # cancel, so no position costs more than that and its search, even on one core.
            pdb78.pattern_set(MIDDLE, control)
            continue
        if best is None:
            found = solve_walking(4, state, control, give_way_from(None), annotate, spent,
                                  window)
        else:
            way = give_way_from(best) if best != FULL else None
            found = solve_pattern(state, control, best, way, spent, window)
        if found is not None:
            break
    failed = pdb78.failure_to_tell()  # said once, with this search's figures
    if not failed and not any(pdb78.background_running(t) for t in (FULL, MIDDLE)):
        return found
    extra = dict(found.stats.extra)
    extra["databases"] = failed or "building in the background"
    return Found(found.states, replace(found.stats, extra=tuple(extra.items())))
