"""A finished depth table over a perfect index: each position's distance to the goal (the root
of the search), the walk-down solve, and random positions at an exact distance."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from functools import cached_property
from typing import Generic, TypeVar

import numpy as np

from kaeru.engine.tables.dense import UNREACHED
from kaeru.engine.tables.survey import count_depths

S = TypeVar("S")
M = TypeVar("M")


class DepthTable(Generic[S, M]):
    """`depth[code]` is the distance of position `decode(code)` from the table's root;
    `successors(state)` lists (move, position after it) for the walk down."""

    def __init__(
        self,
        depth: np.ndarray,
        encode: Callable[[S], int],
        decode: Callable[[int], S],
        successors: Callable[[S], Iterable[tuple[M, S]]],
    ) -> None:
        self.depth = depth
        self.encode = encode
        self.decode = decode
        self.successors = successors

    @cached_property
    def histogram(self) -> np.ndarray:
        """Positions per distance, 0 .. max_depth (the unreached left out)."""
        return count_depths(self.depth)

    @property
    def positions(self) -> int:
        return int(self.histogram.sum())

    @property
    def max_depth(self) -> int:
        return len(self.histogram) - 1

    def distance(self, state: S) -> int | None:
        """Moves from `state` to the root; None when it cannot get there."""
        d = int(self.depth[self.encode(state)])
        return None if d == UNREACHED else d

    def step(self, state: S) -> tuple[M, S] | None:
        """A move one step closer to the root and where it leads; None at the root.
        ValueError when `state` cannot reach the root."""
        here = self.distance(state)
        if here is None:
            raise ValueError("position cannot reach the goal")
        if here == 0:
            return None
        for move, after in self.successors(state):
            if self.distance(after) == here - 1:
                return move, after
        raise RuntimeError(f"depth table is damaged: no step down from depth {here}")

    def walk(self, state: S) -> tuple[list[M], list[S]]:
        """An optimal solution: the moves, and every position from `state` to the root."""
        moves: list[M] = []
        states = [state]
        while (found := self.step(states[-1])) is not None:
            moves.append(found[0])
            states.append(found[1])
        return moves, states

    def codes_at(self, depth: int) -> np.ndarray:
        """Codes of every position exactly `depth` moves from the root."""
        return np.flatnonzero(self.depth == depth)

    def random_at(self, rng: random.Random, depth: int) -> S:
        """A position exactly `depth` moves from the root, uniformly among them (ValueError when
        there is none)."""
        return self.decode(random_code(self.depth, rng, depth))

    def farthest(self, limit: int | None = None) -> list[S]:
        """Positions at the greatest distance, in code order (the first `limit` of them)."""
        codes = self.codes_at(self.max_depth)[:limit]
        return [self.decode(int(c)) for c in codes]


def random_code(depth: np.ndarray, rng: random.Random, wanted: int, offset: int = 0) -> int:
    """A code whose value in `depth` is `wanted`, uniformly among them, plus `offset` (for a
    table that is a slice of a larger one). ValueError when there is none."""
    if not 0 <= wanted < UNREACHED:
        raise ValueError(f"no position at depth {wanted}")
    candidates = np.flatnonzero(depth == wanted)
    if candidates.size == 0:
        raise ValueError(f"no position at depth {wanted}")
    return offset + int(candidates[rng.randrange(candidates.size)])
