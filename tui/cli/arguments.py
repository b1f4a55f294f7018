"""Arguments several commands share: the puzzle id (or a game id), `--from`, `--from-file`,
`--goal`, and turning them into a puzzle and a start position."""

from __future__ import annotations

import argparse
from collections.abc import Hashable
from pathlib import Path

from kaeru.engine.core import BadInput, Puzzle
from kaeru.engine.registry import get_puzzle


def add_puzzle_arguments(sub: argparse.ArgumentParser) -> None:
    sub.add_argument("puzzle", help="a puzzle id, e.g. flip-it-6 (see `kaeru list`)")
    where = sub.add_mutually_exclusive_group()
    where.add_argument("--from", dest="start", metavar="STATE", help="start position text")
    where.add_argument("--from-file", metavar="PATH", help="read the start from a file")
    sub.add_argument("--goal", metavar="HOLE", help="where to finish (pegs)")


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
