"""Plain breadth-first search: optimal in moves, for any puzzle with a goal test."""

from __future__ import annotations

from kaeru.engine.rules.control import QUIET, Control, Meter
from kaeru.engine.rules.protocol import M, Puzzle, S, Solution, Unsolvable
from kaeru.engine.search.paths import walk_back


def bfs(
    puzzle: Puzzle[S, M], state: S, start: S, control: Control = QUIET
) -> Solution[S, M]:
    """Shortest solution from `state` by layers; Unsolvable once the reachable space is done."""
    meter = Meter("BFS", control)
    parents: dict[S, tuple[S, M] | None] = {state: None}
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
