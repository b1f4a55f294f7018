"""Benchmark: the coach's distance after a move, one run.

1. Table puzzles: a random walk of moves through a coached Session (inline searcher, the table
   built first, as the coach's warm-up does); each move's time is `session.push` with the coach
   refreshing the distance (the whole cost a key pays). Against the baseline in the same run:
   a fresh breadth-first search from the same position (`engine.search.bfs`), on a few of them.
2. Random 15-puzzle positions (`engine.catalogue.random_games`, fixed seeds): time to a distance
through
   `dispatch.solve` (what the coach's "distance" job runs in the search worker), median and max.
3. A coached 15-puzzle game (issue 24): from random starts, a player who plays a best move two
   times in three and a random one otherwise; each move's time until the coach knows the new
   distance (`session.push` with the inline searcher: the whole wait), p50/p90/max, and `s`
   (solve) right after `i` (hint). Now (the 7-7-1 middle tier on disk, known optimal lines,
   one IDA* iteration next to them) against today's path in the same run (walking distance
   alone, no known lines: `--fifteen-today` switches it on for both).

    python bench/coach.py            # 60 moves a puzzle, 5 BFS baselines, 5 random 15-puzzles
    python bench/coach.py --quick    # 20 moves, 3 baselines, 2 random 15-puzzles
    python bench/coach.py --only-game  # section 3 alone
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kaeru.engine.catalogue.random_games import random_game
from kaeru.engine.coach import tables
from kaeru.engine.game.session import Session
from kaeru.engine.puzzles.registry import get_puzzle
from kaeru.engine.rules.control import Control
from kaeru.engine.rules.protocol import BudgetExceeded
from kaeru.engine.search import dispatch
from kaeru.engine.search.bfs import bfs

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


def coached_game(seeds: int, moves: int, today: bool) -> tuple[list[float], list[float]]:
    """(seconds a move, seconds of `s` after `i`) over coached 15-puzzle games."""
    from kaeru.engine.sliding.databases import pdb78
    from kaeru.engine.sliding.optimal import ida, known_lines

    puzzle = get_puzzle("sliding-4x4")
    saved = (ida.LINES, dict(pdb78._loaded), pdb78.may_build_unasked, pdb78.ready)
    pdb78._loaded.clear()
    pdb78.may_build_unasked = lambda tier: False  # type: ignore[assignment]
    if today:  # walking distance alone, nothing remembered: the path before issue 24
        class Forgetful(known_lines.Lines):
            def remember(self, path: list) -> None:
                del path

        ida.LINES = Forgetful()
        pdb78.ready = lambda tier=pdb78.FULL: False  # type: ignore[assignment]
    else:  # the middle tier (the 7-8 databases left out even when on disk)
        ida.LINES = known_lines.Lines()
        pdb78.ready = lambda tier=pdb78.FULL: tier == pdb78.MIDDLE  # type: ignore[assignment]
        pdb78.pattern_set(pdb78.MIDDLE)
    per_move, solve_after_hint = [], []
    try:
        for seed in range(seeds):
            rng = random.Random(seed)
            start = puzzle.parse(random_game("sliding-4x4", 100 + seed).start)
            session = Session(puzzle, start)
            session.coach.enable()
            session.hint()
            began = time.perf_counter()
            session.solve()
            solve_after_hint.append(time.perf_counter() - began)
            session = Session(puzzle, start)
            session.coach.enable()
            for _ in range(moves):
                legal = session.legal_moves()
                best = [m for m in legal
                        if (d := session.coach.known(puzzle.apply(session.state, m))) is not None
                        and session.coach.current is not None and d.moves is not None
                        and session.coach.current.moves is not None
                        and d.moves < session.coach.current.moves]
                move = rng.choice(best) if best and rng.random() < 2 / 3 else rng.choice(legal)
                began = time.perf_counter()
                session.push(move)
                per_move.append(time.perf_counter() - began)
                if session.solved:
                    break
    finally:
        ida.LINES, loaded, pdb78.may_build_unasked, pdb78.ready = saved  # type: ignore
        pdb78._loaded.clear()
        pdb78._loaded.update(loaded)
    return per_move, solve_after_hint


def game_rows(seeds: int, moves: int) -> None:
    print(f"\ncoached 15-puzzle games: {seeds} starts, up to {moves} moves each "
          "(seconds until the new distance is known)")
    print(f"{'path':<44} {'moves':>5} {'p50 s':>7} {'p90 s':>7} {'max s':>7} {'s after i':>10}")
    for label, today in (("now: 7-7-1 tier, known lines, one iteration", False),
                         ("today: walking distance, no lines", True)):
        times, after = coached_game(seeds, moves, today)
        times.sort()
        p90 = times[int(len(times) * 0.9)] if times else float("nan")
        print(f"{label:<44} {len(times):>5} {statistics.median(times):>7.3f} {p90:>7.3f} "
              f"{max(times):>7.2f} {statistics.median(after):>9.3f}s", flush=True)
    print("  target (issue 24): p90 <= 1 s a move with the middle tier")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--no-fifteen", action="store_true", help="skip the 15-puzzle rows")
    parser.add_argument("--only-game", action="store_true", help="the coached 15-puzzle alone")
    args = parser.parse_args(argv)
    moves, baselines, fifteen = (20, 3, 2) if args.quick else (60, 5, 5)
    if not args.only_game:
        table_rows(moves, baselines)
        if not args.no_fifteen:
            fifteen_rows(fifteen)
    if not args.no_fifteen:
        game_rows(2 if args.quick else 4, 20 if args.quick else 40)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
