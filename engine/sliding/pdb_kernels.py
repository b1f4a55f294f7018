"""Compiled breadth-first construction of one 15-puzzle pattern database (numba).

A group of k tiles is indexed by the Lehmer code of their cells (16·15·…·(17-k) entries, one byte
each): 518,918,400 for eight tiles. The blank is left out: a group tile may step onto any
neighbouring cell no other group tile holds, at cost one, and moves of other tiles are free. That
relaxes the puzzle (the blank can always be fetched for nothing), so the distance is a lower bound
on the group's own moves, and groups that share no tile add up.

The search goes level by level over the whole array: every entry at depth d is unranked, and its
children not yet reached get d + 1. `expand_level` does one stretch of the array at a time, so the
caller can report progress and stop between stretches.
"""

from __future__ import annotations

import numpy as np

from kaeru.engine.sliding.jit import njit

UNSEEN = 255


def bit_tables() -> tuple[np.ndarray, np.ndarray]:
    """(popcount of every 16-bit mask, the j-th clear bit of every mask)."""
    masks = np.arange(1 << 16, dtype=np.int64)
    bits = (masks[:, None] >> np.arange(16)) & 1
    popcount = bits.sum(axis=1).astype(np.uint8)
    clear = 1 - bits
    order = np.cumsum(clear, axis=1) - 1
    select = np.zeros((1 << 16, 16), dtype=np.int8)
    rows, cols = np.nonzero(clear)
    select[rows, order[rows, cols]] = cols
    return popcount, select


@njit(cache=True, nogil=True)
def expand_level(  # noqa: PLR0913
    table: np.ndarray,  # uint8[16!/(16-k)!]
    k: int,
    depth: int,
    begin: int,
    end: int,
    nbr: np.ndarray,  # int64[16, 4]
    select: np.ndarray,  # int8[65536, 16]
) -> int:
    """Give depth + 1 to the unseen children of the entries at `depth` in [begin, end); returns
    how many it gave.

    A child's index is its parent's plus a few terms: a sideways step changes the moving tile's
    digit by one; a vertical step changes it by four less the earlier tiles on the three cells
    it passes, and each later tile on those cells shifts its own digit by one.
    """
    found = 0
    weight = np.ones(k, dtype=np.int64)
    for i in range(k - 2, -1, -1):
        weight[i] = weight[i + 1] * (16 - i - 1)
    digits = np.zeros(k, dtype=np.int64)
    pos = np.zeros(k, dtype=np.int64)
    slot_at = np.full(16, -1, dtype=np.int64)
    target = np.uint8(depth + 1)
    for index in range(begin, end):
        if table[index] != depth:
            continue
        rest = index
        for i in range(k - 1, -1, -1):
            radix = 16 - i
            digits[i] = rest % radix
            rest //= radix
        used = 0
        for i in range(k):
            p = select[used, digits[i]]
            pos[i] = p
            slot_at[p] = i
            used |= 1 << p
        for i in range(k):
            here = pos[i]
            for direction in range(4):
                there = nbr[here, direction]
                if there < 0 or (used >> there) & 1:
                    continue
                step = there - here
                if step == 1 or step == -1:
                    code = index + step * weight[i]
                else:
                    sign = 1 if step > 0 else -1
                    shift = 0
                    earlier = 0
                    for c in range(min(here, there) + 1, max(here, there)):
                        s = slot_at[c]
                        if s >= 0 and (used >> c) & 1:
                            if s < i:
                                earlier += 1
                            else:
                                shift += weight[s]
                    code = index + sign * ((4 - earlier) * weight[i] + shift)
                if table[code] == UNSEEN:
                    table[code] = target
                    found += 1
        for i in range(k):
            slot_at[pos[i]] = -1
    return found
