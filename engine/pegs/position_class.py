"""Position classes: the parity invariant that decides at once that some games cannot be won
(the French board's central game, for one).

Colour every hole by a linear form of its coordinates mod 3, (column + row) and (column - row)
on square boards, (column + row) on the triangle: the three holes of any jump then get three
different colours. A jump empties two of them and fills the third, so each colour's peg count
changes by one and the three counts' odd/even pattern flips as a whole. That pattern, taken up to
the flip, can never change: two positions in different classes are never reachable one from
the other.
"""

from __future__ import annotations

from kaeru.engine.pegs.boards import Board

Pattern = tuple[tuple[int, int, int], ...]


def forms(board: Board) -> tuple[tuple[int, int], ...]:
    """The colourings (a, b): colour = (a*column + b*row) mod 3, different along every jump."""
    found = []
    for a, b in ((1, 1), (1, 2)):
        if all((a * dx + b * dy) % 3 for dx, dy in board.steps):
            found.append((a, b))
    return tuple(found)


def colour_counts(board: Board, state: int) -> Pattern:
    """Pegs on each of the three colours, for each colouring."""
    out = []
    for a, b in forms(board):
        counts = [0, 0, 0]
        for h, (x, y) in enumerate(board.coords):
            if state >> h & 1:
                counts[(a * x + b * y) % 3] += 1
        out.append((counts[0], counts[1], counts[2]))
    return tuple(out)


def position_class(board: Board, state: int) -> tuple[int, ...]:
    """The invariant: each colouring's odd/even pattern, normalised so colour 0 counts even."""
    key: list[int] = []
    for counts in colour_counts(board, state):
        flip = counts[0] & 1
        key.extend(((counts[1] & 1) ^ flip, (counts[2] & 1) ^ flip))
    return tuple(key)


def same_class(board: Board, one: int, other: int) -> bool:
    return position_class(board, one) == position_class(board, other)


def single_peg_holes(board: Board, state: int) -> list[int]:
    """The holes where a lone last peg would be in the same class as `state`."""
    wanted = position_class(board, state)
    return [h for h in range(board.size) if position_class(board, 1 << h) == wanted]


def _counts_text(counts: Pattern) -> str:
    return " and ".join("-".join(str(n) for n in c) for c in counts)


def class_reason(board: Board, state: int, goal_hole: int | None) -> str | None:
    """Why `state` can never end as one peg (in `goal_hole`, or anywhere when None), or None when
    the position-class argument allows it."""
    if goal_hole is not None:
        if same_class(board, state, 1 << goal_hole):
            return None
        target = (
            f"one peg in {board.names[goal_hole]} has "
            f"{_counts_text(colour_counts(board, 1 << goal_hole))}: the patterns differ even "
            "after a flip"
        )
    else:
        if single_peg_holes(board, state):
            return None
        target = "no lone peg in any hole has that pattern, even after a flip"
    colourings = " and by ".join(
        f"(column {'+' if b == 1 else '-'} row) mod 3" for _, b in forms(board)
    )
    return (
        f"impossible by the position-class argument: colour the holes by {colourings}; each jump "
        f"changes every colour's peg count by one, so the odd/even pattern of the counts only "
        f"ever flips as a whole. Here the counts are {_counts_text(colour_counts(board, state))}; "
        f"{target}"
    )
