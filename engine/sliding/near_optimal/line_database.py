"""What a line's weighted A* (`peel`, `rest_aware`) aims at: the line's tiles, and its tables.

`LineDatabase` holds the line's additive tables (groups of four of its tiles, three on boards
past 49 cells), the tables that count the blank (`line_tables`), and the tiles the blank must
reach first (`chase`). The other tiles either count nothing (one empty group: the search then
tells positions apart by the line and the blank alone) or, for a run with a rest weight, count
as groups of their own (`rest_group` tiles each: 1 is their Manhattan distance).
"""

from __future__ import annotations

import numpy as np

from kaeru.engine.sliding.board.geometry import Grid
from kaeru.engine.sliding.databases.line_tables import BlankTables
from kaeru.engine.sliding.databases.pdb_big import BigDatabase, BigPartition, group_table


class LineDatabase(BigDatabase):
    """The databases of one line's tiles in groups; every other tile in a group that counts 0.
    The mirror would measure another line: it is not used."""

    mirrored = False

    def __init__(self, shape: Grid, line: list[int], rest_group: int = 0) -> None:
        """`rest_group`: 0, the other tiles count nothing; else they count too, in groups of
        that many (1: Manhattan distance), as the rest's groups of a run with a rest weight."""
        size = 4 if shape.cells ** 4 <= 2_000_000 else 3
        groups = [tuple(line[i : i + size]) for i in range(0, len(line), size)]
        tables = [group_table(shape, g) for g in groups]
        rest = tuple(t for t in range(1, shape.cells) if t not in line)
        if rest_group:
            rests = [rest[i : i + rest_group] for i in range(0, len(rest), rest_group)]
            super().__init__(shape, BigPartition((*groups, *rests)),
                             [*tables, *(group_table(shape, g) for g in rests)])
            self.goal_groups = len(groups)
        else:
            super().__init__(shape, BigPartition((*groups, rest)),
                             [*tables, np.zeros(1, np.uint8)])
            self.group_size[-1] = 0  # the last group: an index of 0 whatever its tiles' cells
        self.chase = np.array(line, dtype=np.int64)
        self.blank_tables = BlankTables(shape, line).arguments()


def line_tiles(shape: Grid, is_row: bool) -> list[int]:
    """The tiles of `shape`'s top row or left column (labels of `shape`)."""
    if is_row:
        return list(range(1, shape.width + 1))
    return [r * shape.width + 1 for r in range(shape.height)]
