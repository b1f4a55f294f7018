"""Full state-space enumeration from a root: positions by depth and the farthest ones."""

from __future__ import annotations

from collections.abc import Hashable

from kaeru.engine.core import DEFAULT_BUDGET, CancelCheck, Progress, Puzzle
from kaeru.engine.results import FARTHEST_LIMIT, Enumeration
from kaeru.engine.search.meter import Meter


def enumerate_space(
    puzzle: Puzzle,
    root: Hashable,
    *,
    progress: Progress = None,
    cancelled: CancelCheck = None,
    budget: int = DEFAULT_BUDGET,
) -> Enumeration:
    """Breadth-first over everything reachable from `root`.

    Puzzles with a perfect index (`CodedPuzzle`) go through the vectorised numpy search, and
    reversible ones with packed positions (`PackedPuzzle`) through the layered numpy search.
    """
    from kaeru.engine.search.codes import CodedPuzzle, enumerate_codes
    from kaeru.engine.search.packed import PackedPuzzle, enumerate_packed

    if isinstance(puzzle, CodedPuzzle):
        return enumerate_codes(puzzle, root, progress=progress, cancelled=cancelled)
    if isinstance(puzzle, PackedPuzzle) and puzzle.reversible:
        return enumerate_packed(
            puzzle, root, progress=progress, cancelled=cancelled, budget=budget
        )
    meter = Meter("BFS enumeration", progress, cancelled, budget)
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


def farthest_sample(puzzle: Puzzle, layer: list[Hashable]) -> tuple[str, ...]:
    """The farthest positions as sorted text, cut to FARTHEST_LIMIT."""
    return tuple(sorted(puzzle.format(s) for s in layer)[:FARTHEST_LIMIT])
