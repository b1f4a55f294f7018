"""Knight exchange and river crossings: the engine's solver against the seed page's own method.

The baseline is seed 001's Julia, translated: a FIFO queue of boards (lists), a dict of boards
seen, stop when the goal is generated. For the knights the board is a list of 12 cells and
moves come from the page's adjacency list; for the couples, banks are bit masks and boat loads
the page's list of riders (every load of one or two that is not a mixed non-couple pair).
The engine uses its generic choice (bidirectional BFS over the Puzzle protocol), on a fresh
puzzle object each run (the river puzzles remember the moves of positions they have seen).

Run: python bench/knights_river.py   (best of 3 runs each; the table prints times side by side)
"""

from __future__ import annotations

import sys
import time
from collections import deque
from collections.abc import Callable
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kaeru.engine.puzzles.registry import families, get_puzzle
from kaeru.engine.rules.protocol import Puzzle, Unsolvable
from kaeru.engine.search import dispatch


def seed_knights(puzzle_id: str) -> int:
    """Seed 001's `changeknight()`: BFS over boards as lists; returns the length found."""
    puzzle = get_puzzle(puzzle_id)
    adjacent = puzzle.graph  # type: ignore[attr-defined]
    start = list(puzzle.initial())
    goal = list(puzzle.goal(puzzle.initial()))
    queue = deque([(start, 0)])
    chk = {tuple(start)}
    while queue:
        board, depth = queue.popleft()
        for i, x in enumerate(board):
            if x == "_":
                continue
            for p in adjacent[i]:
                if board[p] != "_":
                    continue
                b = board.copy()
                b[p], b[i] = b[i], "_"
                if tuple(b) in chk:
                    continue
                if b == goal:
                    return depth + 1
                queue.append((b, depth + 1))
                chk.add(tuple(b))
    raise ValueError("no solution")


def seed_couples(couples: int, boat: int) -> int | None:
    """Seed 001's `husband()` with bit masks, generalised to n couples and any boat."""
    men = [1 << (2 * i) for i in range(couples)]
    wives = [1 << (2 * i + 1) for i in range(couples)]
    everyone = (1 << (2 * couples)) - 1
    all_men = sum(men)

    def safe(side: int) -> bool:
        return not any(
            side & w and not side & h and side & all_men for h, w in zip(men, wives, strict=True)
        )

    people = men + wives
    riders = [sum(group) for k in range(1, boat + 1) for group in combinations(people, k)]
    riders = [r for r in riders if safe(r)]
    start = (everyone, True)
    depth = {start: 0}
    queue = deque([start])
    while queue:
        left, boat_left = queue.popleft()
        here = left if boat_left else everyone & ~left
        for load in riders:
            if here & load != load:
                continue
            new_left = left & ~load if boat_left else left | load
            state = (new_left, not boat_left)
            if not safe(new_left) or not safe(everyone & ~new_left) or state in depth:
                continue
            depth[state] = depth[(left, boat_left)] + 1
            if new_left == 0:
                return depth[state]
            queue.append(state)
    return None


def fresh(puzzle_id: str) -> Puzzle:
    """A new puzzle object each run, so nothing a previous run remembered is reused."""
    for family in families():
        puzzle = family.make(puzzle_id)
        if puzzle is not None:
            return puzzle
    raise KeyError(puzzle_id)


def engine_solve(puzzle_id: str) -> int | None:
    puzzle = fresh(puzzle_id)
    start = puzzle.initial()
    try:
        return dispatch.solve(puzzle, start, start).length
    except Unsolvable:
        return None


def engine_enumerate(puzzle_id: str) -> int:
    puzzle = fresh(puzzle_id)
    return dispatch.enumerate_space(puzzle, puzzle.initial()).positions


def best_of(runs: int, job: Callable[[], object]) -> tuple[float, object]:
    best, result = float("inf"), None
    for _ in range(runs):
        began = time.perf_counter()
        result = job()
        best = min(best, time.perf_counter() - began)
    return best, result


CASES: list[tuple[str, Callable[[], object]]] = [
    ("knights-3x4", lambda: seed_knights("knights-3x4")),
    ("knights-3x3", lambda: seed_knights("knights-3x3")),
    ("jealous-husbands-3", lambda: seed_couples(3, 2)),
    ("jealous-husbands-4", lambda: seed_couples(4, 3)),
    ("jealous-husbands-5", lambda: seed_couples(5, 3)),
    ("jealous-husbands-4-boat2", lambda: seed_couples(4, 2)),
]


def main() -> None:
    print(f"{'puzzle':<26}{'seed len':>9}{'engine len':>11}{'seed ms':>9}{'engine ms':>11}"
          f"{'ratio':>7}{'enumerate ms':>14}{'positions':>11}")
    for puzzle_id, seed_job in CASES:
        seed_time, seed_length = best_of(3, seed_job)
        engine_time, length = best_of(3, lambda pid=puzzle_id: engine_solve(pid))
        enum_time, positions = best_of(3, lambda pid=puzzle_id: engine_enumerate(pid))
        ratio = engine_time / seed_time
        print(f"{puzzle_id:<26}{str(seed_length):>9}{str(length):>11}{seed_time * 1e3:>9.2f}"
              f"{engine_time * 1e3:>11.2f}{ratio:>7.2f}{enum_time * 1e3:>14.2f}{positions:>11,}")
    print("len None: no solution (the whole reachable space searched). ratio = engine / seed:")
    print("below 1 the engine is faster. Both are optimal (BFS by layers).")


if __name__ == "__main__":
    main()
