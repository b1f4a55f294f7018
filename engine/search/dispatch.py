"""The one dispatcher: every caller (session, search service, CLI, explorer) asks here for a
solution, an enumeration or a dead-end verdict, and the puzzle's declared `capabilities` choose
the algorithm, as the midend reads the flags of Simon Tatham's `struct game`.

Solving: the family's own solver where it declares one (depth tables, pattern databases, the
peg solver, packed numpy searches); else A* with a heuristic; else bidirectional BFS with one
goal state and a way back; else plain BFS. Enumerating: the family's own; else numpy over a
perfect index; else numpy over packed positions; else plain BFS.
"""

from __future__ import annotations

from collections.abc import Callable

from kaeru.engine.rules.control import QUIET, Control
from kaeru.engine.rules.protocol import BadInput, GoalKind, M, Puzzle, S, Solution, Unsolvable
from kaeru.engine.rules.results import Enumeration
from kaeru.engine.search.astar import astar
from kaeru.engine.search.bfs import bfs
from kaeru.engine.search.bidirectional import bidirectional_bfs
from kaeru.engine.search.enumerate import enumerate_bfs
from kaeru.engine.search.packed import enumerate_packed
from kaeru.engine.tables.coded import as_coded, enumerate_codes

GenericSearch = Callable[[Puzzle[S, M], S, S, Control], Solution[S, M]]


def solve(
    puzzle: Puzzle[S, M],
    state: S,
    start: S,
    control: Control = QUIET,
    *,
    heuristic: str | None = None,
) -> Solution[S, M]:
    """An optimal solution from `state` for a game begun at `start` (`optimal` says when a
    family's solver is not). `heuristic` names one of `capabilities.heuristics` to compare them.

    Raises Unsolvable, Cancelled or BudgetExceeded (BadInput for an unknown heuristic)."""
    caps = puzzle.capabilities
    if heuristic is not None:
        if heuristic not in caps.heuristics:
            offered = ", ".join(caps.heuristics) or "none"
            raise BadInput(f"{puzzle.id}: unknown heuristic {heuristic!r} (offered: {offered})")
        return puzzle.solve_with(heuristic, state, start, control)
    if caps.own_solver:
        return puzzle.own_solve(state, start, control)
    return solve_generic(puzzle, state, start, control)


def solve_fewest_moves(
    puzzle: Puzzle[S, M], state: S, start: S, control: Control = QUIET
) -> Solution[S, M]:
    """A solution with the fewest moves as players count them (a peg's chain of jumps is one
    move); BadInput where the puzzle declares no such solver."""
    if not puzzle.capabilities.fewest_moves:
        raise BadInput(f"--metric moves: {puzzle.id} has no chains of jumps to count")
    return puzzle.solve_fewest_moves(state, start, control)


def solve_generic(
    puzzle: Puzzle[S, M], state: S, start: S, control: Control = QUIET
) -> Solution[S, M]:
    """The best generic search the capabilities allow, after the puzzle's quick proofs."""
    reason = puzzle.unsolvable_reason(state, start)
    if reason:
        raise Unsolvable(reason)
    return generic_search(puzzle)(puzzle, state, start, control)


def generic_search(puzzle: Puzzle[S, M]) -> GenericSearch[S, M]:
    """A* with a heuristic; else bidirectional BFS with a goal state and a way back; else BFS."""
    caps = puzzle.capabilities
    if caps.heuristic:
        return astar
    if caps.goal is GoalKind.STATE and caps.predecessors:
        return bidirectional_bfs
    return bfs


def enumerate_space(puzzle: Puzzle[S, M], root: S, control: Control = QUIET) -> Enumeration:
    """Every position reachable from `root`, by depth."""
    caps = puzzle.capabilities
    if caps.own_enumerator:
        return puzzle.own_enumerate(root, control)
    if caps.perfect_index:
        return enumerate_codes(puzzle, root, control)
    if caps.packed:
        return enumerate_packed(puzzle, root, control)
    return enumerate_bfs(puzzle, root, control)


def dead_end(
    puzzle: Puzzle[S, M], state: S, start: S, control: Control = QUIET
) -> str | None:
    """Why `state` can no longer be won, or None while it still can (or is not known, or the
    puzzle does not declare `dead_ends`)."""
    if not puzzle.capabilities.dead_ends:
        return None
    return puzzle.dead_end_check(state, start, control)


def space_size(puzzle: Puzzle[S, M]) -> int | None:
    """How many codes the puzzle's perfect index has, or None without one."""
    if not puzzle.capabilities.perfect_index:
        return None
    return as_coded(puzzle).space_size


def tables_ready(puzzle: Puzzle[S, M]) -> bool:
    """Whether a solve starts at once (no table to build first)."""
    return not puzzle.capabilities.tables or puzzle.tables_ready()
