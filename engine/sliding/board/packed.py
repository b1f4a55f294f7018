"""Boards of at most 16 cells packed in one uint64: four bits per piece, holding its cell.

The "dual" packing: nibble i holds the cell of piece `order[i]`, where `order[0]` is the blank
(0) and the tiles follow in an order the heuristic picks (a pattern database wants each of its
groups in consecutive nibbles, so its index is one shift and one mask). The blank's cell is
`code & 15`. Children of a whole array of codes are computed with a handful of numpy operations.
"""

from __future__ import annotations

import numpy as np

from kaeru.engine.sliding.board.geometry import Grid, State

U64 = np.uint64
NIBBLE = U64(15)
MAX_CELLS = 16


class PackedBoard:
    """Packing, unpacking and vectorised children for one board and one piece order."""

    def __init__(self, grid: Grid, order: tuple[int, ...]) -> None:
        if grid.cells > MAX_CELLS:
            raise ValueError(f"packed boards hold at most {MAX_CELLS} cells")
        if order[0] != 0 or sorted(order) != list(range(grid.cells)):
            raise ValueError("order must start with the blank and list every tile once")
        self.grid = grid
        self.order = order
        self.item_of = {tile: i for i, tile in enumerate(order)}
        self._shifts = [U64(4 * i) for i in range(grid.cells)]
        self._neighbours = grid.neighbour_array

    def pack(self, state: State) -> int:
        code = 0
        for cell, tile in enumerate(state):
            code |= cell << (4 * self.item_of[tile])
        return code

    def unpack(self, code: int) -> State:
        cells = [0] * self.grid.cells
        for i, tile in enumerate(self.order):
            cells[(code >> (4 * i)) & 15] = tile
        return tuple(cells)

    def cells_of(self, codes: np.ndarray) -> np.ndarray:
        """The "forward" packing: nibble c holds the item index on cell c."""
        forward = np.zeros(codes.shape, dtype=U64)
        for i, shift in enumerate(self._shifts):
            where = ((codes >> shift) & NIBBLE) << U64(2)
            forward |= U64(i) << where
        return forward

    def children(self, codes: np.ndarray) -> np.ndarray:
        """Every child of every code (one per legal slide), as one uint64 array."""
        blank = codes & NIBBLE
        forward = self.cells_of(codes)
        target_all = self._neighbours[blank.astype(np.intp)]
        out = []
        for k in range(target_all.shape[1]):
            target = target_all[:, k]
            ok = target >= 0
            if not ok.any():
                continue
            code, b, f = codes[ok], blank[ok], forward[ok]
            c = target[ok].astype(U64)
            item = (f >> (c << U64(2))) & NIBBLE
            # nibble 0 (blank): b -> c; nibble `item`: c -> b (wrap-around uint64 arithmetic)
            out.append(code - b + c + ((b - c) << (item << U64(2))))
        return np.concatenate(out) if out else codes[:0]

    def transposer(self) -> tuple[list[int], np.ndarray] | None:
        """For square boards: (source item of each item, cell map) of the diagonal mirror.

        The mirror puts the tile whose home is (r, c) where the tile of (c, r) belongs; it maps
        the goal to itself, so a state and its mirror are equally far from the goal.
        """
        g = self.grid
        if g.width != g.height:
            return None
        cell_map = np.array(
            [(c % g.width) * g.width + c // g.width for c in range(g.cells)], dtype=U64
        )

        def mirror_tile(tile: int) -> int:
            home = g.home(tile)
            mirrored = int(cell_map[home])
            return 0 if mirrored == g.blank_goal else mirrored + 1

        sources = [self.item_of[mirror_tile(tile)] for tile in self.order]
        return sources, cell_map

    def mirror(self, codes: np.ndarray, sources: list[int], cell_map: np.ndarray) -> np.ndarray:
        """The packed diagonal mirrors of `codes` (see `transposer`)."""
        out = np.zeros(codes.shape, dtype=U64)
        for i, src in enumerate(sources):
            cell = (codes >> self._shifts[src]) & NIBBLE
            out |= cell_map[cell.astype(np.intp)] << self._shifts[i]
        return out
