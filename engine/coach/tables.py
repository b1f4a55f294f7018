"""The depth tables the coach reads, one per puzzle and goal: the family's own where it has one
(sliding boards of at most 10 cells, two-blank boards, knights), else a breadth-first map back
from the goal that the coach builds itself for small spaces (line puzzles, river crossings).

`ready(puzzle, start)` is a lookup that answers at once, or None when no table is at hand in this
process (building one is a search: never on a front end's UI thread). `build(...)` builds it
(cancellably) and keeps it for the process; `warm(...)` does that in a background thread and
calls back when done. A lookup maps a position to its distance, or None when the goal cannot be
reached from it. Puzzles whose goal is a test (pegs) have no table.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Any

from kaeru.engine.rules.control import QUIET, Control
from kaeru.engine.rules.protocol import GoalKind, Puzzle
from kaeru.engine.rules.results import Cancelled
from kaeru.engine.search import dispatch
from kaeru.engine.tables.dense import UNREACHED

Lookup = Callable[[Any], int | None]
Key = tuple[str, str]

MAP_LIMIT = 60_000  # positions: a bigger space gets no map of its own (solving answers instead)

_ready: dict[Key, Lookup] = {}
_too_big: set[str] = set()  # puzzle ids whose map would pass MAP_LIMIT
_guard = threading.Lock()
_building: dict[Key, threading.Lock] = {}


def table_kind(puzzle: Puzzle[Any, Any]) -> str | None:
    """Which table answers for `puzzle`: "sliding", "two-blank", "knights", "map", or None."""
    from kaeru.engine.puzzles.knights import Knights
    from kaeru.engine.puzzles.sliding import SlidingPuzzle
    from kaeru.engine.puzzles.two_blank import TwoBlank
    from kaeru.engine.sliding.optimal import full_table

    caps = puzzle.capabilities
    if caps.goal is not GoalKind.STATE or not caps.predecessors:
        return None
    if isinstance(puzzle, SlidingPuzzle):
        return "sliding" if full_table.fits(puzzle.grid) else None
    if isinstance(puzzle, TwoBlank):
        return "two-blank"
    if isinstance(puzzle, Knights):
        return "knights"
    if caps.tables or puzzle.id in _too_big:
        return None
    size = dispatch.space_size(puzzle)
    return "map" if size is None or size <= MAP_LIMIT else None


def key_of(puzzle: Puzzle[Any, Any], start: Hashable) -> Key | None:
    goal = puzzle.goal(start) if puzzle.capabilities.goal is GoalKind.STATE else None
    return None if goal is None else (puzzle.id, puzzle.format(goal))


def ready(puzzle: Puzzle[Any, Any], start: Hashable) -> Lookup | None:
    """A lookup that answers at once, when the table is at hand in this process."""
    key = key_of(puzzle, start)
    return None if key is None else _ready.get(key)


def can_build_quickly(puzzle: Puzzle[Any, Any]) -> bool:
    """Whether `build` takes at most a few seconds (no family table to compute for minutes)."""
    return table_kind(puzzle) is not None and dispatch.tables_ready(puzzle)


def build(puzzle: Puzzle[Any, Any], start: Hashable, control: Control = QUIET) -> Lookup | None:
    """The lookup for games of `puzzle` begun at `start`, building its table if need be; None
    when the family has no table (or its space is too big for a map)."""
    kind = table_kind(puzzle)
    key = key_of(puzzle, start)
    if kind is None or key is None:
        return None
    with _guard:
        lock = _building.setdefault(key, threading.Lock())
    with lock:
        if (found := _ready.get(key)) is not None:
            return found
        goal = puzzle.goal(start)
        lookup = _make(kind, puzzle, goal, control)
        if lookup is None:
            _too_big.add(puzzle.id)
            return None
        _ready[key] = lookup
        return lookup


def warm(
    puzzle: Puzzle[Any, Any],
    start: Hashable,
    done: Callable[[Lookup | None], None],
) -> threading.Thread | None:
    """Build the table in a background thread and call `done` there with the lookup; None (and
    no thread) when there is nothing quick to build."""
    if ready(puzzle, start) is not None or not can_build_quickly(puzzle):
        return None

    def run() -> None:
        try:
            lookup = build(puzzle, start)
        except (Cancelled, MemoryError, ValueError):
            lookup = None
        done(lookup)

    thread = threading.Thread(target=run, name=f"coach-table-{puzzle.id}", daemon=True)
    thread.start()
    return thread


def forget() -> None:
    """Drop the tables kept (tests)."""
    _ready.clear()
    _too_big.clear()


def _make(kind: str, puzzle: Any, goal: Any, control: Control) -> Lookup | None:
    if kind == "sliding":
        from kaeru.engine.sliding.optimal import full_table

        return full_table.full_table(puzzle.grid, control).distance
    if kind == "two-blank":
        depth = puzzle.depth_table(control)
        encode = puzzle.index.encode

        def two_blank(state: Any) -> int | None:
            d = int(depth[encode(state)])
            return None if d == UNREACHED else d

        return two_blank
    if kind == "knights":
        from kaeru.engine.puzzles._knights_space import goal_table

        return goal_table(puzzle.graph, goal).distance
    found = breadth_first_map(puzzle, goal, control)
    return None if found is None else found.get


def breadth_first_map(
    puzzle: Puzzle[Any, Any], goal: Hashable, control: Control = QUIET, limit: int = MAP_LIMIT
) -> dict[Hashable, int] | None:
    """Every position that can reach `goal`, with its distance (backwards from the goal: through
    the moves themselves when the puzzle is reversible, else `predecessors`); None past
    `limit` positions."""
    reversible = puzzle.capabilities.reversible
    depth: dict[Hashable, int] = {goal: 0}
    frontier = [goal]
    level = 0
    while frontier:
        level += 1
        found = []
        for state in frontier:
            if reversible:
                before = [puzzle.apply(state, m) for m in puzzle.moves(state)]
            else:
                before = [b for b, _ in puzzle.predecessors(state)]
            for previous in before:
                if previous not in depth:
                    depth[previous] = level
                    found.append(previous)
        if len(depth) > limit:
            return None
        if control.is_cancelled():
            raise Cancelled("search cancelled")
        frontier = found
    return depth
