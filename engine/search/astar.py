"""A* and IDA* over a puzzle's admissible `heuristic`: optimal, with far fewer positions."""

from __future__ import annotations

import heapq
from collections.abc import Callable
from itertools import count

from kaeru.engine.rules.control import QUIET, Control, Meter
from kaeru.engine.rules.protocol import M, Puzzle, S, Solution, Unsolvable
from kaeru.engine.search.paths import walk_back


def _heuristic_of(puzzle: Puzzle[S, M]) -> Callable[[S, S], int]:
    if not puzzle.capabilities.heuristic:
        raise ValueError(f"{puzzle.id} declares no heuristic")
    return puzzle.heuristic


def astar(
    puzzle: Puzzle[S, M],
    state: S,
    start: S,
    control: Control = QUIET,
) -> Solution[S, M]:
    """A* with a consistent-or-admissible heuristic (re-opens a state found by a shorter path)."""
    meter = Meter("A*", control)
    _h = _heuristic_of(puzzle)
    parents: dict[S, tuple[S, M] | None] = {state: None}
    best_g = {state: 0}
    tie = count()
    heap = [(_h(state, start), 0, next(tie), state)]
    while heap:
        f, g, _, current = heapq.heappop(heap)
        if g > best_g[current]:
            continue
        if puzzle.is_goal(current, start):
            moves, states = walk_back(parents, current)
            meter.depth = len(moves)
            return Solution(tuple(moves), tuple(states), True, meter.finish())
        meter.depth = max(meter.depth, f)
        meter.frontier = len(heap)
        meter.tick()
        for move in puzzle.moves(current):
            child = puzzle.apply(current, move)
            meter.generated += 1
            cg = g + 1
            if cg < best_g.get(child, cg + 1):
                best_g[child] = cg
                parents[child] = (current, move)
                heapq.heappush(heap, (cg + _h(child, start), cg, next(tie), child))
    raise Unsolvable(f"all {len(best_g):,} reachable positions searched, none is a goal",
                     meter.finish())


def ida_star(
    puzzle: Puzzle[S, M],
    state: S,
    start: S,
    control: Control = QUIET,
    max_bound: int = 1_000,
) -> Solution[S, M]:
    """Iterative-deepening A*: memory linear in the depth; the bound shows in the stats."""
    meter = Meter("IDA*", control)
    _h = _heuristic_of(puzzle)
    bound = _h(state, start)
    path_states = [state]
    path_moves: list[M] = []
    on_path = {state}

    def search(g: int) -> int:
        current = path_states[-1]
        f = g + _h(current, start)
        if f > bound:
            return f
        if puzzle.is_goal(current, start):
            return -1
        meter.tick()
        smallest = max_bound + 1
        for move in puzzle.moves(current):
            child = puzzle.apply(current, move)
            meter.generated += 1
            if child in on_path:
                continue
            path_states.append(child)
            path_moves.append(move)
            on_path.add(child)
            result = search(g + 1)
            if result == -1:
                return -1
            smallest = min(smallest, result)
            on_path.discard(path_states.pop())
            path_moves.pop()
        return smallest

    while bound <= max_bound:
        meter.depth = bound
        meter.extra["bound"] = str(bound)
        result = search(0)
        if result == -1:
            meter.depth = len(path_moves)
            return Solution(tuple(path_moves), tuple(path_states), True, meter.finish())
        if result > max_bound:
            break
        bound = result
    raise Unsolvable("no solution within the search bound", meter.finish())
