"""`kaeru daily [--date YYYY-MM-DD] [--json]`: the day's puzzles, the same everywhere (see
`engine.catalogue.daily`). JSON: a list of {id, game_id, start, optimal}. An optimum a daily lacks
(the 15-puzzle's) is read from the shared place or the player's wins when either knows it
(`engine.place.known_optima`); never searched here (`kaeru leaderboard --search` does)."""

from __future__ import annotations

import argparse

from kaeru.engine.catalogue.daily import daily_date, daily_games
from kaeru.engine.catalogue.random_games import RandomGame
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
    games = known(day, daily_games(day))
    width = max(len(g.id) for g in games)
    lines = [f"Kaeru daily puzzles, {day}"]
    for game in games:
        optimal = "?" if game.optimal is None else str(game.optimal)
        lines.append(f"  {game.id:<{width}}  optimal {optimal:>3}  {game.game_id}")
    emit(args, [game.as_json() for game in games], "\n".join(lines))
    return EXIT_OK


def known(day: str, games: list[RandomGame]) -> list[RandomGame]:
    """`games` with the optima the place or the store knows (only opened when one is missing)."""
    if all(game.optimal is not None for game in games):
        return games
    from kaeru.engine.place.known_optima import with_known_optima
    from kaeru.engine.place.place import Place
    from kaeru.engine.store import Store

    place, store = Place.open(), Store.open()
    try:
        return with_known_optima(day, games, place, store.records())
    finally:
        place.close()
        store.close()
