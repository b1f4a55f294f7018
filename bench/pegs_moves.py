"""Fewest-move peg solitaire benchmark: the English single-vacancy games (finish in the vacated
hole, one row per class up to symmetry), each in a fresh process (its own peak memory), with
the published anchor where there is one (the central game: 18 moves, Bergholt 1912, shown
minimal by Beasley), and a same-run ratio against brute force (a 0-1 breadth-first search over
position and last landing hole, the test suite's) on the starts small enough for it.

    python bench/pegs_moves.py               # all seven classes (several minutes)
    python bench/pegs_moves.py --games d4 d1 # some of them
    python bench/pegs_moves.py --quick       # the brute-force comparison only
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "engine"))

from kaeru.engine.pegs.boards import english  # noqa: E402
from kaeru.engine.pegs.fewest_moves import fewest_move_solution  # noqa: E402
from kaeru.engine.pegs.shapes import shape_state  # noqa: E402
from kaeru.engine.rules.control import Control  # noqa: E402

GAMES = ("d4", "c1", "d1", "c2", "d2", "c3", "d3")
ANCHORS = {"d4": 18}  # published minimum move counts


def one(hole: str) -> dict[str, object]:
    """Solve one game in this process; its figures."""
    board = english()
    goal = board.hole(hole)
    start = board.full & ~(1 << goal)
    began, cpu = time.perf_counter(), time.process_time()
    jumps, stats = fewest_move_solution(board, start, goal, Control(budget=None))
    extra = dict(stats.extra)
    if jumps is not None:  # replayed: legal, ends in the goal, the count of chains agrees
        from test_pegs_fewest_moves import replay_moves

        assert replay_moves(board, start, goal, jumps) == int(extra["moves"])
    return {
        "moves": int(extra["moves"]) if jumps is not None else None,
        "seconds": time.perf_counter() - began,
        "cpu": time.process_time() - cpu,
        "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "forward": extra.get("forward classes", "?"),
        "on_solutions": extra.get("solution classes", "?"),
    }


def brute_rows() -> None:
    from test_pegs_fewest_moves import brute_force_moves

    board = english()
    print(f"{'start':<20} {'moves':>5} {'engine s':>9} {'brute force s':>14} {'ratio':>7}")
    for shape in ("fireplace", "pyramid", "arrow"):
        start = shape_state(shape)
        began = time.perf_counter()
        jumps, stats = fewest_move_solution(board, start, board.centre)
        ours = time.perf_counter() - began
        began = time.perf_counter()
        expected = brute_force_moves(board, start, board.centre)
        theirs = time.perf_counter() - began
        assert jumps is not None and dict(stats.extra)["moves"] == str(expected)
        speed = theirs / ours
        ratio = f"{speed:.0f}x" if speed >= 10 else f"{speed:.2g}x"
        print(f"{shape:<20} {expected:>5} {ours:>9.2f} {theirs:>14.2f} {ratio:>7}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="*", default=list(GAMES), choices=GAMES)
    parser.add_argument("--quick", action="store_true", help="the brute-force rows only")
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    if args.one:
        print(json.dumps(one(args.one)))
        return 0
    brute_rows()
    if args.quick:
        return 0
    print()
    header = (
        f"{'game':<24} {'moves':>5} {'anchor':>6} {'wall s':>7} {'cpu s':>7} {'peak MB':>8}"
        f" {'forward classes':>16} {'on solutions':>13}"
    )
    print(header)
    print("-" * len(header))
    worst = 0
    for hole in args.games:
        done = subprocess.run(
            [sys.executable, __file__, "--one", hole], capture_output=True, text=True, check=True
        )
        row = json.loads(done.stdout)
        anchor = ANCHORS.get(hole)
        if anchor is not None and row["moves"] != anchor:
            worst = 1
        label = "central game d4 -> d4" if hole == "d4" else f"{hole} -> {hole}"
        print(
            f"{label:<24} {row['moves']!s:>5} {anchor or '':>6} {row['seconds']:>7.1f}"
            f" {row['cpu']:>7.1f} {row['peak_mb']:>8.0f} {row['forward']:>16}"
            f" {row['on_solutions']:>13}",
            flush=True,
        )
    return worst


if __name__ == "__main__":
    raise SystemExit(main())
