"""Checks the line-puzzle tests share: a solution replays legally, a published sequence of
positions is a chain of legal moves, random walks, and plain BFS distances to compare with."""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Hashable, Sequence
from itertools import pairwise

from kaeru.engine.rules.protocol import Puzzle, Solution


def assert_replays(puzzle: Puzzle, solution: Solution, state: Hashable, start: Hashable) -> None:
    """`solution` runs from `state` to the goal of a game begun at `start`, every move legal."""
    assert solution.states[0] == state
    assert len(solution.states) == len(solution.moves) + 1
    current = state
    for move, after in zip(solution.moves, solution.states[1:], strict=True):
        assert move in list(puzzle.moves(current)), f"{puzzle.describe(move)} in {current}"
        current = puzzle.apply(current, move)
        assert current == after
    assert puzzle.is_goal(current, start)


def assert_chain(puzzle: Puzzle, states: Sequence[str]) -> None:
    """Each published position follows from the one before by exactly one legal move."""
    parsed = [puzzle.parse(s) for s in states]
    for before, after in pairwise(parsed):
        follow = [puzzle.apply(before, m) for m in puzzle.moves(before)]
        assert after in follow, f"{after} does not follow {before} in one move"


def random_walk(puzzle: Puzzle, state: Hashable, rng: random.Random, steps: int) -> Hashable:
    """`steps` random legal moves from `state` (fewer when a position has none)."""
    for _ in range(steps):
        moves = list(puzzle.moves(state))
        if not moves:
            break
        state = puzzle.apply(state, rng.choice(moves))
    return state


def distances(puzzle: Puzzle, root: Hashable) -> dict[Hashable, int]:
    """Moves from `root` to every position reachable from it, by a plain BFS."""
    depth = {root: 0}
    queue = deque([root])
    while queue:
        current = queue.popleft()
        for move in puzzle.moves(current):
            child = puzzle.apply(current, move)
            if child not in depth:
                depth[child] = depth[current] + 1
                queue.append(child)
    return depth
