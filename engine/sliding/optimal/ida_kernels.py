"""Compiled IDA* for square sliding boards (numba): depth-first, no layers stored, so memory stays
flat however long the solution.

Two kernels share one skeleton, each with its heuristic kept up to date move by move:

- `ida_walking`: walking distance + inversion distance (`engine.sliding.optimal.walking_distance`):
  two lookups in small tables and a few comparisons per move;
- `ida_pattern`: additive pattern databases with the diagonal mirror
  (`engine.sliding.databases.pdb78`): a move changes one group's index on each side, so two ranks
  and two lookups, and the mirror's only when the plain value alone does not prune.

The depth-first search is iterative (explicit stacks indexed by depth). Each kernel runs every
iteration up to the solution and returns its length, with the blank's cells along the path in
`path`; it writes its counters into `ctl` every 16,384 nodes and stops (returning -1) when the
caller sets ctl[STOP]. ctl[FLOOR] and ctl[CEILING] bound the iterations tried (a distance known
to within a range: after a move, d - 1 or d + 1), -2 when none up to the ceiling succeeds.
Both release the GIL, so a caller thread can report progress and cancel.
"""

from __future__ import annotations

import numpy as np

from kaeru.engine.sliding.jit import njit

STOP, NODES, BOUND, ITERATIONS, FLOOR, CEILING = 0, 1, 2, 3, 4, 5  # slots of the control array
CONTROL_SIZE = 6  # FLOOR: the first bound tried at least (a known lower bound on the distance);
# CEILING: the last bound tried (0: none), past which the kernel returns -2
MAX_DEPTH = 255  # the path arrays' size: far beyond any optimal solution on these boards
CHECK_MASK = 0x3FFF  # nodes between looks at ctl[STOP]: a few milliseconds
INFINITE = 1 << 30


@njit(cache=True, nogil=True)
def ida_walking(
    board: np.ndarray,  # int64[cells], tile per cell, 0 the blank; restored on return
    n: int,
    nbr: np.ndarray,  # int64[cells, 4]: the cell the blank moves to (up, down, left, right)
    wd_dist: np.ndarray,  # uint8[matrices]
    wd_step: np.ndarray,  # int32[matrices, 2, n]
    goal_row: np.ndarray,  # int64[cells] per tile
    goal_col: np.ndarray,
    rank_rm: np.ndarray,  # rank of each tile in the goal read row by row
    rank_cm: np.ndarray,  # ... and column by column
    between: np.ndarray,  # int64[cells, 4, n-1]: the cells a slide carries the tile past
    start: np.ndarray,  # int64[4]: matrix (rows), matrix (columns), inversions (rows, columns)
    ctl: np.ndarray,  # int64[CONTROL_SIZE]
    path: np.ndarray,  # int64[MAX_DEPTH + 1]: blank cells, out
) -> int:
    depth_cap = path.size - 1
    next_dir = np.zeros(depth_cap + 1, dtype=np.int64)
    vs = np.zeros(depth_cap + 1, dtype=np.int64)
    hs = np.zeros(depth_cap + 1, dtype=np.int64)
    ivs = np.zeros(depth_cap + 1, dtype=np.int64)
    ihs = np.zeros(depth_cap + 1, dtype=np.int64)
    m = n - 1
    blank0 = 0
    for c in range(board.size):
        if board[c] == 0:
            blank0 = c
    vs[0], hs[0], ivs[0], ihs[0] = start[0], start[1], start[2], start[3]
    h0 = max(wd_dist[vs[0]], ivs[0] // m + ivs[0] % m) + max(
        wd_dist[hs[0]], ihs[0] // m + ihs[0] % m
    )
    path[0] = blank0
    if h0 == 0:
        return 0
    bound = max(h0, ctl[FLOOR])
    last = depth_cap if ctl[CEILING] <= 0 else min(depth_cap, ctl[CEILING])
    nodes = ctl[NODES]
    while bound <= last:
        ctl[BOUND] = bound
        ctl[ITERATIONS] += 1
        next_bound = INFINITE
        d = 0
        next_dir[0] = 0
        while d >= 0:
            k = next_dir[d]
            if k == 4:  # every child tried: step back
                if d > 0:
                    b, pb = path[d], path[d - 1]
                    board[b] = board[pb]
                    board[pb] = 0
                d -= 1
                continue
            next_dir[d] = k + 1
            b = path[d]
            nb = nbr[b, k]
            if nb < 0 or (d > 0 and nb == path[d - 1]):
                continue
            t = board[nb]
            nv, nh, niv, nih = vs[d], hs[d], ivs[d], ihs[d]
            delta = 0
            if k < 2:
                nv = wd_step[nv, k, goal_row[t]]
                r = rank_rm[t]
                for j in range(m):
                    delta += 1 if rank_rm[board[between[b, k, j]]] > r else -1
                niv += delta if k == 0 else -delta
            else:
                nh = wd_step[nh, k - 2, goal_col[t]]
                r = rank_cm[t]
                for j in range(m):
                    delta += 1 if rank_cm[board[between[b, k, j]]] > r else -1
                nih += delta if k == 2 else -delta
            h = max(wd_dist[nv], niv // m + niv % m) + max(wd_dist[nh], nih // m + nih % m)
            nodes += 1
            if (nodes & CHECK_MASK) == 0:
                ctl[NODES] = nodes
                if ctl[STOP] != 0:
                    return -1
            f = d + 1 + h
            if f > bound:
                if f < next_bound:
                    next_bound = f
                continue
            board[b] = t
            board[nb] = 0
            d += 1
            path[d] = nb
            next_dir[d] = 0
            vs[d], hs[d], ivs[d], ihs[d] = nv, nh, niv, nih
            if h == 0:
                ctl[NODES] = nodes
                length = d
                while d > 0:  # put the board back as it came
                    b, pb = path[d], path[d - 1]
                    board[b] = board[pb]
                    board[pb] = 0
                    d -= 1
                return length
        bound = next_bound
    ctl[NODES] = nodes
    return -2


@njit(cache=True, nogil=True, inline="always")
def _rank(pos: np.ndarray, tiles: np.ndarray, size: int, popcount: np.ndarray) -> int:
    """The group's entry in tile order (`engine.sliding.databases.pdb_order`): the Lehmer code
    of its tiles' cells (radices 16, 15, ...), so a move of a late tile stays near."""
    code = 0
    used = 0
    for i in range(size):
        p = pos[tiles[i]]
        code = code * (16 - i) + p - popcount[used & ((1 << p) - 1)]
        used |= 1 << p
    return code


@njit(cache=True, nogil=True)
def ida_pattern(
    board: np.ndarray,  # int64[16]
    nbr: np.ndarray,  # int64[16, 4]
    tables: tuple,  # one uint8 array per group (a homogeneous tuple)
    group_tiles: np.ndarray,  # int64[groups, 16]: each group's tiles, in index order
    group_size: np.ndarray,  # int64[groups]
    tile_group: np.ndarray,  # int64[16]: the group of each tile (blank: -1)
    mirror_tile: np.ndarray,  # int64[16]: the tile whose home mirrors this tile's home
    transpose: np.ndarray,  # int64[16]: the mirror image of each cell
    popcount: np.ndarray,  # uint8[65536]
    wd_dist: np.ndarray,  # the walking-distance tables, as for ida_walking (n = 4)
    wd_step: np.ndarray,
    goal_row: np.ndarray,
    goal_col: np.ndarray,
    rank_rm: np.ndarray,
    rank_cm: np.ndarray,
    between: np.ndarray,
    start: np.ndarray,
    ctl: np.ndarray,
    path: np.ndarray,
) -> int:
    """IDA* with max(walking + inversion distance, pattern databases, mirrored databases): the
    cheap walking distance is tried first, the databases only when it does not prune."""
    groups = group_size.size
    depth_cap = path.size - 1
    next_dir = np.zeros(depth_cap + 1, dtype=np.int64)
    plain = np.zeros((depth_cap + 1, groups), dtype=np.int64)
    mirror = np.zeros((depth_cap + 1, groups), dtype=np.int64)
    vs = np.zeros(depth_cap + 1, dtype=np.int64)
    hs = np.zeros(depth_cap + 1, dtype=np.int64)
    ivs = np.zeros(depth_cap + 1, dtype=np.int64)
    ihs = np.zeros(depth_cap + 1, dtype=np.int64)
    vs[0], hs[0], ivs[0], ihs[0] = start[0], start[1], start[2], start[3]
    pos = np.zeros(16, dtype=np.int64)
    mpos = np.zeros(16, dtype=np.int64)
    blank0 = 0
    for c in range(16):
        t = board[c]
        if t == 0:
            blank0 = c
        pos[t] = c
        mpos[mirror_tile[t]] = transpose[c]
    hp = 0
    hm = 0
    for g in range(groups):
        plain[0, g] = tables[g][_rank(pos, group_tiles[g], group_size[g], popcount)]
        mirror[0, g] = tables[g][_rank(mpos, group_tiles[g], group_size[g], popcount)]
        hp += plain[0, g]
        hm += mirror[0, g]
    path[0] = blank0
    hw = max(wd_dist[vs[0]], ivs[0] // 3 + ivs[0] % 3) + max(
        wd_dist[hs[0]], ihs[0] // 3 + ihs[0] % 3
    )
    h0 = max(hp, hm, hw)
    if h0 == 0:
        return 0
    bound = max(h0, ctl[FLOOR])
    last = depth_cap if ctl[CEILING] <= 0 else min(depth_cap, ctl[CEILING])
    nodes = ctl[NODES]
    while bound <= last:
        ctl[BOUND] = bound
        ctl[ITERATIONS] += 1
        next_bound = INFINITE
        d = 0
        next_dir[0] = 0
        while d >= 0:
            k = next_dir[d]
            if k == 4:
                if d > 0:
                    b, pb = path[d], path[d - 1]
                    t = board[pb]
                    board[b] = t
                    board[pb] = 0
                    pos[t] = b
                    mpos[mirror_tile[t]] = transpose[b]
                d -= 1
                continue
            next_dir[d] = k + 1
            b = path[d]
            nb = nbr[b, k]
            if nb < 0 or (d > 0 and nb == path[d - 1]):
                continue
            t = board[nb]
            nodes += 1
            if (nodes & CHECK_MASK) == 0:
                ctl[NODES] = nodes
                if ctl[STOP] != 0:
                    return -1
            nv, nh, niv, nih = vs[d], hs[d], ivs[d], ihs[d]
            delta = 0
            if k < 2:
                nv = wd_step[nv, k, goal_row[t]]
                r = rank_rm[t]
                for j in range(3):
                    delta += 1 if rank_rm[board[between[b, k, j]]] > r else -1
                niv += delta if k == 0 else -delta
            else:
                nh = wd_step[nh, k - 2, goal_col[t]]
                r = rank_cm[t]
                for j in range(3):
                    delta += 1 if rank_cm[board[between[b, k, j]]] > r else -1
                nih += delta if k == 2 else -delta
            hw = max(wd_dist[nv], niv // 3 + niv % 3) + max(wd_dist[nh], nih // 3 + nih % 3)
            f = d + 1 + hw
            if f > bound:
                if f < next_bound:
                    next_bound = f
                continue
            g = tile_group[t]
            pos[t] = b
            new_plain = tables[g][_rank(pos, group_tiles[g], group_size[g], popcount)]
            hp = new_plain - plain[d, g]
            for j in range(groups):
                hp += plain[d, j]
            f = d + 1 + max(hp, hw)
            if f > bound:
                pos[t] = nb
                if f < next_bound:
                    next_bound = f
                continue
            mt = mirror_tile[t]
            mg = tile_group[mt]
            mpos[mt] = transpose[b]
            new_mirror = tables[mg][_rank(mpos, group_tiles[mg], group_size[mg], popcount)]
            hm = new_mirror - mirror[d, mg]
            for j in range(groups):
                hm += mirror[d, j]
            f = d + 1 + max(hp, hm, hw)
            if f > bound:
                pos[t] = nb
                mpos[mt] = transpose[nb]
                if f < next_bound:
                    next_bound = f
                continue
            board[b] = t
            board[nb] = 0
            d += 1
            path[d] = nb
            next_dir[d] = 0
            vs[d], hs[d], ivs[d], ihs[d] = nv, nh, niv, nih
            for j in range(groups):
                plain[d, j] = plain[d - 1, j]
                mirror[d, j] = mirror[d - 1, j]
            plain[d, g] = new_plain
            mirror[d, mg] = new_mirror
            if hw == 0:
                ctl[NODES] = nodes
                length = d
                while d > 0:
                    b, pb = path[d], path[d - 1]
                    board[b] = board[pb]
                    board[pb] = 0
                    d -= 1
                return length
        bound = next_bound
    ctl[NODES] = nodes
    return -2
