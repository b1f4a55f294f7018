"""A perfect index of partial permutations, vectorised with numpy.

`PermIndex(cells, items)` numbers every way of putting `items` distinct pieces on distinct cells
of a board with `cells` cells (at most 16) as 0 .. cells!/(cells-items)! - 1: a mixed-radix
Lehmer code where the digit of piece i is its cell counted among the cells pieces 0..i-1 left
free. Ranking and unranking whole arrays costs a few numpy operations per piece, thanks to two
tables over the 2**cells sets of used cells: how many are set below a cell, and where the j-th
free cell is.
"""

from __future__ import annotations

from functools import cache
from math import perm

import numpy as np

MAX_CELLS = 16


@cache
def _tables(cells: int) -> tuple[np.ndarray, np.ndarray]:
    """(popcount of every mask, j-th free cell of every mask) for masks over `cells` bits."""
    masks = np.arange(1 << cells, dtype=np.int64)
    bits = (masks[:, None] >> np.arange(cells, dtype=np.int64)) & 1
    popcount = bits.sum(axis=1).astype(np.int64)
    free = 1 - bits
    order = np.cumsum(free, axis=1) - 1
    select = np.zeros((1 << cells, cells), dtype=np.int64)
    rows, cols = np.nonzero(free)
    select[rows, order[rows, cols]] = cols
    return popcount, select


class PermIndex:
    """Ranks and unranks placements of `items` pieces on `cells` cells."""

    def __init__(self, cells: int, items: int) -> None:
        if not 1 <= items <= cells <= MAX_CELLS:
            raise ValueError(f"PermIndex needs 1 <= items <= cells <= {MAX_CELLS}")
        self.cells = cells
        self.items = items
        self.size = perm(cells, items)
        self.radices = [cells - i for i in range(items)]
        self._popcount, self._select = _tables(cells)

    def rank(self, positions: np.ndarray) -> np.ndarray:
        """Codes (int64) for an (m, items) array of cells, piece by piece."""
        pos = np.asarray(positions, dtype=np.int64)
        code = np.zeros(pos.shape[0], dtype=np.int64)
        used = np.zeros(pos.shape[0], dtype=np.int64)
        for i, radix in enumerate(self.radices):
            p = pos[:, i]
            below = used & ((np.int64(1) << p) - 1)
            code = code * radix + (p - self._popcount[below])
            used |= np.int64(1) << p
        return code

    def unrank(self, codes: np.ndarray) -> np.ndarray:
        """The (m, items) int64 array of cells for an array of codes."""
        rest = np.asarray(codes, dtype=np.int64).copy()
        digits = np.empty((rest.shape[0], self.items), dtype=np.int64)
        for i in range(self.items - 1, -1, -1):
            rest, digits[:, i] = np.divmod(rest, self.radices[i])
        pos = np.empty_like(digits)
        used = np.zeros(rest.shape[0], dtype=np.int64)
        for i in range(self.items):
            p = self._select[used, digits[:, i]]
            pos[:, i] = p
            used |= np.int64(1) << p
        return pos

    def rank_one(self, positions: tuple[int, ...] | list[int]) -> int:
        code, used = 0, 0
        for p, radix in zip(positions, self.radices, strict=True):
            code = code * radix + p - int(self._popcount[used & ((1 << p) - 1)])
            used |= 1 << p
        return code

    def unrank_one(self, code: int) -> tuple[int, ...]:
        return tuple(int(p) for p in self.unrank(np.array([code]))[0])
