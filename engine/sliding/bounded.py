"""Near-optimal solutions for big sliding boards (5×5 and beyond), each with a proved bound.

An anytime schedule over two compiled searches and the additive databases of `pdb_big`:

1. weighted A* (`wastar_kernel`) with falling weights (3, 2, 1.75, 1.5, 1.35, 1.25): each run
   looks only for a solution shorter than the best so far, and one of length L found with
   weight w proves the optimum is at least L / w; the schedule stops when a run fills its
   memory or runs out of time;
2. plain IDA* (`bounded_kernels.wida`, w = 1) for the rest of the time: each bound it passes
   proves the optimum longer, and a solution it finds is optimal; when it cuts every node
   shorter than the best, the best is proved optimal.

The schedule has `seconds` of the process's CPU (20 by default; a quarter kept for step 2); a
budget in positions caps the nodes generated. The answer is the shortest solution found with
the best lower bound proved: the larger of the databases' value, the passed IDA* bounds and
the weights' L / w, raised to the parity every solution of the position shares. `over` =
length - lower bound is how many moves at most the answer may be longer than an optimal one
(0: proved optimal).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import factorial

import numpy as np

from kaeru.engine.rules.control import Control, Meter
from kaeru.engine.rules.results import DEFAULT_BUDGET, SearchStats
from kaeru.engine.sliding.geometry import Grid, State
from kaeru.engine.sliding.pdb_big import BigDatabase, Views, big_database

WEIGHTS = (Fraction(3), Fraction(2), Fraction(7, 4), Fraction(3, 2), Fraction(27, 20),
           Fraction(5, 4))
POLISH_FROM = (Fraction(2, 3), Fraction(1, 2), Fraction(1, 3), Fraction(1, 6))  # tails' starts
POLISH_WEIGHTS = (Fraction(3, 2), Fraction(4, 3), Fraction(5, 4), Fraction(6, 5))
SECONDS = 20.0  # the whole schedule (CPU seconds), by default
SIX_SECONDS = 58.0  # 26 to 36 cells (two lines, then the 5×5; the lines fill their memory first)
BIG_SECONDS = 8.0  # past 36 cells (line by line, `peel`): an answer in seconds
PLAIN_SHARE = 0.25  # of the time, kept for plain IDA* (the lower bound)
TRACE = False
POLL = 0.02
MAX_PATH = 4096  # the longest path a kernel returns


@dataclass(frozen=True)
class Bounded:
    """A solution (states from the start to the goal), a proved lower bound on the optimum,
    and the search's figures."""

    states: list[State]
    lower_bound: int
    stats: SearchStats

    @property
    def length(self) -> int:
        return len(self.states) - 1

    @property
    def over(self) -> int:
        """At most this many moves longer than an optimal solution."""
        return self.length - self.lower_bound


@cache
def _mirror(grid: Grid) -> tuple[np.ndarray, np.ndarray, bool]:
    """(mirror tile, transposed cell, whether the board has the mirror: square boards)."""
    n = grid.cells
    cells = np.arange(n, dtype=np.int64)
    if grid.width != grid.height:
        return cells.copy(), cells.copy(), False
    w = grid.width
    transpose = (cells % w) * w + cells // w
    mirror_tile = np.zeros(n, dtype=np.int64)
    for tile in range(1, n):
        mirror_tile[tile] = 1 + transpose[tile - 1]
    return mirror_tile, transpose, True


def seconds_for(grid: Grid) -> float:
    """The schedule's CPU seconds for a board."""
    if grid.cells <= 25:
        return SECONDS
    return SIX_SECONDS if grid.cells <= 36 else BIG_SECONDS


def over_words(over: int) -> str:
    """The bound as the stats say it: "0 (optimal)", "at most 12"."""
    return "0 (optimal)" if over == 0 else f"at most {over}"


def parity_floor(grid: Grid, state: State, value: int) -> int:
    """The least length >= value that a solution from `state` can have: every move takes the
    blank to a cell of the other colour of a chessboard."""
    parity = grid.distance(state.index(0), grid.blank_goal) % 2
    return value if value % 2 == parity else value + 1


def heuristic(grid: Grid, state: State, database: BigDatabase | None = None) -> int:
    """The databases' admissible value of `state` (with the mirror on square boards)."""
    database = database or big_database(grid)
    cell_of = np.zeros(grid.cells, dtype=np.int64)
    for cell, tile in enumerate(state):
        cell_of[tile] = cell
    value = database.value(cell_of)
    mirror_tile, transpose, square = _mirror(grid)
    if square:
        mirrored = np.zeros(grid.cells, dtype=np.int64)
        for cell, tile in enumerate(state):
            if tile:
                mirrored[mirror_tile[tile]] = transpose[cell]
        value = max(value, database.value(mirrored))
    return value


class _Runner:
    """Runs a kernel in a worker thread, reporting and honouring cancel meanwhile."""

    def __init__(self, grid: Grid, state: State, database: BigDatabase, meter: Meter) -> None:
        self.grid, self.state, self.db, self.meter = grid, state, database, meter
        self.path = np.zeros(MAX_PATH, dtype=np.int64)
        self.nodes = 0  # generated by the finished runs

    def _run(
        self, call: Callable[[np.ndarray], int], ctl: np.ndarray, seconds: float, nodes_cap: int
    ) -> int:
        result: list[int] = []
        failure: list[BaseException] = []

        def work() -> None:
            try:
                result.append(call(ctl))
            except BaseException as error:  # handed to the caller's thread
                failure.append(error)

        worker = threading.Thread(target=work, name="kaeru-bounded", daemon=True)
        started = time.process_time()
        worker.start()
        try:
            while worker.is_alive():
                worker.join(POLL)
                generated = self.nodes + int(ctl[1])  # slot 1 counts nodes in both kernels
                self.meter.generated = self.meter.expanded = generated
                if time.process_time() - started > seconds or generated > nodes_cap:
                    ctl[0] = 1  # slot 0 stops both kernels
                self.meter.check()
        except BaseException:
            ctl[0] = 1
            worker.join()
            raise
        if failure:
            raise failure[0]
        self.nodes += int(ctl[1])
        self.meter.generated = self.meter.expanded = self.nodes
        return result[0] if result else -1

    def weighted(
        self, weight: Fraction, limit: int, seconds: float, nodes_cap: int, max_nodes: int
    ) -> int:
        """A weighted A* run: a length, or STOPPED, FULL, EXHAUSTED."""
        from kaeru.engine.sliding.wastar_kernel import CONTROL_SIZE, wastar

        mirror_tile, transpose, square = _mirror(self.grid)
        square = square and self.db.mirrored
        start = np.array(self.state, dtype=np.int64)
        db, keys = self.db, _keys(self.grid.cells)
        if db.chase.size:
            from kaeru.engine.sliding.wastar_kernel import line_keys

            keys = line_keys(keys, db.chase)
        ctl = np.zeros(CONTROL_SIZE, dtype=np.int64)
        return self._run(
            lambda c: int(wastar(
                start, self.grid.neighbour_array, db.flat, db.offset, db.tile_group,
                db.tile_mul, db.group_tiles, db.group_size, mirror_tile, transpose, square,
                db.chase, self.grid.width, *db.blank_tables,
                weight.numerator, weight.denominator, limit, max_nodes, keys, c, self.path,
            )),
            ctl, seconds, nodes_cap,
        )

    def plain(self, limit: int, seconds: float, nodes_cap: int) -> tuple[int, int]:
        """A plain IDA* run: (a length, STOPPED or EXHAUSTED; the last bound passed, -1 none)."""
        from kaeru.engine.sliding.bounded_kernels import CONTROL_SIZE, FAILED, wida

        mirror_tile, transpose, square = _mirror(self.grid)
        square = square and self.db.mirrored
        board = np.array(self.state, dtype=np.int64)
        db = self.db
        ctl = np.zeros(CONTROL_SIZE, dtype=np.int64)
        outcome = self._run(
            lambda c: int(wida(
                board, self.grid.neighbour_array, db.flat, db.offset, db.tile_group,
                db.tile_mul, mirror_tile, transpose, square, 1, 1, 2, limit, c, self.path,
            )),
            ctl, seconds, nodes_cap,
        )
        return outcome, int(ctl[FAILED])

    def plain_views(self, views: Views, limit: int, seconds: float,
                    nodes_cap: int) -> tuple[int, int]:
        """`plain` on the largest of several databases' sums (`pdb_big.six_views`)."""
        from kaeru.engine.sliding.bounded_kernels import CONTROL_SIZE, FAILED, ida_views

        board = np.array(self.state, dtype=np.int64)
        ctl = np.zeros(CONTROL_SIZE, dtype=np.int64)
        outcome = self._run(
            lambda c: int(ida_views(board, self.grid.neighbour_array, views.flat,
                                    views.group_offset, views.tile, views.cell, views.group,
                                    views.mul, limit, c, self.path)),
            ctl, seconds, nodes_cap,
        )
        return outcome, int(ctl[FAILED])

    def states(self, length: int, to_goal: bool = True) -> list[State]:
        """The positions along the kernel's path (`to_goal`: checked to end at the goal)."""
        states = [self.state]
        for cell in self.path[1 : length + 1]:
            current = list(states[-1])
            blank = current.index(0)
            current[blank], current[int(cell)] = current[int(cell)], 0
            states.append(tuple(current))
        if to_goal and states[-1] != self.grid.goal:  # pragma: no cover - a kernel fault
            raise AssertionError("the compiled search ended off the goal")
        return states


@cache
def _keys(cells: int) -> np.ndarray:
    from kaeru.engine.sliding.wastar_kernel import zobrist

    return zobrist(cells)


def max_nodes_for(grid: Grid, nodes_cap: int = 1 << 62) -> int:
    """Positions a weighted A* run may hold: about 68 bytes each on the 5×5 (5.5 million, ~370
    MB), never more than the board has or the budget allows (the arrays are made up front)."""
    most = 5_500_000 if grid.cells <= 25 else 3_000_000
    return max(16, min(most, factorial(grid.cells) // 2, nodes_cap + 4))


def solve_bounded(
    grid: Grid,
    state: State,
    control: Control,
    seconds: float = SECONDS,
    weights: tuple[Fraction, ...] = WEIGHTS,
    plain_share: float = PLAIN_SHARE,
) -> Bounded | None:
    """The shortest solution the schedule finds in `seconds`, with its proved lower bound;
    None when it found none (within the time or the memory)."""
    from kaeru.engine.sliding.bounded_kernels import EXHAUSTED

    database = big_database(grid, control=control)
    meter = Meter(f"anytime weighted A* + {database.name}", control.unlimited())
    nodes_cap = control.budget if control.budget not in (None, DEFAULT_BUDGET) else 1 << 62
    assert nodes_cap is not None
    h0 = heuristic(grid, state, database)
    lower = parity_floor(grid, state, h0)
    meter.extra["h"] = str(h0)
    runner = _Runner(grid, state, database, meter)
    best: list[State] | None = None
    began = time.process_time()
    limit = MAX_PATH - 2
    for weight in weights:
        left = began + seconds * (1 - plain_share) - time.process_time()
        if best is not None and (left <= 0 or len(best) - 1 <= lower):
            break
        meter.extra["weight"] = str(float(weight))
        share = left if best is not None else began + seconds - time.process_time()
        outcome = runner.weighted(weight, limit, share, nodes_cap, max_nodes_for(grid, nodes_cap))
        if TRACE:
            print(f"  w={float(weight):.2f} -> {outcome} nodes={runner.nodes:,} "
                  f"t={time.process_time() - began:.1f}")
        if outcome < 0:
            break  # out of time or memory: a lighter weight would need more
        best = runner.states(outcome)
        proved = -(-outcome * weight.denominator // weight.numerator)
        lower = max(lower, parity_floor(grid, state, proved))
        limit = outcome - 2
        meter.extra["best"] = str(outcome)
        meter.extra["lower bound"] = str(lower)
    if best is None:
        return None  # nothing within the time or the budget: the caller's reduction answers
    if len(best) - 1 > lower:
        best = _polish(grid, best, database, meter, began + seconds * (1 - plain_share),
                       nodes_cap - runner.nodes, runner)
    left = began + seconds - time.process_time()
    if len(best) - 1 > lower and left > 0 and plain_share > 0:
        meter.extra["weight"] = "1.0"
        outcome, failed = runner.plain(limit, left, nodes_cap)
        if TRACE:
            print(f"  plain -> {outcome} failed={failed} nodes={runner.nodes:,}")
        if failed >= 0:  # no solution within that bound
            lower = max(lower, parity_floor(grid, state, min(failed, limit) + 1))
        if outcome >= 0:
            best = runner.states(outcome)
            lower = outcome
        elif outcome == EXHAUSTED:
            lower = len(best) - 1  # nothing shorter than the best exists
    lower = min(lower, len(best) - 1)
    meter.extra["best"] = str(len(best) - 1)
    meter.extra["lower bound"] = str(lower)
    meter.extra["over optimum"] = over_words(len(best) - 1 - lower)
    meter.depth = len(best) - 1
    return Bounded(best, lower, meter.finish())


def _polish(
    grid: Grid, best: list[State], database: BigDatabase, meter: Meter, until: float,
    nodes_cap: int, main: _Runner,
) -> list[State]:
    """Shorten the best path's tail: from a position part way along it, a lighter weight fits
    in memory where it did not from the start; a shorter way to the goal from there replaces
    the rest of the path. Tails from two thirds of the way, half, a third and a sixth."""
    for fraction in POLISH_FROM:
        k = int((len(best) - 1) * fraction)
        runner = _Runner(grid, best[k], database, meter)
        runner.nodes = main.nodes
        limit = len(best) - 1 - k - 2
        for weight in POLISH_WEIGHTS:
            left = until - time.process_time()
            if left <= 0:
                return best
            outcome = runner.weighted(weight, limit, left, nodes_cap,
                                      max_nodes_for(grid, nodes_cap))
            if TRACE:
                print(f"  polish from {k}: w={float(weight):.2f} -> {outcome}")
            if outcome < 0:
                break
            best = best[:k] + runner.states(outcome)
            limit = outcome - 2
            meter.extra["best"] = str(len(best) - 1)
        main.nodes = runner.nodes
    return best
