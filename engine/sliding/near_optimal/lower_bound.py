"""The whole board's proved lower bound for boards past 5×5 (`peel.solve_peeled`'s `lower`).

Plain IDA* on the whole board: every bound it passes with no solution proves the optimum is
past it. How far it gets depends on its heuristic far more than on its speed: each bound costs
12-16 times the one before on the 6×6, so two moves more of heuristic are worth a dozen times
the CPU. It runs on Manhattan + linear conflicts + last moves (`line_conflicts`, kept up to
date move by move by `max_kernel.ida_max`): on the 6×6 that is 2-4 moves above the largest
of the five additive sums of blocks and strips of four it used before (each plain and mirrored,
`pdb_big.Views`: their groups rarely hold tiles in each other's way), at about 1.3 times the
speed, and proves 0-4 more in the same 10 s (`bench/six_bound.py`); maxing those sums in gained
nothing. On the 7×7 (0.8 s of its 8 s) it proves 2 more than the default databases with the
mirror did.

Past 7×7 a conflict table would be too big (base^side codes: 43 MB on the 8×8), so those boards
keep the default databases with the mirror (`bounded._Runner.plain`). Working a line's conflict
out in the kernel instead proved 6 more on the 8×8 and 8 more on the 10×10 in their 0.8 s, but
made the kernel's first compile take 21 s instead of 6 s and the 6×6 search a third slower, so
it is not done.

It goes one bound at a time and does not start a bound it cannot finish in the time left (an
unfinished bound proves nothing), so it often returns with time to spare: on the seven 6×6
boards of the bench, 54 s of the 73 s allowed for the same bounds.
"""

from __future__ import annotations

import time

import numpy as np

from kaeru.engine.rules.control import Meter
from kaeru.engine.sliding.board.geometry import Grid, State
from kaeru.engine.sliding.databases.line_conflicts import conflict_value, conflicts
from kaeru.engine.sliding.databases.pdb_big import BigDatabase, Views
from kaeru.engine.sliding.near_optimal.bounded import _Runner, heuristic, parity_floor

LINES_UP_TO = 7  # the longest side with a conflict table (8⁷ bytes on the 7×7: 0.3 s to fill)
QUICK = 0.05  # CPU seconds: a run too short to foretell the next one's time from
MIN_GROWTH = 4.0  # the least ratio assumed between two bounds' runs (measured: 12-16 on 6×6)
DEFAULT_GROWTH = 12.0  # assumed when the run before was too quick to time
HOPE = 1.5  # a next run foretold to take more than HOPE × the time left is not started


def lower_bound(full: Grid, state: State, database: BigDatabase, meter: Meter, length: int,
                seconds: float, nodes_cap: int) -> int:
    """Plain IDA* on the whole board for at most `seconds` of CPU: the bound it proves, at least
    the heuristic's own (rounded up to the solutions' parity), and `length` when it proves
    nothing shorter than the answer of that length exists.

    It runs one bound at a time (each run repeats the ones before: about 1/12 more work) and
    stops as soon as the next bound cannot be done in the time left: a run costs about as many
    times the last as the last cost the one before, and an unfinished run proves nothing."""
    from kaeru.engine.sliding.near_optimal.bounded_kernels import EXHAUSTED

    began = time.process_time()
    runner = _Runner(full, state, database, meter)
    lines = max(full.width, full.height) <= LINES_UP_TO
    bound = parity_floor(full, state, conflict_value(full, state) if lines
                         else heuristic(full, state, database))
    spent: list[float] = []
    while bound <= length - 2:  # no solution shorter than `bound`: try for none within it
        left = began + seconds - time.process_time()
        if left <= 0 or _hopeless(spent, left):
            break
        started = time.process_time()
        if lines:
            outcome, _ = plain_max(runner, None, bound, left, nodes_cap)
        else:
            outcome, _ = runner.plain(bound, left, nodes_cap)
        spent.append(time.process_time() - started)
        if outcome >= 0:
            return outcome  # a solution within the bound: the optimum
        if outcome != EXHAUSTED:
            break  # out of time: this bound is not proved
        bound += 2  # none within it, and a solution's length has the parity of `bound`
    return min(bound, length)


def _hopeless(spent: list[float], left: float) -> bool:
    """Whether the next bound's run would take more than HOPE times the time left, foretold
    from the last two runs (their ratio, at least MIN_GROWTH)."""
    if len(spent) < 2 or spent[-1] < QUICK:
        return False
    growth = max(MIN_GROWTH, spent[-1] / spent[-2]) if spent[-2] >= QUICK else DEFAULT_GROWTH
    return spent[-1] * growth > left * HOPE


def plain_max(runner: _Runner, views: Views | None, limit: int, seconds: float,
              nodes_cap: int) -> tuple[int, int]:
    """Plain IDA* on Manhattan + linear conflicts maxed with `views` (none: conflicts alone):
    (a length, STOPPED or EXHAUSTED; the last bound passed with no solution, -1 none)."""
    from kaeru.engine.sliding.near_optimal.bounded_kernels import CONTROL_SIZE, FAILED
    from kaeru.engine.sliding.near_optimal.max_kernel import ida_max

    grid = runner.grid
    board = np.array(runner.state, dtype=np.int64)
    ctl = np.zeros(CONTROL_SIZE, dtype=np.int64)
    if views is None:
        views = Views(grid, [])
    lines = conflicts(grid)
    outcome = runner._run(
        lambda c: int(ida_max(board, grid.neighbour_array, views.flat, views.group_offset,
                              views.tile, views.cell, views.group, views.mul, True,
                              lines.distance, lines.goal_row, lines.goal_col, lines.cell_row,
                              lines.cell_col, lines.place, lines.table, limit, c,
                              runner.path)),
        ctl, seconds, nodes_cap,
    )
    return outcome, int(ctl[FAILED])
