"""The whole board's proved lower bound for boards past 5×5 (`peel.solve_peeled`'s `lower`).

A spell of plain IDA* on the whole board: every iteration that ends with no solution proves the
optimum is past its bound. How far the spell gets depends on its heuristic far more than on its
speed: each iteration costs 10-13 times the last on the 6×6, so two moves more of heuristic are
worth a dozen times the CPU. Up to 7×7 it runs on Manhattan + linear conflicts + last moves
(`line_conflicts`, kept up to date move by move by `bounded_kernels.ida_max`): on the 6×6 that is
2-3 moves above the largest of the five additive sums of blocks and strips of four the search
used before (`pdb_big.six_views`, whose groups rarely hold tiles in each other's way), and at
twice the speed; maxing the sums in gained nothing in 10 s on the boards measured
(`bench/six_bound.py`). Past 7×7 the conflict table would be too big (base^side codes: 43 MB on
the 8×8), so those boards keep the default databases with the mirror (`bounded._Runner.plain`).
"""

from __future__ import annotations

import numpy as np

from kaeru.engine.rules.control import Meter
from kaeru.engine.sliding.board.geometry import Grid, State
from kaeru.engine.sliding.databases.line_conflicts import conflicts
from kaeru.engine.sliding.databases.pdb_big import BigDatabase, Views
from kaeru.engine.sliding.near_optimal.bounded import _Runner, parity_floor

LINES_UP_TO = 7  # the longest side with a conflict table (8⁷ bytes on the 7×7)


def lower_bound(full: Grid, state: State, database: BigDatabase, meter: Meter, length: int,
                seconds: float, nodes_cap: int) -> int:
    """A spell of plain IDA* on the whole board: the bounds it passes with no solution (0 when
    there is no time; `length` when it proves nothing shorter than the answer exists)."""
    if seconds <= 0:
        return 0
    from kaeru.engine.sliding.near_optimal.bounded_kernels import EXHAUSTED

    runner = _Runner(full, state, database, meter)
    if max(full.width, full.height) > LINES_UP_TO:
        outcome, failed = runner.plain(length - 2, seconds, nodes_cap)
    else:
        outcome, failed = plain_max(runner, None, length - 2, seconds, nodes_cap)
    if outcome >= 0:
        return outcome  # pragma: no cover - an optimal answer on a big board: not in seconds
    if outcome == EXHAUSTED:
        return length  # pragma: no cover - nothing shorter: the answer is optimal
    return parity_floor(full, state, failed + 1) if failed >= 0 else 0


def plain_max(runner: _Runner, views: Views | None, limit: int, seconds: float,
              nodes_cap: int) -> tuple[int, int]:
    """Plain IDA* on Manhattan + linear conflicts maxed with `views` (none: conflicts alone):
    (a length, STOPPED or EXHAUSTED; the last bound passed with no solution, -1 none)."""
    from kaeru.engine.sliding.near_optimal.bounded_kernels import CONTROL_SIZE, FAILED, ida_max

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
