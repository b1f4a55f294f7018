"""Number reversal (seed 001, problem 4): a number moves into the empty cell when next to it or by
jumping over exactly one number; reverse the row, the empty cell going to the other end.

Solved in numpy by a layered bidirectional search over packed positions (engine.search.packed):
from the default start the goal is its left-right mirror image, so one search serves both ends.
"""

from __future__ import annotations

import random

import numpy as np

from kaeru.engine.puzzles._line import EMPTY, LinePuzzle, Move
from kaeru.engine.puzzles._random import draw_reachable
from kaeru.engine.rules.control import Control
from kaeru.engine.rules.family import Family
from kaeru.engine.rules.protocol import BadInput, Capabilities, Solution
from kaeru.engine.rules.text_input import ascii_number
from kaeru.engine.search.packed import solve_packed

SIZES = range(4, 11)
NIBBLE = 4  # bits a cell: numbers 1..9, 0 for the empty cell
EMPTY_SHIFT = 56  # where a packed position keeps the empty cell's index
EMPTY_FIELD = np.int64(0xFF) << EMPTY_SHIFT
STEPS = (-2, -1, 1, 2)  # where a number may come from, relative to the empty cell


class NumberReversal(LinePuzzle):
    family = "number-reversal"
    capabilities = Capabilities(
        reversible=True, heuristic=True, packed=True, own_solver=True, random_starts=True
    )
    rules = (
        "A number moves into the empty cell when it stands next to it,\n"
        "or by jumping over exactly one number.\n"
        "Goal: the numbers in reverse order, the empty cell at the other end."
    )

    def __init__(self, size: int) -> None:
        self.size = size
        self.id = f"number-reversal-{size}"
        self.title = f"Number reversal ({size} cells)"
        self.alphabet = "".join(str(k) for k in range(1, size))
        self.example = self.alphabet + EMPTY

    def validate(self, state: str) -> None:
        if len(set(state)) != self.size:
            raise BadInput(
                f"{self.id}: each of {self.alphabet} must appear once, e.g. {self.example}"
            )

    def initial(self) -> str:
        return self.example

    def goal(self, start: str) -> str:
        return EMPTY + self.alphabet[::-1]

    def random_start(self, rng: random.Random, depth: int | None = None) -> str:
        """A position from which the goal can be reached, drawn uniformly among all of them (the
        goal left out), or among those exactly `depth` moves away: a breadth-first search back
        from the goal lists them (engine.puzzles._random, at most 100,000 positions)."""
        return str(draw_reachable(self, self.goal(self.example), rng, depth))

    def heuristic(self, state: str, start: str) -> int:
        """Each move carries one number at most two cells: half the total distance, rounded up."""
        target = self.goal(start)
        total = sum(abs(i - target.index(c)) for i, c in enumerate(state) if c != EMPTY)
        return (total + 1) // 2

    def moves(self, state: str) -> list[Move]:
        e = state.index(EMPTY)
        return [(j, e) for j in (e - 2, e - 1, e + 1, e + 2) if 0 <= j < self.size]

    def apply(self, state: str, move: Move) -> str:
        j, e = move
        cells = list(state)
        cells[e], cells[j] = state[j], EMPTY
        return "".join(cells)

    def own_solve(self, state: str, start: str, control: Control) -> Solution[str, Move]:
        """Optimal: the mirror search from the default start, a two-sided search elsewhere."""
        return solve_packed(
            self,
            state,
            start,
            control,
            mirror=self.mirror_packed,
            mirror_name="mirror-image",
        )

    # ---- packed positions: a nibble a cell (0 = empty), the empty cell's index on top ----------
    def pack(self, state: str) -> int:
        code = state.index(EMPTY) << EMPTY_SHIFT
        for i, c in enumerate(state):
            if c != EMPTY:
                code |= int(c) << (NIBBLE * i)
        return code

    def unpack(self, code: int) -> str:
        cells = (code >> (NIBBLE * i) & 15 for i in range(self.size))
        return "".join(str(v) if v else EMPTY for v in cells)

    def neighbours_packed(self, codes: np.ndarray) -> np.ndarray:
        empty = codes >> EMPTY_SHIFT
        out = []
        for step in STEPS:
            src = empty + step
            ok = (src >= 0) & (src < self.size)
            c, e, j = codes[ok], empty[ok], src[ok]
            number = (c >> (NIBBLE * j)) & 15
            cleared = c & ~((np.int64(15) << (NIBBLE * j)) | EMPTY_FIELD)
            out.append(cleared | (number << (NIBBLE * e)) | (j << EMPTY_SHIFT))
        return np.concatenate(out)

    def mirror_packed(self, codes: np.ndarray) -> np.ndarray:
        """The row read right to left: a symmetry of the rules taking the start to the goal."""
        last = self.size - 1
        out = (last - (codes >> EMPTY_SHIFT)) << EMPTY_SHIFT
        for i in range(self.size):
            out |= ((codes >> (NIBBLE * i)) & 15) << (NIBBLE * (last - i))
        return out


def _make(puzzle_id: str) -> NumberReversal | None:
    prefix = "number-reversal-"
    size = ascii_number(puzzle_id[len(prefix) :]) if puzzle_id.startswith(prefix) else None
    if size is None:
        return None
    if size not in SIZES:
        raise BadInput(f"number-reversal takes 4 to 10 cells, not {size}")
    return NumberReversal(size)


FAMILY = Family(
    key="number-reversal",
    title="Number reversal",
    blurb="Reverse a row of numbers by steps and single jumps.",
    ids=tuple(f"number-reversal-{n}" for n in SIZES),
    make=_make,
    order=40,
)
