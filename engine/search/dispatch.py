"""The one dispatcher: every caller (session, search service, CLI) asks here for a solution,
an enumeration or a dead-end verdict, and the puzzle's declared capabilities choose how."""

from __future__ import annotations

from collections.abc import Hashable

from kaeru.engine.control import QUIET, Control
from kaeru.engine.core import Puzzle, Solution
from kaeru.engine.results import Enumeration


def solve(
    puzzle: Puzzle, state: Hashable, start: Hashable, control: Control = QUIET
) -> Solution:
    """An optimal solution from `state` for a game begun at `start` (optimal where it says so).

    Raises Unsolvable, Cancelled or BudgetExceeded."""
    kwargs = {"progress": control.progress, "cancelled": control.cancelled}
    if control.budget is not None:
        kwargs["budget"] = control.budget
    return puzzle.solve(state, start, **kwargs)  # type: ignore[arg-type]


def enumerate_space(puzzle: Puzzle, root: Hashable, control: Control = QUIET) -> Enumeration:
    """Every position reachable from `root`, by depth."""
    kwargs = {"progress": control.progress, "cancelled": control.cancelled}
    if control.budget is not None:
        kwargs["budget"] = control.budget
    return puzzle.enumerate(root, **kwargs)  # type: ignore[arg-type]


def dead_end(
    puzzle: Puzzle, state: Hashable, start: Hashable, control: Control = QUIET
) -> str | None:
    """Why `state` can no longer be won, or None while it still can (or is not known)."""
    return puzzle.dead_end_check(state, start, control.cancelled)
