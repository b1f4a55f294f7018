"""`kaeru enumerate ID [--json]`: every position reachable, counted by depth."""

from __future__ import annotations

import argparse
import sys

from kaeru.engine.rules.control import Control
from kaeru.engine.rules.results import BudgetExceeded
from kaeru.engine.search import dispatch
from kaeru.tui.cli.arguments import add_puzzle_arguments, resolve
from kaeru.tui.cli.exit_codes import EXIT_GAVE_UP, EXIT_OK
from kaeru.tui.cli.output import clear_progress, emit, progress_printer

NAME = "enumerate"
HELP = "count every position reachable from the start, by depth"
ORDER = 30
TOO_LARGE = 10  # a space known to be this many times the budget is refused at once


def configure(sub: argparse.ArgumentParser) -> None:
    add_puzzle_arguments(sub)
    sub.add_argument("--json", action="store_true", help="machine-readable output")


def run(args: argparse.Namespace) -> int:
    puzzle, start = resolve(args, root=True)
    control = Control(progress=progress_printer(sys.stderr.isatty()))
    size = dispatch.space_size(puzzle)
    if size is not None and control.budget is not None and size > TOO_LARGE * control.budget:
        reason = (
            f"{size:,} positions is far more than the budget of {control.budget:,}: not enumerated"
        )
        emit(
            args,
            {"id": puzzle.id, "complete": False, "size": size, "reason": reason},
            f"{puzzle.id}: {reason}",
        )
        return EXIT_GAVE_UP
    try:
        result = dispatch.enumerate_space(puzzle, start, control)
    except BudgetExceeded as error:  # too large: the figures reached, exit 3
        clear_progress()
        out = {"id": puzzle.id, "complete": False, "reason": str(error)}
        figures = ""
        if error.stats is not None:
            out["stats"] = error.stats.as_dict()
        if error.stats is not None and error.stats.generated:
            figures = (
                f" (reached depth {error.stats.depth}, {error.stats.generated:,} "
                f"positions, {error.stats.seconds:.1f} s)"
            )
        emit(args, out, f"{puzzle.id}: gave up: {error}{figures}")
        return EXIT_GAVE_UP
    clear_progress()
    out = {"id": puzzle.id} | result.as_dict()
    lines = [
        f"{puzzle.id} from {result.root}: {result.positions:,} positions, "
        f"max depth {result.max_depth} ({result.stats.seconds:.2f} s)"
        + "".join(f", {name.replace('_', ' ')}: {n:,}" for name, n in result.totals.items()),
        "depth  positions" + "".join(f"  {name}" for name in result.series),
    ]
    for depth, count in enumerate(result.histogram):
        extra = "".join(
            f"  {values[depth]:>{len(name)},}" for name, values in result.series.items()
        )
        lines.append(f"{depth:>5}  {count:>9,}{extra}")
    shown = result.farthest[:20]
    lines.append(f"farthest ({result.histogram[-1]:,}), {len(shown)} shown:")
    lines += [f"  {state}" for state in shown]
    emit(args, out, "\n".join(lines))
    return EXIT_OK
