"""`kaeru leaderboard [--date D] [--puzzle ID] [--store URL|FILE] [--json]`: a day's daily
leaderboards from the shared place (engine.place) — on a server, for its operator.

Clean games ranked (the optimum reached first, then fewest moves, then time), helped games
listed apart. The place is `--store` (a postgresql:// address, or a place.sqlite3 file), else
$KAERU_STORE, else $KAERU_PLACE, else place.sqlite3 in the data folder. JSON: a list of
{puzzle, day, optimal, ranked: [{rank, name, moves, optimal, seconds, hints, helped, ...}],
helped: [...]}.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import TYPE_CHECKING

from kaeru.engine.catalogue.daily import DAILY_IDS, daily_date
from kaeru.engine.puzzles.registry import get_puzzle
from kaeru.engine.rules.protocol import BadInput
from kaeru.engine.rules.words import clock, plural
from kaeru.tui.cli.exit_codes import EXIT_OK
from kaeru.tui.cli.output import emit

if TYPE_CHECKING:
    from kaeru.engine.place.ranking import Result

NAME = "leaderboard"
HELP = "a day's daily leaderboards on this server"
ORDER = 62


def configure(sub: argparse.ArgumentParser) -> None:
    sub.add_argument("--date", metavar="YYYY-MM-DD", help="another day (default today)")
    sub.add_argument("--puzzle", metavar="ID", help="only this daily puzzle")
    sub.add_argument("--store", metavar="URL|FILE",
                     help="postgresql://… or a place.sqlite3 file (default: $KAERU_STORE, else"
                     " $KAERU_PLACE, else the data folder's)")
    sub.add_argument("--search", action="store_true",
                     help="work out the optima not known yet (the 15-puzzle's: up to minutes)"
                     " and store them for every host of the server")
    sub.add_argument("--json", action="store_true", help="machine-readable output")


def run(args: argparse.Namespace) -> int:
    from kaeru.engine.place.optima import daily_optima
    from kaeru.engine.place.place import PLACE_ENV, Place
    from kaeru.engine.store.postgres import is_postgres_url

    day = daily_date(args.date)  # BadInput: exit 2
    puzzles = list(DAILY_IDS)
    if args.puzzle:
        puzzle_id = get_puzzle(args.puzzle).id
        if puzzle_id not in DAILY_IDS:
            raise BadInput(f"{puzzle_id} is not a daily puzzle ({', '.join(DAILY_IDS)})")
        puzzles = [puzzle_id]
    url = None
    if args.store:
        if is_postgres_url(args.store):
            url = args.store
        else:
            path = Path(args.store)
            if not path.is_file():
                raise BadInput(f"--store: no such file {path}")
            os.environ[PLACE_ENV] = str(path)
            url = ""
    place = Place.open(url=url, player="operator")
    try:
        optima = daily_optima(place, day, search=args.search)
        boards = [(p, optima.get(p), place.daily_board(p, day)) for p in puzzles]
        if place.notice:
            raise BadInput(place.notice)
    finally:
        place.close()
    data = [
        {
            "puzzle": puzzle_id, "day": day, "optimal": optimal,
            "ranked": [{"rank": n, **r.as_json()} for n, r in enumerate(board.ranked, 1)],
            "helped": [r.as_json() for r in board.helped],
        }
        for puzzle_id, optimal, board in boards
    ]
    lines = [f"Kaeru leaderboard, {day}"]
    for puzzle_id, optimal, board in boards:
        known = f"optimal {optimal}" if optimal is not None else "optimal ?"
        lines.append(f"{puzzle_id} ({known})")
        if not board.ranked and not board.helped:
            lines.append("  no wins yet")
        for n, result in enumerate(board.ranked, 1):
            lines.append(f"  {n:>3}. {entry(result)}")
        for result in board.helped:
            lines.append(f"  help {entry(result)}  {plural(result.hints, 'hint')}")
    emit(args, data, "\n".join(lines))
    return EXIT_OK


def entry(result: Result) -> str:
    """`Ann                    20 moves  optimal   0:31` (`+2` when two over the optimum)."""
    over = result.over
    mark = "optimal" if result.optimal_reached else ("" if over is None else f"+{over}")
    moves = plural(result.move_count, "move")
    return f"{result.name:<20}  {moves:>9}  {mark:<7}  {clock(result.seconds):>5}"
