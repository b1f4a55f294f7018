"""Positions as bitboards (bit h set = a peg in hole h) and the fast operations on them: the
jumps available, applying a jump, and the canonical form under the board's symmetries.

Moves are generated from whichever side is smaller: the pegs' outgoing jumps late in a game,
the empty holes' incoming jumps early on. Symmetric images are built from per-chunk lookup
tables (a few bits of the position at a time), so a canonical form costs a handful of table
reads per symmetry instead of one operation per hole.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from kaeru.engine.pegs.boards import Board, Jump

CHUNK_BITS = 11


def chunk_tables(size: int, image_of_bit: Sequence[int]) -> list[list[int]]:
    """Tables t[k][v]: the OR of `1 << image_of_bit[k*CHUNK_BITS + j]` over the bits j of v."""
    tables = []
    for start in range(0, size, CHUNK_BITS):
        width = min(CHUNK_BITS, size - start)
        table = [0] * (1 << width)
        for v in range(1, 1 << width):
            low = (v & -v).bit_length() - 1
            table[v] = table[v & (v - 1)] | (1 << image_of_bit[start + low])
        tables.append(table)
    return tables


def sum_tables(size: int, weights: Sequence[float]) -> list[list[float]]:
    """Tables t[k][v]: the sum of `weights[k*CHUNK_BITS + j]` over the bits j of v (ints stay
    exact ints: the pagoda test packs many sums into one)."""
    tables: list[list[float]] = []
    for start in range(0, size, CHUNK_BITS):
        width = min(CHUNK_BITS, size - start)
        table: list[float] = [0] * (1 << width)
        for v in range(1, 1 << width):
            low = (v & -v).bit_length() - 1
            table[v] = table[v & (v - 1)] + weights[start + low]
        tables.append(table)
    return tables


class BitBoard:
    """Jump tables and symmetry tables for one board."""

    def __init__(self, board: Board, symmetries: Sequence[Sequence[int]] | None = None) -> None:
        self.board = board
        self.size = board.size
        self.full = board.full
        self.jumps: tuple[Jump, ...] = board.jumps
        # Per jump index: (bit of the jumper, bit of the jumped peg, bit of the target, xor).
        self.outgoing: list[list[tuple[int, int, int]]] = [[] for _ in range(self.size)]
        self.incoming: list[list[tuple[int, int]]] = [[] for _ in range(self.size)]
        self.xor: list[int] = []
        for index, (a, b, c) in enumerate(self.jumps):
            self.outgoing[a].append((1 << b, 1 << c, index))
            self.incoming[c].append(((1 << a) | (1 << b), index))
            self.xor.append((1 << a) | (1 << b) | (1 << c))
        self.symmetries = tuple(board.symmetries if symmetries is None else symmetries)
        self._sym_tables = [chunk_tables(self.size, perm) for perm in self.symmetries]
        self._mask = (1 << CHUNK_BITS) - 1

    # ---- moves ----------------------------------------------------------------------------------
    def jump_indices(self, state: int) -> list[int]:
        """Indices (into `jumps`) of the jumps legal in `state`."""
        found = []
        pegs = state.bit_count()
        if pegs <= self.size - pegs:
            rest = state
            while rest:
                low = rest & -rest
                rest ^= low
                for b_bit, c_bit, index in self.outgoing[low.bit_length() - 1]:
                    if state & b_bit and not state & c_bit:
                        found.append(index)
        else:
            rest = self.full & ~state
            while rest:
                low = rest & -rest
                rest ^= low
                for ab, index in self.incoming[low.bit_length() - 1]:
                    if state & ab == ab:
                        found.append(index)
        return found

    def children(self, state: int) -> Iterator[tuple[int, int]]:
        """(jump index, position after it) for each legal jump."""
        xor = self.xor
        for index in self.jump_indices(state):
            yield index, state ^ xor[index]

    # ---- symmetry -------------------------------------------------------------------------------
    def images(self, state: int) -> list[int]:
        """The position under each symmetry, identity first."""
        m, k = self._mask, CHUNK_BITS
        out = []
        for tables in self._sym_tables:
            image = 0
            shifted = state
            for table in tables:
                image |= table[shifted & m]
                shifted >>= k
            out.append(image)
        return out

    def canonical(self, state: int) -> int:
        """The smallest image of `state` under the symmetries: one key for a whole class."""
        return min(self.images(state))

    def image(self, state: int, symmetry: int) -> int:
        m, k = self._mask, CHUNK_BITS
        image = 0
        for table in self._sym_tables[symmetry]:
            image |= table[state & m]
            state >>= k
        return image
