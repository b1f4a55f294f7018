"""Benchmark: the coach's distance after a move, one run.

1. Table puzzles: a random walk of moves through a coached Session (inline searcher, the table
   built first, as the coach's warm-up does); each move's time is `session.push` with the coach
   refreshing the distance (the whole cost a key pays). Against the baseline in the same run:
   a fresh breadth-first search from the same position (`engine.search.bfs`), on a few of them.
2. Random 15-puzzle positions (`engine.random_games`, fixed seeds): time to a distance through
   `dispatch.solve` (what the coach's "distance" job runs in the search worker), median and max.

    python bench/coach.py            # 60 moves a puzzle, 5 BFS baselines, 5 random 15-puzzles
    python bench/coach.py --quick    # 20 moves, 3 baselines, 2 random 15-puzzles
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kaeru.engine.coach import tables  # noqa: E402
from kaeru.engine.control import Control  # noqa: E402
from kaeru.engine.core import BudgetExceeded  # noqa: E402
from kaeru.engine.random_games import random_game  # noqa: E402
from kaeru.engine.registry import get_puzzle  # noqa: E402
from kaeru.engine.search import dispatch  # noqa: E402
from kaeru.engine.search.bfs import bfs  # noqa: E402
from kaeru.engine.session import Session  # noqa: E402

TABLE_PUZZLES = (
    "sliding-3x3",
    "sliding-5x2",
    "two-blank-3x3",
    "knights-3x4",
    "frogs-4",
    "oshidori",
    "flip-it-8",
    "number-reversal-6",
    "jealous-husbands-3",
)
BFS_BUDGET = 300_000  # positions; a baseline that stops there is shown as a lower bound


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f}"


def table_rows(moves: int, baselines: int) -> None:
    print(
        f"{'puzzle':<20} {'build s':>8} {'p50 ms':>8} {'max ms':>8} {'BFS p50 ms':>11} "
        f"{'ratio':>8}  known"
    )
    rng = random.Random(2026)
    for puzzle_id in TABLE_PUZZLES:
        puzzle = get_puzzle(puzzle_id)
        began = time.perf_counter()
        tables.build(puzzle, puzzle.initial())
        build = time.perf_counter() - began
        session = Session(puzzle)
        session.coach.enable()
        times = []
        known = 0
        positions = []
        for _ in range(moves):
            legal = session.legal_moves()
            if not legal or session.solved:
                session = Session(puzzle)
                session.coach.enable()
                legal = session.legal_moves()
            move = rng.choice(legal)
            began = time.perf_counter()
            session.push(move)
            times.append(time.perf_counter() - began)
            known += session.coach.current is not None
            positions.append(session.state)
        base = []
        capped = False
        for state in positions[-baselines:]:
            if puzzle.is_goal(state, session.start):
                continue
            began = time.perf_counter()
            try:
                bfs(puzzle, state, session.start, Control(budget=BFS_BUDGET))
            except BudgetExceeded:
                capped = True
            except Exception:  # unsolvable: the time is still the cost
                pass
            base.append(time.perf_counter() - began)
        p50 = statistics.median(times)
        base50 = statistics.median(base) if base else float("nan")
        over = ">" if capped else ""
        print(
            f"{puzzle_id:<20} {build:>8.2f} {ms(p50):>8} {ms(max(times)):>8} "
            f"{over + ms(base50):>11} {over}{base50 / p50:>6.0f}x  {known}/{len(times)}",
            flush=True,
        )


def fifteen_rows(count: int) -> None:
    puzzle = get_puzzle("sliding-4x4")
    times = []
    print(f"\nrandom 15-puzzle positions, distance by dispatch.solve ({count}):")
    for seed in range(count):
        game = random_game("sliding-4x4", seed)
        state = puzzle.parse(game.start)
        began = time.perf_counter()
        try:
            solution = dispatch.solve(puzzle, state, state)
            length = str(solution.length)
        except BudgetExceeded:
            length = "gave up"
        seconds = time.perf_counter() - began
        times.append(seconds)
        print(f"  seed {seed}: distance {length:>7}  {seconds:7.2f} s", flush=True)
    print(f"  median {statistics.median(times):.2f} s, max {max(times):.2f} s")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--no-fifteen", action="store_true", help="skip the 15-puzzle rows")
    args = parser.parse_args(argv)
    moves, baselines, fifteen = (20, 3, 2) if args.quick else (60, 5, 5)
    table_rows(moves, baselines)
    if not args.no_fifteen:
        fifteen_rows(fifteen)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
