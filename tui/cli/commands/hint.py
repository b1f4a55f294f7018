"""`kaeru hint ID [--from STATE] [--start START] [--json]`: a best move from a position and the
distance to the goal before it (the coach's oracle: a depth table where the family has one,
else the optimal solver). JSON: {id, state, move, distance}; at the goal `move` is null and
`distance` 0; a position that cannot be won exits 1 with `distance` null and the reason."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from kaeru.engine.coach.distance import AlreadySolved, best_move, unit_of
from kaeru.engine.rules.control import Control
from kaeru.engine.rules.protocol import BudgetExceeded, Unsolvable
from kaeru.engine.rules.results import reason_words
from kaeru.tui.cli.arguments import (
    add_budget_argument,
    add_puzzle_arguments,
    control_budget,
    resolve,
)
from kaeru.tui.cli.exit_codes import EXIT_GAVE_UP, EXIT_NO_SOLUTION, EXIT_OK
from kaeru.tui.cli.output import clear_progress, emit, progress_printer

NAME = "hint"
HELP = "a best move from a position, and how far the goal is"
ORDER = 22


def configure(sub: argparse.ArgumentParser) -> None:
    add_puzzle_arguments(sub)
    sub.add_argument(
        "--start",
        dest="game_start",
        metavar="START",
        help="the game's start, where the goal depends on it (knights, Flip It); default: STATE",
    )
    sub.add_argument("--json", action="store_true", help="machine-readable output")
    add_budget_argument(sub)


def run(args: argparse.Namespace) -> int:
    puzzle, state = resolve(args)
    start = puzzle.parse(args.game_start) if args.game_start else state
    head: dict[str, Any] = {"id": puzzle.id, "state": puzzle.format(state)}
    try:
        control = Control(progress_printer(sys.stderr.isatty()), budget=control_budget(args))
        move, here = best_move(puzzle, state, start, control)
    except AlreadySolved:
        emit(args, head | {"move": None, "distance": 0}, f"{puzzle.id}: already solved")
        return EXIT_OK
    except Unsolvable as error:
        clear_progress()
        reason = reason_words(error.reason)
        out = head | {"move": None, "distance": None, "reason": reason}
        emit(args, out, f"{puzzle.id}: cannot be won from here — {reason}")
        return EXIT_NO_SOLUTION
    except BudgetExceeded as error:
        clear_progress()
        emit(
            args,
            head | {"move": None, "distance": None, "reason": str(error)},
            f"{puzzle.id}: {error}",
        )
        return EXIT_GAVE_UP
    clear_progress()
    text = puzzle.format_move(move)
    out = head | {"move": text, "distance": here.moves}
    if not here.exact:
        out["exact"] = False
    emit(args, out, f"{text}   ({here.words(unit_of(puzzle))})")
    return EXIT_OK
