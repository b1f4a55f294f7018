"""Bidirectional breadth-first search between a start and one explicit goal.

Layers are expanded whole, always on the smaller side; when a layer meets the other side the
best meeting point of that layer is taken, which keeps the result optimal.
"""

from __future__ import annotations

from kaeru.engine.rules.control import QUIET, Control, Meter
from kaeru.engine.rules.protocol import M, Puzzle, S, Solution, Unsolvable
from kaeru.engine.search.paths import walk_back


def bidirectional_bfs(
    puzzle: Puzzle[S, M],
    state: S,
    start: S,
    control: Control = QUIET,
) -> Solution[S, M]:
    """Optimal solution from `state` to `puzzle.goal(start)`, searching from both ends."""
    goal = puzzle.goal(start)
    if goal is None:
        raise ValueError(f"{puzzle.id} has no explicit goal for a bidirectional search")
    meter = Meter("bidirectional BFS", control)
    if state == goal:
        return Solution((), (state,), True, meter.finish())
    # forward: state -> (parent, move); backward: state -> (next state toward goal, move)
    fwd: dict[S, tuple[S, M] | None] = {state: None}
    bwd: dict[S, tuple[S, M] | None] = {goal: None}
    fdepth = {state: 0}
    bdepth = {goal: 0}
    flayer, blayer = [state], [goal]
    while flayer and blayer:
        meter.depth += 1
        meter.frontier = len(flayer) + len(blayer)
        best: tuple[int, S] | None = None
        if len(flayer) <= len(blayer):
            following = []
            for current in flayer:
                meter.tick()
                d = fdepth[current] + 1
                for move in puzzle.moves(current):
                    child = puzzle.apply(current, move)
                    meter.generated += 1
                    if child in fwd:
                        continue
                    fwd[child] = (current, move)
                    fdepth[child] = d
                    following.append(child)
                    if child in bdepth and (best is None or d + bdepth[child] < best[0]):
                        best = (d + bdepth[child], child)
            flayer = following
        else:
            following = []
            for current in blayer:
                meter.tick()
                d = bdepth[current] + 1
                for before, move in puzzle.predecessors(current):
                    meter.generated += 1
                    if before in bwd:
                        continue
                    bwd[before] = (current, move)
                    bdepth[before] = d
                    following.append(before)
                    if before in fdepth and (best is None or d + fdepth[before] < best[0]):
                        best = (d + fdepth[before], before)
            blayer = following
        if best is not None:
            meet = best[1]
            moves, states = walk_back(fwd, meet)
            link = bwd[meet]
            while link is not None:
                after, move = link
                moves.append(move)
                states.append(after)
                link = bwd[after]
            meter.depth = len(moves)
            return Solution(tuple(moves), tuple(states), True, meter.finish())
    raise Unsolvable(
        f"the search from one end ran out after {len(fwd) + len(bwd):,} positions", meter.finish()
    )
