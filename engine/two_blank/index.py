"""The perfect index of a two-blank board's reachable space, and its vectorised moves.

Why the space is small. A tile never changes column parity (it moves two cells sideways, or
straight up and down), so the board splits into two *classes*: the even columns and the odd
columns. The pair always has one empty cell in each class. Read the tiles of one class row by
row (skipping its empty cell) and call that the class's *order*:

- a sideways move does not change either order (the tile jumps to the next cell of its class);
- a vertical move lifts one tile of each class past the other cells of its class in that row:
  past k-1 tiles, where k is the number of class cells per row.

So with k = 2 (the 4-wide boards, and the outer columns of the 3-wide ones) each vertical move
is one swap in the order: the order's parity flips with the pair's row. With k = 1 (the middle
column of a 3-wide board) the order never changes at all. The positions reachable from the goal
are therefore exactly: any pair place, and for each class any order of the parity its row
demands (or the goal order when k = 1). That gives the published totals, 5!/2·2!/2·6 = 360,
5!/2·5!/2·9 = 32,400 and 7!/2·7!/2·12 = 76,204,800, and this index:

    code = (pair index · A + rank of the even-column order) · B + rank of the odd-column order

where A and B are the rank counts of the two classes. A move changes the pair index and applies
one fixed reordering to each class, so children of a whole array of codes come from small
lookup tables (`expand_codes`), at numpy speed.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kaeru.engine.two_blank.geometry import BLANK, DIRECTIONS, Geometry, State
from kaeru.engine.two_blank.perms import ParityRanks, Perm, parity, parity_ranks

VERTICAL = ("up", "down")


@dataclass(frozen=True)
class ColumnClass:
    """The even (kind 0) or odd (kind 1) columns of a board."""

    kind: int
    cells: tuple[int, ...]  # the class's cells, row by row
    per_row: int  # class cells in one row
    labels: dict[int, int]  # tile number -> its place in the goal order (0, 1, ...)
    ranks: ParityRanks | None  # None when the order can never change (per_row == 1)

    @property
    def tiles(self) -> int:
        return len(self.cells) - 1

    @property
    def size(self) -> int:
        return 1 if self.ranks is None else self.ranks.size

    def order(self, state: State) -> Perm | None:
        """The class's tiles as goal-order labels, row by row; None when a tile of the other
        class stands here."""
        labels = self.labels
        found = []
        for cell in self.cells:
            tile = state[cell]
            if tile != BLANK:
                if tile not in labels:
                    return None
                found.append(labels[tile])
        return tuple(found)

    def parity_at(self, row: int, goal_row: int) -> int:
        """The parity every reachable order has with the pair in `row`."""
        return ((self.per_row - 1) * (row - goal_row)) & 1

    def reachable(self, order: Perm, row: int, goal_row: int) -> bool:
        if self.ranks is None:
            return order == tuple(range(self.tiles))
        return parity(order) == self.parity_at(row, goal_row)


class TwoBlankIndex:
    """Codes 0..space_size-1 for exactly the positions reachable from the goal."""

    def __init__(self, geometry: Geometry) -> None:
        self.geometry = g = geometry
        goal = g.goal
        self.classes = tuple(self._column_class(kind, goal) for kind in (0, 1))
        self.size_a, self.size_b = (c.size for c in self.classes)
        self.block = self.size_a * self.size_b  # codes with one pair place
        self.space_size = g.pair_count * self.block
        self.goal_row = g.height - 1
        self._build_moves()

    def _column_class(self, kind: int, goal: State) -> ColumnClass:
        g = self.geometry
        cells = tuple(i for i in range(g.cells) if (i % g.width) % 2 == kind)
        tiles_in_goal = [goal[i] for i in cells if goal[i] != BLANK]
        per_row = len(range(kind, g.width, 2))
        ranks = parity_ranks(len(tiles_in_goal)) if per_row > 1 else None
        return ColumnClass(kind, cells, per_row, {t: i for i, t in enumerate(tiles_in_goal)}, ranks)

    # ---- single positions ----------------------------------------------------------------------
    def unreachable_reason(self, state: State) -> str | None:
        """Why `state` cannot be reached from the goal (so cannot be solved), or None."""
        g = self.geometry
        left = g.pair_of(state)
        row = left // g.width
        for cls in self.classes:
            order = cls.order(state)
            columns = "even" if cls.kind == 1 else "odd"  # 1-based names for players
            if order is None:
                stray = sorted(
                    t for t in (state[c] for c in cls.cells) if t != BLANK and t not in cls.labels
                )
                return (
                    f"tile {stray[0]} stands in an {columns}-numbered column, but tiles never "
                    "change column parity, so it can never get home"
                )
            if not cls.reachable(order, row, self.goal_row):
                if cls.ranks is None:
                    return (
                        f"the tiles in the middle column must stay in the order "
                        f"{', '.join(str(t) for t in sorted(cls.labels))} top to bottom: "
                        "they can never pass each other"
                    )
                return (
                    f"the tiles in the {columns}-numbered columns are one swap away from any "
                    "reachable order (their parity is tied to the row of the empty pair)"
                )
        return None

    def encode(self, state: State) -> int:
        """The code of a position reachable from the goal; ValueError for any other."""
        reason = self.unreachable_reason(state)
        if reason:
            raise ValueError(reason)
        g = self.geometry
        left = g.pair_of(state)
        code = g.pair_index(left)
        for cls in self.classes:
            code *= cls.size
            if cls.ranks is not None:
                order = cls.order(state)
                if order is None:  # unreachable_reason let it through: a bug, said plainly
                    raise ValueError(f"a tile of the other class in {cls.cells}")
                code += cls.ranks.rank(order)[1]
        return code

    def decode(self, code: int) -> State:
        g = self.geometry
        pair, rest = divmod(int(code), self.block)
        rank_a, rank_b = divmod(rest, self.size_b)
        left = g.pair_cells[pair]
        row = left // g.width
        cells = [BLANK] * g.cells
        for cls, rank in zip(self.classes, (rank_a, rank_b), strict=True):
            if cls.ranks is None:
                order: Perm = tuple(range(cls.tiles))
            else:
                order = cls.ranks.unrank(cls.parity_at(row, self.goal_row), rank)
            tile_of = {label: tile for tile, label in cls.labels.items()}
            places = [c for c in cls.cells if c not in (left, left + 1)]
            for cell, label in zip(places, order, strict=True):
                cells[cell] = tile_of[label]
        return tuple(cells)

    def relabel(self, state: State) -> dict[int, int]:
        """A renaming of tiles (tile -> new tile) that puts `state` in the goal's component.

        Moves commute with renaming, so the space reachable from any position is a copy of the
        goal's: enumerating from the renamed position and renaming back gives the same figures.
        """
        g = self.geometry
        row = g.pair_of(state) // g.width
        rename: dict[int, int] = {}
        for cls in self.classes:
            here = [state[c] for c in cls.cells if state[c] != BLANK]
            goal_tiles = sorted(cls.labels, key=cls.labels.__getitem__)
            if cls.ranks is not None and cls.parity_at(row, self.goal_row):
                goal_tiles[-2], goal_tiles[-1] = goal_tiles[-1], goal_tiles[-2]
            rename.update(zip(here, goal_tiles, strict=True))
        return rename

    # ---- whole arrays of codes -----------------------------------------------------------------
    def _build_moves(self) -> None:
        g = self.geometry
        count = g.pair_count
        self.valid = {d: np.zeros(count, dtype=bool) for d in DIRECTIONS}
        self.next_pair = {d: np.zeros(count, dtype=np.int64) for d in DIRECTIONS}
        self.reorder = {
            d: tuple(np.zeros((count, cls.size), dtype=np.int32) for cls in self.classes)
            for d in VERTICAL
        }
        memo: dict[tuple[int, int, Perm], np.ndarray] = {}
        for pair, left in enumerate(g.pair_cells):
            row = left // g.width
            marked = self._marked_state(left)
            for d in g.directions(left):
                after = g.slide(marked, d)
                self.valid[d][pair] = True
                self.next_pair[d][pair] = g.pair_index(g.pair_of(after))
                if d not in VERTICAL:
                    continue  # sideways moves keep both orders (see the module docstring)
                for k, cls in enumerate(self.classes):
                    if cls.ranks is None:
                        continue  # only rank 0 exists
                    shuffle = tuple(t - 1000 * (k + 1) for t in after if t // 1000 == k + 1)
                    key = (k, cls.parity_at(row, self.goal_row), shuffle)
                    if key not in memo:
                        memo[key] = cls.ranks.table(key[1], shuffle)
                    self.reorder[d][k][pair] = memo[key]

    def _marked_state(self, left: int) -> State:
        """The pair at `left`, each class's tiles numbered 1000·(kind+1) + place in its order."""
        cells = [BLANK] * self.geometry.cells
        for k, cls in enumerate(self.classes):
            places = [c for c in cls.cells if c not in (left, left + 1)]
            for i, cell in enumerate(places):
                cells[cell] = 1000 * (k + 1) + i
        return tuple(cells)

    def expand_codes(self, codes: np.ndarray) -> np.ndarray:
        """Every child code of every code in `codes` (int64), one block per direction."""
        codes = np.asarray(codes, dtype=np.int64)
        pair, rest = np.divmod(codes, self.block)
        out = []
        for d in DIRECTIONS:
            ok = self.valid[d][pair]
            if not ok.any():
                continue
            p = pair[ok]
            step = self.next_pair[d][p]
            if d not in VERTICAL:
                out.append(codes[ok] + (step - p) * self.block)
                continue
            a, b = np.divmod(rest[ok], self.size_b)
            table_a, table_b = self.reorder[d]
            out.append((step * self.size_a + table_a[p, a]) * self.size_b + table_b[p, b])
        return np.concatenate(out) if out else codes[:0]
