"""A perfect index of arrangements: `first` pieces of one kind and `second` of another on
distinct cells of a board of `cells` cells, the rest empty (knights of two colours, say).

A board is an array of cell values: 0 empty, 1 the first kind, 2 the second. Its code is
`rank(occupied cells) * C(first + second, first) + rank(which of them hold the first kind)`,
each rank the combinatorial number system (colex: the i-th chosen position p counts C(p, i+1)).
Ranking and unranking whole arrays of boards take a few numpy operations per cell, and
`expand_codes` moves one piece along each edge of a move graph onto an empty cell.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import comb

import numpy as np

EMPTY, FIRST, SECOND = 0, 1, 2


class Arrangements:
    """Boards of `cells` cells holding `first` pieces of kind 1 and `second` of kind 2."""

    def __init__(self, cells: int, first: int, second: int) -> None:
        if first < 0 or second < 0 or first + second > cells:
            raise ValueError(f"cannot put {first} + {second} pieces on {cells} cells")
        self.cells, self.first, self.second = cells, first, second
        self.pieces = first + second
        self.colourings = comb(self.pieces, first)
        self.space_size = comb(cells, self.pieces) * self.colourings
        top = cells + 1
        self._binomial = np.array(
            [[comb(n, k) for k in range(top)] for n in range(top)], dtype=np.int64
        )  # [n, k] = C(n, k)

    # ---- whole arrays ----------------------------------------------------------------------------
    def rank(self, boards: np.ndarray) -> np.ndarray:
        """Codes of an (m, cells) array of boards (int64)."""
        boards = np.asarray(boards, dtype=np.int64)
        occupied = boards != EMPTY
        nth = np.cumsum(occupied, axis=1)  # 1-based: this is the nth occupied cell
        cell = np.arange(self.cells, dtype=np.int64)
        places = np.where(occupied, self._binomial[cell, nth], 0).sum(axis=1)
        first = boards == FIRST
        nth_first = np.cumsum(first, axis=1)
        among = nth - 1  # the position of an occupied cell among the occupied ones
        colours = np.where(first, self._binomial[np.maximum(among, 0), nth_first], 0).sum(axis=1)
        return places * self.colourings + colours

    def unrank(self, codes: np.ndarray) -> np.ndarray:
        """The (m, cells) boards of an array of codes."""
        codes = np.asarray(codes, dtype=np.int64)
        places, colours = np.divmod(codes, self.colourings)
        occupied = self._choose(places, self.pieces, self.cells)  # (m, pieces) cells
        firsts = self._choose(colours, self.first, self.pieces)  # (m, first) among the occupied
        kinds = np.full(occupied.shape, SECOND, dtype=np.int64)
        np.put_along_axis(kinds, firsts, FIRST, axis=1)
        boards = np.zeros((codes.size, self.cells), dtype=np.int64)
        np.put_along_axis(boards, occupied, kinds, axis=1)
        return boards

    def _choose(self, ranks: np.ndarray, k: int, n: int) -> np.ndarray:
        """The k chosen positions (< n, ascending) of each colex rank, as an (m, k) array."""
        out = np.zeros((ranks.size, k), dtype=np.int64)
        rest = ranks.copy()
        for i in range(k, 0, -1):  # the largest p with C(p, i) <= rest
            column = self._binomial[:n, i]
            p = np.searchsorted(column, rest, side="right") - 1
            out[:, i - 1] = p
            rest -= column[p]
        return out

    def expand_codes(self, codes: np.ndarray, edges: np.ndarray) -> np.ndarray:
        """Every child code: one piece moved along a directed edge (src, dst) onto an empty
        cell, for every edge of `edges` ((e, 2) int array)."""
        boards = self.unrank(codes)
        out = []
        for src, dst in edges:
            ok = (boards[:, src] != EMPTY) & (boards[:, dst] == EMPTY)
            if ok.any():
                moved = boards[ok]
                moved[:, dst] = moved[:, src]
                moved[:, src] = EMPTY
                out.append(self.rank(moved))
        return np.concatenate(out) if out else codes[:0]

    # ---- one board at a time ---------------------------------------------------------------------
    def encode(self, board: Sequence[int]) -> int:
        return int(self.rank(np.array([board], dtype=np.int64))[0])

    def decode(self, code: int) -> tuple[int, ...]:
        return tuple(int(v) for v in self.unrank(np.array([code], dtype=np.int64))[0])
