"""Shared parts of the row-of-cells puzzles: string states checked against an alphabet, and
moves written as (from cell, to cell) pairs, 0-based."""

from __future__ import annotations

from kaeru.engine.core import BadInput, Puzzle

EMPTY = "_"
Move = tuple[int, int]


class LinePuzzle(Puzzle[str, Move]):
    """A row of cells held as a string; a move takes the piece at `from` to `to`."""

    board = "row"
    reversible = True
    size: int
    alphabet: str  # characters allowed besides EMPTY
    empties: int = 1
    example: str
    width: int = 1  # pieces moved together (Oshidori moves pairs)

    def parse(self, text: str) -> str:
        state = "".join(text.split()).upper()
        pieces = "/".join(self.alphabet)
        expected = f"{self.size} cells of {pieces} and {EMPTY}, e.g. {self.example}"
        if len(state) != self.size:
            raise BadInput(f"{self.id}: got {len(state)} cells, expected {expected}")
        stray = sorted(set(state) - set(self.alphabet) - {EMPTY})
        if stray:
            raise BadInput(f"{self.id}: unexpected {''.join(stray)!r}, expected {expected}")
        if state.count(EMPTY) != self.empties:
            raise BadInput(f"{self.id}: needs exactly {self.empties} empty cell(s) '{EMPTY}'")
        self.validate(state)
        return state

    def validate(self, state: str) -> None:
        """Family-specific checks beyond the alphabet; raise BadInput."""

    def format(self, state: str) -> str:
        return state

    def move_cells(self, state: str, move: Move) -> tuple[tuple[int, ...], tuple[int, ...]]:
        src, dst = move
        return tuple(range(src, src + self.width)), tuple(range(dst, dst + self.width))

    def describe(self, move: Move) -> str:
        src, dst = move
        if self.width == 1:
            return f"{src + 1} → {dst + 1}"
        return f"{src + 1}-{src + self.width} → {dst + 1}-{dst + self.width}"
