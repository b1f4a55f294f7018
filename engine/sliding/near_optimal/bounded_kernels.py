"""Compiled weighted IDA* for big sliding boards (numba), over the additive databases of
`engine.sliding.databases.pdb_big`, with the diagonal mirror on square boards.

`wida` runs depth-first iterations on f = wd·g + wn·h (the weight w = wn/wd ≥ 1; w = 1 is plain
IDA*), each bound the smallest f the last one cut but at least `step` above the last (2·wd, two
moves, keeps weighted runs from creeping). An iteration that ends with no solution at bound T
proves the optimum exceeds T / wn (its path's f is at most wn times the optimum): ctl[FAILED]
keeps the last such T. Children are tried best h first, so a weighted run finds its answer
early in the iteration that has one. It also cuts every node whose g + h exceeds `limit` (an
incumbent's length less two: only strictly shorter solutions are looked for); when every node
is cut so it returns EXHAUSTED, which proves that no solution of at most `limit` moves exists.

A move changes one group's index on each side (plain and mirrored) by one multiply-add, and h is
the larger of the two sums. The counters go to `ctl` every 65,536 nodes; the kernel stops
(returning STOPPED) when the caller sets ctl[STOP]. The GIL is released, so a caller thread can
report progress and cancel.
"""

from __future__ import annotations

import numpy as np

from kaeru.engine.sliding.jit import njit

STOP, NODES, BOUND, ITERATIONS, FAILED = 0, 1, 2, 3, 4  # slots of the control array
CONTROL_SIZE = 5
MAX_PATH = 4096  # the path arrays' size
CHECK_MASK = 0xFFFF
INFINITE = 1 << 60
STOPPED, EXHAUSTED = -1, -2


@njit(cache=True, nogil=True)
def wida(  # a kernel takes its tables as arguments
    board: np.ndarray,  # int64[cells]: the tile on each cell, 0 the blank; restored on return
    nbr: np.ndarray,  # int64[cells, 4]: the blank's neighbours, -1 off the board
    flat: np.ndarray,  # uint8: the groups' tables end to end
    offset: np.ndarray,  # int64[groups]
    tile_group: np.ndarray,  # int64[cells]: each tile's group (-1 for the blank)
    tile_mul: np.ndarray,  # int64[cells]: the weight of a tile's cell in its group's index
    mirror_tile: np.ndarray,  # int64[cells]: the tile whose home mirrors this tile's home
    transpose: np.ndarray,  # int64[cells]: each cell's mirror image
    use_mirror: bool,
    wn: int,
    wd: int,
    step: int,  # the least rise of the bound between iterations
    limit: int,  # cut nodes with g + h > limit
    ctl: np.ndarray,  # int64[CONTROL_SIZE]
    path: np.ndarray,  # int64[MAX_PATH]: the blank's cells along the path, out
) -> int:
    cells = board.size
    groups = offset.size
    cap = path.size - 1
    order = np.zeros((cap + 1, 4), dtype=np.int64)  # children (blank's next cell), best first
    child_p = np.zeros((cap + 1, 4), dtype=np.int64)  # their plain and mirrored sums
    child_m = np.zeros((cap + 1, 4), dtype=np.int64)
    child_h = np.zeros((cap + 1, 4), dtype=np.int64)
    count = np.zeros(cap + 1, dtype=np.int64)
    nxt = np.zeros(cap + 1, dtype=np.int64)
    idx_p = np.zeros(groups, dtype=np.int64)
    idx_m = np.zeros(groups, dtype=np.int64)
    blank0 = 0
    for c in range(cells):
        t = board[c]
        if t == 0:
            blank0 = c
            continue
        idx_p[tile_group[t]] += c * tile_mul[t]
        m = mirror_tile[t]
        idx_m[tile_group[m]] += transpose[c] * tile_mul[m]
    hp = 0
    hm = 0
    for g in range(groups):
        hp += flat[offset[g] + idx_p[g]]
        hm += flat[offset[g] + idx_m[g]]
    h0 = max(hp, hm) if use_mirror else hp
    path[0] = blank0
    ctl[FAILED] = -1
    if h0 == 0:
        return 0
    if h0 > limit:
        return EXHAUSTED
    bound = wn * h0
    nodes = ctl[NODES]
    while True:
        ctl[BOUND] = bound
        ctl[ITERATIONS] += 1
        next_bound = INFINITE
        d = 0
        sum_p, sum_m = hp, hm
        entering = True
        while d >= 0:
            b = path[d]
            if entering:  # list the children worth trying, best h first
                entering = False
                n_ok = 0
                for k in range(4):
                    nb = nbr[b, k]
                    if nb < 0 or (d > 0 and nb == path[d - 1]):
                        continue
                    t = board[nb]
                    g = tile_group[t]
                    old = offset[g] + idx_p[g]
                    np_ = sum_p - flat[old] + flat[old + (b - nb) * tile_mul[t]]
                    nm = sum_m
                    if use_mirror:
                        m = mirror_tile[t]
                        gm = tile_group[m]
                        oldm = offset[gm] + idx_m[gm]
                        step_m = (transpose[b] - transpose[nb]) * tile_mul[m]
                        nm = nm - flat[oldm] + flat[oldm + step_m]
                    h = max(np_, nm) if use_mirror else np_
                    nodes += 1
                    if d + 1 + h > limit or d + 1 >= cap:
                        continue
                    f = wd * (d + 1) + wn * h
                    if f > bound:
                        if f < next_bound:
                            next_bound = f
                        continue
                    j = n_ok  # insertion by h
                    while j > 0 and child_h[d, j - 1] > h:
                        order[d, j] = order[d, j - 1]
                        child_h[d, j] = child_h[d, j - 1]
                        child_p[d, j] = child_p[d, j - 1]
                        child_m[d, j] = child_m[d, j - 1]
                        j -= 1
                    order[d, j], child_h[d, j], child_p[d, j], child_m[d, j] = nb, h, np_, nm
                    n_ok += 1
                count[d] = n_ok
                nxt[d] = 0
                if (nodes & CHECK_MASK) < 4:
                    ctl[NODES] = nodes
                    if ctl[STOP] != 0:
                        return STOPPED
            j = nxt[d]
            if j == count[d]:  # every child tried: step back
                if d > 0:
                    pb = path[d - 1]
                    t = board[pb]  # the tile that slid into pb goes back to b
                    board[b] = t
                    board[pb] = 0
                    idx_p[tile_group[t]] += (b - pb) * tile_mul[t]
                    m = mirror_tile[t]
                    idx_m[tile_group[m]] += (transpose[b] - transpose[pb]) * tile_mul[m]
                d -= 1
                continue
            nxt[d] = j + 1
            nb = order[d, j]
            t = board[nb]
            board[b] = t
            board[nb] = 0
            idx_p[tile_group[t]] += (b - nb) * tile_mul[t]
            m = mirror_tile[t]
            idx_m[tile_group[m]] += (transpose[b] - transpose[nb]) * tile_mul[m]
            sum_p, sum_m = child_p[d, j], child_m[d, j]
            h = child_h[d, j]
            d += 1
            path[d] = nb
            entering = True
            if h == 0:
                ctl[NODES] = nodes
                length = d
                while d > 0:  # put the board back as it came
                    b, pb = path[d], path[d - 1]
                    board[b] = board[pb]
                    board[pb] = 0
                    d -= 1
                return length
            continue
        ctl[FAILED] = bound
        if next_bound == INFINITE:
            ctl[NODES] = nodes
            return EXHAUSTED
        bound = max(next_bound, bound + step)
