"""Building one 15-puzzle pattern database: a compiled breadth-first search over the blocks of
`pdb_index` (placement and the blank's region), level by level, then the levels stored in the
tile order the search looks them up in (`pdb_order`).

Only moves of the group's tiles count; the others move for free, so the blank wanders at no cost
through its region of empty cells, and a group tile next to that region can step into it. Each
placement keeps the level at which any of its states was first reached: the fewest group moves
with the blank in its best region, a lower bound on the group's own moves; groups that share no
tile add up.

Memory: two bits a state (an 8-tile group: 1,425,191,040 states, 356 MB) and the levels in
half a byte a placement while the search runs (260 MB, block order): 0.62 GB of arrays; once
the marks are freed, the table in tile order (519 MB) is gathered from the nibbles: 0.78 GB.
A level L is kept as (L // 2) mod 15 + 1 (0: not reached); the group's Manhattan distance md
has L's parity and L - md is at most 18 on these groups (an 8-tile group: 0-18; 7 tiles:
0-14), so the gather reads L back as md + 2 * ((L // 2 - md // 2) mod 15). A group whose levels
went 30 or more past its Manhattan distance would read back 30 less: still a lower bound, so
never a wrong answer, only a weaker one.

Time: one table lookup per state and move, then one read per placement. The kernels run a
stretch of blocks (or placements) per call, so the caller reports progress and stops on cancel
between calls (well under 100 ms each).
"""

from __future__ import annotations

from math import perm

import numpy as np

from kaeru.engine.rules.control import Meter
from kaeru.engine.sliding.databases.pdb_index import FACT, placement_index, rotations, space
from kaeru.engine.sliding.databases.pdb_order import tile_order
from kaeru.engine.sliding.jit import njit
from kaeru.engine.tables.files import Stretches

STRETCH_STATES = 1 << 20  # states of the blocks one kernel call looks at, at most
WINDOW = 15  # levels kept modulo 2 * WINDOW (a nibble: 1..15, 0 not reached)
SEARCH_SHARE = 0.9  # of a build's progress: the search (the rest: storing in tile order)


def level_code(level: int) -> int:
    """The nibble that keeps `level` while the search runs."""
    return (level >> 1) % WINDOW + 1


@njit(cache=True, nogil=True)
def expand_blocks(
    marks: np.ndarray,  # uint8[states / 4]: two bits a state (0 unseen, 1/2 frontier, 3 done)
    words: np.ndarray,  # the same memory as uint64[states / 32]
    final: np.ndarray,  # uint8[placements / 2]: nibbles, the level_code each placement was
    depth: int,  # first reached at (0: not yet)
    first: int,
    last: int,
    active: np.ndarray,  # uint8[blocks]: blocks holding states of level `depth`
    following_active: np.ndarray,  # uint8[blocks]: ... of level depth + 1 (out)
    stride: int,
    orders: int,  # k!
    block_mask: np.ndarray,
    move_start: np.ndarray,
    move_from: np.ndarray,
    move_to: np.ndarray,
    move_block: np.ndarray,
    rot: np.ndarray,  # int32[k, k, k!]
) -> int:
    """Expand the level-`depth` states of blocks [first, last); returns the states found."""
    low = np.uint64(0x5555555555555555)
    one = np.uint64(1)
    current = 1 + (depth & 1)
    following = np.uint8(1 + ((depth + 1) & 1))
    code = ((depth + 1) >> 1) % WINDOW + 1
    per_block = stride // 32
    buf = np.empty(stride, dtype=np.int64)
    found = 0
    for b in range(first, last):
        if active[b] == 0:
            continue
        active[b] = 0
        n = 0
        for w in range(b * per_block, (b + 1) * per_block):
            x = words[w]
            if current == 1:
                m = x & ~(x >> one) & low
            else:
                m = (x >> one) & ~x & low
            if m == 0:
                continue
            words[w] = x | m | (m << one)
            p0 = (w - b * per_block) * 32
            for i in range(32):
                if (m >> np.uint64(2 * i)) & one:
                    buf[n] = p0 + i
                    n += 1
        if n == 0:
            continue
        for mv in range(move_start[b], move_start[b + 1]):
            r = rot[move_from[mv], move_to[mv]]
            cb = move_block[mv]
            cbase = cb * stride
            fbase = block_mask[cb] * orders
            hit = False
            for q in range(n):
                p = r[buf[q]]
                s = cbase + p
                byte = s >> 2
                shift = 2 * (s & 3)
                if (marks[byte] >> shift) & 3 == 0:
                    marks[byte] |= np.uint8(following << shift)
                    found += 1
                    hit = True
                    at = fbase + p
                    shift_in = (at & 1) << 2
                    if (final[at >> 1] >> shift_in) & 15 == 0:
                        final[at >> 1] |= np.uint8(code << shift_in)
            if hit:
                following_active[cb] = 1
    return found


def _decode_table() -> np.ndarray:
    """uint8[16, 64]: the level of a nibble at each Manhattan distance (md + 2 * the levels'
    excess over it, (nibble - 1 - md // 2) mod WINDOW; nibble 0, never reached: md)."""
    nibble = np.arange(16)[:, None]
    md = np.arange(64)[None, :]
    levels = md + 2 * ((nibble - 1 - md // 2) % WINDOW)
    return np.where(nibble == 0, md, levels).astype(np.uint8)


def _home_distance(group: tuple[int, ...]) -> np.ndarray:
    """int64[k, 16]: the moves from each tile's home to each cell."""
    home = np.array([tile - 1 for tile in group], dtype=np.int64)[:, None]
    cell = np.arange(16, dtype=np.int64)[None, :]
    return np.abs(home // 4 - cell // 4) + np.abs(home % 4 - cell % 4)


def build_group(group: tuple[int, ...], meter: Meter) -> Stretches:
    """The database of `group` (tiles of the 15-puzzle, goal blank bottom right): uint8 over
    the placements in tile order (`pdb_order`), with progress and cancel through `meter`; the
    search done, the table comes as stretches gathered from its levels while it is written
    (never whole in memory beside them when it goes to a file)."""
    k = len(group)
    sp = space(k)
    orders_count = int(FACT[k])
    rot = rotations(k)
    marks = np.zeros(sp.states // 4, dtype=np.uint8)  # zeroed pages: none resident until used
    words = marks.view(np.uint64)
    nibbles = np.zeros((perm(16, k) + 1) // 2, dtype=np.uint8)  # placements in block order
    active = np.zeros(sp.blocks, dtype=np.uint8)
    following_active = np.zeros(sp.blocks, dtype=np.uint8)
    homes = [tile - 1 for tile in group]
    mask = sum(1 << c for c in homes)
    root_block = sp.block_of(mask, 15)
    place = placement_index(homes)
    root = root_block * sp.stride + place % orders_count
    marks[root >> 2] = 1 << (2 * (root & 3))  # code 1: the frontier of level 0
    nibbles[place >> 1] = level_code(0) << ((place & 1) << 2)
    active[root_block] = 1
    step = max(1, STRETCH_STATES // sp.stride)
    meter.extra["states"] = f"{sp.blocks * orders_count:,}"
    reached, depth = 1, 0
    while True:
        found = 0
        for first in range(0, sp.blocks, step):
            found += expand_blocks(marks, words, nibbles, depth, first,
                                   min(sp.blocks, first + step), active, following_active,
                                   sp.stride, orders_count,
                                   sp.block_mask, sp.move_start, sp.move_from, sp.move_to,
                                   sp.move_block, rot)
            meter.generated = reached + found
            meter.expanded = reached
            meter.done = SEARCH_SHARE * min(1.0, (reached + found) / (sp.blocks * orders_count))
            meter.check()
        if found == 0:
            break
        reached += found
        depth += 1
        meter.depth = depth
        meter.extra["level"] = str(depth)
        active, following_active = following_active, active
    del marks, words  # freed before the table in tile order is written
    meter.extra["level"] = "storing in lookup order"
    return tile_order(nibbles, k, meter, nibbles=True, distance=_home_distance(group),
                      decode=_decode_table(), done_from=SEARCH_SHARE)
