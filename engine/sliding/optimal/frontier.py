"""Breadth-first iterative deepening A* over packed codes: optimal, and vectorised with numpy.

Like IDA*, each iteration explores every position with g + h <= bound and the bound then rises
to the smallest f that was cut off. Unlike IDA* the iteration runs layer by layer over whole
arrays of packed codes: children and heuristic values for a chunk at once, duplicates dropped
by sorting, and positions of the layer before dropped too (that is where "going back" leads;
the graph is bipartite so a layer never meets the one just above it). The first layer holding
the goal is at depth = bound, which is optimal; the path is read back through the stored layers.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np

from kaeru.engine.rules.control import Meter
from kaeru.engine.rules.protocol import BudgetExceeded
from kaeru.engine.sliding.board.arrays import contains_sorted, sorted_unique
from kaeru.engine.sliding.board.geometry import Grid, State
from kaeru.engine.sliding.board.packed import U64, PackedBoard

CHUNK = 1 << 16  # parents expanded at once: a few tens of ms, so cancel stays prompt


class PackedHeuristic(Protocol):
    """An admissible heuristic evaluated on whole arrays of packed codes."""

    packed: PackedBoard

    @property
    def name(self) -> str: ...

    def lookup(self, codes: np.ndarray) -> np.ndarray: ...


def frontier_search(
    grid: Grid, start: State, heuristic: PackedHeuristic, meter: Meter, budget: int
) -> list[State]:
    """The states of an optimal path from `start` to the goal (start must be solvable).

    `budget` bounds the positions held in one iteration (memory); BudgetExceeded beyond it.
    """
    packed = heuristic.packed
    root = np.array([packed.pack(start)], dtype=U64)
    goal = U64(packed.pack(grid.goal))
    bound = int(heuristic.lookup(root)[0])
    meter.extra["h(start)"] = str(bound)
    while True:
        meter.extra["bound"] = str(bound)
        layers, next_bound = _iteration(packed, heuristic, root, goal, bound, meter, budget)
        if layers is not None:
            return _read_back(packed, layers, goal)
        if next_bound is None:  # pragma: no cover - only for an unsolvable start
            raise ValueError("no solution: the start is not solvable")
        bound = next_bound


def _iteration(
    packed: PackedBoard,
    heuristic: PackedHeuristic,
    root: np.ndarray,
    goal: np.uint64,
    bound: int,
    meter: Meter,
    budget: int,
) -> tuple[list[np.ndarray] | None, int | None]:
    """One bounded breadth-first pass: (layers ending at the goal, None) or (None, next bound)."""
    layers = [root]
    held = 1
    next_bound: int | None = None
    for g in range(bound + 1):
        layer = layers[-1]
        meter.depth = g
        meter.extra["layer"] = str(g)
        meter.frontier = int(layer.size)
        if contains_sorted(layer, np.array([goal], dtype=U64))[0]:
            return layers, None
        if g == bound or layer.size == 0:
            break
        parts = []
        for begin in range(0, layer.size, CHUNK):
            chunk = layer[begin : begin + CHUNK]
            children = packed.children(chunk)
            meter.generated += int(children.size)
            f = heuristic.lookup(children) + (g + 1)
            inside = f <= bound
            if not inside.all():
                smallest = int(f[~inside].min())
                next_bound = smallest if next_bound is None else min(next_bound, smallest)
            parts.append(children[inside])
            meter.tick(int(chunk.size))
            meter.check()
        following = sorted_unique(np.concatenate(parts))
        if len(layers) >= 2:
            following = following[~contains_sorted(layers[-2], following)]
        held += int(following.size)
        if held > budget:
            raise BudgetExceeded(
                f"gave up: one search pass held more than {budget:,} positions", meter.snapshot()
            )
        layers.append(following)
    return None, next_bound


def _read_back(packed: PackedBoard, layers: list[np.ndarray], goal: np.uint64) -> list[State]:
    """Walk from the goal up through the layers, each time to a neighbour in the layer above."""
    path = [goal]
    current = np.array([goal], dtype=U64)
    for layer in reversed(layers[:-1]):
        neighbours = packed.children(current)  # slides are reversible: parents are neighbours
        hit = neighbours[contains_sorted(layer, neighbours)]
        current = hit[:1]
        path.append(current[0])
    return [packed.unpack(int(code)) for code in reversed(path)]
