"""The pagoda test of engine.pegs.pagoda on whole numpy arrays of positions at once.

Four functions share one uint64: each gets a 16-bit field holding HALF + (its total over the
pegs - the total the goal needs). Per-chunk lookup tables give the four totals of a position in
a few reads; a position is dead when some field falls below HALF (its high bit is clear). All
positions of a layer have the same number of pegs, so the offsets are one constant per call.
"""

from __future__ import annotations

import numpy as np

from kaeru.engine.pegs.pagoda import FIELD, HALF, PagodaTest

CHUNK_BITS = 11
PER_WORD = 4  # 16-bit fields in a uint64
U64 = np.uint64


class PagodaArrays:
    """A PagodaTest (one board, one goal) vectorised."""

    def __init__(self, test: PagodaTest) -> None:
        size = test.board.size
        self.chunks = (size + CHUNK_BITS - 1) // CHUNK_BITS
        self.words: list[tuple[list[np.ndarray], list[int], list[int], int]] = []
        functions, needs = test.functions, test.needs
        for first in range(0, len(functions), PER_WORD):
            group = functions[first : first + PER_WORD]
            shifts = [max(0, -min(f)) for f in group]
            packed = [
                sum(
                    (f[hole] + shift) << (FIELD * i)
                    for i, (f, shift) in enumerate(zip(group, shifts, strict=True))
                )
                for hole in range(size)
            ]
            tables = []
            for k in range(self.chunks):
                start = k * CHUNK_BITS
                width = min(CHUNK_BITS, size - start)
                values = np.arange(1 << width, dtype=U64)
                table = np.zeros(1 << width, dtype=U64)
                for j in range(width):
                    table += ((values >> U64(j)) & U64(1)) * U64(packed[start + j])
                tables.append(table)
            high = sum(HALF << (FIELD * i) for i in range(len(group)))
            self.words.append((tables, shifts, list(needs[first : first + PER_WORD]), high))

    def dead(self, codes: np.ndarray, pegs: int) -> np.ndarray:
        """A mask of the positions (all with `pegs` pegs) some function proves dead."""
        out = np.zeros(codes.size, dtype=bool)
        if not self.words or codes.size == 0:
            return out
        mask = U64((1 << CHUNK_BITS) - 1)
        indices = [
            ((codes >> U64(k * CHUNK_BITS)) & mask).astype(np.intp) for k in range(self.chunks)
        ]
        for tables, shifts, needs, high in self.words:
            offset = sum(
                (HALF - need - shift * pegs) << (FIELD * i)
                for i, (need, shift) in enumerate(zip(needs, shifts, strict=True))
            )
            value = tables[0][indices[0]]
            for table, index in zip(tables[1:], indices[1:], strict=True):
                value += table[index]
            value += U64(offset)
            out |= (value & U64(high)) != U64(high)
        return out
