"""The `kaeru` command: no argument starts the arcade; `play`, `solve`, `enumerate` and `list`
work headless (with `--json`). Bad input exits 2 with one line on stderr, never a traceback."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Hashable, Sequence
from pathlib import Path
from typing import Any, NoReturn

from kaeru.engine.core import BadInput, BudgetExceeded, Cancelled, Puzzle, SearchStats, Unsolvable
from kaeru.engine.registry import families, get_puzzle

EXIT_OK, EXIT_NO_SOLUTION, EXIT_BAD_INPUT, EXIT_GAVE_UP = 0, 1, 2, 3


class Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line on stderr and exit code 2."""

    def error(self, message: str) -> NoReturn:
        print(f"kaeru: {message} (see `kaeru --help`)", file=sys.stderr)
        raise SystemExit(EXIT_BAD_INPUT)


def build_parser() -> Parser:
    parser = Parser(prog="kaeru", description="Kaeru Arcade: terminal puzzles and their solver.")
    commands = parser.add_subparsers(dest="command", parser_class=Parser)

    def with_puzzle(name: str, help_text: str) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=help_text)
        sub.add_argument("puzzle", help="a puzzle id, e.g. flip-it-6 (see `kaeru list`)")
        where = sub.add_mutually_exclusive_group()
        where.add_argument("--from", dest="start", metavar="STATE", help="start position text")
        where.add_argument("--from-file", metavar="PATH", help="read the start from a file")
        sub.add_argument("--goal", metavar="HOLE", help="where to finish (pegs)")
        return sub

    with_puzzle("play", "open a puzzle in the arcade")
    for name, help_text in (
        ("solve", "print an optimal solution"),
        ("enumerate", "count every position reachable from the start, by depth"),
    ):
        sub = with_puzzle(name, help_text)
        sub.add_argument("--json", action="store_true", help="machine-readable output")
    listing = commands.add_parser("list", help="every puzzle id")
    listing.add_argument("--json", action="store_true", help="machine-readable output")
    return parser


def resolve(args: argparse.Namespace, *, root: bool = False) -> tuple[Puzzle, Hashable]:
    """The puzzle and start position named on the command line (BadInput when wrong).

    Without a position, `root` asks for where enumeration begins (the goal for some families)
    instead of the start of a game."""
    puzzle_id = args.puzzle + (f"@{args.goal}" if args.goal else "")
    puzzle = get_puzzle(puzzle_id)
    text = args.start
    if args.from_file:
        try:
            text = Path(args.from_file).read_text()
        except OSError as error:
            raise BadInput(f"cannot read {args.from_file}: {error.strerror}") from None
    if text is not None:
        return puzzle, puzzle.parse(text)
    return puzzle, puzzle.explore_root() if root else puzzle.initial()


def progress_printer(enabled: bool) -> Any:
    """A progress callback that redraws one stderr line, when stderr is a terminal."""
    if not enabled:
        return None

    def show(stats: SearchStats) -> None:
        print(
            f"\r{stats.algorithm}: depth {stats.depth}, {stats.generated:,} positions, "
            f"{stats.seconds:.1f} s ",
            end="",
            file=sys.stderr,
            flush=True,
        )

    return show


def run_solve(args: argparse.Namespace) -> int:
    puzzle, start = resolve(args)
    head: dict[str, Any] = {"id": puzzle.id, "start": puzzle.format(start)}
    try:
        solution = puzzle.solve(start, start, progress=progress_printer(sys.stderr.isatty()))
    except Unsolvable as error:
        clear_progress()
        out = head | {"solvable": False, "reason": error.reason}
        if error.stats is not None:
            out["stats"] = error.stats.as_dict()
        emit(args, out, f"{puzzle.id} from {head['start']}: no solution — {error.reason}")
        return EXIT_NO_SOLUTION
    except BudgetExceeded as error:
        clear_progress()
        emit(args, head | {"solvable": None, "reason": str(error)}, f"{puzzle.id}: {error}")
        return EXIT_GAVE_UP
    clear_progress()
    moves = [puzzle.describe(m) for m in solution.moves]
    states = [puzzle.format(s) for s in solution.states]
    out = head | {
        "goal": puzzle.goal_text(start),
        "solvable": True,
        "length": solution.length,
        "optimal": solution.optimal,
        "moves": moves,
        "states": states,
        "stats": solution.stats.as_dict(),
    }
    chains = puzzle.chains(solution.moves)
    if chains is not None:
        out["chains"] = chains
    stats = solution.stats
    lines = [
        f"{puzzle.id}: {head['start']} → {out['goal']}",
        f"{solution.length} moves, {'optimal' if solution.optimal else 'NOT optimal'} "
        f"({stats.algorithm}: {stats.generated:,} positions, {stats.seconds:.3f} s)",
        f"  {0:>3}. {'':<14} {states[0]}",
    ]
    steps = enumerate(zip(moves, states[1:], strict=True), 1)
    lines += [f"  {i:>3}. {m:<14} {s}" for i, (m, s) in steps]
    if chains is not None:
        lines.append(f"as {len(chains)} moves: {' '.join(chains)}")
    emit(args, out, "\n".join(lines))
    return EXIT_OK


def run_enumerate(args: argparse.Namespace) -> int:
    puzzle, start = resolve(args, root=True)
    result = puzzle.enumerate(start, progress=progress_printer(sys.stderr.isatty()))
    clear_progress()
    out = {"id": puzzle.id} | result.as_dict()
    lines = [
        f"{puzzle.id} from {result.root}: {result.positions:,} positions, "
        f"max depth {result.max_depth} ({result.stats.seconds:.2f} s)",
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


def run_list(args: argparse.Namespace) -> int:
    rows = [
        {"id": pid, "title": get_puzzle(pid).title, "family": family.key}
        for family in families()
        for pid in family.ids
    ]
    width = max(len(r["id"]) for r in rows)
    emit(args, rows, "\n".join(f"{r['id']:<{width}}  {r['title']}" for r in rows))
    return EXIT_OK


def run_play(args: argparse.Namespace | None) -> int:
    game_id = None
    if args is not None:
        puzzle, start = resolve(args)
        game_id = puzzle.game_id(start) if (args.start or args.from_file) else puzzle.id
    from kaeru.tui.app import KaeruApp

    KaeruApp(game_id).run()
    return EXIT_OK


def emit(args: argparse.Namespace, data: Any, text: str) -> None:
    print(json.dumps(data, ensure_ascii=False) if getattr(args, "json", False) else text)


def clear_progress() -> None:
    if sys.stderr.isatty():
        print("\r\033[K", end="", file=sys.stderr, flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    runners = {"solve": run_solve, "enumerate": run_enumerate, "list": run_list, "play": run_play}
    try:
        if args.command is None:
            return run_play(None)
        return runners[args.command](args)
    except BadInput as error:
        print(f"kaeru: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:  # `kaeru list | head`
        sys.stderr.close()
        return EXIT_OK
    except (KeyboardInterrupt, Cancelled):
        print("kaeru: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
