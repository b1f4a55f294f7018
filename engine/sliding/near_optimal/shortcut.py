"""Shortening a solution of a big board window by window.

Line by line (`peel`) answers are stitched from searches that each aim at part of the board, so a
stretch of the path often wanders where a straight way exists between its two ends. A window is
such a stretch, from position i to position j = i + W: a compiled IDA* (Manhattan distance to
the window's last position, which is admissible and changes by one per move) looks for a way
between them of at most W - 2 moves (every way between two positions has the same parity), with
a cap on the nodes it may generate; a shorter way found replaces the stretch. Windows slide
along the path, and the pass repeats while it finds something and the time lasts.

Every replaced stretch joins the same two positions, so the answer still replays and ends at
the goal; only its length falls.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from kaeru.engine.sliding.board.geometry import Grid, State
from kaeru.engine.sliding.jit import njit

WINDOWS = (24, 36, 50, 70)  # window lengths, tried in turn
STRIDE_SHARE = 3  # a window moves on by a third of its length
NODE_CAP = 2_000_000  # nodes one window's search may generate (tens of ms: cancel stays quick)
NOT_FOUND, CAPPED = -1, -2


@njit(cache=True, nogil=True)
def window_search(  # one compiled loop
    board: np.ndarray,  # int64[cells]: the tile on each cell (changed: pass a copy)
    target: np.ndarray,  # int64[cells]: the cell each tile has at the window's end
    nbr: np.ndarray,  # int64[cells, 4]
    width: int,
    limit: int,  # the longest way looked for
    node_cap: int,
    path: np.ndarray,  # int64[limit + 1]: the blank's cells along the way found, out
) -> int:
    """The length of a shortest way from `board` to `target` of at most `limit` moves;
    NOT_FOUND when there is none, CAPPED when the nodes ran out first."""
    cells = board.size
    h0 = 0
    blank = 0
    for c in range(cells):
        t = board[c]
        if t == 0:
            blank = c
            continue
        g = target[t]
        h0 += abs(c // width - g // width) + abs(c % width - g % width)
    path[0] = blank
    if h0 == 0:
        return 0
    hs = np.zeros(limit + 1, dtype=np.int64)
    next_k = np.zeros(limit + 1, dtype=np.int64)
    nodes = 0
    bound = h0
    while bound <= limit:
        over = 1 << 30
        depth = 0
        hs[0] = h0
        next_k[0] = 0
        while depth >= 0:
            if next_k[depth] >= 4:
                if depth == 0:
                    break
                here, before = path[depth], path[depth - 1]  # undo the move into `here`
                board[here] = board[before]
                board[before] = 0
                depth -= 1
                continue
            b = path[depth]
            q = nbr[b, next_k[depth]]
            next_k[depth] += 1
            if q < 0 or (depth > 0 and q == path[depth - 1]):
                continue
            t = board[q]
            g = target[t]
            nh = (hs[depth] + abs(b // width - g // width) + abs(b % width - g % width)
                  - abs(q // width - g // width) - abs(q % width - g % width))
            nodes += 1
            f = depth + 1 + nh
            if f > bound:
                if f < over:
                    over = f
                continue
            if nodes > node_cap:
                return CAPPED
            board[b] = t
            board[q] = 0
            depth += 1
            path[depth] = q
            hs[depth] = nh
            next_k[depth] = 0
            if nh == 0:
                return depth
        bound = over
    return NOT_FOUND


def _way(shape: Grid, start: State, blanks: np.ndarray, length: int) -> list[State]:
    states = [start]
    for cell in blanks[1 : length + 1]:
        current = list(states[-1])
        gap = current.index(0)
        current[gap], current[int(cell)] = current[int(cell)], 0
        states.append(tuple(current))
    return states


def shorten(
    shape: Grid, states: list[State], seconds: float, check: Callable[[], None] = lambda: None
) -> list[State]:
    """`states` (a path) with stretches replaced by shorter ways between their ends, while
    `seconds` of CPU last; the same ends, never longer. `check` is called before each window
    (the meter's: it raises when the search is cancelled)."""
    until = time.process_time() + seconds
    nbr = shape.neighbour_array
    states = list(states)
    improved = True
    while improved:
        improved = False
        for window in WINDOWS:
            i = 0
            path = np.zeros(window + 1, dtype=np.int64)
            while i + window < len(states):
                if time.process_time() > until:
                    return states
                check()
                j = i + window
                target = np.zeros(shape.cells, dtype=np.int64)
                for cell, tile in enumerate(states[j]):
                    target[tile] = cell
                board = np.array(states[i], dtype=np.int64)
                found = window_search(board, target, nbr, shape.width, window - 2, NODE_CAP,
                                      path)
                if found >= 0:
                    way = _way(shape, states[i], path, found)
                    assert way[-1] == states[j]  # a kernel fault would show here
                    states[i : j + 1] = way
                    improved = True
                else:
                    i += max(1, window // STRIDE_SHARE)
    return states
