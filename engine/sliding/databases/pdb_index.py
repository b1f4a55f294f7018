"""How a 15-puzzle pattern database is indexed while it is built, and the search space its
build walks (stored, the table is in the tile order the search looks it up in: `pdb_order`).

A group of k tiles is placed by *which* cells it covers (a k-subset of the 16 cells, ranked in
colex order) and *in which order* its tiles sit on them: slot[i] = how many of the group's cells
lie before tile i's cell, a permutation of 0..k-1 ranked by its Lehmer code. The entry of a
placement in this block order is `colex(cells) * k! + lehmer(slots)`: perm(16, k) entries.

The build (`pdb_build`) searches states (placement, the region of empty cells the blank is in).
Every state of one (cells, region) pair forms a *block* of k! states, one per order; a move of a
group tile from its cell into the region changes the cells and the region the same way for the
whole block, and the order by a fixed map that depends only on the tile's slot before and after
(`rotations`). So the build expands a block's frontier with a table lookup per state.
"""

from __future__ import annotations

import itertools
from array import array
from dataclasses import dataclass
from functools import cache
from math import comb, factorial

import numpy as np

CELLS = 16
FACT = np.array([factorial(i) for i in range(CELLS + 1)], dtype=np.int64)


@cache
def region_table() -> np.ndarray:
    """uint16[65536, 16]: the cells the blank can reach from `cell` through the empty cells of
    `mask` (0 when `cell` is not empty)."""
    masks = np.arange(1 << CELLS, dtype=np.int64)[:, None]
    cells = np.arange(CELLS, dtype=np.int64)[None, :]
    region = np.where((masks >> cells) & 1, np.int64(1) << cells, 0)
    left_edge = sum(1 << (4 * r) for r in range(4))  # cells in column 0
    right_edge = left_edge << 3
    for _ in range(CELLS):
        grown = region | ((region << 1) & ~left_edge) | ((region >> 1) & ~right_edge)
        grown |= (region << 4) | (region >> 4)
        region = grown & masks & 0xFFFF
    table = region.astype(np.uint16)
    table.flags.writeable = False
    return table


@cache
def colex_table() -> np.ndarray:
    """int64[65536]: each cell mask's rank among the masks with as many cells (colex order)."""
    masks = np.arange(1 << CELLS, dtype=np.int64)
    bits = (masks[:, None] >> np.arange(CELLS)) & 1
    count = np.cumsum(bits, axis=1)  # j + 1 at the j-th set cell
    binomial = np.array([[comb(c, j) for j in range(CELLS + 1)] for c in range(CELLS)],
                        dtype=np.int64)
    ranks = (bits * binomial[np.arange(CELLS)[None, :], count]).sum(axis=1)
    ranks.flags.writeable = False
    return ranks


@cache
def masks_of(k: int) -> np.ndarray:
    """The masks of k cells, in colex order (masks_of(k)[colex_table()[m]] == m)."""
    masks = np.array([m for m in range(1 << CELLS) if m.bit_count() == k], dtype=np.int64)
    order = np.argsort(colex_table()[masks], kind="stable")
    return masks[order]


@cache
def orders(k: int) -> np.ndarray:
    """int8[k!, k]: every order of k slots, in Lehmer-rank order (lexicographic)."""
    return np.array(list(itertools.permutations(range(k))), dtype=np.int8).reshape(-1, k)


def lehmer(slots: np.ndarray) -> np.ndarray:
    """Lehmer ranks of rows of slots (each row a permutation of 0..k-1)."""
    slots = slots.astype(np.int64)
    k = slots.shape[1]
    ranks = np.zeros(slots.shape[0], dtype=np.int64)
    for i in range(k):
        smaller_before = (slots[:, :i] < slots[:, i : i + 1]).sum(axis=1)
        ranks += (slots[:, i] - smaller_before) * FACT[k - 1 - i]
    return ranks


@cache
def rotations(k: int) -> np.ndarray:
    """int32[k, k, k!]: the order's rank after the tile in slot i moves to slot j (the others
    keep their relative order)."""
    slots = orders(k).astype(np.int64)
    out = np.zeros((k, k, int(FACT[k])), dtype=np.int32)
    for i in range(k):
        for j in range(k):
            moved = slots - (slots > i)
            moved += moved >= j
            moved[slots == i] = j
            out[i, j] = lehmer(moved)
    out.flags.writeable = False
    return out


def placement_index(cells: list[int] | tuple[int, ...]) -> int:
    """The entry of the group's tiles on `cells` (cell of tile i of the group, in group order)."""
    mask = 0
    for cell in cells:
        mask |= 1 << cell
    slots = np.array([[(mask & ((1 << c) - 1)).bit_count() for c in cells]])
    return int(colex_table()[mask]) * int(FACT[len(cells)]) + int(lehmer(slots)[0])


def placement_cells(k: int, index: np.ndarray) -> np.ndarray:
    """int64[len(index), k]: the cells of the group's tiles for each entry (inverse of
    `placement_index`, vectorised)."""
    index = np.asarray(index, dtype=np.int64)
    masks = masks_of(k)[index // FACT[k]]
    slots = orders(k)[index % FACT[k]].astype(np.int64)
    bits = (masks[:, None] >> np.arange(CELLS)) & 1
    cell_of_slot = np.argsort(1 - bits, axis=1, kind="stable")[:, :k]  # set cells, ascending
    return np.take_along_axis(cell_of_slot, slots, axis=1)


@dataclass(frozen=True)
class Space:
    """The blocks of a k-tile group's build and the moves between them (arrays for the kernel).

    Block b covers the cells `masks_of(k)[block_mask[b]]` with the blank in region
    `block_region[b]` (a cell mask); its states are b * stride + order rank. The moves of block
    b are move_start[b]:move_start[b+1], each (slot before, slot after, block after)."""

    k: int
    stride: int  # states per block: k! rounded up to whole 64-bit words of 2-bit marks
    block_mask: np.ndarray  # int64[blocks]: colex rank of the cells
    block_region: np.ndarray  # int64[blocks]
    move_start: np.ndarray  # int64[blocks + 1]
    move_from: np.ndarray  # int64[moves]
    move_to: np.ndarray
    move_block: np.ndarray

    @property
    def blocks(self) -> int:
        return int(self.block_mask.size)

    @property
    def states(self) -> int:
        return self.blocks * self.stride

    def block_of(self, mask: int, blank: int) -> int:
        """The block of the group on the cells `mask` with the blank on `blank`."""
        region = int(region_table()[0xFFFF & ~mask, blank])
        rank = int(colex_table()[mask])
        first = int(np.searchsorted(self.block_mask, rank))
        for b in range(first, self.blocks):
            if self.block_region[b] & region:
                return b
        raise ValueError("no such block")  # pragma: no cover - every region has a block


def _regions_of(empty: int, region_table: np.ndarray) -> list[int]:
    found: list[int] = []
    rest = empty
    while rest:
        low = (rest & -rest).bit_length() - 1
        region = int(region_table[empty, low])
        found.append(region)
        rest &= ~region
    return found


@cache
def space(k: int) -> Space:
    """The blocks and moves of a k-tile group (the same for every group of k tiles)."""
    from kaeru.engine.sliding.board.geometry import grid

    table = region_table()
    nbr = grid(4, 4).neighbour_array
    masks = masks_of(k)
    # array('q'), not lists: half a million Python ints would stay in the heap as fragments
    # beside the big build that follows (its peak memory is the point)
    block_mask, block_region = array("q"), array("q")
    first_block: dict[int, int] = {}
    for rank, mask in enumerate(masks.tolist()):
        first_block[mask] = len(block_mask)
        for region in _regions_of(0xFFFF & ~mask, table):
            block_mask.append(rank)
            block_region.append(region)
    move_start = array("q", [0])
    move_from, move_to, move_block = array("q"), array("q"), array("q")
    for rank, region in zip(block_mask, block_region, strict=True):
        mask = int(masks[rank])
        for here in range(CELLS):
            if not (mask >> here) & 1:
                continue
            slot = (mask & ((1 << here) - 1)).bit_count()
            for there in nbr[here].tolist():
                if there < 0 or not (region >> there) & 1:
                    continue
                after = (mask & ~(1 << here)) | (1 << there)
                landed = int(table[0xFFFF & ~after, here])
                child = first_block[after]
                while not block_region[child] & landed:
                    child += 1
                move_from.append(slot)
                move_to.append((after & ((1 << there) - 1)).bit_count())
                move_block.append(child)
        move_start.append(len(move_from))
    stride = -(-int(FACT[k]) // 32) * 32

    def frozen(values: array[int]) -> np.ndarray:
        out = np.array(values, dtype=np.int64)
        out.flags.writeable = False
        return out

    return Space(k, stride, frozen(block_mask), frozen(block_region), frozen(move_start),
                 frozen(move_from), frozen(move_to), frozen(move_block))
