"""Picking the best generic search a puzzle's capabilities allow."""

from __future__ import annotations

from collections.abc import Hashable

from kaeru.engine.core import DEFAULT_BUDGET, CancelCheck, Progress, Puzzle, Solution, Unsolvable
from kaeru.engine.search.astar import astar
from kaeru.engine.search.bfs import bfs
from kaeru.engine.search.bidirectional import bidirectional_bfs


def solve_generic(
    puzzle: Puzzle,
    state: Hashable,
    start: Hashable,
    *,
    progress: Progress = None,
    cancelled: CancelCheck = None,
    budget: int = DEFAULT_BUDGET,
) -> Solution:
    """A* with a heuristic; else bidirectional BFS with a goal and a way back; else BFS."""
    reason = puzzle.unsolvable_reason(state, start)
    if reason:
        raise Unsolvable(reason)
    kwargs = {"progress": progress, "cancelled": cancelled, "budget": budget}
    if puzzle.heuristic(state, start) is not None:
        return astar(puzzle, state, start, **kwargs)
    if puzzle.goal(start) is not None and _can_go_back(puzzle):
        return bidirectional_bfs(puzzle, state, start, **kwargs)
    return bfs(puzzle, state, start, **kwargs)


def _can_go_back(puzzle: Puzzle) -> bool:
    return puzzle.reversible or type(puzzle).predecessors is not Puzzle.predecessors
