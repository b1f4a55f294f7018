"""Pagoda functions: hole weights whose total over the pegs no jump can raise, and the fast
test that uses a whole library of them to prove positions dead.

A weighting p is a pagoda function when every jump a-over-b-into-c has p(c) <= p(a) + p(b): the
jump takes p(a) + p(b) off the total and puts p(c) back, so the total never grows. A game can
therefore only finish with one peg in g if the position's total is at least p(g).

The library holds every symmetric image of a few base functions per board (found offline by
integer programming on the dead positions a plain search meets; `is_pagoda` re-checks each one
on import) plus, on every board, the sublattices: a peg moves two holes at a time, so only a peg
on a hole with the goal's column and row parity can ever end on the goal.

All the library's totals are computed at once: each function gets a 16-bit field in one
Python int, and per-chunk tables give the packed totals of a position in a few lookups; one
addition and one mask then tell whether any function falls short of its goal value.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kaeru.engine.pegs.bitboard import CHUNK_BITS, sum_tables
from kaeru.engine.pegs.boards import Board

FIELD = 16
HALF = 1 << (FIELD - 1)

# Base functions (one weight per hole, holes row by row), each used with all its images.
BASE_FUNCTIONS: dict[str, tuple[tuple[int, ...], ...]] = {
    "english": (
        (-1, 6, -1, 1, 4, 1, -3, 3, 0, 3, 0, 3, -3, 1, 1, 1, 1, 1, 1, 1, -2, 2, 0, 2, 0, 2, -2,
         1, 1, 1, -1, 1, -1),
        (0, 5, 0, 0, 3, 0, -2, 2, 0, 2, 0, 2, -1, 1, 1, 0, 1, 0, 1, 0, -1, 1, 0, 1, 0, 1, -1,
         0, 0, 0, 0, 1, 0),
        (0, 4, 0, 0, 2, 0, -3, 3, 0, 3, 0, 3, -3, 0, 0, 0, 0, 0, 0, 0, -3, 3, 0, 3, 0, 3, -3,
         0, 2, 0, 0, 1, 0),
    ),
    "french": (
        (-3, 2, -2, -2, 3, 1, 3, -2, -3, 3, 0, 3, 0, 3, -3, 3, 0, 3, 0, 3, 0, 3, -3, 3, 0, 3, 0,
         3, -3, -3, 3, 0, 3, -3, -3, 3, -3),
        (-3, 1, -3, -1, 3, 0, 3, -1, -1, 1, 0, 1, 0, 1, -1, 3, 0, 3, 0, 3, 0, 3, -1, 1, 0, 1, 0,
         1, -1, -1, 3, 1, 3, -1, -3, 0, -3),
        (-1, 2, -2, 0, 1, 1, 2, -1, -3, 3, 0, 3, 0, 3, -3, 1, 1, 1, 1, 2, 1, 1, -2, 2, 0, 2, 0,
         2, -2, 0, 1, 1, 2, -1, -1, 1, -2),
    ),
    "triangle": (),
}


def is_pagoda(board: Board, weights: Sequence[int]) -> bool:
    """Whether no jump on `board` can raise the weighted total."""
    return all(weights[c] <= weights[a] + weights[b] for a, b, c in board.jumps)


def images(board: Board, weights: Sequence[int]) -> list[tuple[int, ...]]:
    """The distinct images of a weighting under the board's symmetries."""
    found: list[tuple[int, ...]] = []
    for perm in board.symmetries:
        image = [0] * board.size
        for hole, weight in enumerate(weights):
            image[perm[hole]] = weight
        if tuple(image) not in found:
            found.append(tuple(image))
    return found


def sublattices(board: Board) -> list[tuple[int, ...]]:
    """Weight 1 on the holes of one (column, row) parity class, one function per class."""
    out = []
    for px, py in ((0, 0), (0, 1), (1, 0), (1, 1)):
        weights = tuple(int(x % 2 == px and y % 2 == py) for x, y in board.coords)
        if any(weights):
            out.append(weights)
    return out


def library(board: Board) -> list[tuple[int, ...]]:
    """Every pagoda function the solver uses on `board`."""
    functions = sublattices(board)
    for base in BASE_FUNCTIONS.get(board.key, ()):
        for image in images(board, base):
            if image not in functions:
                functions.append(image)
    for weights in functions:
        if not is_pagoda(board, weights):
            raise AssertionError(f"not a pagoda function on the {board.key} board: {weights}")
    return functions


def total(weights: Sequence[int], state: int) -> int:
    return sum(w for h, w in enumerate(weights) if state >> h & 1)


@dataclass
class Verdict:
    """Which function proves a position dead, and the figures that show it."""

    weights: tuple[int, ...]
    value: int
    need: int
    sublattice: bool


class PagodaTest:
    """The library for one board and goal (a hole, or None for a lone peg anywhere)."""

    def __init__(self, board: Board, goal: int | None, functions: Sequence[Sequence[int]]) -> None:
        self.board = board
        self.goal = goal
        self.functions = [tuple(f) for f in functions]
        self.sublattice_count = len(sublattices(board))
        size = board.size
        self.needs = [f[goal] if goal is not None else min(f) for f in self.functions]
        shifts = [max(0, -min(f)) for f in self.functions]  # makes every weight >= 0
        packed = [0] * size
        for index, (f, shift) in enumerate(zip(self.functions, shifts, strict=True)):
            for hole in range(size):
                packed[hole] += (f[hole] + shift) << (FIELD * index)
        self.tables = sum_tables(size, packed)
        self.high = sum(HALF << (FIELD * i) for i in range(len(self.functions)))
        # For a position of n pegs: HALF - (need + shift * n) in each field, added to the total.
        self.offsets = [
            sum(
                (HALF - need - shift * pegs) << (FIELD * i)
                for i, (need, shift) in enumerate(zip(self.needs, shifts, strict=True))
            )
            for pegs in range(size + 1)
        ]

    def packed(self, state: int) -> int:
        value: float = 0  # sum_tables is typed for floats; here its sums are exact ints
        mask = (1 << CHUNK_BITS) - 1
        for table in self.tables:
            value += table[state & mask]
            state >>= CHUNK_BITS
        return int(value)

    def dead(self, state: int) -> bool:
        """Whether some function proves the goal out of reach (the fast packed test)."""
        if not self.functions:
            return False
        value = self.packed(state) + self.offsets[state.bit_count()]
        return value & self.high != self.high

    def verdict(self, state: int) -> Verdict | None:
        """The first function that proves `state` dead, with its figures; None when none does."""
        for index, (f, need) in enumerate(zip(self.functions, self.needs, strict=True)):
            value = total(f, state)
            if value < need:
                return Verdict(f, value, need, index < self.sublattice_count)
        return None

    def reason(self, state: int) -> str | None:
        """Why a pagoda function rules the goal out, in words; None when none does."""
        verdict = self.verdict(state)
        if verdict is None:
            return None
        board = self.board
        target = f"one peg in {board.names[self.goal]}" if self.goal is not None else "one peg"
        if verdict.sublattice:
            holes = board.holes_text(h for h, w in enumerate(verdict.weights) if w)
            return (
                f"no peg is left on {holes}: a peg always moves two holes at a time, so only "
                f"a peg on one of those holes could ever finish as {target}"
            )
        rows = " / ".join(" ".join(str(verdict.weights[h]) for h in row) for row in board.rows)
        return (
            f"a pagoda function rules it out: weigh the holes row by row {rows}; no jump raises "
            f"the total weight of the pegs, which is {verdict.value} here, but {target} "
            f"weighs {verdict.need}"
        )
