"""What the sliding-puzzle benchmark compares against.

- `seed_enumerate`: seed 002's Perl 8-puzzle enumeration translated: positions as strings
  (`12345678_`), the page's table of the blank's moves, a FIFO queue whose entries remember the
  blank's previous cell so it never steps straight back. The Perl checks "seen" with
  `grep { $work eq $_ } @board`, a scan of every position found so far; here that is a dict, as
  a hash is meant to be used (the literal scan would be quadratic and far slower still).
- `ida_star_python`: plain recursive IDA* in pure Python over state tuples, with the same
  pattern databases as the engine looked up one position at a time: what the numpy frontier
  search replaces.
- `SLIDINGPUZZLE_CHILD`: the program a child process runs to solve one position with the PyPI
  package `slidingpuzzle` (A* with its linear-conflict heuristic, optimal), so a per-position
  time cap can stop it for sure.
"""

from __future__ import annotations

import time
from collections import deque

from kaeru.engine.sliding.board.geometry import Grid
from kaeru.engine.sliding.databases.pattern_db import PatternDatabase


def seed_enumerate(width: int, height: int) -> list[int]:
    """Positions per depth from the goal, the seed page's way (strings, dict, queue)."""
    n = width * height
    moves = {
        cell: [
            cell + d
            for d, ok in ((-width, cell >= width), (width, cell < n - width),
                          (-1, cell % width > 0), (1, cell % width < width - 1))
            if ok
        ]
        for cell in range(n)
    }
    goal = "".join("123456789ABCDEF"[:n - 1]) + "_"
    depth = {goal: 0}
    queue = deque([(goal, -1)])
    while queue:
        board, previous = queue.popleft()
        here = board.index("_")
        for nxt in moves[here]:
            if nxt == previous:
                continue
            cells = list(board)
            cells[here], cells[nxt] = cells[nxt], "_"
            work = "".join(cells)
            if work in depth:
                continue
            depth[work] = depth[board] + 1
            queue.append((work, here))
    histogram = [0] * (max(depth.values()) + 1)
    for d in depth.values():
        histogram[d] += 1
    return histogram


def ida_star_python(
    grid: Grid, start: tuple[int, ...], database: PatternDatabase, seconds: float
) -> tuple[int | None, int]:
    """(optimal length or None when out of time, positions generated)."""
    packed = database.packed
    shifts = [4 * packed.item_of[t] for t in range(grid.cells)]
    tables = database.sparse
    slices = [(int(s), int(m)) for s, m in database.slices]
    mirror = database.mirror
    src = mirror[0] if mirror else []
    cell_map = [int(c) for c in mirror[1]] if mirror else []

    def h(state: tuple[int, ...]) -> int:
        code = 0
        for cell, tile in enumerate(state):
            code |= cell << shifts[tile]
        total = sum(int(t[(code >> s) & m]) for t, (s, m) in zip(tables, slices, strict=True))
        if mirror:
            flipped = 0
            for i, j in enumerate(src):
                flipped |= cell_map[(code >> (4 * j)) & 15] << (4 * i)
            other = sum(int(t[(flipped >> s) & m])
                        for t, (s, m) in zip(tables, slices, strict=True))
            total = max(total, other)
        return total

    neighbours = grid.neighbours
    goal = grid.goal
    deadline = time.perf_counter() + seconds
    generated = 0

    class OutOfTime(Exception):
        pass

    def search(state: list[int], blank: int, previous: int, g: int, bound: int) -> int:
        nonlocal generated
        f = g + h(tuple(state))
        if f > bound:
            return f
        if tuple(state) == goal:
            return -1
        if generated & 0xFFF == 0 and time.perf_counter() > deadline:
            raise OutOfTime
        smallest = 1 << 30
        for cell in neighbours[blank]:
            if cell == previous:
                continue
            generated += 1
            state[blank], state[cell] = state[cell], 0
            found = search(state, cell, blank, g + 1, bound)
            state[cell], state[blank] = state[blank], 0
            if found == -1:
                return -1
            smallest = min(smallest, found)
        return smallest

    bound = h(start)
    try:
        while True:
            found = search(list(start), start.index(0), -1, 0, bound)
            if found == -1:
                return bound, generated
            bound = found
    except OutOfTime:
        return None, generated


SLIDINGPUZZLE_CHILD = """
import json, sys, time
import numpy as np
import slidingpuzzle as sp
width, height, cells = json.loads(sys.argv[1])
board = np.array(cells).reshape(height, width)
started = time.perf_counter()
result = sp.search(board, "a*", heuristic=sp.linear_conflict_distance)
print(json.dumps({"seconds": time.perf_counter() - started, "length": len(result.solution),
                  "generated": result.generated}))
"""
