"""Solving by walking down the depth table: from any position, step to a neighbour one move
closer to the goal until the goal. Optimal by construction, and instant."""

from __future__ import annotations

import numpy as np

from kaeru.engine.two_blank.geometry import State
from kaeru.engine.two_blank.index import TwoBlankIndex


def descend(index: TwoBlankIndex, depth: np.ndarray, state: State) -> list[tuple[str, State]]:
    """(direction, position after it) for each move of a shortest path to the goal.

    `state` must be reachable from the goal (`index.encode` raises ValueError otherwise).
    """
    g = index.geometry
    left = int(depth[index.encode(state)])
    path: list[tuple[str, State]] = []
    while left:
        for direction in g.directions(g.pair_of(state)):
            child = g.slide(state, direction)
            if depth[index.encode(child)] == left - 1:
                path.append((direction, child))
                state = child
                left -= 1
                break
        else:  # a table built by BFS always has a neighbour one step closer
            raise RuntimeError(f"depth table is damaged: no step down from depth {left}")
    return path
