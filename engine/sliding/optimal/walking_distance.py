"""Walking distance and inversion distance (Ken'ichiro Takahashi): a strong admissible heuristic
for square sliding boards that is ready in a fraction of a second.

Walking distance, vertical part: forget which column a tile is in and only count, for each row,
how many of its tiles belong to each goal row (an n×n matrix of counts; the row holding the blank
has one tile fewer). A vertical move takes one tile from a row next to the blank's into the
blank's row. The fewest such moves from a matrix to the goal's (found once by a breadth-first
search over every matrix: 24,964 of them on the 15-puzzle) is a lower bound on the vertical moves
still needed. The horizontal part is the same table read on columns, since the goal is symmetric
under the diagonal mirror (the blank's home is on the diagonal).

Inversion distance: read the tiles row by row; a horizontal move keeps that order, a vertical one
moves a tile past n - 1 others, changing the inversion count by an odd number at most n - 1. So
the vertical moves are at least inv // (n-1) + inv % (n-1) (the parity makes up the remainder; this
is the classic formula for n = 4, and holds for n = 3). Columns read column by column bound the
horizontal moves the same way.

Vertical and horizontal moves are different moves, so
    h = max(WD vertical, ID vertical) + max(WD horizontal, ID horizontal)
is admissible. `WalkingTables` holds the matrices' distances and their transitions for the
compiled IDA* (`engine.sliding.optimal.ida`); `walking_inversion` evaluates one state.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from functools import cache

import numpy as np

from kaeru.engine.sliding.board.geometry import State

Counts = tuple[int, ...]  # the n×n count matrix, row by row


@dataclass(frozen=True)
class WalkingTables:
    """Every count matrix of a side-n board, numbered: its distance and its successors.

    `step[m, d, g]`: the matrix after a tile of goal line g moves into the blank's line from the
    line before it (d = 0) or after it (d = 1); -1 when there is no such tile or line.
    """

    side: int
    index: dict[Counts, int]
    distance: np.ndarray  # uint8 [matrices]
    step: np.ndarray  # int32 [matrices, 2, side]

    @property
    def size(self) -> int:
        return int(self.distance.size)

    def lines_of(self, lines: list[list[int]]) -> int:
        """The matrix number of a board read as lines (rows or columns), each a list of the goal
        line of every tile on it (the blank left out)."""
        n = self.side
        counts = [0] * (n * n)
        for line, goals in enumerate(lines):
            for goal in goals:
                counts[line * n + goal] += 1
        return self.index[tuple(counts)]


def _goal_counts(n: int) -> Counts:
    counts = [0] * (n * n)
    for line in range(n):
        counts[line * n + line] = n if line < n - 1 else n - 1
    return tuple(counts)


@cache
def walking_tables(n: int) -> WalkingTables:
    """The tables of a side-n board by breadth-first search from the goal (moves are reversible,
    so distances from the goal are distances to it). A few tenths of a second for n = 4."""
    goal = _goal_counts(n)
    index: dict[Counts, int] = {goal: 0}
    depth: list[int] = [0]
    blank_line: list[int] = [n - 1]
    steps: list[tuple[int, int, int, int]] = []  # (matrix, d, g, matrix after)
    queue = deque([goal])
    while queue:
        counts = queue.popleft()
        number = index[counts]
        blank = blank_line[number]
        for d, source in enumerate((blank - 1, blank + 1)):
            if not 0 <= source < n:
                continue
            for g in range(n):
                if counts[source * n + g] == 0:
                    continue
                moved = list(counts)
                moved[source * n + g] -= 1
                moved[blank * n + g] += 1
                after = tuple(moved)
                known = index.get(after)
                if known is None:
                    known = index[after] = len(depth)
                    depth.append(depth[number] + 1)
                    blank_line.append(source)
                    queue.append(after)
                steps.append((number, d, g, known))
    step = np.full((len(depth), 2, n), -1, dtype=np.int32)
    where = np.array(steps, dtype=np.int64)
    step[where[:, 0], where[:, 1], where[:, 2]] = where[:, 3]
    return WalkingTables(n, index, np.array(depth, dtype=np.uint8), step)


def inversions(sequence: list[int]) -> int:
    return sum(1 for i, a in enumerate(sequence) for b in sequence[i + 1 :] if a > b)


def inversion_bound(count: int, n: int) -> int:
    """The fewest moves, each changing the inversion count by an odd amount of at most n - 1,
    that can undo `count` inversions."""
    return count // (n - 1) + count % (n - 1)


@dataclass(frozen=True)
class AxisParts:
    """The four figures of one state: walking distance and inversion distance on each axis."""

    wd_vertical: int
    wd_horizontal: int
    id_vertical: int
    id_horizontal: int

    @property
    def value(self) -> int:
        return max(self.wd_vertical, self.id_vertical) + max(
            self.wd_horizontal, self.id_horizontal
        )


def axis_parts(n: int, state: State) -> AxisParts:
    """Walking and inversion distances of a state of the side-n board (goal 1 .. n*n-1, blank
    last)."""
    tables = walking_tables(n)
    rows = [[(t - 1) // n for t in state[r * n : (r + 1) * n] if t] for r in range(n)]
    cols = [[(t - 1) % n for t in state[c::n] if t] for c in range(n)]
    row_major = [t - 1 for t in state if t]
    column_rank = [((t - 1) % n) * n + (t - 1) // n for t in range(1, n * n)]
    column_major = [column_rank[t - 1] for c in range(n) for t in state[c::n] if t]
    return AxisParts(
        int(tables.distance[tables.lines_of(rows)]),
        int(tables.distance[tables.lines_of(cols)]),
        inversion_bound(inversions(row_major), n),
        inversion_bound(inversions(column_major), n),
    )


def walking_inversion(n: int, state: State) -> int:
    """max(WD, ID) per axis, summed over the two axes: admissible on the side-n board."""
    return axis_parts(n, state).value
