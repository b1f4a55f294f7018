"""`kaeru grade ID [--from START] MOVE... [--json]`: each move of a game graded against the
optimal distance — `optimal` (one step closer), `wasted` (farther or level), `lost` (the goal
can no longer be reached; with the reason where a proof gives one). JSON:
{id, start, moves: [{move, before, after, verdict}], final}. An illegal move ends the grading:
exit 2, naming the move."""

from __future__ import annotations

import argparse
import sys
from typing import Any, NoReturn

from kaeru.engine.coach.distance import unit_of
from kaeru.engine.coach.grading import LOST, OPTIMAL, WASTED, grade
from kaeru.engine.rules.control import Control
from kaeru.engine.rules.protocol import BadInput, BudgetExceeded
from kaeru.tui.cli.arguments import add_puzzle_arguments, resolve
from kaeru.tui.cli.exit_codes import EXIT_GAVE_UP, EXIT_OK
from kaeru.tui.cli.notation import AUTO, add_notation_argument, moves_in_words
from kaeru.tui.cli.output import clear_progress, emit, progress_printer

NAME = "grade"
HELP = "grade a game's moves against the optimal distance"
ORDER = 23


def configure(sub: argparse.ArgumentParser) -> None:
    add_puzzle_arguments(sub)
    sub.add_argument("--json", action="store_true", help="machine-readable output")
    add_notation_argument(sub, reading=True)
    sub.add_argument(  # the options may come among the moves: they are sorted out in `run`
        "moves", nargs=argparse.REMAINDER, metavar="MOVE", help='moves in text form ("7 left")'
    )


class _RestParser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise BadInput(f"grade: {message}")


def split_moves(args: argparse.Namespace) -> None:
    """Sort the options given among the moves (`ID --from START MOVE... --json`) into `args`."""
    rest = _RestParser(prog="kaeru grade", add_help=False)
    rest.add_argument("--from", dest="start")
    rest.add_argument("--from-file")
    rest.add_argument("--goal")
    rest.add_argument("--json", action="store_true")
    rest.add_argument("--notation", choices=(AUTO, "words", "slidysim"))
    rest.add_argument("moves", nargs="*")
    found = rest.parse_intermixed_args([m for m in args.moves if m != "--"])
    for name in ("start", "from_file", "goal"):
        if getattr(found, name) is not None:
            if getattr(args, name) is not None:
                raise BadInput(f"grade: --{name.replace('_', '-')} given twice")
            setattr(args, name, getattr(found, name))
    if args.start is not None and args.from_file is not None:
        raise BadInput("grade: --from and --from-file cannot be used together")
    args.json = args.json or found.json
    if found.notation is not None:
        args.notation = found.notation
    args.moves = found.moves


def run(args: argparse.Namespace) -> int:
    split_moves(args)
    puzzle, start = resolve(args)
    moves = moves_in_words(puzzle, start, args.moves, getattr(args, "notation", AUTO))
    try:
        grading = grade(puzzle, start, moves, Control(progress_printer(sys.stderr.isatty())))
    except BudgetExceeded as error:
        clear_progress()
        print(f"kaeru: {puzzle.id}: {error}", file=sys.stderr)
        return EXIT_GAVE_UP
    finally:
        clear_progress()
    out: dict[str, Any] = {"id": puzzle.id, "start": puzzle.format(start)} | grading.as_json()
    unit = unit_of(puzzle)
    lines = [
        f"{puzzle.id} from {out['start']}: {grading.final.words(unit)} at the start"
        if not grading.moves
        else f"{puzzle.id} from {out['start']}"
    ]
    for i, graded in enumerate(grading.moves, 1):
        after = "—" if graded.after.moves is None else str(graded.after.moves)
        before = "—" if graded.before.moves is None else str(graded.before.moves)
        reason = f"  ({graded.reason})" if graded.reason else ""
        lines.append(
            f"  {i:>3}. {graded.move:<14} {before:>3} → {after:<3} {graded.verdict}{reason}"
        )
    if grading.moves:
        counts = ", ".join(f"{grading.count(v)} {v}" for v in (OPTIMAL, WASTED, LOST))
        lines.append(f"{counts}; after the last move: {grading.final.words(unit)}")
    emit(args, out, "\n".join(lines))
    return EXIT_OK
