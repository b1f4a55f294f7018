"""The peg solitaire solver: depth-first search over bitboards with a memo of dead positions
kept in canonical form, pagoda-function pruning and move ordering with restarts.

A position is recorded dead only after all its jumps were searched (or a pagoda function ruled
it out), so the memo holds facts that do not depend on the order jumps were tried in. That lets
the search restart with another move ordering and a larger node allowance whenever the current
ordering wanders: each run starts with everything the earlier runs proved. Memos are kept per
goal hole, and symmetries are used only where they fix the goal hole. A single-vacancy game is
also tried backwards (see PegSolver).

Every solution of a position with n pegs has exactly n - 1 jumps, so any solution is optimal
when counted in jumps.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache

from kaeru.engine.pegs.bitboard import CHUNK_BITS, BitBoard, sum_tables
from kaeru.engine.pegs.boards import Board
from kaeru.engine.pegs.pagoda import PagodaTest, library
from kaeru.engine.pegs.position_class import single_peg_holes
from kaeru.engine.rules.control import Meter

FIRST_ALLOWANCE = 2_000  # positions for the first run of each ordering; doubled every round


class _Stop(Exception):
    """A run used up its allowance: restart with the next ordering."""


def orderings(board: Board, goal: int) -> list[list[float]]:
    """Weights by hole; jumps are tried from the child with the smallest total weight first.

    Squared distance from the middle of the board keeps the pegs together near it; the second
    ordering also draws them towards the goal hole, the third uses the walking distance, the
    fourth the fourth power of the distance (clear the rim first). Which one finds a solution
    fast differs wildly from problem to problem, hence the restarts.
    """
    n = board.size
    cx = sum(x for x, _ in board.coords) / n
    cy = sum(y for _, y in board.coords) / n
    middle = [(x - cx) ** 2 + (y - cy) ** 2 for x, y in board.coords]
    gx, gy = board.coords[goal]
    out = [middle, [m + 0.5 * ((x - gx) ** 2 + (y - gy) ** 2)
                    for m, (x, y) in zip(middle, board.coords, strict=True)]]
    out.append([abs(x - cx) + abs(y - cy) for x, y in board.coords])
    out.append([m * m for m in middle])
    return out


@cache
def _tables(
    board: Board, goal: int, use_symmetry: bool, use_pagodas: bool
) -> tuple[BitBoard, PagodaTest]:
    """The lookup tables for one board and goal hole, built once: the symmetries that fix the
    goal, the pagoda library's packed sums."""
    symmetries = [p for p in board.symmetries if p[goal] == goal]
    bits = BitBoard(board, symmetries if use_symmetry else symmetries[:1])
    return bits, PagodaTest(board, goal, library(board) if use_pagodas else [])


class PegSolver:
    """Solves positions of one board for one goal: a hole, or None for a lone peg anywhere.

    "Anywhere" is searched as the union of the holes the position class allows (one per
    symmetry class of the start), each with its own goal-specific pruning and memo, in turns
    with growing allowances, so one hard finish cannot hold up an easy one.

    A game from one empty hole v to a last peg in g is also the game from g to v played
    backwards (complement every position: each jump of one is a jump of the other, in reverse
    order), and the two searches can differ enormously in cost (on the French board, d2 to a3
    takes millions of positions, a3 to d2 tens of thousands), so both take turns.
    """

    def __init__(
        self,
        board: Board,
        goal: int | None,
        *,
        meter: Meter | None = None,
        memos: dict[int, set[int]] | None = None,
        use_pagodas: bool = True,
        use_symmetry: bool = True,
    ) -> None:
        self.board = board
        self.goal = goal
        self.meter = meter or Meter("peg DFS")
        self.memos: dict[int, set[int]] = {} if memos is None else memos
        self.use_pagodas = use_pagodas
        self.use_symmetry = use_symmetry
        self.memo_hits = 0
        self.pagoda_cuts = 0
        self.runs = 0

    @property
    def memo_size(self) -> int:
        return sum(len(m) for m in list(self.memos.values()))  # list(): other threads may add

    def _stats(self) -> None:
        extra = self.meter.extra
        extra["memo"] = f"{self.memo_size:,}"
        extra["dead pruned"] = f"{self.memo_hits + self.pagoda_cuts:,}"
        extra["pagoda cuts"] = f"{self.pagoda_cuts:,}"
        extra["runs"] = str(self.runs)

    def targets(self, start: int) -> list[int]:
        """The goal hole, or for "anywhere" the holes a lone last peg could be in."""
        if self.goal is not None:
            return [self.goal]
        fixing = [p for p in self.board.symmetries if _image(p, start) == start]
        found: list[int] = []
        for hole in single_peg_holes(self.board, start):
            if all(p[hole] not in found for p in fixing):
                found.append(hole)
        return found

    def solve(self, start: int) -> list[int] | None:
        """Jump indices (into board.jumps) from `start` to the goal, or None when there are none.

        Raises Cancelled or BudgetExceeded through the meter.
        """
        if start.bit_count() == 1:
            return [] if self.goal is None or start == 1 << self.goal else None
        empty = self.board.full & ~start
        vacancy = empty.bit_length() - 1 if empty.bit_count() == 1 else None
        tasks = []  # per target hole: the searches that decide it (forwards, backwards)
        for hole in self.targets(start):
            searches = [(start, hole, False)]
            if vacancy is not None and vacancy != hole:
                searches.append((self.board.full & ~(1 << hole), vacancy, True))
            tasks.append(searches)
        allowance = FIRST_ALLOWANCE
        try:
            while tasks:
                for searches in list(tasks):
                    for begin, goal, backwards in searches:
                        decided, path = self._runs(begin, goal, allowance)
                        if not decided:
                            continue  # out of allowance: the other way, or more next round
                        if path is not None:
                            return path[::-1] if backwards else path
                        tasks.remove(searches)  # searched to the end: out of reach
                        break
                allowance *= 2
            return None
        finally:
            self._stats()

    def _runs(self, begin: int, goal: int, allowance: int) -> tuple[bool, list[int] | None]:
        """One run per move ordering: (decided, path). Decided with a path when a run finds a
        solution, without one when a run searches everything; undecided when all run out."""
        for order in orderings(self.board, goal):
            self.runs += 1
            try:
                return True, self._run(begin, goal, order, allowance)
            except _Stop:
                continue
        return False, None

    def _run(
        self, start: int, goal: int, order: Sequence[float], allowance: int
    ) -> list[int] | None:
        """One depth-first search for one goal hole; _Stop past `allowance` positions."""
        meter = self.meter
        memo = self.memos.setdefault(goal, set())
        memo_add = memo.add
        bits, pagodas = _tables(self.board, goal, self.use_symmetry, self.use_pagodas)
        canonical = bits.canonical
        jumps_of, xor = bits.jump_indices, bits.xor
        pagoda_dead = pagodas.dead
        goal_state = 1 << goal
        mask = (1 << CHUNK_BITS) - 1
        scores = sum_tables(self.board.size, order)
        score: Callable[[int], float]
        if len(scores) == 3:
            s0, s1, s2 = scores
            score = lambda s: s0[s & mask] + s1[(s >> 11) & mask] + s2[s >> 22]  # noqa: E731
        else:
            score = lambda s: sum(  # noqa: E731
                t[(s >> (CHUNK_BITS * i)) & mask] for i, t in enumerate(scores)
            )
        path: list[int] = []
        expanded_at_start = meter.expanded

        def search(state: int, pegs: int) -> bool:
            if pegs == 1:
                return state == goal_state
            key = canonical(state)
            if key in memo:
                self.memo_hits += 1
                return False
            meter.tick()
            if not meter.expanded & 1023:
                self._stats()  # live figures for the progress reports
            if meter.expanded - expanded_at_start > allowance:
                raise _Stop
            if pagoda_dead(state):
                self.pagoda_cuts += 1
                memo_add(key)
                return False
            moves = [(score(state ^ xor[j]), j) for j in jumps_of(state)]
            meter.generated += len(moves)
            moves.sort()
            for _, j in moves:
                if search(state ^ xor[j], pegs - 1):
                    path.append(j)
                    return True
            memo_add(key)
            return False

        found = search(start, start.bit_count())  # recursion depth: at most the pegs
        meter.depth = max(meter.depth, len(path))
        return path[::-1] if found else None


def _image(perm: Sequence[int], state: int) -> int:
    return sum(1 << perm[h] for h in range(len(perm)) if state >> h & 1)
