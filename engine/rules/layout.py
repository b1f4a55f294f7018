"""What a board widget draws, as pure data: `Puzzle.layout(state) -> Layout`.

A layout names the board's shape (its `kind`), lists its cells with their names, places and
pieces, and lists the legal moves of the position with the cells each one takes pieces from and
puts pieces on. A front end draws the cells and turns keys and clicks into one of `moves`; it
needs no other knowledge of the puzzle, never applies a move and never asks the puzzle why a
move is refused beyond what `refusals` already says.

Kinds and what their cells mean:
- "row": a row of cells (`col` = index); pieces stones, numbers, the empty cell.
- "grid": a W×H frame of tiles (`row`, `col`); one or two gap cells (sliding, two-blank).
- "holes": squares or holes at (`row`, `col`), some places absent (knights, peg solitaire);
  `holes` says how to draw them and whether a piece may move on after a move (peg chains).
- "river": one cell a person (roster order); `river` holds the banks, the boat and its size.

The engine never imports a front end; this module imports nothing from the engine either, so
every puzzle module may import it.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Literal

Kind = Literal["row", "grid", "holes", "river"]

# ---- the pieces a cell may hold ---------------------------------------------------------------
EMPTY = "empty"  # an empty cell of a row, a square without a knight
BLACK = "black"  # a black stone or frog
WHITE = "white"  # a white stone or frog
NUMBER = "number"  # a number on a row (its `label` is the digit)
TILE = "tile"  # a numbered sliding tile (its `label` is the number)
GAP = "gap"  # the empty cell of a sliding board
KNIGHT_BLACK = "knight-black"
KNIGHT_WHITE = "knight-white"
PEG = "peg"
HOLE = "hole"  # an empty peg hole
PERSON = "person"  # someone in a river crossing (its `label` is who)
PIECES = frozenset(
    {EMPTY, BLACK, WHITE, NUMBER, TILE, GAP, KNIGHT_BLACK, KNIGHT_WHITE, PEG, HOLE, PERSON}
)
VACANT = frozenset({EMPTY, GAP, HOLE})  # pieces that mean "nothing here"


@dataclass(frozen=True)
class Cell:
    """One place on the board: its name for players, where it is drawn, what stands there."""

    name: str  # "d2", "7", "Ha"
    row: int
    col: int  # in the kind's own units ("holes": half holes on a triangle)
    piece: str  # one of PIECES
    label: str = ""  # the number of a tile, the digit of a number, the person's label
    home: int | None = None  # a tile: the cell it stands on in the goal

    @property
    def vacant(self) -> bool:
        return self.piece in VACANT


@dataclass(frozen=True)
class LayoutMove:
    """A legal move, its words, and its cells: `sources` lose their pieces (the first is the
    piece a player picks; a peg jump lists the jumped peg second), `targets` receive them, in
    the same order as the pieces that land there."""

    move: Hashable
    text: str
    sources: tuple[int, ...]
    targets: tuple[int, ...] = ()


@dataclass(frozen=True)
class Refusal:
    """An attempt a player can make that is not a move, and the engine's reason in words: the
    river's unsafe boatloads (`sources` = the people aboard, `()` for an empty boat)."""

    sources: tuple[int, ...]
    reason: str


@dataclass(frozen=True)
class HolesScene:
    """How a "holes" board is drawn: as a chessboard of squares or as peg holes."""

    look: Literal["squares", "pegs"]
    row_labels: tuple[str, ...]  # one a row, top first ("4", "3", ... or "1", "2", ...)
    column_labels: tuple[str, ...]  # one a column, or () when columns have no common name
    note: str = ""  # drawn under the board when there are no column labels
    chains: bool = False  # the piece that just moved stays chosen while it can move on
    cursor: int | None = None  # the cell the cursor starts on; None: the first piece


@dataclass(frozen=True)
class RiverScene:
    """The river crossing around the people (cells): who is where, and the boat."""

    on_left: tuple[bool, ...]  # for each person (cell), whether they stand on the left bank
    boat_left: bool
    capacity: int


@dataclass(frozen=True)
class Layout:
    """Everything a board widget draws and picks from, for one position."""

    kind: Kind
    rows: int
    columns: int
    cells: tuple[Cell, ...]
    moves: tuple[LayoutMove, ...]
    refusals: tuple[Refusal, ...] = ()
    holes: HolesScene | None = None
    river: RiverScene | None = None
    _by_move: dict[Hashable, LayoutMove] = field(
        default_factory=dict, init=False, repr=False, compare=False, hash=False
    )

    def __post_init__(self) -> None:
        self._by_move.update((entry.move, entry) for entry in self.moves)

    def find(self, move: object) -> LayoutMove | None:
        """The entry of `moves` for this move object, or None when it is not legal here."""
        if move is None:
            return None
        try:
            return self._by_move.get(move)
        except TypeError:  # an unhashable object cannot be one of the moves
            return None

    def moves_from(self, cell: int) -> list[LayoutMove]:
        """Moves that take a piece from `cell`, those whose picked piece is there first."""
        found = [entry for entry in self.moves if cell in entry.sources]
        return sorted(found, key=lambda entry: entry.sources[0] != cell)

    def cell_named(self, name: str) -> int | None:
        for index, cell in enumerate(self.cells):
            if cell.name == name:
                return index
        return None


def grid_layout(
    width: int, height: int, state: Sequence[int], moves: Sequence[LayoutMove]
) -> Layout:
    """A "grid" layout: tiles numbered 1.. row by row (tile t belongs on cell t - 1), 0 for a
    gap; cells named "cell 1", "cell 2", ... row by row."""
    cells = tuple(
        Cell(f"cell {i + 1}", *divmod(i, width), GAP)
        if tile == 0
        else Cell(f"cell {i + 1}", *divmod(i, width), TILE, str(tile), home=tile - 1)
        for i, tile in enumerate(state)
    )
    return Layout("grid", height, width, cells, tuple(moves))


def row_cells(pieces: Sequence[tuple[str, str]]) -> tuple[Cell, ...]:
    """Cells of a one-row board from (piece, label) pairs, named 1, 2, ... from the left."""
    return tuple(
        Cell(str(i + 1), 0, i, piece, label) for i, (piece, label) in enumerate(pieces)
    )
