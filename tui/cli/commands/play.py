"""`kaeru play ID [--from STATE]`, and plain `kaeru`: open the arcade (at a game)."""

from __future__ import annotations

import argparse

from kaeru.tui.cli.arguments import add_puzzle_arguments, resolve
from kaeru.tui.cli.exit_codes import EXIT_INTERNAL, EXIT_OK

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
    """Run the arcade; exit 4 with one line naming the log when it crashed."""
    from kaeru.tui.app import KaeruApp
    from kaeru.tui.cli.main import say

    app = KaeruApp(game_id)
    app.run()
    if app.store.unsaved and app.store.notice:  # saves were paused to the end: said once more
        say(app.store.notice)
    if app.crash_report is not None:
        say(app.crash_report)
        return EXIT_INTERNAL
    return EXIT_OK if not app.return_code else EXIT_INTERNAL
