"""Shared parts of the row-of-cells puzzles: string states checked against an alphabet, and
moves written as (from cell, to cell) pairs, 0-based."""

from __future__ import annotations

from collections.abc import Iterable

from kaeru.engine.rules.layout import BLACK, NUMBER, WHITE, Layout, LayoutMove, row_cells
from kaeru.engine.rules.layout import EMPTY as EMPTY_CELL
from kaeru.engine.rules.protocol import BadInput, Capabilities, Puzzle

EMPTY = "_"
Move = tuple[int, int]


class LinePuzzle(Puzzle[str, Move]):
    """A row of cells held as a string; a move takes the piece at `from` to `to`."""

    board = "row"
    capabilities = Capabilities(reversible=True)
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

    def layout(self, state: str) -> Layout:
        """One row: stones (B black, W white) or numbers, and the empty cell(s)."""
        kinds = {"B": BLACK, "W": WHITE, EMPTY: EMPTY_CELL}
        pieces = [
            (kinds[c], "") if c in kinds else (NUMBER, c) for c in state
        ]
        moves = tuple(
            LayoutMove(move, self.describe(move), *self.move_cells(state, move))
            for move in self.moves(state)
        )
        return Layout("row", 1, len(state), row_cells(pieces), moves)

    def describe(self, move: Move) -> str:
        src, dst = move
        if self.width == 1:
            return f"{src + 1} → {dst + 1}"
        return f"{src + 1}-{src + self.width} → {dst + 1}-{dst + self.width}"

    def format_move(self, move: Move) -> str:
        """`3->1` (cells counted from 1), `3-4->1-2` for a pair: `describe` in ASCII."""
        src, dst = move
        if self.width == 1:
            return f"{src + 1}->{dst + 1}"
        return f"{src + 1}-{src + self.width}->{dst + 1}-{dst + self.width}"

    def move_aliases(self, move: Move) -> Iterable[str]:
        """`3-1` and `3 1`: the first cell moved from and to."""
        src, dst = move
        return f"{src + 1}-{dst + 1}", f"{src + 1} {dst + 1}", f"{src + 1}->{dst + 1}"
