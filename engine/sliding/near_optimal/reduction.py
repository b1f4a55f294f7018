"""A fast solver for boards of any size that is not optimal: row by row, column by column.

While the unsolved part is taller than wide it finishes its top row, otherwise its left column,
until at most 3×3 is left; a depth table then finishes that part optimally. A tile is brought
home by a breadth-first search over (cell of the tile, cell of the blank) inside the unsolved
part, the finished cells being walls. The last two tiles of a line go in together: the last is
parked in the line's end cell, its partner beside it, and two slides turn them into place.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from kaeru.engine.rules.control import QUIET, Control, Meter
from kaeru.engine.sliding.board.geometry import Grid, Slide, State, grid
from kaeru.engine.sliding.optimal.full_table import full_table

FINISH_SIDE = 3


class _Stuck(Exception):
    """A piece cannot reach its cell with the walls given."""


class _Board:
    """A mutable board that records the slides made on it."""

    def __init__(self, shape: Grid, state: State, meter: Meter) -> None:
        self.grid = shape
        self.cells = list(state)
        self.blank = self.cells.index(0)
        self.moves: list[Slide] = []
        self.fixed = [False] * shape.cells
        self.meter = meter

    def where(self, tile: int) -> int:
        return self.cells.index(tile)

    def move_blank(self, cell: int) -> None:
        """Slide the tile on `cell` (next to the blank) into the blank."""
        move = self.grid.slide_from(tuple(self.cells), self.blank, cell)
        self.cells[self.blank], self.cells[cell] = self.cells[cell], 0
        self.blank = cell
        if self.moves and self.moves[-1].tile == move.tile:
            self.moves.pop()  # it slid straight back: both moves cancel
        else:
            self.moves.append(move)

    def open_cells(self, *also_walls: int) -> list[bool]:
        walls = set(also_walls)
        return [not self.fixed[c] and c not in walls for c in range(self.grid.cells)]

    # ---- searches inside the open cells --------------------------------------------------------
    def bring(self, tile: int, target: int, *walls: int) -> None:
        """Move `tile` to `target` without touching fixed cells or `walls`."""
        start_tile = self.where(tile)
        if start_tile == target:
            return
        n = self.grid.cells
        open_ = self.open_cells(*walls)
        neighbours = self.grid.neighbours
        start = start_tile * n + self.blank
        parent = {start: -1}
        queue = deque([start])
        while queue:
            key = queue.popleft()
            self.meter.tick()
            t, b = divmod(key, n)
            self.meter.generated += len(neighbours[b])
            for nb in neighbours[b]:
                if not open_[nb]:
                    continue
                child = (b if nb == t else t) * n + nb
                if child in parent:
                    continue
                parent[child] = key
                if child // n == target:
                    self._replay(parent, child, n)
                    return
                queue.append(child)
        raise _Stuck(f"reduction: tile {tile} cannot reach cell {target}")

    def park_blank(self, target: int | set[int], *walls: int) -> None:
        """Move the blank to `target` (or any cell of a set) without touching fixed cells or
        `walls`."""
        targets = target if isinstance(target, set) else {target}
        open_ = self.open_cells(*walls)
        parent = {self.blank: -1}
        queue = deque([self.blank])
        while queue:
            b = queue.popleft()
            if b in targets:
                path = []
                while b != self.blank:
                    path.append(b)
                    b = parent[b]
                for cell in reversed(path):
                    self.move_blank(cell)
                return
            for nb in self.grid.neighbours[b]:
                if open_[nb] and nb not in parent:
                    parent[nb] = b
                    queue.append(nb)
        raise _Stuck(f"reduction: the blank cannot reach cell {target}")

    def bring_pair(self, a: int, b: int, cell_a: int, cell_b: int, window: set[int]) -> None:
        """Put `a` on `cell_a` and `b` on `cell_b` moving only inside `window` (which holds
        both tiles and the blank): a search over (cell of a, cell of b, cell of the blank)."""
        n = self.grid.cells
        open_ = [c in window and not self.fixed[c] for c in range(n)]
        start = (self.where(a) * n + self.where(b)) * n + self.blank
        parent = {start: -1}
        queue = deque([start])
        while queue:
            key = queue.popleft()
            self.meter.tick()
            rest, blank = divmod(key, n)
            pa, pb = divmod(rest, n)
            self.meter.generated += len(self.grid.neighbours[blank])
            if pa == cell_a and pb == cell_b:
                self._replay(parent, key, n)
                return
            for nb in self.grid.neighbours[blank]:
                if not open_[nb]:
                    continue
                qa = blank if nb == pa else pa
                qb = blank if nb == pb else pb
                child = (qa * n + qb) * n + nb
                if child not in parent:
                    parent[child] = key
                    queue.append(child)
        raise AssertionError(f"reduction: tiles {a} and {b} cannot be turned into place")

    def _replay(self, parent: dict[int, int], key: int, n: int) -> None:
        blanks = []
        while parent[key] != -1:
            blanks.append(key % n)
            key = parent[key]
        for cell in reversed(blanks):
            self.move_blank(cell)


def _line(
    board: _Board, targets: list[int], corner_partner: Callable[[int], int], window: set[int]
) -> None:
    """Bring home the tiles of `targets` in order (a row left to right or a column downwards).

    `corner_partner(cell)` is the cell next to the line's last cell, off the line, where the
    second-last tile waits before the final turn. `window` (the open cells within three lines of
    the line's end) is where the last two are sorted out when the partner is trapped in the
    corner, as happens in a two-wide strip.
    """
    tiles = [cell + 1 for cell in targets]
    for tile, cell in zip(tiles[:-2], targets[:-2], strict=True):
        board.bring(tile, cell)
        board.fixed[cell] = True
    (a, b), (cell_a, cell_b) = tiles[-2:], targets[-2:]
    if board.where(a) == cell_a and board.where(b) == cell_b:
        board.fixed[cell_a] = board.fixed[cell_b] = True
        return
    waiting = corner_partner(cell_b)
    board.bring(a, cell_b)
    try:
        board.bring(b, waiting, cell_b)
    except _Stuck:
        board.park_blank(window, board.where(a), board.where(b))
        board.bring_pair(a, b, cell_a, cell_b, window)
        board.fixed[cell_a] = board.fixed[cell_b] = True
        return
    board.park_blank(cell_a, cell_b, waiting)
    board.move_blank(cell_b)  # a slides into its cell
    board.move_blank(waiting)  # b slides into the line's end
    assert board.cells[cell_a] == a and board.cells[cell_b] == b, "reduction: final turn failed"
    board.fixed[cell_a] = board.fixed[cell_b] = True


def reduce_solve(
    shape: Grid,
    state: State,
    control: Control = QUIET,
) -> tuple[list[Slide], Meter]:
    """Slides from a solvable `state` to the goal, and the meter that counted the work (the
    budget does not apply: the work grows only polynomially with the board)."""
    meter = Meter("row-by-row reduction", control.unlimited())
    board = _Board(shape, state, meter)
    w_all = shape.width
    top, left = 0, 0
    while True:
        w, h = shape.width - left, shape.height - top
        meter.extra["left to solve"] = f"{w}x{h}"
        if w <= FINISH_SIDE and h <= FINISH_SIDE:
            break
        if h >= w:
            row = [top * w_all + c for c in range(left, shape.width)]
            ends = range(max(left, shape.width - 3), shape.width)
            window = _block(shape, range(top, top + 3), ends)
            _line(board, row, lambda cell: cell + w_all, window)
            top += 1
        else:
            column = [r * w_all + left for r in range(top, shape.height)]
            ends = range(max(top, shape.height - 3), shape.height)
            window = _block(shape, ends, range(left, left + 3))
            _line(board, column, lambda cell: cell + 1, window)
            left += 1
    _finish(board, top, left)
    meter.depth = len(board.moves)
    return board.moves, meter


def _block(shape: Grid, rows: range, columns: range) -> set[int]:
    return {r * shape.width + c for r in rows for c in columns}


def _finish(board: _Board, top: int, left: int) -> None:
    """Solve the last (at most 3×3) part optimally with its depth table."""
    shape = board.grid
    w, h = shape.width - left, shape.height - top
    small = grid(w, h)
    region = [(top + r) * shape.width + left + c for r in range(h) for c in range(w)]
    local = {cell: i for i, cell in enumerate(region)}
    sub = tuple(local[board.cells[cell] - 1] + 1 if board.cells[cell] else 0 for cell in region)
    table = full_table(small)
    _, states = table.walk(sub)
    for before, after in zip(states, states[1:], strict=False):
        board.move_blank(region[after.index(0)])
        del before
