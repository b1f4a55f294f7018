"""Breadth-first searches over packed positions, one whole layer at a time (numpy).

For puzzles whose every move can be undone (an undirected move graph) that pack a position into
one int64 and list the neighbours of a whole array of packed positions at once. Each layer is a
sorted array: the neighbours of layer d lie in layers d-1, d and d+1, so layer d+1 is the
neighbours of layer d minus layers d and d-1, and no table of the whole space is needed (Number
reversal 10 has 3.6 million positions and no cheap perfect index).

- `packed_path`: a shortest path between two positions, by a two-sided search, a plain one-sided
  BFS, or the mirror trick of seed 000: when an involutive symmetry of the rules maps the source
  onto the target, the backward search is the mirror image of the forward one, so one search
  serves both ends (Flip It's colour swap, Number reversal's left-right reflection).
- `solve_packed`: the same as a Solution of states and moves.
- `enumerate_packed`: every position reachable from a root, by depth.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise
from typing import Protocol, cast

import numpy as np

from kaeru.engine.rules.control import QUIET, Control, Meter
from kaeru.engine.rules.protocol import M, Puzzle, S, Solution, Unsolvable
from kaeru.engine.rules.results import Enumeration
from kaeru.engine.search.enumerate import farthest_sample

CHUNK = 1 << 16  # positions expanded between cancel checks: a few milliseconds of numpy
FARTHEST_DECODED = 5000  # farthest positions turned back into states for the sample
# Memory per position held (the budget counts positions held: the stored layers and the
# neighbours being sorted): an int64 code, its tagged copy and the sort's room.
BYTES_PER_POSITION = 32

Mirror = Callable[[np.ndarray], np.ndarray]
Neighbours = Callable[[np.ndarray], np.ndarray]


class PackedPuzzle(Protocol[S]):
    """The hooks of a puzzle declaring `capabilities.packed`: an undirected move graph whose
    positions pack into one int64 each (non-negative and below 2**62)."""

    def pack(self, state: S) -> int: ...

    def unpack(self, code: int) -> S: ...

    def neighbours_packed(self, codes: np.ndarray) -> np.ndarray:
        """Every neighbour of every code in `codes` (int64; order and repeats free)."""
        ...


def as_packed(puzzle: Puzzle[S, M]) -> PackedPuzzle[S]:
    """The puzzle's packed hooks, once its capabilities say it has them."""
    if not puzzle.capabilities.packed:
        raise ValueError(f"{puzzle.id} does not declare packed positions")
    return cast(PackedPuzzle[S], puzzle)


def new_codes(codes: np.ndarray, known: list[np.ndarray]) -> np.ndarray:
    """The distinct values of `codes` found in none of the `known` arrays, sorted.

    One sort does it: each value is shifted left one bit and tagged 1 when it is a candidate, 0
    when known. After sorting, a tagged copy is new when the entry before it is smaller by more
    than one (not its known copy, not an earlier candidate copy). Needs codes below 2**62.
    """
    tagged = np.concatenate([*(k << 1 for k in known), (codes << 1) | 1])
    if tagged.size == 0:
        return codes
    tagged.sort()
    keep = np.empty(tagged.size, dtype=bool)
    keep[0] = True
    np.less(tagged[:-1], tagged[1:] - 1, out=keep[1:])
    keep &= (tagged & 1).astype(bool)
    return tagged[keep] >> 1


def contains(sorted_codes: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """For each of `codes`, whether it is in the sorted array `sorted_codes`."""
    if sorted_codes.size == 0:
        return np.zeros(codes.size, dtype=bool)
    at = np.minimum(np.searchsorted(sorted_codes, codes), sorted_codes.size - 1)
    return sorted_codes[at] == codes


class _Side:
    """One breadth-first search: its layers, each a sorted int64 array."""

    def __init__(self, root: int) -> None:
        self.layers = [np.array([root], dtype=np.int64)]

    @property
    def depth(self) -> int:
        return len(self.layers) - 1

    @property
    def last(self) -> np.ndarray:
        return self.layers[-1]

    @property
    def positions(self) -> int:
        return sum(int(layer.size) for layer in self.layers)

    def grow(self, neighbours: Neighbours, meter: Meter) -> np.ndarray:
        """Add and return the next layer (empty once everything reachable is found).

        While it grows, `meter.held` counts the layers stored plus the neighbours listed so far
        (they are in memory until sorted), so the budget stops a layer before it outgrows the
        memory, not after."""
        last = self.last
        parts = []
        stored = meter.held or 0
        for begin in range(0, last.size, CHUNK):
            part = neighbours(last[begin : begin + CHUNK])
            meter.generated += int(part.size)
            parts.append(part)
            meter.held = stored + sum(int(p.size) for p in parts)
            meter.tick(min(CHUNK, last.size - begin))
            meter.check()
        known = self.layers[-2:]
        fresh = new_codes(np.concatenate(parts), known) if parts else last[:0]
        self.layers.append(fresh)
        return fresh

    def path_to(self, code: int, depth: int, neighbours: Neighbours) -> list[int]:
        """Codes from this side's root to `code`, which lies in layer `depth`."""
        path = [code]
        for k in range(depth - 1, -1, -1):
            around = neighbours(np.array([path[-1]], dtype=np.int64))
            path.append(int(around[contains(self.layers[k], around)][0]))
        path.reverse()
        return path


def packed_path(
    neighbours: Neighbours,
    source: int,
    target: int,
    meter: Meter,
    *,
    mirror: Mirror | None = None,
    two_sided: bool = True,
) -> list[int] | None:
    """Codes of a shortest path from `source` to `target`, or None when there is none.

    With `mirror` (an involution of the rules with mirror(source) == target) one search serves
    both ends; else two searches grow the smaller side (`two_sided`) or one plain BFS runs.
    Figures go to `meter`, including "positions": the distinct positions stored.
    """
    if source == target:
        return [source]
    fwd = _Side(source)
    if mirror is not None:
        return _mirror_search(neighbours, fwd, mirror, meter)
    bwd = _Side(target) if two_sided else None
    while True:
        side: _Side = fwd
        other: _Side | None = bwd
        if bwd is not None and bwd.last.size < fwd.last.size:
            side, other = bwd, fwd
        layer = side.grow(neighbours, meter)
        _report(meter, fwd, bwd, layer)
        if layer.size == 0:
            return None
        hit = contains(other.last, layer) if other is not None else layer == target
        if not hit.any():
            continue
        meet = int(layer[np.argmax(hit)])
        if bwd is None:
            return fwd.path_to(meet, fwd.depth, neighbours)
        head = fwd.path_to(meet, fwd.depth, neighbours)
        tail = bwd.path_to(meet, bwd.depth, neighbours)
        return head + tail[-2::-1]


def _mirror_search(
    neighbours: Neighbours, fwd: _Side, mirror: Mirror, meter: Meter
) -> list[int] | None:
    """One BFS; x meets the backward search when mirror(x) is known, d(x, target) being
    d(mirror(x), source). The first meeting is in layer d with mirror(x) in layer d-1 or d."""
    while True:
        layer = fwd.grow(neighbours, meter)
        _report(meter, fwd, None, layer)
        if layer.size == 0:
            return None
        images = mirror(layer)
        d = fwd.depth
        for back in (d - 1, d):  # the shorter total first
            hit = contains(fwd.layers[back], images)
            if hit.any():
                meet = int(layer[np.argmax(hit)])
                head = fwd.path_to(meet, d, neighbours)
                image = int(mirror(np.array([meet], dtype=np.int64))[0])
                tail = fwd.path_to(image, back, neighbours)  # source .. mirror(meet)
                return head + [int(c) for c in mirror(np.array(tail[-2::-1], dtype=np.int64))]


def _report(meter: Meter, fwd: _Side, bwd: _Side | None, layer: np.ndarray) -> None:
    meter.depth = fwd.depth + (bwd.depth if bwd is not None else 0)
    meter.frontier = int(layer.size)
    stored = fwd.positions + (bwd.positions if bwd is not None else 0)
    meter.extra["positions"] = f"{stored:,}"
    meter.held = stored


def solve_packed(
    puzzle: Puzzle[S, M],
    state: S,
    start: S,
    control: Control = QUIET,
    *,
    mirror: Mirror | None = None,
    mirror_name: str = "mirror",
    two_sided: bool = True,
) -> Solution[S, M]:
    """An optimal Solution from `state` to `puzzle.goal(start)` (a PackedPuzzle).

    `mirror` is used only when it maps `state` onto the goal; otherwise the search is two-sided
    (or a plain BFS with `two_sided=False`).
    """
    packed = as_packed(puzzle)
    goal = puzzle.goal(start)
    if goal is None:
        raise ValueError(f"{puzzle.id} has no explicit goal")
    source, target = packed.pack(state), packed.pack(goal)
    if mirror is not None and int(mirror(np.array([source], dtype=np.int64))[0]) != target:
        mirror = None
    if mirror is not None:
        algorithm = f"{mirror_name} bidirectional BFS"
    else:
        algorithm = "bidirectional BFS" if two_sided else "BFS"
    meter = Meter(algorithm, control, bytes_per_position=BYTES_PER_POSITION)
    meter.held = 1
    meter.extra["positions"] = "1"
    codes = packed_path(
        packed.neighbours_packed, source, target, meter, mirror=mirror, two_sided=two_sided
    )
    if codes is None:
        raise Unsolvable(
            f"all {meter.extra['positions']} positions reachable from {puzzle.format(state)} "
            "searched, none is a goal",
            meter.finish(),
        )
    states = [packed.unpack(c) for c in codes]
    moves = [_move_between(puzzle, a, b) for a, b in pairwise(states)]
    meter.depth = len(moves)
    return Solution(tuple(moves), tuple(states), True, meter.finish())


def _move_between(puzzle: Puzzle[S, M], before: S, after: S) -> M:
    for move in puzzle.moves(before):
        if puzzle.apply(before, move) == after:
            return move
    raise AssertionError(f"{puzzle.id}: no move leads from {before!r} to {after!r}")


def enumerate_packed(puzzle: Puzzle[S, M], root: S, control: Control = QUIET) -> Enumeration:
    """Every position reachable from `root` (a PackedPuzzle), layer by layer."""
    packed = as_packed(puzzle)
    meter = Meter("numpy layered BFS enumeration", control, bytes_per_position=BYTES_PER_POSITION)
    meter.held = 1
    side = _Side(packed.pack(root))
    while side.grow(packed.neighbours_packed, meter).size:
        _report(meter, side, None, side.last)
    side.layers.pop()  # the empty layer that ended the search
    last = side.last[:FARTHEST_DECODED]
    return Enumeration(
        root=puzzle.format(root),
        histogram=tuple(int(layer.size) for layer in side.layers),
        farthest=farthest_sample(puzzle, [packed.unpack(int(c)) for c in last]),
        stats=meter.finish(),
    )
