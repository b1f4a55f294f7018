"""Shared draws for the puzzles' `random_start`: every position that can reach a fixed goal,
layer by layer, in a canonical order; and the connected parts of a small space.

`reachable_layers(puzzle, goal)` runs a breadth-first search backwards from the goal (through
the moves themselves when the puzzle is reversible, else `predecessors`) and sorts each layer,
so a draw `layer[rng.randrange(len(layer))]` depends on the generator alone, never on set or
dict order. Spaces past MAX_POSITIONS are refused with a BadInput (a pure-Python search of that
size would keep a player waiting); the result is cached per puzzle id and goal.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterable
from functools import lru_cache
from itertools import combinations
from typing import Any

from kaeru.engine.puzzles._chosen_goal import swap_colours
from kaeru.engine.rules.protocol import BadInput, Puzzle

MAX_POSITIONS = 100_000

Layers = tuple[tuple[Any, ...], ...]


def reachable_layers(puzzle: Puzzle[Any, Any], goal: Hashable) -> Layers:
    """Every position that can reach `goal`, by distance: layer d holds those d moves away,
    sorted. BadInput when there are more than MAX_POSITIONS."""
    return _layers(puzzle, goal)


@lru_cache(maxsize=32)
def _layers(puzzle: Puzzle[Any, Any], goal: Hashable) -> Layers:
    reversible = puzzle.capabilities.reversible
    seen = {goal}
    layers: list[tuple[Any, ...]] = [(goal,)]
    frontier = [goal]
    while frontier:
        found = []
        for state in frontier:
            if reversible:
                before: Iterable[Hashable] = (puzzle.apply(state, m) for m in puzzle.moves(state))
            else:
                before = (b for b, _ in puzzle.predecessors(state))
            for previous in before:
                if previous not in seen:
                    seen.add(previous)
                    found.append(previous)
            if len(seen) > MAX_POSITIONS:
                raise BadInput(
                    f"{puzzle.id}: more than {MAX_POSITIONS:,} positions, too many to draw a "
                    "random game from fairly; pick a smaller size"
                )
        if found:
            layers.append(tuple(sorted(found, key=_order)))
        frontier = found
    return tuple(layers)


def draw_reachable(
    puzzle: Puzzle[Any, Any], goal: Hashable, rng: random.Random, depth: int | None
) -> Any:
    """A position exactly `depth` moves from `goal`, uniformly among them; or, with no depth,
    uniformly among every position that can reach the goal but the goal itself."""
    layers = reachable_layers(puzzle, goal)
    farthest = len(layers) - 1
    if farthest == 0:
        raise BadInput(f"{puzzle.id}: no position but the goal can reach it")
    if depth is not None:
        if not 1 <= depth <= farthest:
            raise BadInput(f"{puzzle.id}: depth must be 1 to {farthest}, not {depth}")
        layer = layers[depth]
        return layer[rng.randrange(len(layer))]
    k = rng.randrange(sum(len(layer) for layer in layers[1:]))
    for layer in layers[1:]:
        if k < len(layer):
            return layer[k]
        k -= len(layer)
    raise AssertionError("unreachable")  # pragma: no cover


def arrangements(pieces: str, size: int, empty: str) -> list[str]:
    """Every string of `size` cells holding the multiset `pieces`, the rest `empty`, sorted."""
    partial = [[empty] * size]
    for kind in sorted(set(pieces)):
        grown = []
        for cells in partial:
            free = [i for i, c in enumerate(cells) if c == empty]
            for chosen in combinations(free, pieces.count(kind)):
                placed = list(cells)
                for i in chosen:
                    placed[i] = kind
                grown.append(placed)
        partial = grown
    return sorted("".join(cells) for cells in partial)


def component_labels(puzzle: Puzzle[Any, Any], states: Iterable[Hashable]) -> dict[Any, int]:
    """For a reversible puzzle, the connected part of the move graph each state is in (a number
    per part, counted from 0 in the order the states come)."""
    label: dict[Any, int] = {}
    part = 0
    for root in states:
        if root in label:
            continue
        label[root] = part
        frontier = [root]
        while frontier:
            found = []
            for state in frontier:
                for move in puzzle.moves(state):
                    after = puzzle.apply(state, move)
                    if after not in label:
                        label[after] = part
                        found.append(after)
            frontier = found
        part += 1
    return label


def _order(state: Any) -> Any:
    """Sort key of a state: itself (strings and tuples of ints compare the same everywhere)."""
    return state


def draw_swappable(puzzle: Puzzle[Any, Any], example: str, rng: random.Random) -> str:
    """A placement of the pieces of `example` (a reversible puzzle's start, `_` for empty)
    drawn uniformly among those from which the colour swap can be reached."""
    placements, parts = _placements(puzzle, "".join(sorted(example.replace("_", ""))), len(example))
    while True:
        state = placements[rng.randrange(len(placements))]
        if parts[state] == parts[swap_colours(state)]:
            return state


@lru_cache(maxsize=8)
def _placements(
    puzzle: Puzzle[Any, Any], pieces: str, size: int
) -> tuple[list[str], dict[Any, int]]:
    placements = arrangements(pieces, size, "_")
    return placements, component_labels(puzzle, placements)
