"""Full state-space enumeration from a root by plain breadth-first search: positions by depth
and the farthest ones (the dispatcher picks the numpy searches where a puzzle declares them)."""

from __future__ import annotations

from collections.abc import Sequence

from kaeru.engine.rules.control import QUIET, Control, Meter
from kaeru.engine.rules.protocol import M, Puzzle, S
from kaeru.engine.rules.results import FARTHEST_LIMIT, Enumeration


def enumerate_bfs(puzzle: Puzzle[S, M], root: S, control: Control = QUIET) -> Enumeration:
    """Breadth-first over everything reachable from `root`, one set of states in memory."""
    meter = Meter("BFS enumeration", control)
    seen = {root}
    layer = [root]
    histogram = [1]
    moves_of, apply = puzzle.moves, puzzle.apply
    while True:
        following = []
        for current in layer:
            meter.tick()
            for move in moves_of(current):
                child = apply(current, move)
                meter.generated += 1
                if child not in seen:
                    seen.add(child)
                    following.append(child)
        if not following:
            break
        histogram.append(len(following))
        layer = following
        meter.depth = len(histogram) - 1
        meter.frontier = len(layer)
    return Enumeration(
        root=puzzle.format(root),
        histogram=tuple(histogram),
        farthest=farthest_sample(puzzle, layer),
        stats=meter.finish(),
    )


def farthest_sample(puzzle: Puzzle[S, M], layer: Sequence[S]) -> tuple[str, ...]:
    """The farthest positions as sorted text, cut to FARTHEST_LIMIT."""
    return tuple(sorted(puzzle.format(s) for s in layer)[:FARTHEST_LIMIT])
