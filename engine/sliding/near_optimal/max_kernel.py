"""Compiled plain IDA* for the whole board's proved lower bound (`near_optimal.lower_bound`), on
the largest of Manhattan + linear conflicts + last moves (`databases.line_conflicts`) and any
number of additive sums (`pdb_big.Views`, each read plain or mirrored).

Every value is kept up to date move by move: a line's conflict code and a group's index change
by one multiply-add, and a group's current value is kept, so a child costs a table read per
sum. A child's values are read in turn only until one cuts it (its f is then the largest read so
far, at most its true f, so the next bound stays honest). The control array, the path and the
return values are those of `bounded_kernels` (STOPPED, EXHAUSTED; ctl[FAILED] the last bound
passed with no solution).

Measured against the old five-sum kernel: compiled on first use in 5.9 s (the old one 4.9 s);
numba's inlining of `_line_step` and `_last_moves` is what keeps the 6×6 at ~20 M children a
second (called, not inlined, it ran at ~13 M); working a line's conflict out in the kernel for
boards past 7×7 made the first compile 21 s, so those boards keep `bounded_kernels.wida`.
"""

from __future__ import annotations

import numpy as np

from kaeru.engine.sliding.jit import njit
from kaeru.engine.sliding.near_optimal.bounded_kernels import (
    BOUND,
    CHECK_MASK,
    EXHAUSTED,
    FAILED,
    INFINITE,
    ITERATIONS,
    NODES,
    STOP,
    STOPPED,
)


@njit(cache=True, nogil=True, inline="always")
def _line_step(code_rows: np.ndarray, code_cols: np.ndarray, t: int, src: int, dst: int,
               goal_row: np.ndarray, goal_col: np.ndarray, cell_row: np.ndarray,
               cell_col: np.ndarray, place: np.ndarray, table: np.ndarray, apply: bool) -> int:
    """Tile `t` slides from `src` to `dst`: the change of the lines' conflict moves (read from
    `table`); with `apply`, the lines' codes (`line_conflicts`) are updated too."""
    gr, gc = goal_row[t], goal_col[t]
    r1, c1, r2, c2 = cell_row[src], cell_col[src], cell_row[dst], cell_col[dst]
    change = 0
    if r1 != r2:  # up or down: it leaves one row for another; its column keeps its order
        if gr == r1:
            old = code_rows[r1]
            change += table[old - (gc + 1) * place[c1]] - table[old]
            if apply:
                code_rows[r1] = old - (gc + 1) * place[c1]
        elif gr == r2:
            old = code_rows[r2]
            change += table[old + (gc + 1) * place[c1]] - table[old]
            if apply:
                code_rows[r2] = old + (gc + 1) * place[c1]
        if apply and gc == c1:
            code_cols[c1] += (gr + 1) * (place[r2] - place[r1])
    else:  # sideways: it leaves one column for another; its row keeps its order
        if gc == c1:
            old = code_cols[c1]
            change += table[old - (gr + 1) * place[r1]] - table[old]
            if apply:
                code_cols[c1] = old - (gr + 1) * place[r1]
        elif gc == c2:
            old = code_cols[c2]
            change += table[old + (gr + 1) * place[r1]] - table[old]
            if apply:
                code_cols[c2] = old + (gr + 1) * place[r1]
        if apply and gr == r1:
            code_rows[r1] += (gc + 1) * (place[c2] - place[c1])
    return change


@njit(cache=True, nogil=True, inline="always")
def _last_moves(where: np.ndarray, width: int, height: int, column_conflict: int,
                row_conflict: int, cell_row: np.ndarray, cell_col: np.ndarray) -> int:
    """Two when the last move must cost two more than Manhattan + conflicts count (Korf &
    Taylor's last moves): it brings home the tile left of the blank's goal or the one above,
    out of the blank's goal cell, so when the first is outside the last column and the second
    outside the last row, whichever it is has to go there and back. Not when that tile sits in
    its own goal column (row) while it has a conflict (`column_conflict`: the last column but
    one's; `row_conflict`: the last row but one's), whose moves might be the same."""
    cells = where.size
    if width < 2 or height < 2:
        return 0
    lc, ur = cell_col[where[cells - 1]], cell_row[where[cells - width]]
    if lc == width - 1 or ur == height - 1:
        return 0
    if lc == width - 2 and column_conflict > 0:
        return 0
    if ur == height - 2 and row_conflict > 0:
        return 0
    return 2


@njit(cache=True, nogil=True)
def ida_max(  # plain IDA* on the largest of several additive sums and Manhattan + conflicts
    board: np.ndarray,  # int64[cells]: the tile on each cell, 0 the blank; restored on return
    nbr: np.ndarray,  # int64[cells, 4]
    flat: np.ndarray,  # uint8: every partition's tables end to end
    group_offset: np.ndarray,  # int64[all groups]: where each group's table starts in `flat`
    view_tile: np.ndarray,  # int64[views, cells]: a tile's label in the view (mirror or not)
    view_cell: np.ndarray,  # int64[views, cells]: a cell's place in the view
    view_group: np.ndarray,  # int64[views, cells]: a view tile's group (an index of all groups)
    view_mul: np.ndarray,  # int64[views, cells]: the weight of its cell in the group's index
    lines: bool,  # also Manhattan + linear conflicts (`line_conflicts`), read first
    distance: np.ndarray,  # int64[tile, cell]: the `line_conflicts.Conflicts` arrays
    goal_row: np.ndarray,
    goal_col: np.ndarray,
    cell_row: np.ndarray,
    cell_col: np.ndarray,
    place: np.ndarray,
    table: np.ndarray,
    limit: int,  # cut nodes with g + h > limit
    ctl: np.ndarray,  # int64[CONTROL_SIZE]
    path: np.ndarray,  # int64[MAX_PATH]: the blank's cells along the path, out
) -> int:
    """A length, STOPPED or EXHAUSTED; ctl[FAILED] the last bound passed with no solution.

    Each group's value at the current node is kept (`value`), so a child costs one table
    read per view, and the views are read in turn only until one cuts the child: a cut child's
    f is then the largest read so far, at most its true f, so the next bound stays honest."""
    cells = board.size
    views = view_tile.shape[0]
    cap = path.size - 1
    order = np.zeros((cap + 1, 4), dtype=np.int64)
    child_s = np.zeros((cap + 1, 4, views), dtype=np.int64)  # a kept child's sums
    child_v = np.zeros((cap + 1, 4, views), dtype=np.int64)  # its moved group's new value
    undo = np.zeros((cap + 2, views), dtype=np.int64)  # the moved groups' values before
    count = np.zeros(cap + 1, dtype=np.int64)
    nxt = np.zeros(cap + 1, dtype=np.int64)
    idx = np.zeros(group_offset.size, dtype=np.int64)
    value = np.zeros(group_offset.size, dtype=np.int64)
    sums = np.zeros((cap + 2, views), dtype=np.int64)
    trial = np.zeros(views, dtype=np.int64)
    fresh = np.zeros(views, dtype=np.int64)
    blank0 = 0
    for c in range(cells):
        t = board[c]
        if t == 0:
            blank0 = c
            continue
        for v in range(views):
            vt = view_tile[v, t]
            idx[view_group[v, vt]] += view_cell[v, c] * view_mul[v, vt]
    for g in range(group_offset.size):
        value[g] = flat[group_offset[g] + idx[g]]
    h0 = 0
    for v in range(views):  # each view's groups: those its tiles name
        seen = np.zeros(group_offset.size, dtype=np.bool_)
        for t in range(1, cells):
            g = view_group[v, view_tile[v, t]]
            if not seen[g]:
                seen[g] = True
                sums[0, v] += value[g]
        if sums[0, v] > h0:
            h0 = sums[0, v]
    code_rows = np.zeros(place.size, dtype=np.int64)
    code_cols = np.zeros(place.size, dtype=np.int64)
    line_sum = np.zeros(cap + 2, dtype=np.int64)  # Manhattan + conflicts along the path
    child_l = np.zeros((cap + 1, 4), dtype=np.int64)
    where = np.zeros(cells, dtype=np.int64)  # each tile's cell
    width, height = cell_col[cell_col.size - 1] + 1, cell_row[cell_row.size - 1] + 1
    if lines:
        for c in range(cells):
            t = board[c]
            where[t] = c
            if t == 0:
                continue
            line_sum[0] += distance[t, c]
            if goal_row[t] == cell_row[c]:
                code_rows[cell_row[c]] += (goal_col[t] + 1) * place[cell_col[c]]
            if goal_col[t] == cell_col[c]:
                code_cols[cell_col[c]] += (goal_row[t] + 1) * place[cell_row[c]]
        for i in range(place.size):
            line_sum[0] += table[code_rows[i]] + table[code_cols[i]]
        last = 0
        if line_sum[0] > 0:
            last = _last_moves(where, width, height, table[code_cols[width - 2]],
                               table[code_rows[height - 2]], cell_row, cell_col)
        h0 = max(h0, line_sum[0] + last)
    path[0] = blank0
    ctl[FAILED] = -1
    if h0 == 0:
        return 0
    if h0 > limit:
        return EXHAUSTED
    bound = h0
    nodes = ctl[NODES]
    while True:
        ctl[BOUND] = bound
        ctl[ITERATIONS] += 1
        next_bound = INFINITE
        d = 0
        entering = True
        while d >= 0:
            b = path[d]
            if entering:
                entering = False
                n_ok = 0
                for k in range(4):
                    nb = nbr[b, k]
                    if nb < 0 or (d > 0 and nb == path[d - 1]):
                        continue
                    t = board[nb]
                    h = 0
                    cut = d + 1 >= cap
                    if lines:
                        change = _line_step(code_rows, code_cols, t, nb, b, goal_row, goal_col,
                                            cell_row, cell_col, place, table, False)
                        line = line_sum[d] + distance[t, b] - distance[t, nb] + change
                        h = line
                        if line > 0:  # the child's last moves: its conflicts beside the goal
                            near_col = table[code_cols[width - 2]]
                            near_row = table[code_rows[height - 2]]
                            if cell_row[nb] == cell_row[b]:
                                if goal_col[t] == width - 2 and (
                                        cell_col[nb] == width - 2 or cell_col[b] == width - 2):
                                    near_col += change
                            elif goal_row[t] == height - 2 and (
                                    cell_row[nb] == height - 2 or cell_row[b] == height - 2):
                                near_row += change
                            where[t] = b
                            h += _last_moves(where, width, height, near_col, near_row,
                                             cell_row, cell_col)
                            where[t] = nb
                        child_l[d, n_ok] = line
                        cut = cut or d + 1 + h > bound or d + 1 + h > limit
                    for v in range(views):
                        if cut:
                            break
                        vt = view_tile[v, t]
                        g = view_group[v, vt]
                        new = flat[group_offset[g] + idx[g]
                                   + (view_cell[v, b] - view_cell[v, nb]) * view_mul[v, vt]]
                        fresh[v] = new
                        trial[v] = sums[d, v] - value[g] + new
                        if trial[v] > h:
                            h = trial[v]
                            if d + 1 + h > bound or d + 1 + h > limit:
                                cut = True
                                break
                    nodes += 1
                    if cut:
                        if d + 1 + h <= limit and d + 1 + h < next_bound:
                            next_bound = d + 1 + h
                        continue
                    order[d, n_ok] = nb
                    for v in range(views):
                        child_s[d, n_ok, v] = trial[v]
                        child_v[d, n_ok, v] = fresh[v]
                    n_ok += 1
                count[d] = n_ok
                nxt[d] = 0
                if (nodes & CHECK_MASK) < 4:
                    ctl[NODES] = nodes
                    if ctl[STOP] != 0:
                        return STOPPED
            j = nxt[d]
            if j == count[d]:
                if d > 0:
                    pb = path[d - 1]
                    t = board[pb]
                    board[b] = t
                    board[pb] = 0
                    for v in range(views):
                        vt = view_tile[v, t]
                        g = view_group[v, vt]
                        idx[g] += (view_cell[v, b] - view_cell[v, pb]) * view_mul[v, vt]
                        value[g] = undo[d, v]
                    if lines:
                        _line_step(code_rows, code_cols, t, pb, b, goal_row, goal_col,
                                   cell_row, cell_col, place, table, True)
                        where[t] = b
                d -= 1
                continue
            nxt[d] = j + 1
            nb = order[d, j]
            t = board[nb]
            board[b] = t
            board[nb] = 0
            h = 0
            if lines:
                _line_step(code_rows, code_cols, t, nb, b, goal_row, goal_col, cell_row,
                           cell_col, place, table, True)
                where[t] = b
                line_sum[d + 1] = child_l[d, j]
                h = line_sum[d + 1]  # (no last moves: h is 0 only at the goal)
            for v in range(views):
                vt = view_tile[v, t]
                g = view_group[v, vt]
                idx[g] += (view_cell[v, b] - view_cell[v, nb]) * view_mul[v, vt]
                undo[d + 1, v] = value[g]
                value[g] = child_v[d, j, v]
                sums[d + 1, v] = child_s[d, j, v]
                if sums[d + 1, v] > h:
                    h = sums[d + 1, v]
            d += 1
            path[d] = nb
            entering = True
            if h == 0:
                ctl[NODES] = nodes
                length = d
                while d > 0:
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
        bound = max(next_bound, bound + 2)


@njit(cache=True, nogil=True)
def ida_views(  # plain IDA* on the largest of several additive sums (`pdb_big.Views`)
    board: np.ndarray,
    nbr: np.ndarray,
    flat: np.ndarray,
    group_offset: np.ndarray,
    view_tile: np.ndarray,
    view_cell: np.ndarray,
    view_group: np.ndarray,
    view_mul: np.ndarray,
    limit: int,
    ctl: np.ndarray,
    path: np.ndarray,
) -> int:
    """`ida_max` with the views alone (no linear conflicts)."""
    none = np.zeros(1, dtype=np.int64)
    return ida_max(board, nbr, flat, group_offset, view_tile, view_cell, view_group, view_mul,
                   False, np.zeros((1, 1), dtype=np.int64), none, none, none, none, none,
                   np.zeros(1, dtype=np.uint8), limit, ctl, path)
