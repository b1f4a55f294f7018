"""`kaeru daily [--date YYYY-MM-DD] [--json]`: the day's puzzles, the same everywhere (see
`engine.daily`). JSON: a list of {id, game_id, start, optimal}."""

from __future__ import annotations

import argparse

from kaeru.engine.daily import daily_date, daily_games
from kaeru.tui.cli.exit_codes import EXIT_OK
from kaeru.tui.cli.output import emit

NAME = "daily"
HELP = "today's daily puzzles"
ORDER = 36


def configure(sub: argparse.ArgumentParser) -> None:
    sub.add_argument("--date", metavar="YYYY-MM-DD", help="another day (default today)")
    sub.add_argument("--json", action="store_true", help="machine-readable output")


def run(args: argparse.Namespace) -> int:
    day = daily_date(args.date)
    games = daily_games(day)
    width = max(len(g.id) for g in games)
    lines = [f"Kaeru daily puzzles, {day}"]
    for game in games:
        optimal = "?" if game.optimal is None else str(game.optimal)
        lines.append(f"  {game.id:<{width}}  optimal {optimal:>3}  {game.game_id}")
    emit(args, [game.as_json() for game in games], "\n".join(lines))
    return EXIT_OK
