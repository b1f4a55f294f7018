"""Engine work that is not a search from a position, run by the search service like any job,
so a screen never runs engine code on the app's threads (a worker process in the app, the
shared pool in a served arcade). Each kind is a function from its request (`args` holds its
own arguments) and the job's Control to a JobResult whose `value` is the answer.

- DRAW: a random game of `puzzle_id`; args (seed, depth or None); value: its game id. A depth
  table may be built first (seconds, once), which is why it is not the app's to run.
- DAILY: the daily games of a date; args (the date, ISO); value: the list of RandomGame.
"""

from __future__ import annotations

from collections.abc import Callable

from kaeru.engine.catalogue.daily import daily_games
from kaeru.engine.catalogue.random_games import random_game
from kaeru.engine.rules.control import Control
from kaeru.engine.rules.protocol import BadInput
from kaeru.engine.service.jobs import DONE, JobKind, JobRequest, JobResult, failed_result

EngineKind = Callable[[JobRequest, Control], JobResult]


def draw(request: JobRequest, control: Control) -> JobResult:
    """A random game; a depth it cannot have is one line (`failed`, the message alone)."""
    seed, depth = request.args
    if not isinstance(seed, int) or not (depth is None or isinstance(depth, int)):
        raise BadInput(f"a draw takes (seed, depth), not {request.args!r}")
    try:
        game = random_game(request.puzzle_id, seed=seed, depth=depth, control=control)
    except (BadInput, ValueError) as error:
        return failed_result(request, str(error))
    return JobResult(request, DONE, value=game.game_id, message=f"Drew {game.game_id}.")


def daily(request: JobRequest, control: Control) -> JobResult:
    """The daily games of the date in `args`; a date that is not one is one line."""
    (day,) = request.args
    if not isinstance(day, str):
        raise BadInput(f"a daily job takes (date,), not {request.args!r}")
    try:
        games = daily_games(day, control=control)
    except (BadInput, ValueError) as error:
        return failed_result(request, str(error))
    return JobResult(request, DONE, value=games, message=f"{len(games)} daily games.")


KINDS: dict[JobKind, EngineKind] = {JobKind.DRAW: draw, JobKind.DAILY: daily}
