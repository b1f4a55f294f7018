"""Optimal 15-puzzle lines this process found lately, so the next question is cheap.

Every optimal path the solver finds is remembered (the newest few, a bounded number of
positions). Asked again about a position on one, the rest of that path is the answer at once:
the hint's search serves `s` (solve), and a game that follows the hint never searches again.
A position one move off a remembered line is at distance d - 1 or d + 1 (d: the neighbour's;
every move changes the distance by one): a single iteration of IDA* at bound d - 1 settles it,
and when it fails the answer is the move back and the neighbour's line, d + 1 moves, optimal.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass

from kaeru.engine.sliding.board.geometry import State

MAX_POSITIONS = 20_000  # positions remembered in all (the oldest lines are dropped first)


@dataclass(frozen=True)
class Near:
    """A neighbour of the asked position on a known line: the path from it to the goal."""

    neighbour: State
    path: list[State]

    @property
    def distance(self) -> int:
        return len(self.path) - 1


class Lines:
    """Remembered optimal paths (each a list of states ending at the goal), thread-safe."""

    def __init__(self, limit: int = MAX_POSITIONS) -> None:
        self.limit = limit
        self._paths: OrderedDict[int, list[State]] = OrderedDict()
        self._where: dict[State, tuple[int, int]] = {}  # state -> (path id, index)
        self._next = 0
        self._held = 0
        self._lock = threading.Lock()

    def remember(self, path: list[State]) -> None:
        """Keep an optimal path (states from a position to the goal)."""
        if len(path) < 2:
            return
        with self._lock:
            key = self._next
            self._next += 1
            self._paths[key] = path
            self._held += len(path)
            for index, state in enumerate(path):
                self._where[state] = (key, index)
            while self._held > self.limit and len(self._paths) > 1:
                old_key, old = self._paths.popitem(last=False)
                self._held -= len(old)
                for state in old:
                    if self._where.get(state, (None,))[0] == old_key:
                        del self._where[state]

    def path_from(self, state: State) -> list[State] | None:
        """The rest of a known optimal path through `state`, if any."""
        with self._lock:
            found = self._where.get(state)
            if found is None:
                return None
            key, index = found
            return self._paths[key][index:]

    def near(self, state: State, neighbours: list[State]) -> Near | None:
        """The neighbour (of `neighbours`) on a known line with the shortest path, if any."""
        best: Near | None = None
        for neighbour in neighbours:
            path = self.path_from(neighbour)
            if path is not None and (best is None or len(path) < len(best.path)):
                best = Near(neighbour, path)
        return best

    def clear(self) -> None:
        with self._lock:
            self._paths.clear()
            self._where.clear()
            self._held = 0


LINES = Lines()
