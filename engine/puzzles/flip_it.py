"""Flip It (seed 000): a stone jumps into the empty cell over at least one stone, flipping every
stone it passes; turn every stone over with the empty cell back where it began.

Solved by the seed's colour-swap bidirectional search: positions reached backwards from the goal
are the colour swaps of positions reached forwards from the start, so one search serves both
ends. Enumeration is vectorised over a perfect index (empty cell, colour bits).
"""

from __future__ import annotations

import numpy as np

from engine.core import DEFAULT_BUDGET, BadInput, CancelCheck, Progress, Solution, Unsolvable
from engine.puzzles._line import EMPTY, LinePuzzle, Move
from engine.registry import Family
from engine.search.bidirectional import bidirectional_bfs
from engine.search.meter import Meter
from engine.search.paths import walk_back

SIZES = range(5, 17)
SWAP = str.maketrans("BW", "WB")


def swap_colours(state: str) -> str:
    return state.translate(SWAP)


class FlipIt(LinePuzzle):
    family = "flip-it"
    alphabet = "BW"
    rules = (
        "A stone may move into the empty cell only by jumping over at least one stone.\n"
        "Every stone it passes over flips (black ↔ white); the jumping stone keeps its colour.\n"
        "Goal: every stone flipped, with the empty cell back where it started."
    )

    def __init__(self, size: int) -> None:
        self.size = size
        self.id = f"flip-it-{size}"
        self.title = f"Flip It ({size} cells)"
        self.example = EMPTY + "B" * (size - 1)
        self.space_size = size << size
        self._between = np.zeros((size, size), dtype=np.int64)
        for e in range(size):
            for j in range(size):
                lo, hi = min(e, j), max(e, j)
                self._between[e, j] = sum(1 << k for k in range(lo + 1, hi))

    def initial(self) -> str:
        return self.example

    def goal(self, start: str) -> str:
        return swap_colours(start)

    def moves(self, state: str) -> list[Move]:
        e = state.index(EMPTY)
        return [(j, e) for j in range(self.size) if abs(j - e) >= 2]

    def apply(self, state: str, move: Move) -> str:
        j, e = move
        lo, hi = (j, e) if j < e else (e, j)
        cells = list(state)
        cells[lo + 1 : hi] = state[lo + 1 : hi].translate(SWAP)
        cells[e], cells[j] = state[j], EMPTY
        return "".join(cells)

    # ---- solving: the colour-swap bidirectional search ------------------------------------------
    def solve(
        self,
        state: str,
        start: str,
        *,
        progress: Progress = None,
        cancelled: CancelCheck = None,
        budget: int = DEFAULT_BUDGET,
    ) -> Solution:
        if state != start:  # mid-game: the trick needs the search to begin at the start
            return bidirectional_bfs(
                self, state, start, progress=progress, cancelled=cancelled, budget=budget
            )
        return colour_swap_search(self, start, progress, cancelled, budget)

    # ---- the perfect index: code = empty cell << size | white bits --------------------------------
    def encode(self, state: str) -> int:
        bits = sum(1 << i for i, c in enumerate(state) if c == "W")
        return (state.index(EMPTY) << self.size) | bits

    def decode(self, code: int) -> str:
        e, bits = code >> self.size, code & ((1 << self.size) - 1)
        return "".join(
            EMPTY if i == e else "W" if bits >> i & 1 else "B" for i in range(self.size)
        )

    def expand_codes(self, codes: np.ndarray) -> np.ndarray:
        n = self.size
        e = codes >> n
        bits = codes & ((1 << n) - 1)
        out = []
        for j in range(n):
            ok = np.abs(e - j) >= 2
            ej, bj = e[ok], bits[ok]
            flipped = bj ^ self._between[ej, j]
            colour = (bj >> j) & 1
            moved = (flipped & ~np.int64(1 << j)) | (colour << ej)
            out.append((np.int64(j) << n) | moved)
        return np.concatenate(out) if out else codes[:0]


def colour_swap_search(
    puzzle: FlipIt,
    start: str,
    progress: Progress,
    cancelled: CancelCheck,
    budget: int,
) -> Solution:
    """One BFS from the start; a position x meets the backward search when swap(x) is known.

    d(goal, x) = d(start, swap(x)), so the best meeting in the first layer that meets is optimal
    (the same full-layer argument as a two-sided search).
    """
    meter = Meter("colour-swap bidirectional BFS", progress, cancelled, budget)
    goal = swap_colours(start)
    parents: dict[str, tuple[str, Move] | None] = {start: None}
    depth = {start: 0}
    if start == goal:
        return Solution((), (start,), True, meter.finish())
    layer = [start]
    d = 0
    while layer:
        d += 1
        meter.depth, meter.frontier = d, len(layer)
        following = []
        best: tuple[int, str] | None = None
        for current in layer:
            meter.tick()
            for move in puzzle.moves(current):
                child = puzzle.apply(current, move)
                meter.generated += 1
                if child in parents:
                    continue
                parents[child] = (current, move)
                depth[child] = d
                following.append(child)
        for child in following:
            mirror = swap_colours(child)
            if mirror in depth and (best is None or d + depth[mirror] < best[0]):
                best = (d + depth[mirror], child)
        if best is not None:
            meet = best[1]
            moves, states = walk_back(parents, meet)
            _, mirror_states = walk_back(parents, swap_colours(meet))
            for after in [swap_colours(s) for s in reversed(mirror_states[:-1])]:
                before = states[-1]
                moves.append(next(m for m in puzzle.moves(before) if puzzle.apply(before, m) == after))
                states.append(after)
            meter.depth = len(moves)
            return Solution(tuple(moves), tuple(states), True, meter.finish())
        layer = following
    raise Unsolvable(
        f"all {len(parents):,} positions reachable from {start} searched, none is the goal",
        meter.finish(),
    )


def _make(puzzle_id: str) -> FlipIt | None:
    prefix = "flip-it-"
    if not puzzle_id.startswith(prefix):
        return None
    digits = puzzle_id[len(prefix) :]
    if not digits.isdigit():
        return None
    size = int(digits)
    if not 3 <= size <= 20:
        raise BadInput(f"flip-it takes 3 to 20 cells, not {size} (offered: 5 to 16)")
    return FlipIt(size)


FAMILY = Family(
    key="flip-it",
    title="Flip It",
    blurb="Jump stones into the gap; every stone jumped over flips.",
    ids=tuple(f"flip-it-{n}" for n in SIZES),
    make=_make,
    order=10,
)
