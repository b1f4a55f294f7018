"""`kaeru random ID [--seed N] [--depth D] [--optimal] [--json]`: a fair random start of a puzzle
(see `engine.catalogue.random_games`). JSON: {id, game_id, start, optimal}; `optimal` is null where
solving is slow (the 15-puzzle) unless `--optimal` asks for it."""

from __future__ import annotations

import argparse
import sys

from kaeru.engine.catalogue.random_games import random_game
from kaeru.engine.rules.control import Control
from kaeru.engine.rules.protocol import BudgetExceeded
from kaeru.engine.rules.words import plural
from kaeru.tui.cli.exit_codes import EXIT_GAVE_UP, EXIT_OK
from kaeru.tui.cli.output import clear_progress, emit, progress_printer

NAME = "random"
HELP = "a random start of a puzzle"
ORDER = 35


def configure(sub: argparse.ArgumentParser) -> None:
    sub.add_argument("puzzle", help="a puzzle id, e.g. sliding-4x4 (see `kaeru list`)")
    sub.add_argument("--seed", type=int, metavar="N", help="the same N gives the same game")
    sub.add_argument("--depth", type=int, metavar="D", help="exactly D moves from the goal")
    sub.add_argument(
        "--optimal", action="store_true", help="compute the optimal length even where slow"
    )
    sub.add_argument("--json", action="store_true", help="machine-readable output")


def run(args: argparse.Namespace) -> int:
    control = Control(progress=progress_printer(sys.stderr.isatty()))
    try:
        game = random_game(
            args.puzzle, args.seed, args.depth, solve_slow=args.optimal, control=control
        )
    except BudgetExceeded as error:
        clear_progress()
        print(f"kaeru: {args.puzzle}: {error}", file=sys.stderr)
        return EXIT_GAVE_UP
    clear_progress()
    optimal = "not computed (--optimal)" if game.optimal is None else plural(game.optimal, "move")
    text = "\n".join(
        [
            game.game_id,
            f"start    {game.start}",
            f"optimal  {optimal}",
            f"play it  kaeru play {game.game_id}",  # the id pastes unquoted
        ]
    )
    emit(args, game.as_json(), text)
    return EXIT_OK
