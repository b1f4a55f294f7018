"""Knights on a small board as a depth table: positions with a given number of black and white
knights numbered by `engine.tables.arrangements`, distances filled by `engine.tables.dense`.
Solving walks down the table from the goal (optimal, a few milliseconds for 18,480 positions);
enumeration is the table from the root, surveyed."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import lru_cache

import numpy as np

from kaeru.engine.rules.control import QUIET, Control, Meter
from kaeru.engine.rules.results import Enumeration, SearchStats, Solution, Unsolvable
from kaeru.engine.tables.arrangements import EMPTY, FIRST, SECOND, Arrangements
from kaeru.engine.tables.dense import dense_bfs
from kaeru.engine.tables.survey import survey
from kaeru.engine.tables.table import DepthTable

Move = tuple[int, int]  # (from square, to square)
VALUES = {"_": EMPTY, "B": FIRST, "W": SECOND}
LETTERS = {v: k for k, v in VALUES.items()}


class KnightSpace:
    """Every placement of `blacks` and `whites` knights on a board with this knight graph."""

    def __init__(self, graph: tuple[tuple[int, ...], ...], blacks: int, whites: int) -> None:
        self.graph = graph
        self.index = Arrangements(len(graph), blacks, whites)
        self.space_size = self.index.space_size
        self.edges = np.array(
            [(src, dst) for src, targets in enumerate(graph) for dst in targets], dtype=np.int64
        ).reshape(-1, 2)

    def encode(self, state: str) -> int:
        return self.index.encode([VALUES[c] for c in state])

    def decode(self, code: int) -> str:
        return "".join(LETTERS[v] for v in self.index.decode(code))

    def expand_codes(self, codes: np.ndarray) -> np.ndarray:
        return self.index.expand_codes(codes, self.edges)

    def successors(self, state: str) -> Iterator[tuple[Move, str]]:
        for src, piece in enumerate(state):
            if piece == "_":
                continue
            for dst in self.graph[src]:
                if state[dst] == "_":
                    cells = list(state)
                    cells[dst], cells[src] = piece, "_"
                    yield (src, dst), "".join(cells)

    def depths(self, root: str, meter: Meter) -> np.ndarray:
        """Distance from `root` of every placement (UNREACHED where none)."""
        roots = np.array([self.encode(root)], dtype=np.int64)
        return dense_bfs(self.space_size, roots, self.expand_codes, meter)


def space_of(graph: tuple[tuple[int, ...], ...], state: str) -> KnightSpace:
    return _space(graph, state.count("B"), state.count("W"))


@lru_cache(maxsize=8)
def _space(graph: tuple[tuple[int, ...], ...], blacks: int, whites: int) -> KnightSpace:
    return KnightSpace(graph, blacks, whites)


@lru_cache(maxsize=8)
def goal_table(graph: tuple[tuple[int, ...], ...], goal: str) -> DepthTable[str, Move]:
    """Distances to `goal` of every placement with its knights (kept for the next hint)."""
    space = space_of(graph, goal)
    depth = space.depths(goal, Meter("knights depth table", QUIET.unlimited()))
    return DepthTable(depth, space.encode, space.decode, space.successors)


def solve_by_table(
    graph: tuple[tuple[int, ...], ...], state: str, goal: str, control: Control
) -> Solution[str, Move]:
    """An optimal solution from `state` to `goal` (Unsolvable when the goal is out of reach)."""
    meter = Meter("depth table walk", control.unlimited())
    if sorted(state) != sorted(goal):
        raise Unsolvable("the goal has other knights than this position")
    table = goal_table(graph, goal)
    if table.distance(state) is None:
        raise Unsolvable(
            f"no sequence of knight moves swaps them: all {table.positions:,} positions that "
            "reach the goal were searched, this is not one"
        )
    moves, states = table.walk(state)
    meter.depth = meter.expanded = len(moves)
    meter.extra["table"] = f"{table.positions:,} positions"
    return Solution(tuple(moves), tuple(states), True, meter.finish())


def enumerate_by_table(
    graph: tuple[tuple[int, ...], ...],
    root: str,
    format_state: Callable[[str], str],
    control: Control,
) -> Enumeration:
    """Every position reachable from `root`, by depth."""
    space = space_of(graph, root)
    meter = Meter("numpy BFS over the placement index", control.unlimited())
    depth = space.depths(root, meter)
    stats: SearchStats = meter.finish()
    return survey(depth, space.decode, format_state, format_state(root), stats)
