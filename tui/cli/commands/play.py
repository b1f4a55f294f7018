"""`kaeru play ID [--from STATE]`, and plain `kaeru`: open the arcade (at a game)."""

from __future__ import annotations

import argparse

from kaeru.tui.cli.arguments import add_puzzle_arguments, resolve
from kaeru.tui.cli.exit_codes import EXIT_OK

NAME = "play"
HELP = "open a puzzle in the arcade"
ORDER = 10


def configure(sub: argparse.ArgumentParser) -> None:
    add_puzzle_arguments(sub)


def run(args: argparse.Namespace) -> int:
    puzzle, start = resolve(args)
    named_start = args.start is not None or args.from_file is not None or ":" in args.puzzle
    return open_arcade(puzzle.game_id(start) if named_start else puzzle.id)


def open_arcade(game_id: str | None) -> int:
    from kaeru.tui.app import KaeruApp

    KaeruApp(game_id).run()
    return EXIT_OK
