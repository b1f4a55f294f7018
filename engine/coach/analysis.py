"""After a win: the game's distance to the goal at every position, drawn against the optimal
diagonal, the moves that were not optimal, and "replay from here" (a new game from the same start
with the moves up to a chosen one replayed, so goals that follow the start stay right)."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from kaeru.engine.coach.distance import Distance, Memo, distance
from kaeru.engine.coach.grading import OPTIMAL, GradedMove, verdict
from kaeru.engine.rules.control import QUIET, Control
from kaeru.engine.rules.protocol import Puzzle

PLAYER, DIAGONAL, BOTH = "●", "·", "◆"


@dataclass(frozen=True)
class Analysis:
    """`distances[i]` is the distance after i moves (None: lost); `graded[i]` the i+1-th move."""

    distances: tuple[Distance, ...]
    graded: tuple[GradedMove, ...]

    @property
    def optimal(self) -> int | None:
        return self.distances[0].moves

    @property
    def mistakes(self) -> list[tuple[int, GradedMove]]:
        """(index of the move, 0-based; the move) for every move that was not optimal."""
        return [(i, g) for i, g in enumerate(self.graded) if g.verdict != OPTIMAL]

    @property
    def wasted_moves(self) -> int | None:
        """Moves beyond the optimal length (None when the start's distance is unknown)."""
        return None if self.optimal is None else len(self.graded) - self.optimal

    def chart(self, width: int = 60, height: int = 12) -> list[str]:
        return chart_lines([d.moves for d in self.distances], width, height)


def analyse(
    puzzle: Puzzle[Any, Any],
    start: Hashable,
    moves: Sequence[Hashable],
    control: Control = QUIET,
    memo: Memo | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Analysis:
    """Distances at every position of the game `moves` (objects) from `start`, and the verdicts.
    `progress(done, total)` is told after each position. Raises Cancelled/BudgetExceeded."""
    memo = {} if memo is None else memo
    states = [start]
    for move in moves:
        states.append(puzzle.apply(states[-1], move))
    found: list[Distance] = []
    for i, state in enumerate(states):
        found.append(distance(puzzle, state, start, control, memo))
        if progress is not None:
            progress(i + 1, len(states))
    graded = tuple(
        GradedMove(
            puzzle.format_move(move), found[i], found[i + 1], verdict(found[i], found[i + 1])
        )
        for i, move in enumerate(moves)
    )
    return Analysis(tuple(found), graded)


def chart_lines(distances: Sequence[int | None], width: int = 60, height: int = 12) -> list[str]:
    """A text chart: distance (up) over moves made (across); the player's curve `●`, the
    optimal diagonal from the start's distance down to 0 `·`, both `◆`; lost positions `×`
    on the bottom row."""
    known = [d for d in distances if d is not None]
    top = max(known, default=0)
    n = len(distances) - 1
    step = max(1, min(4, (width - 1) // max(n, 1)))  # columns a move, for short games
    columns = max(1, min(width, n * step + 1))
    rows = max(1, min(height, top + 1))
    grid = [[" "] * columns for _ in range(rows)]

    def col(i: int) -> int:
        return 0 if n == 0 else round(i * (columns - 1) / n)

    def row(d: int) -> int:
        return rows - 1 - (0 if top == 0 else round(d * (rows - 1) / top))

    start = distances[0]
    if start is not None:
        for i in range(n + 1):
            ideal = max(start - i, 0)
            grid[row(ideal)][col(i)] = DIAGONAL
    for i, d in enumerate(distances):
        r, c = (rows - 1, col(i)) if d is None else (row(d), col(i))
        mark = "×" if d is None else BOTH if grid[r][c] in (DIAGONAL, BOTH) else PLAYER
        grid[r][c] = mark
    label = len(str(top))
    lines = []
    for r, cells in enumerate(grid):
        value = top if r == 0 else 0 if r == rows - 1 else None
        lines.append(f"{'' if value is None else value:>{label}} │{''.join(cells)}")
    lines.append(f"{'':>{label}} └{'─' * columns}")
    span = max(columns - 1 - len(str(n)), 0)
    lines.append(
        f"{'':>{label}}  {'0 moves made':<{span}}{n}"
        if span >= 12
        else f"{'':>{label}}  0…{n} moves"
    )
    return lines
