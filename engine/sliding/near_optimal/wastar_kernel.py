"""Compiled weighted A* for big sliding boards (numba), over the additive databases of
`engine.sliding.databases.pdb_big` with the diagonal mirror on square boards.

Best first on f = wd·g + wn·h (the weight w = wn/wd >= 1) with duplicate detection, so the
path it returns is at most w times the optimum (the databases are consistent: a move changes
one group's value by at most one). A position reached again by a shorter path is reopened:
without it the cut below would lose the positions behind one first reached the long way.
Nodes whose g + h exceeds `limit` are cut, so a run only looks for solutions shorter than an
incumbent. At most `max_nodes` positions are held; the run gives up (FULL) past that.

When only a line's tiles count (`chase`, from `peel`), a position is told apart by the blank and
those tiles alone: the search runs over the line's positions, not the whole board's. With a rest
weight (`rn` > 0) the groups from `nline` on are the rest's (the tiles still to come after the
line): the goal is still the line home (the line's groups at 0), but f = wd·g + wn·h + rn·r with
r the rest's sum, so of two ways home the one that leaves the rest nearer its goal comes first,
and every tile tells positions apart. The weight bound then holds for f's line part only: such
a run is a heuristic search for a good split, not a bounded one.

A node keeps the cell of every tile (uint8 per tile, the blank first), its parent, g, the plain
and mirrored sums, and a 64-bit Zobrist key; an open-addressing table finds repeats (a key that
matches is checked cell by cell), and the open list is one bucket (a linked stack) per value of
f, so ties go to the newest node. The
counters go to `ctl` every 65,536 nodes; the run stops (STOPPED) when ctl[STOP] is set. The GIL
is released, so a caller thread can report progress and cancel.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from kaeru.engine.sliding.jit import njit

STOP, NODES, HELD = 0, 1, 2  # slots of the control array
CONTROL_SIZE = 3
STOPPED, FULL, EXHAUSTED = -1, -2, -3
CHECK_MASK = 0xFFFF


def zobrist(cells: int, seed: int = 24) -> np.ndarray:
    """uint64[cells (tile), cells (cell), 2]: random keys, a fixed seed (the same every run)."""
    rng = np.random.default_rng(seed)
    return rng.integers(0, 2**63, size=(cells, cells, 2), dtype=np.int64).astype(np.uint64)


def line_keys(keys: np.ndarray, chase: np.ndarray) -> np.ndarray:
    """`keys` with every tile but the blank and `chase`'s zeroed: positions that differ only in
    tiles that count nothing share a key (and `_same` then calls them one)."""
    out = np.zeros_like(keys)
    out[0] = keys[0]
    out[chase] = keys[chase]
    return out


@njit(cache=True, nogil=True, inline="always")
def _group_index(pos: np.ndarray, node: int, tiles: np.ndarray, size: int,
                 tile_mul: np.ndarray, mapping: np.ndarray, cell_map: np.ndarray) -> int:
    """A group's index, the tiles read through `mapping` (the mirror) and `cell_map`."""
    out = np.int64(0)
    for i in range(size):
        t = tiles[i]
        out += cell_map[np.int64(pos[node, mapping[t]])] * tile_mul[t]
    return int(out)


@njit(cache=True, nogil=True, inline="always")
def _reach(pos: np.ndarray, node: Any, chase: np.ndarray, width: Any, blank: Any,
           counted: Any, moved: Any, moved_to: Any) -> Any:
    """When only `chase`'s tiles count (a line brought home): the moves the blank needs to come
    next to one of them before any of them can move, which move no counted tile (so they add to
    the databases' value); 0 when every one is home or none is chased. `moved` is on
    `moved_to` (a child not yet written down)."""
    if chase.size == 0 or counted == 0:
        return 0
    best = 1 << 30
    br, bc = blank // width, blank % width
    for i in range(chase.size):
        t = chase[i]
        c = np.int64(moved_to) if t == moved else np.int64(pos[node, t])
        d = abs(c // width - br) + abs(c % width - bc)
        if d < best:
            best = d
    return max(0, best - 1)


@njit(cache=True, nogil=True, inline="always")
def _with_blank(pos: np.ndarray, node: Any, bflat: np.ndarray, boffset: np.ndarray,
                btiles: np.ndarray, bsize: np.ndarray, cells: Any, blank: Any, moved: Any,
                moved_to: Any) -> Any:
    """The largest value of the tables that count the blank (`line_tables`), for the position
    of `node` with the blank on `blank` and tile `moved` on `moved_to`; 0 with no tables."""
    best = np.int64(0)
    for g in range(boffset.size):
        idx = np.int64(blank)
        mul = np.int64(1)
        for i in range(1, bsize[g]):
            mul *= cells
            t = btiles[g, i]
            c = np.int64(moved_to) if t == moved else np.int64(pos[node, t])
            idx += c * mul
        v = np.int64(bflat[boffset[g] + idx])
        if v > best:
            best = v
    return best


@njit(cache=True, nogil=True, inline="always")
def _same(pos: np.ndarray, other: Any, node: Any, t: Any, b: Any, nb: Any,
          chase: np.ndarray) -> bool:
    """Whether node `other` holds the position `node` reaches when tile `t` slides from `nb`
    into the blank on `b` (the key matched: this makes sure). With `chase` (a line brought
    home), only the blank and the chased tiles tell positions apart: the other tiles count
    nothing and block nothing, so two positions that differ only in them have the same way
    home (the keys leave them out too: `line_keys`)."""
    if chase.size > 0:
        if pos[other, 0] != nb:
            return False
        for i in range(chase.size):
            c = chase[i]
            want = b if c == t else pos[node, c]
            if pos[other, c] != want:
                return False
        return True
    for c in range(pos.shape[1]):
        want = b if c == t else nb if c == 0 else pos[node, c]
        if pos[other, c] != want:
            return False
    return True


@njit(cache=True, nogil=True)
def wastar(  # a kernel takes its tables as arguments
    start: np.ndarray,  # int64[cells]: the tile on each cell, 0 the blank
    nbr: np.ndarray,  # int64[cells, 4]
    flat: np.ndarray,  # uint8: the groups' tables end to end
    offset: np.ndarray,  # int64[groups]
    tile_group: np.ndarray,  # int64[cells]
    tile_mul: np.ndarray,  # int64[cells]
    group_tiles: np.ndarray,  # int64[groups, largest group]
    group_size: np.ndarray,  # int64[groups]
    mirror_tile: np.ndarray,  # int64[cells]: the tile whose home mirrors this tile's home
    transpose: np.ndarray,  # int64[cells]
    use_mirror: bool,
    chase: np.ndarray,  # int64[k]: tiles the blank must reach first (a line's), or empty
    width: int,  # the board's width (for the blank's distance to them)
    bflat: np.ndarray,  # uint8: tables that count the blank (`line_tables`), end to end
    boffset: np.ndarray,  # int64[tables] (empty: none)
    btiles: np.ndarray,  # int64[tables, k + 1]: each table's tiles, the blank (0) first
    bsize: np.ndarray,  # int64[tables]: k + 1
    nline: int,  # groups counted as the goal's (all of them: `offset.size`); the rest's after
    wn: int,
    wd: int,
    rn: int,  # the rest's weight in f (0: the rest counts nothing)
    limit: int,  # cut nodes with g + h > limit
    max_nodes: int,
    keys: np.ndarray,  # zobrist(cells)
    ctl: np.ndarray,
    path: np.ndarray,  # int64[limit + 1]: the blank's cells along the path, out
) -> int:
    cells = start.size
    groups = offset.size
    identity = np.arange(cells)
    unmirror = np.zeros(cells, dtype=np.int64)  # the tile a mirrored tile stands for
    for t in range(cells):
        unmirror[mirror_tile[t]] = t
    pos = np.zeros((max_nodes, cells), dtype=np.uint8)
    parent = np.full(max_nodes, -1, dtype=np.int32)
    gs = np.zeros(max_nodes, dtype=np.int16)
    hp = np.zeros(max_nodes, dtype=np.uint8)
    hm = np.zeros(max_nodes, dtype=np.uint8)
    hr = np.zeros(max_nodes, dtype=np.int16)  # the rest's sum (groups from nline on)
    told = chase if rn == 0 else chase[:0]  # tiles that tell positions apart (none: all)
    key0 = np.zeros(max_nodes, dtype=np.uint64)
    closed = np.zeros(max_nodes, dtype=np.uint8)
    entries = max_nodes + max_nodes // 4  # open-list entries: a reopened node is put in again
    entry_node = np.zeros(entries, dtype=np.int32)
    link = np.full(entries, -1, dtype=np.int32)
    nf = np.zeros(max_nodes, dtype=np.int32)  # f when the node was put in its bucket
    cap = 1
    while cap < max_nodes + max_nodes // 2:
        cap *= 2
    mask = np.int64(cap - 1)
    umask = np.uint64(cap - 1)
    table = np.full(cap, -1, dtype=np.int32)
    top_f = wd * (limit + 1) + wn * 256 + rn * 256 * max(0, groups - nline)
    head = np.full(top_f + 1, -1, dtype=np.int32)
    board = np.zeros(cells, dtype=np.int64)

    # the root
    k0 = np.uint64(0)
    k1 = np.uint64(0)
    for c in range(cells):
        t = start[c]
        pos[0, t] = c
        k0 ^= keys[t, c, 0]
        k1 ^= keys[t, c, 1]
    sp = np.int64(0)
    sm = np.int64(0)
    sr = np.int64(0)
    for g in range(groups):
        value = flat[offset[g] + _group_index(pos, 0, group_tiles[g], group_size[g], tile_mul,
                                              identity, identity)]
        if g < nline:
            sp += value
        else:
            sr += value
        if use_mirror:
            sm += flat[offset[g] + _group_index(pos, 0, group_tiles[g], group_size[g],
                                               tile_mul, unmirror, transpose)]
    blank0 = np.int64(start.argmin())
    h0 = max(max(sp, sm) + _reach(pos, 0, chase, width, blank0, sp, -1, 0),
             _with_blank(pos, 0, bflat, boffset, btiles, bsize, cells, blank0, -1, 0))
    if h0 > limit:
        return EXHAUSTED
    hp[0], hm[0], hr[0] = sp, sm, sr
    key0[0] = k0
    table[np.int64(k0 & umask)] = 0
    f0 = np.int64(wn * h0 + rn * sr)
    nf[0] = f0
    head[f0] = 0
    entry_node[0] = 0
    used = 1
    pushed = 1
    cur = f0
    nodes = np.int64(0)
    cur = np.int64(f0)
    while True:
        while cur <= top_f and head[cur] < 0:
            cur += 1
        if cur > top_f:
            ctl[NODES] = nodes
            return EXHAUSTED
        entry = head[cur]
        head[cur] = link[entry]
        node = entry_node[entry]
        if closed[node] or nf[node] != cur:
            continue  # a stale entry: reached again more cheaply, or expanded already
        closed[node] = 1
        h = max(np.int64(hp[node]), np.int64(hm[node]))
        g_here = np.int64(gs[node])
        if h == 0:  # the goal
            ctl[NODES] = nodes
            length = g_here
            at = node
            for d in range(length, -1, -1):
                path[d] = pos[at, 0]
                at = parent[at]
            return int(length)
        for c in range(cells):
            board[np.int64(pos[node, c])] = c
        b = np.int64(pos[node, 0])
        back = np.int64(-1) if parent[node] < 0 else np.int64(pos[parent[node], 0])
        for k in range(4):
            nb = nbr[b, k]
            if nb < 0 or nb == back:
                continue
            t = board[nb]
            g = tile_group[t]
            size = group_size[g]
            old = _group_index(pos, node, group_tiles[g], size, tile_mul, identity, identity)
            base = offset[g] + old
            change = np.int64(flat[base + (b - nb) * tile_mul[t]]) - np.int64(flat[base])
            ch_p = np.int64(hp[node]) + (change if g < nline else 0)
            ch_r = np.int64(hr[node]) + (0 if g < nline else change)
            ch_m = np.int64(0)
            if use_mirror:
                m = mirror_tile[t]
                gm = tile_group[m]
                oldm = _group_index(pos, node, group_tiles[gm], group_size[gm], tile_mul,
                                    unmirror, transpose)
                step = (transpose[b] - transpose[nb]) * tile_mul[m]
                basem = offset[gm] + oldm
                ch_m = (np.int64(hm[node]) - np.int64(flat[basem])
                        + np.int64(flat[basem + step]))
            ch_h = max(ch_p, ch_m) + _reach(pos, node, chase, width, nb, ch_p, t, b)
            if boffset.size:
                ch_h = max(ch_h, _with_blank(pos, node, bflat, boffset, btiles, bsize, cells,
                                             nb, t, b))
            nodes += 1
            if (nodes & CHECK_MASK) == 0:
                ctl[NODES] = nodes
                ctl[HELD] = used
                if ctl[STOP] != 0:
                    return STOPPED
            ch_g = g_here + 1
            if ch_g + ch_h > limit:
                continue
            c0 = key0[node] ^ keys[t, nb, 0] ^ keys[t, b, 0] ^ keys[0, b, 0] ^ keys[0, nb, 0]
            slot = np.int64(c0 & umask)
            found = -1
            while table[slot] >= 0:
                other = table[slot]
                if key0[other] == c0 and _same(pos, other, node, t, b, nb, told):
                    found = other
                    break
                slot = np.int64((slot + 1) & mask)
            f = np.int64(wd * ch_g + wn * ch_h + rn * ch_r)
            if pushed >= entries:
                ctl[NODES] = nodes
                ctl[HELD] = used
                return FULL
            if found >= 0:
                if gs[found] <= ch_g:
                    continue
                child = found  # a shorter way to a known position: (re)open it there
                closed[child] = 0
            else:
                if used >= max_nodes:
                    ctl[NODES] = nodes
                    ctl[HELD] = used
                    return FULL
                child = used
                used += 1
                table[slot] = child
                for c in range(cells):
                    pos[child, c] = pos[node, c]
                pos[child, t] = b
                pos[child, 0] = nb
                key0[child] = c0
                hp[child], hm[child], hr[child] = ch_p, ch_m, ch_r
            parent[child] = node
            gs[child] = ch_g
            nf[child] = f
            entry_node[pushed] = child
            link[pushed] = head[f]
            head[f] = pushed
            pushed += 1
            if f < cur:
                cur = f
