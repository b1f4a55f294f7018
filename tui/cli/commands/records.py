"""`kaeru records [--puzzle ID] [--limit N] [--json]`: finished games from the player's store,
newest first. JSON: a list of {game_id, moves (count), optimal, seconds, hints, helped,
finished (ISO 8601)}. A notice from the store (saves off, damaged file set aside) goes to
stderr."""

from __future__ import annotations

import argparse
import sys

from kaeru.engine.puzzles.registry import get_puzzle
from kaeru.engine.rules.protocol import BadInput
from kaeru.engine.rules.words import clock, plural
from kaeru.engine.store import FinishedGame, Store
from kaeru.tui.cli.exit_codes import EXIT_OK
from kaeru.tui.cli.output import emit

NAME = "records"
HELP = "finished games, newest first"
ORDER = 60


def configure(sub: argparse.ArgumentParser) -> None:
    sub.add_argument("--puzzle", metavar="ID", help="only this puzzle's games")
    sub.add_argument("--limit", type=int, metavar="N", help="at most N games")
    sub.add_argument("--json", action="store_true", help="machine-readable output")


def run(args: argparse.Namespace) -> int:
    if args.limit is not None and args.limit < 0:
        raise BadInput(f"--limit must be 0 or more, not {args.limit}")
    puzzle_id = get_puzzle(args.puzzle).id if args.puzzle else None  # BadInput: exit 2
    store = Store.open()
    try:
        if store.notice:
            print(f"kaeru: {store.notice}", file=sys.stderr)
        games = store.records(puzzle_id, args.limit)
    finally:
        store.close()
    text = "\n".join(line(game) for game in games) if games else "no finished games yet"
    emit(args, [game.as_json() for game in games], text)
    return EXIT_OK


def line(game: FinishedGame) -> str:
    """`2026-11-23 11:02  sliding-3x3  30 moves (optimal 28)  1:02  clean`."""
    when = game.finished[:16].replace("T", " ")
    count = plural(game.move_count, "move") + (
        f" (optimal {game.optimal})" if game.optimal is not None else ""
    )
    how = f"helped, {plural(game.hints, 'hint')}" if game.helped else "clean"
    return f"{when}  {game.puzzle_id:<20}  {count:<22}  {clock(game.seconds):>7}  {how}"
