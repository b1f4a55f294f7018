"""Peg solitaire benchmark: the engine's solver against a straightforward DFS, in one run.

Rows: the English central game, the seven English single-vacancy same-hole classes (c1, d1,
c2, d2, c3, d3, d4 up to symmetry), and the French single-vacancy problems that can be won.
Each row solves from a fresh memo (the engine: best of three runs). The baseline is the plain
search a first attempt would write: depth first, jumps in board order, a set of dead positions
as they are (no symmetry, no pagoda functions), on the same bitboard move generator; it is
stopped at a time cap and its ratio then shown as a lower bound (">").

    python bench/pegs.py               # baseline capped at 60 s a row
    python bench/pegs.py --cap 600     # let the baseline run longer
    python bench/pegs.py --quick       # 10 s cap, three French problems (about a minute)
    python bench/pegs.py --no-baseline # the engine only
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kaeru.engine.pegs.bitboard import BitBoard
from kaeru.engine.pegs.boards import Board, english, french
from kaeru.engine.pegs.solver import PegSolver
from kaeru.engine.rules.control import Meter

ENGLISH_CLASSES = ("d4", "c1", "d1", "c2", "d2", "c3", "d3")
# The French single-vacancy games that can be won, up to symmetry (vacancy -> last peg): the
# position classes allow a lone survivor only from vacancies like c1, d2 and d3, and then only
# in these holes; this solver finds a solution for every one of them.
FRENCH_SOLVABLE = (
    ("c1", "e1"), ("c1", "b4"), ("c1", "e4"), ("c1", "e7"),
    ("d2", "a3"), ("d2", "d3"), ("d2", "d6"),
    ("d3", "d2"), ("d3", "a5"), ("d3", "d5"),
)


class _Capped(Exception):
    pass


def baseline_dfs(board: Board, start: int, goal: int, cap: float) -> tuple[bool, int, float]:
    """(solved, positions expanded, seconds): plain DFS with a set of dead positions."""
    bits = BitBoard(board, board.symmetries[:1])
    jumps_of, xor = bits.jump_indices, bits.xor
    dead: set[int] = set()
    goal_state = 1 << goal
    expanded = 0
    began = time.perf_counter()

    def search(state: int, pegs: int) -> bool:
        nonlocal expanded
        if pegs == 1:
            return state == goal_state
        if state in dead:
            return False
        expanded += 1
        if expanded & 4095 == 0 and time.perf_counter() - began > cap:
            raise _Capped
        for j in jumps_of(state):
            if search(state ^ xor[j], pegs - 1):
                return True
        dead.add(state)
        return False

    gc.collect()
    try:
        solved = search(start, start.bit_count())
    except _Capped:
        return False, expanded, float("inf")
    return solved, expanded, time.perf_counter() - began


def engine_solve(board: Board, start: int, goal: int) -> tuple[bool, int, int, float]:
    """(solved, positions expanded, memo size, seconds) for the engine's solver: the best of
    three runs, each from a fresh memo (the machine is shared; the baseline runs once)."""
    best = None
    for _ in range(3):
        gc.collect()
        meter = Meter("bench")
        began = time.perf_counter()
        solver = PegSolver(board, goal, meter=meter)
        found = solver.solve(start)
        seconds = time.perf_counter() - began
        if best is None or seconds < best[3]:
            best = (found is not None, meter.expanded, solver.memo_size, seconds)
    assert best is not None
    return best


QUICK_FRENCH = (("c1", "b4"), ("d2", "d3"), ("d3", "d2"))


def rows(quick: bool = False) -> list[tuple[str, Board, int, int]]:
    out = []
    board = english()
    for hole in ENGLISH_CLASSES:
        h = board.hole(hole)
        label = "English central game (d4)" if hole == "d4" else f"English {hole} -> {hole}"
        out.append((label, board, board.full & ~(1 << h), h))
    board = french()
    for vacancy, last in QUICK_FRENCH if quick else FRENCH_SOLVABLE:
        h = board.hole(vacancy)
        out.append((f"French {vacancy} -> {last}", board, board.full & ~(1 << h), board.hole(last)))
    return out


def ratio(value: float) -> str:
    """Baseline time over engine time: `95x`, `2.3x`, `0.04x`."""
    return f"{value:.0f}x" if value >= 10 else f"{value:.2g}x"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cap", type=float, default=60.0, help="baseline seconds per row")
    parser.add_argument("--no-baseline", action="store_true")
    parser.add_argument("--quick", action="store_true",
                        help="baseline capped at 10 s, three French problems only")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    if args.quick:
        args.cap = min(args.cap, 10.0)
    header = (f"{'problem':<27} {'engine s':>9} {'positions':>10} {'memo':>9}"
              f" {'baseline s':>11} {'positions':>11} {'ratio':>8}")
    print(header)
    print("-" * len(header))
    worst = 0
    for label, board, start, goal in rows(args.quick):
        solved, expanded, memo, seconds = engine_solve(board, start, goal)
        if not solved:
            print(f"{label:<27} engine found no solution!")
            worst = 1
            continue
        line = f"{label:<27} {seconds:>9.3f} {expanded:>10,} {memo:>9,}"
        if not args.no_baseline:
            base_ok, base_expanded, base_seconds = baseline_dfs(board, start, goal, args.cap)
            if base_seconds == float("inf"):
                line += f" {'>' + format(args.cap, '.0f'):>11} {base_expanded:>11,}"
                line += f" {'>' + ratio(args.cap / seconds):>8}"
            else:
                line += f" {base_seconds:>11.2f} {base_expanded:>11,}"
                line += f" {ratio(base_seconds / seconds):>8}"
        print(line, flush=True)
    return worst


if __name__ == "__main__":
    raise SystemExit(main())
