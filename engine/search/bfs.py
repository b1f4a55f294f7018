"""Plain breadth-first search: optimal in moves, for any puzzle with a goal test."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from kaeru.engine.core import DEFAULT_BUDGET, CancelCheck, Progress, Puzzle, Solution, Unsolvable
from kaeru.engine.search.meter import Meter
from kaeru.engine.search.paths import walk_back


def bfs(
    puzzle: Puzzle,
    state: Hashable,
    start: Hashable,
    *,
    progress: Progress = None,
    cancelled: CancelCheck = None,
    budget: int = DEFAULT_BUDGET,
) -> Solution:
    """Shortest solution from `state` by layers; Unsolvable once the reachable space is done."""
    meter = Meter("BFS", progress, cancelled, budget)
    parents: dict[Any, tuple[Any, Any] | None] = {state: None}
    if puzzle.is_goal(state, start):
        return Solution((), (state,), True, meter.finish())
    layer = [state]
    moves_of, apply, is_goal = puzzle.moves, puzzle.apply, puzzle.is_goal
    while layer:
        meter.depth += 1
        meter.frontier = len(layer)
        following = []
        for current in layer:
            meter.tick()
            for move in moves_of(current):
                child = apply(current, move)
                meter.generated += 1
                if child in parents:
                    continue
                parents[child] = (current, move)
                if is_goal(child, start):
                    moves, states = walk_back(parents, child)
                    return Solution(tuple(moves), tuple(states), True, meter.finish())
                following.append(child)
        layer = following
    meter.depth -= 1
    raise Unsolvable(
        f"all {len(parents):,} reachable positions searched, none is a goal", meter.finish()
    )
