"""Peg space benchmark: the numpy layered enumeration against a plain breadth-first search, in
one run.

The baseline is the search written the simple way: a Python set of canonical positions per
layer (the same canonical form: the smallest of the 8 images, from the same bitboard chunk
tables), every child of every position canonicalised and added. It runs to the end on the
smaller starts and under a time cap on the whole English space (its ratio is then a lower
bound, ">", from the layers it finished). The issue's reference figure, a simple one-thread C
breadth-first search with a hash set per level, is printed beside it (30 s on this machine:
measured by the issue's author, not rerun here).

    python bench/pegs_space.py            # baseline capped at 60 s on the English space
    python bench/pegs_space.py --cap 600
    python bench/pegs_space.py --quick    # the smaller starts only (a few seconds)
"""

from __future__ import annotations

import argparse
import gc
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kaeru.engine.pegs.bitboard import BitBoard
from kaeru.engine.pegs.boards import Board, english
from kaeru.engine.pegs.enumeration import enumerate_positions
from kaeru.engine.pegs.shapes import shape_state
from kaeru.engine.pegs.space import symmetries_fixing
from kaeru.engine.rules.control import Control

C_REFERENCE_SECONDS = 30.0  # issue 15: a simple one-thread C BFS, English space, this machine


def baseline(board: Board, root: int, cap: float) -> tuple[int, int, float, bool]:
    """(classes, layers finished, seconds, finished all): Python sets, one layer at a time."""
    bits = BitBoard(board, symmetries_fixing(board, root))
    canonical = bits.canonical
    layer = {canonical(root)}
    classes, depth = 1, 0
    began = time.perf_counter()
    while True:
        following: set[int] = set()
        for state in layer:
            for _, child in bits.children(state):
                following.add(canonical(child))
            if time.perf_counter() - began > cap:
                return classes, depth, time.perf_counter() - began, False
        if not following:
            return classes, depth, time.perf_counter() - began, True
        layer = following
        classes += len(layer)
        depth += 1


def ratio(value: float) -> str:
    return f"{value:.0f}x" if value >= 10 else f"{value:.2g}x"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cap", type=float, default=60.0, help="baseline seconds, English")
    parser.add_argument("--quick", action="store_true", help="the smaller starts only")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    board = english()
    rows = [("English pyramid", shape_state("pyramid")), ("English arrow", shape_state("arrow"))]
    if not args.quick:
        rows.append(("English central game", board.full & ~(1 << board.centre)))
    header = (
        f"{'start':<22} {'classes':>11} {'positions':>12} {'numpy s':>8} {'cpu s':>7}"
        f" {'peak MB':>8} {'baseline s':>11} {'layers':>7} {'ratio':>7}"
    )
    print(header)
    print("-" * len(header))
    for label, root in rows:
        capped = ""
        gc.collect()
        began, cpu = time.perf_counter(), time.process_time()
        found = enumerate_positions(board, root, Control(budget=None))
        seconds, cpu = time.perf_counter() - began, time.process_time() - cpu
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        classes = found.totals["positions_up_to_symmetry"]
        cap = args.cap if "central" in label else float("inf")
        base_classes, layers, base_seconds, complete = baseline(board, root, cap)
        if complete:
            assert base_classes == classes, (label, base_classes, classes)
            base, speed = f"{base_seconds:.2f}", ratio(base_seconds / seconds)
        else:  # the numpy time for the same layers is at most its whole time
            base, speed = f">{base_seconds:.0f}", ">" + ratio(base_seconds / seconds)
            capped = (
                f"  baseline capped: {base_classes:,} classes in {base_seconds:.0f} s "
                f"({base_classes / base_seconds:,.0f}/s) against numpy's "
                f"{classes / seconds:,.0f}/s over the whole space: "
                f"{(classes / seconds) / (base_classes / base_seconds):.0f}x per class"
            )
        print(
            f"{label:<22} {classes:>11,} {found.positions:>12,} {seconds:>8.2f} {cpu:>7.2f}"
            f" {peak:>8.0f} {base:>11} {layers:>7} {speed:>7}",
            flush=True,
        )
        if not complete:
            print(capped)
    if not args.quick:
        print(
            f"reference: a simple one-thread C BFS (hash set per level) enumerates the English"
            f" space in {C_REFERENCE_SECONDS:.0f} s on this machine (issue 15)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
