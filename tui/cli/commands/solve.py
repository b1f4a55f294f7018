"""`kaeru solve ID [--from STATE] [--json]`: a solution, with what the search did — optimal, or
on sliding boards past 16 cells near-optimal with a proved lower bound (`lower_bound`,
`over_optimum`: at most that many moves over the optimum)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from kaeru.engine.rules.control import Control
from kaeru.engine.rules.protocol import BudgetExceeded, Solution, Unsolvable
from kaeru.engine.rules.results import reason_words
from kaeru.engine.rules.words import plural
from kaeru.engine.search import dispatch
from kaeru.tui.cli.arguments import (
    add_budget_argument,
    add_puzzle_arguments,
    control_budget,
    resolve,
)
from kaeru.tui.cli.exit_codes import EXIT_GAVE_UP, EXIT_NO_SOLUTION, EXIT_OK
from kaeru.tui.cli.notation import add_notation_argument, check_sliding, written
from kaeru.tui.cli.output import clear_progress, emit, progress_printer

NAME = "solve"
HELP = (  # as in command_list.COMMANDS
    "print a solution: optimal, or on sliding boards past 16 cells near-optimal with a proved "
    "bound"
)
ORDER = 20


def configure(sub: argparse.ArgumentParser) -> None:
    add_puzzle_arguments(sub)
    sub.add_argument("--json", action="store_true", help="machine-readable output")
    add_notation_argument(sub, reading=False)
    add_budget_argument(sub)
    sub.add_argument(
        "--metric",
        choices=("jumps", "moves"),
        default="jumps",
        help="what to minimise: single moves (jumps), or moves as players count them, a "
        "peg's chain of jumps being one (peg solitaire; JSON `length` is then the moves and "
        "`jumps` the jumps)",
    )


def run(args: argparse.Namespace) -> int:
    puzzle, start = resolve(args)
    head: dict[str, Any] = {"id": puzzle.id, "start": puzzle.format(start)}
    check_sliding(puzzle, getattr(args, "notation", "words"))
    try:
        control = Control(progress_printer(sys.stderr.isatty()), budget=control_budget(args))
        if getattr(args, "metric", "jumps") == "moves":
            solution = dispatch.solve_fewest_moves(puzzle, start, start, control)
        else:
            solution = dispatch.solve(puzzle, start, start, control)
    except Unsolvable as error:
        clear_progress()
        reason = reason_words(error.reason)
        out = head | {"solvable": False, "reason": reason}
        if error.stats is not None:
            out["stats"] = error.stats.as_dict()
        emit(args, out, f"{puzzle.id} from {head['start']}: no solution — {reason}")
        return EXIT_NO_SOLUTION
    except BudgetExceeded as error:
        clear_progress()
        out = head | {"solvable": None, "reason": str(error)}
        if error.stats is not None:  # the figures reached
            out["stats"] = error.stats.as_dict()
        emit(args, out, f"{puzzle.id}: {error}")
        return EXIT_GAVE_UP
    clear_progress()
    moves = [puzzle.describe(m) for m in solution.moves]
    texts = [puzzle.format_move(m) for m in solution.moves]  # what `grade` and `hint` read
    states = [puzzle.format(s) for s in solution.states]
    out = head | {
        "goal": puzzle.goal_text(start),
        "solvable": True,
        "length": solution.length,
        "optimal": solution.optimal,
        "moves": texts,
        "states": states,
        "stats": solution.stats.as_dict(),
    }
    if solution.lower_bound is not None:  # near-optimal: how far from optimal at most
        out["lower_bound"] = solution.lower_bound
        out["over_optimum"] = solution.over_optimum
    in_notation = written(puzzle, solution.moves, getattr(args, "notation", "words"))
    if in_notation is not None:
        out["notation"] = in_notation
    chains = puzzle.chains(solution.moves) if puzzle.capabilities.chains else None
    if chains is not None:
        out["chains"] = chains
    length = solution.length
    if getattr(args, "metric", "jumps") == "moves" and chains is not None:
        length = out["length"] = len(chains)
        out["jumps"] = solution.length
    stats = solution.stats
    counted = plural(length, "move")
    if chains is not None and length == solution.length:  # pegs: the length counts jumps
        counted = plural(length, "jump")  # the moves (chains of jumps): the last line
    elif chains is not None:
        counted = f"{plural(length, 'move')} ({plural(solution.length, 'jump')})"
    lines = [
        f"{puzzle.id}: {head['start']} → {out['goal']}",
        f"{counted}, {optimality_words(solution)} "
        f"({stats.algorithm}: {plural(max(stats.generated, stats.expanded), 'position')}, "
        f"{stats.seconds:.3f} s)",
        f"  {0:>3}. {'':<14} {states[0]}",
    ]
    steps = enumerate(zip(moves, states[1:], strict=True), 1)
    lines += [f"  {i:>3}. {m:<14} {s}" for i, (m, s) in steps]
    if chains is not None:
        lines.append(f"as {len(chains)} moves: {' '.join(chains)}")
    if in_notation is not None:
        lines.append(f"slidysim: {in_notation}")
    emit(args, out, "\n".join(lines))
    return EXIT_OK


def optimality_words(solution: Solution[Any, Any]) -> str:
    """ "optimal", "at most 12 over the optimum (proved at least 96)", or "NOT optimal"."""
    if solution.optimal:
        return "optimal"
    if solution.lower_bound is not None:
        return (f"at most {solution.over_optimum} over the optimum "
                f"(proved at least {solution.lower_bound})")
    return "NOT optimal"
