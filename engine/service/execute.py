"""Running one JobRequest to its JobResult: rebuild the puzzle and states from their texts, ask
the dispatcher, and turn every way a search can end into an outcome (never an exception).

The same function runs in a service thread and in the worker process."""

from __future__ import annotations

import traceback

from kaeru.engine.catalogue.explorable import count_to_goal
from kaeru.engine.puzzles.registry import get_puzzle
from kaeru.engine.rules.control import Control
from kaeru.engine.rules.protocol import (
    DEFAULT_BUDGET,
    BadInput,
    BudgetExceeded,
    CancelCheck,
    Cancelled,
    Progress,
    Unsolvable,
)
from kaeru.engine.search import dispatch
from kaeru.engine.service.job_kinds import KINDS
from kaeru.engine.service.jobs import (
    DONE,
    GAVE_UP,
    UNSOLVABLE,
    JobKind,
    JobRequest,
    JobResult,
    cancelled_result,
    failed_result,
)


def control_for(request: JobRequest, progress: Progress, cancelled: CancelCheck) -> Control:
    budget = DEFAULT_BUDGET if request.budget is None else request.budget
    return Control(progress=progress, cancelled=cancelled, budget=budget)


def execute(request: JobRequest, progress: Progress, cancelled: CancelCheck) -> JobResult:
    """Run `request` here and now; every ending becomes a JobResult."""
    try:
        if request.kind in KINDS:  # engine work that is not a search from a position
            return KINDS[request.kind](request, control_for(request, progress, cancelled))
        puzzle = get_puzzle(request.puzzle_id)
        state = puzzle.parse(request.state)
        start = puzzle.parse(request.start) if request.start else state
        control = control_for(request, progress, cancelled)
        if request.kind is JobKind.SOLVE:
            solution = dispatch.solve(puzzle, state, start, control)
            how = "optimal" if solution.optimal else "not proved optimal"
            return JobResult(
                request,
                DONE,
                solution=solution,
                stats=solution.stats,
                message=f"Solved in {solution.length} moves ({how}).",
            )
        if request.kind in (JobKind.ENUMERATE, JobKind.EXPLORE):
            if request.kind is JobKind.EXPLORE:
                enumeration = count_to_goal(puzzle, control)
            else:
                enumeration = dispatch.enumerate_space(puzzle, state, control)
            return JobResult(
                request,
                DONE,
                enumeration=enumeration,
                stats=enumeration.stats,
                message=f"{enumeration.positions:,} positions, deepest {enumeration.max_depth}.",
            )
        verdict = dispatch.dead_end(puzzle, state, start, control)
        return JobResult(
            request,
            DONE,
            verdict=verdict,
            message=verdict if verdict is not None else "Still winnable, as far as known.",
        )
    except BadInput as error:
        return failed_result(request, f"Bad input: {error}")
    except Unsolvable as error:
        return JobResult(
            request, UNSOLVABLE, message=f"No solution: {error.reason}", stats=error.stats
        )
    except BudgetExceeded as error:
        return JobResult(request, GAVE_UP, message=f"Gave up: {error}", stats=error.stats)
    except Cancelled:
        return cancelled_result(request)
    except MemoryError:
        return failed_result(request, "The search ran out of memory.")
    except Exception as error:  # a solver bug must never take the caller down
        return failed_result(
            request,
            f"The solver failed: {type(error).__name__}: {error}",
            traceback.format_exc(),
        )
