"""Number reversal (seed 001, problem 4): a number moves into the empty cell when next to it or by
jumping over exactly one number; reverse the row, the empty cell going to the other end."""

from __future__ import annotations

from engine.core import BadInput
from engine.puzzles._line import EMPTY, LinePuzzle, Move
from engine.registry import Family

SIZES = range(4, 11)


class NumberReversal(LinePuzzle):
    family = "number-reversal"
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
            raise BadInput(f"{self.id}: each of {self.alphabet} must appear once, e.g. {self.example}")

    def initial(self) -> str:
        return self.example

    def goal(self, start: str) -> str:
        return EMPTY + self.alphabet[::-1]

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


def _make(puzzle_id: str) -> NumberReversal | None:
    prefix = "number-reversal-"
    if not puzzle_id.startswith(prefix) or not puzzle_id[len(prefix) :].isdigit():
        return None
    size = int(puzzle_id[len(prefix) :])
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
