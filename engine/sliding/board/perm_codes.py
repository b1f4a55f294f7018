"""The perfect index of whole sliding layouts, with children's codes worked out incrementally.

The index is the Lehmer code of the tiles' cells, tile 1 first and the blank last (its digit is
always 0). A slide moves one tile t between two cells b and c, so a child's code is its parent's
plus a few terms: t's own digit changes by the cells it crossed, and every later tile standing
between b and c (only vertical slides pass any) shifts its digit by one. The table search
carries the boards of its frontier along (packed four bits a cell in one int64, with the blank's
cell beside it), so it never unranks (`engine.tables.dense.dense_bfs_carrying`).
"""

from __future__ import annotations

from collections.abc import Iterator
from math import factorial

import numpy as np

from kaeru.engine.sliding.board.geometry import Grid, State
from kaeru.engine.sliding.board.perm_index import PermIndex


class PermutationCodes:
    """The perfect index of whole layouts: the cells of tiles 1, 2, ..., then of the blank."""

    def __init__(self, grid: Grid) -> None:
        self.grid = grid
        n = grid.cells
        self.index = PermIndex(n, n)
        self.space_size = factorial(n)
        self._neighbours = grid.neighbour_array
        # weight[t]: the place value of tile t's digit, (n - t)!; weight[0] (the blank) is 0
        self.weight = np.array([0] + [factorial(n - t) for t in range(1, n)], dtype=np.int64)

    def encode(self, state: State) -> int:
        positions = [0] * len(state)
        for cell, tile in enumerate(state):
            positions[tile - 1 if tile else len(state) - 1] = cell
        return self.index.rank_one(positions)

    def decode(self, code: int) -> State:
        positions = self.index.unrank_one(code)
        cells = [0] * len(positions)
        for item, cell in enumerate(positions[:-1]):
            cells[cell] = item + 1
        return tuple(cells)

    def payload(self, state: State) -> tuple[np.ndarray, np.ndarray]:
        """What the search carries for one layout: (packed boards, blank cells)."""
        return (
            np.array([self.pack(state)], dtype=np.int64),
            np.array([state.index(0)], dtype=np.int64),
        )

    @staticmethod
    def pack(state: State) -> int:
        return sum(tile << (4 * cell) for cell, tile in enumerate(state))

    def child_codes(
        self, codes: np.ndarray, boards: np.ndarray, blanks: np.ndarray, targets: np.ndarray
    ) -> np.ndarray:
        """Codes after the tile on `targets` slides into the blank (see the module notes).

        Every row moves the same way (one direction at a time), so the cells crossed are the
        same number of steps for all.
        """
        tile = (boards >> (targets << 2)) & 15
        code = codes + (blanks - targets) * self.weight[tile]
        crossed = abs(int(targets[0] - blanks[0])) if codes.size else 0
        if crossed > 1:
            sign = np.where(blanks > targets, 1, -1)
            low = np.minimum(blanks, targets)
            for step in range(1, crossed):
                other = (boards >> ((low + step) << 2)) & 15
                code += sign * np.where(other > tile, self.weight[other], -self.weight[tile])
        return code

    def slides(self, blanks: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
        """Per direction: (rows that can slide, the cell each one's blank moves to)."""
        out = []
        for k in range(self._neighbours.shape[1]):
            target = self._neighbours[blanks, k]
            ok = target >= 0
            if ok.any():
                out.append((ok, target[ok]))
        return out

    # ---- for the table search ------------------------------------------------------------------
    def expand_carrying(
        self, codes: np.ndarray, payload: tuple[np.ndarray, ...]
    ) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """Per direction: (child codes, parent rows, the blank's new cell) of a carried
        frontier (payload: packed boards, blank cells)."""
        boards, blanks = payload
        for ok, targets in self.slides(blanks):
            rows = np.flatnonzero(ok)
            yield self.child_codes(codes[rows], boards[rows], blanks[rows], targets), rows, targets

    @staticmethod
    def advance(payload: tuple[np.ndarray, ...], targets: np.ndarray) -> tuple[np.ndarray, ...]:
        """The children's payload: the tile on `targets` moved into the parent's blank."""
        boards, blanks = payload  # fresh arrays (gathered by the search): changed in place
        tile = (boards >> (targets << 2)) & 15
        boards += (tile << (blanks << 2)) - (tile << (targets << 2))
        return boards, targets

    # ---- for generic callers (CodedPuzzle) -----------------------------------------------------
    def expand_codes(self, codes: np.ndarray) -> np.ndarray:
        """Every child code of every code (one per legal slide)."""
        boards, blanks = self.boards(codes)
        out = [
            self.child_codes(codes[ok], boards[ok], blanks[ok], targets)
            for ok, targets in self.slides(blanks)
        ]
        return np.concatenate(out) if out else codes[:0]

    def boards(self, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(packed boards, blank cells) of codes."""
        pos = self.index.unrank(codes)
        boards = np.zeros(pos.shape[0], dtype=np.int64)
        for item in range(pos.shape[1] - 1):
            boards |= np.int64(item + 1) << (pos[:, item] << 2)
        return boards, pos[:, -1]
