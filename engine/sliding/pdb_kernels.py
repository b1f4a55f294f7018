"""Compiled breadth-first construction of one 15-puzzle pattern database (numba).

A group of k tiles is indexed by the Lehmer code of their cells (16·15·…·(17-k) entries, one byte
each): 518,918,400 for eight tiles. Only moves of the group's tiles count; the other tiles move
for free, so the blank wanders at no cost through the region of empty cells it is in, and a group
tile next to that region can step into it. The search state is (placement, the blank's region),
marked with two bits (4,151,347,200 states for eight tiles: 1 GB), and each placement keeps the
depth at which any of its states was first reached: the fewest group moves with the blank in its
best region, a lower bound on the group's own moves; groups that share no tile add up.

The search goes level by level over the whole mark array; `expand_region_level` does one stretch
of it at a time, so the caller can report progress and stop between stretches.
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


# ---- with the blank: (placement, the blank's region) ---------------------------------------------
# Codes of the two-bit marks in `expand_region_level`: unseen, the two frontier codes that take
# turns (the level being expanded, the level being found), and expanded.
UNMARKED, EXPANDED = 0, 3


def region_table() -> np.ndarray:
    """uint16[65536, 16]: the cells the blank can reach from `cell` through the empty cells of
    `mask` (0 when `cell` is not empty)."""
    masks = np.arange(1 << 16, dtype=np.int64)[:, None]
    cells = np.arange(16, dtype=np.int64)[None, :]
    region = np.where((masks >> cells) & 1, np.int64(1) << cells, 0)
    left_edge = sum(1 << (4 * r) for r in range(4))  # cells in column 0
    right_edge = left_edge << 3
    for _ in range(16):
        grown = region | ((region << 1) & ~left_edge) | ((region >> 1) & ~right_edge)
        grown |= (region << 4) | (region >> 4)
        region = grown & masks & 0xFFFF
    return region.astype(np.uint16)


@njit(cache=True, nogil=True, inline="always")
def _lowest_bit(mask: int) -> int:
    cell = 0
    while (mask >> cell) & 1 == 0:
        cell += 1
    return cell


@njit(cache=True, nogil=True)
def expand_region_level(  # noqa: PLR0913
    marks: np.ndarray,  # uint8[ceil(states / 4)]: two bits per (placement, blank's region)
    final: np.ndarray,  # uint8[placements]: the depth each placement was first reached at
    k: int,
    depth: int,
    begin: int,
    end: int,
    nbr: np.ndarray,
    select: np.ndarray,
    popcount: np.ndarray,
    regions: np.ndarray,  # uint16[65536, 16] (region_table)
) -> int:
    """Expand the states of level `depth` among states [begin, end) (multiples of 4).

    A state is a placement of the k tiles and the region of empty cells the blank is in, named
    by the region's lowest cell: state = placement * (16 - k) + that cell's rank among the empty
    cells. Any group tile next to the region can step into it (the blank walks there for free);
    the blank is then on the tile's old cell, in whatever region that cell now belongs to.
    """
    free_cells = 16 - k
    current = 1 + (depth & 1)
    following = np.uint8(1 + ((depth + 1) & 1))
    found = 0
    weight = np.ones(k, dtype=np.int64)
    for i in range(k - 2, -1, -1):
        weight[i] = weight[i + 1] * (16 - i - 1)
    digits = np.zeros(k, dtype=np.int64)
    pos = np.zeros(k, dtype=np.int64)
    slot_at = np.full(16, -1, dtype=np.int64)
    for byte in range(begin >> 2, end >> 2):
        packed = marks[byte]
        if packed == 0 or packed == 0xFF:
            continue
        for sub in range(4):
            if (packed >> (2 * sub)) & 3 != current:
                continue
            marks[byte] = (marks[byte] & np.uint8(0xFF ^ (3 << (2 * sub)))) | np.uint8(
                EXPANDED << (2 * sub)
            )
            state = byte * 4 + sub
            index = state // free_cells
            blank_rank = state - index * free_cells
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
            empty = 0xFFFF & ~used
            region = regions[empty, select[used, blank_rank]]
            for i in range(k):
                here = pos[i]
                for direction in range(4):
                    there = nbr[here, direction]
                    if there < 0 or (region >> there) & 1 == 0:
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
                    after_used = (used & ~(1 << here)) | (1 << there)
                    after_region = regions[0xFFFF & ~after_used, here]
                    low = _lowest_bit(after_region)
                    rank = low - popcount[after_used & ((1 << low) - 1)]
                    child = code * free_cells + rank
                    cb = child >> 2
                    cs = 2 * (child & 3)
                    if (marks[cb] >> cs) & 3 == UNMARKED:
                        marks[cb] |= np.uint8(following << cs)
                        found += 1
                        if final[code] == UNSEEN:
                            final[code] = depth + 1
            for i in range(k):
                slot_at[pos[i]] = -1
    return found
