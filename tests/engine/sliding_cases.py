"""Known 15-puzzle positions for the sliding tests: Korf's 100 (Korf 1985, "Depth-first
iterative-deepening"), with the published optimal lengths.

Korf writes a position as the tile on each cell, row by row, with the goal `0 1 2 ... 15` (blank
top left). Turning the board half round (cell c -> 15 - c) and renaming tile t -> 16 - t maps
that goal onto ours (`1 2 ... 15 _`, blank bottom right) and keeps every distance.
"""

from __future__ import annotations

# (instance number, optimal length, Korf's layout)
KORF = {
    1: (57, "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3"),
    12: (45, "14 1 9 6 4 8 12 5 7 2 3 0 10 11 13 15"),
    16: (42, "1 3 2 5 10 9 15 6 8 14 13 11 12 4 7 0"),
    17: (66, "15 14 0 4 11 1 6 13 7 5 8 9 3 2 10 12"),
    42: (42, "4 5 7 2 9 14 12 13 0 3 6 11 8 1 15 10"),
    53: (64, "14 9 12 13 15 4 8 10 0 2 1 7 3 11 5 6"),
    55: (41, "13 8 14 3 9 1 0 7 15 5 4 10 12 2 6 11"),
    60: (66, "11 14 13 1 2 3 12 4 15 7 9 5 10 6 8 0"),
    79: (42, "0 1 9 7 11 13 5 3 14 12 4 2 8 6 10 15"),
    82: (62, "14 10 2 1 13 9 8 11 7 3 6 12 15 5 4 0"),
    88: (65, "15 2 12 11 14 13 9 5 1 3 8 7 0 10 6 4"),
    97: (44, "9 14 5 7 8 15 1 2 10 4 13 6 12 0 11 3"),
}
EASY = (55, 16, 42, 79)  # the quick ones, for the default test run


def korf_state(number: int) -> tuple[int, ...]:
    """Korf's instance `number` in this project's convention (a state tuple)."""
    tiles = [int(t) for t in KORF[number][1].split()]
    return tuple(16 - t if t else 0 for t in reversed(tiles))


def korf_length(number: int) -> int:
    return KORF[number][0]
