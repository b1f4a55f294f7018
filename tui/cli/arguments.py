"""Arguments several commands share: the puzzle id (or a game id), `--from`, `--from-file`,
`--goal`, and turning them into a puzzle and a start position."""

from __future__ import annotations

import argparse
import os
import stat
from collections.abc import Hashable

from kaeru.engine.puzzles.registry import AnyPuzzle, get_puzzle
from kaeru.engine.rules.protocol import BadInput
from kaeru.engine.rules.text_input import MAX_STATE_LENGTH, bounded, shown, split_game_id


def add_puzzle_arguments(sub: argparse.ArgumentParser) -> None:
    sub.add_argument(
        "puzzle",
        help="a puzzle id, e.g. flip-it-6 (see `kaeru list`), or a game id, e.g. flip-it-7:B_BBBBB",
    )
    where = sub.add_mutually_exclusive_group()
    where.add_argument("--from", dest="start", metavar="STATE", help="start position text")
    where.add_argument("--from-file", metavar="PATH", help="read the start from a file")
    sub.add_argument(
        "--goal",
        metavar="GOAL",
        help="where to finish: a hole (pegs), a layout (Flip It, knights: by default the "
        "start's colours swapped)",
    )


MAX_FILE_BYTES = 64 * 1024  # a start position is a few hundred bytes at most


def resolve(args: argparse.Namespace, *, root: bool = False) -> tuple[AnyPuzzle, Hashable]:
    """The puzzle and start position named on the command line (BadInput when wrong).

    The puzzle may be a game id, `flip-it-7:B_BBBBB` (its start after the colon). Without a
    position, `root` asks for where enumeration begins (the goal for some families) instead
    of the start of a game."""
    named, in_id = split_game_id(str(args.puzzle))
    puzzle_id = named + (f"@{args.goal}" if args.goal else "")
    puzzle = get_puzzle(puzzle_id)
    text = args.start
    if text is not None and not isinstance(text, str):  # argparse turns `--from=--` into []
        raise BadInput("--from needs a start position text")
    if args.from_file is not None:  # `--from-file ''` names no file: an error, not the default
        text = read_start_file(args.from_file)
    if in_id is not None:
        if text is not None:
            raise BadInput("a game id names its start already: drop --from or --from-file")
        text = in_id
    if text is not None:
        bounded(text, MAX_STATE_LENGTH, "start position")
        return puzzle, puzzle.parse(text)
    return puzzle, puzzle.explore_root() if root else puzzle.initial()


def read_start_file(path: str) -> str:
    """The text of a regular file of at most MAX_FILE_BYTES, as UTF-8 (a byte-order mark is
    fine); BadInput saying what is wrong otherwise. Never blocks on a FIFO or reads a device."""
    name = shown(path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)  # not Windows
    try:
        handle = os.open(path, flags)
    except OSError as error:
        raise BadInput(f"cannot read {name}: {error.strerror}") from None
    except ValueError:  # a NUL byte in the path
        raise BadInput(f"cannot read {name}: a path cannot hold a NUL character") from None
    try:
        info = os.fstat(handle)
        if not stat.S_ISREG(info.st_mode):
            raise BadInput(f"cannot read {name}: not a regular file")
        if info.st_size > MAX_FILE_BYTES:
            raise BadInput(
                f"{name} is too large for a start position: {info.st_size:,} bytes "
                f"(at most {MAX_FILE_BYTES:,})"
            )
        data = os.read(handle, MAX_FILE_BYTES + 1)
    except OSError as error:
        raise BadInput(f"cannot read {name}: {error.strerror}") from None
    finally:
        os.close(handle)
    if len(data) > MAX_FILE_BYTES:
        raise BadInput(f"{name} is too large for a start position (at most {MAX_FILE_BYTES:,})")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise BadInput(f"{name} is not UTF-8 text (byte {error.start:,} is wrong)") from None


def add_budget_argument(sub: argparse.ArgumentParser) -> None:
    sub.add_argument(
        "--budget",
        type=positive_count,
        metavar="N",
        help="give up (exit 3, with the figures reached) past N positions: held, or for a "
        "depth-first search (the 15-puzzle's) generated; default: what memory allows",
    )


def positive_count(text: str) -> int:
    """argparse type: a positive whole number, `1_000_000` or `1e6` style accepted."""
    try:
        value = float(text.replace("_", "")) if "e" in text.lower() else int(text.replace("_", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of positions: {shown(text)}") from None
    if value < 1 or value != int(value) or value > 10**15:
        raise argparse.ArgumentTypeError(f"a budget is 1 to 10**15 positions, not {shown(text)}")
    return int(value)


def control_budget(args: argparse.Namespace) -> int:
    """The budget for the Control: the one given, else the engine's default."""
    from kaeru.engine.rules.protocol import DEFAULT_BUDGET

    chosen = getattr(args, "budget", None)
    return DEFAULT_BUDGET if chosen is None else int(chosen)
