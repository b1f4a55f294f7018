"""Each daily puzzle's optimum, worked out once per day per server and kept in the place.

Most dailies come with their optimum (`engine.catalogue.daily`); the 15-puzzle's is not quick, so
the first arcade (or `kaeru leaderboard`) that needs it searches it — within a budget, in a worker
— and stores it (`Place.set_optimum`: the first one stored stays), so every other arcade of the
server, on any host, reads it instead of searching again.
"""

from __future__ import annotations

from kaeru.engine.catalogue.daily import daily_date, daily_games
from kaeru.engine.catalogue.game_ids import parse_game_id
from kaeru.engine.place.known_optima import known_optimum
from kaeru.engine.place.place import Place
from kaeru.engine.rules.control import QUIET, Control
from kaeru.engine.rules.protocol import BudgetExceeded, Unsolvable
from kaeru.engine.service.jobs import JobKind, JobRequest


def daily_optima(
    place: Place, day: str | None = None, *, search: bool = False, control: Control = QUIET
) -> dict[str, int | None]:
    """puzzle id -> the optimum of `day`'s daily (None while unknown). `search`: work out the
    ones not known yet (minutes at worst for the 15-puzzle: call it from a worker)."""
    iso = daily_date(day)
    found: dict[str, int | None] = {}
    for game in daily_games(iso):
        known = known_optimum(iso, game, place)
        if known is None and search:
            known = searched_optimum(game.game_id, control)
            if known is not None:
                place.set_optimum(iso, game.id, game.game_id, known)
                known = place.optimum(iso, game.id) or known  # another host's, if first
        found[game.id] = known
    return found


def searched_optimum(game_id: str, control: Control = QUIET) -> int | None:
    """The proved optimal length from a game id's start, or None (no proof within budget)."""
    from kaeru.engine.search import dispatch

    puzzle, start = parse_game_id(game_id)
    try:
        solution = dispatch.solve(puzzle, start, start, control)
    except (BudgetExceeded, Unsolvable):
        return None
    return solution.length if solution.optimal else None


def unknown_daily(place: Place, day: str, puzzle_id: str) -> str | None:
    """The game id of `day`'s daily of `puzzle_id` when its optimum is not known yet (else None)."""
    iso = daily_date(day)
    for game in daily_games(iso):
        if game.id == puzzle_id and known_optimum(iso, game, place) is None:
            return game.game_id
    return None


def optimum_request(game_id: str) -> JobRequest:
    """The search service's job that proves a daily's optimum (a SOLVE from its start), for a
    screen that must not run the search on the app's threads."""
    puzzle, start = parse_game_id(game_id)
    return JobRequest(JobKind.SOLVE, puzzle.id, puzzle.format(start), "", tag="optimal")
