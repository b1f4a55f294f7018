"""Vectorised breadth-first search over puzzles with a perfect index (numpy, one byte a position).

A puzzle that numbers its positions 0..space_size-1 and can expand a whole array of codes at
once gets enumeration (and a depth table for instant hints) at numpy speed.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Protocol, runtime_checkable

import numpy as np

from kaeru.engine.core import CancelCheck, Progress
from kaeru.engine.results import Enumeration
from kaeru.engine.search.enumerate import farthest_sample
from kaeru.engine.search.meter import Meter

UNREACHED = 255
CHUNK = 1 << 21  # frontier codes expanded at once: bounds the temporary arrays


@runtime_checkable
class CodedPuzzle(Protocol):
    """A puzzle whose positions have a perfect index and a vectorised move generator."""

    space_size: int

    def encode(self, state: Hashable) -> int: ...

    def decode(self, code: int) -> Hashable: ...

    def expand_codes(self, codes: np.ndarray) -> np.ndarray:
        """Every child code of every code in `codes` (int64 arrays; order and repeats free)."""
        ...


def depth_table(
    roots: np.ndarray,
    space_size: int,
    expand: Callable[[np.ndarray], np.ndarray],
    meter: Meter,
) -> np.ndarray:
    """Distance from the nearest root for every code (uint8; UNREACHED where none)."""
    depth = np.full(space_size, UNREACHED, dtype=np.uint8)
    frontier = np.unique(np.asarray(roots, dtype=np.int64))
    depth[frontier] = 0
    d = 0
    while frontier.size:
        if d + 1 >= UNREACHED:
            raise OverflowError("depth table overflow: more than 254 layers")
        meter.frontier = int(frontier.size)
        for begin in range(0, frontier.size, CHUNK):
            children = expand(frontier[begin : begin + CHUNK])
            meter.generated += int(children.size)
            children = children[depth[children] == UNREACHED]
            depth[children] = d + 1
            meter.tick(min(CHUNK, frontier.size - begin))
            meter.check()
        d += 1
        frontier = np.flatnonzero(depth == d)
        if frontier.size:
            meter.depth = d
    return depth


def enumerate_codes(
    puzzle: CodedPuzzle,
    root: Hashable,
    *,
    progress: Progress = None,
    cancelled: CancelCheck = None,
) -> Enumeration:
    """Enumerate from `root` with `depth_table`; the figures match the generic BFS."""
    meter = Meter("numpy BFS enumeration", progress, cancelled)
    depth = depth_table(
        np.array([puzzle.encode(root)]), puzzle.space_size, puzzle.expand_codes, meter
    )
    reached = depth[depth != UNREACHED]
    histogram = np.bincount(reached)
    last = np.flatnonzero(depth == len(histogram) - 1)
    farthest = farthest_sample(puzzle, [puzzle.decode(int(c)) for c in last[:5000]])  # type: ignore[arg-type]
    return Enumeration(
        root=puzzle.format(root),  # type: ignore[attr-defined]
        histogram=tuple(int(n) for n in histogram),
        farthest=farthest,
        stats=meter.finish(),
    )
