"""Building one 15-puzzle pattern database: a compiled breadth-first search over the blocks of
`pdb_index` (placement and the blank's region), level by level.

Only moves of the group's tiles count; the others move for free, so the blank wanders at no cost
through its region of empty cells, and a group tile next to that region can step into it. Each
placement keeps the level at which any of its states was first reached: the fewest group moves
with the blank in its best region, a lower bound on the group's own moves; groups that share no
tile add up.

Memory: two bits a state (a 8-tile group: 1,425,191,040 states, 356 MB) and the table itself
(a byte a placement: 519 MB); time: one table lookup per state and move. The kernel runs a
stretch of blocks per call, so the caller reports progress and stops on cancel between calls
(well under 100 ms each).
"""

from __future__ import annotations

from math import perm

import numpy as np

from kaeru.engine.rules.control import Meter
from kaeru.engine.sliding.jit import njit
from kaeru.engine.sliding.pdb_index import FACT, placement_index, rotations, space

UNSEEN = 255
STRETCH_STATES = 1 << 20  # states of the blocks one kernel call looks at, at most


@njit(cache=True, nogil=True)
def expand_blocks(  # noqa: PLR0913 - a kernel takes its tables as arguments
    marks: np.ndarray,  # uint8[states / 4]: two bits a state (0 unseen, 1/2 frontier, 3 done)
    words: np.ndarray,  # the same memory as uint64[states / 32]
    final: np.ndarray,  # uint8[placements]: the level each placement was first reached at
    depth: int,
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
                    if final[fbase + p] == UNSEEN:
                        final[fbase + p] = depth + 1
            if hit:
                following_active[cb] = 1
    return found


def build_group(group: tuple[int, ...], meter: Meter) -> np.ndarray:
    """The database of `group` (tiles of the 15-puzzle, goal blank bottom right): uint8 over
    the placements (`pdb_index`), with progress and cancel through `meter`."""
    k = len(group)
    sp = space(k)
    orders = int(FACT[k])
    rot = rotations(k)
    marks = np.zeros(sp.states // 4, dtype=np.uint8)
    words = marks.view(np.uint64)
    final = np.full(perm(16, k), UNSEEN, dtype=np.uint8)
    active = np.zeros(sp.blocks, dtype=np.uint8)
    following_active = np.zeros(sp.blocks, dtype=np.uint8)
    homes = [tile - 1 for tile in group]
    mask = sum(1 << c for c in homes)
    root_block = sp.block_of(mask, 15)
    place = placement_index(homes)
    root = root_block * sp.stride + place % orders
    marks[root >> 2] = 1 << (2 * (root & 3))  # code 1: the frontier of level 0
    final[place] = 0
    active[root_block] = 1
    step = max(1, STRETCH_STATES // sp.stride)
    meter.extra["states"] = f"{sp.blocks * orders:,}"
    reached, depth = 1, 0
    while True:
        found = 0
        for first in range(0, sp.blocks, step):
            found += expand_blocks(marks, words, final, depth, first, min(sp.blocks, first + step),
                                   active, following_active, sp.stride, orders, sp.block_mask,
                                   sp.move_start, sp.move_from, sp.move_to, sp.move_block, rot)
            meter.generated = reached + found
            meter.expanded = reached
            meter.done = min(0.99, (reached + found) / (sp.blocks * orders))
            meter.check()
        if found == 0:
            break
        reached += found
        depth += 1
        meter.depth = depth
        meter.extra["level"] = str(depth)
        active, following_active = following_active, active
    del marks, words
    if int(final.max()) == UNSEEN:  # pragma: no cover - every placement is reachable
        raise AssertionError("pattern database left placements unreached")
    meter.done = 1.0
    return final
