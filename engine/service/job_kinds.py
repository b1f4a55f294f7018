"""Engine work that is not a search from a position, run by the search service like any job,
so a screen never runs engine code on the app's threads (a worker process in the app, the
shared pool in a served arcade). Each kind is a function from its request (`args` holds its
own arguments) and the job's Control to a JobResult whose `value` is the answer.

- DRAW: a random game of `puzzle_id`; args (seed, depth or None); value: its game id. A depth
  table may be built first (seconds, once), which is why it is not the app's to run.
- DAILY: the daily games of a date; args (the date, ISO); value: the list of RandomGame.
- SURVEY: the catalogue's facts (`engine.catalogue.survey`); args ("instant" or "rest", the
  puzzle ids, the ids to look at first); each Facts found is told at once as a `Partial`
  progress report (and kept in the cache file); value: how many ids are still pending.
- DRILL: one drill question of `puzzle_id` (`engine.coach.drill`); args (the distance asked,
  the drill's random state: `Random.getstate()`); the depth table is built first if need be;
  value: a `Posed` (the question, the distance after each legal move, the distances a
  question can have, the random state after it).
- ANALYSIS: a won game's distances (`engine.coach.analysis`); `state` is the start's text;
  args (the moves' texts, the distances already known: (position index, moves, reason,
  exact) each); (done, total) positions are told as `Partial` reports; value: the Analysis.
- GRADE: the coach's mark on each move of a game (`engine.coach.grading`: "optimal",
  "wasted", "lost"); `state` is the start's text; args (the moves' texts,); value: the marks,
  or None when the budget is reached first (a shared win's replay shows none then).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable
from dataclasses import dataclass

from kaeru.engine.catalogue.cache import FactsCache
from kaeru.engine.catalogue.daily import daily_games
from kaeru.engine.catalogue.facts import Facts
from kaeru.engine.catalogue.random_games import random_game
from kaeru.engine.catalogue.survey import Survey
from kaeru.engine.coach import tables
from kaeru.engine.coach.analysis import analyse
from kaeru.engine.coach.distance import Distance
from kaeru.engine.coach.drill import Drill, Question
from kaeru.engine.coach.grading import grade
from kaeru.engine.puzzles.registry import get_puzzle
from kaeru.engine.rules.control import Control
from kaeru.engine.rules.protocol import BadInput, BudgetExceeded
from kaeru.engine.service.jobs import (
    DONE,
    GAVE_UP,
    JobKind,
    JobRequest,
    JobResult,
    Partial,
    failed_result,
)

EngineKind = Callable[[JobRequest, Control], JobResult]
SURVEY_STAGES = ("instant", "rest")


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


def tell(control: Control, algorithm: str, value: object) -> None:
    """Report what a kind has found so far (a Partial), when someone listens."""
    if control.progress is not None:
        control.progress(Partial(algorithm, value=value))


def texts(value: object, what: str) -> tuple[str, ...]:
    if not isinstance(value, tuple) or not all(isinstance(item, str) for item in value):
        raise BadInput(f"{what} must be a tuple of texts, not {value!r}")
    return tuple(str(item) for item in value)


def survey(request: JobRequest, control: Control) -> JobResult:
    """A step of the catalogue's survey; each fact is told as it is found (Cancelled ends it)."""
    stage, ids, first = request.args
    if stage not in SURVEY_STAGES:
        raise BadInput(f"a survey's stage is one of {SURVEY_STAGES}, not {stage!r}")
    found = Survey(texts(ids, "a survey's puzzle ids"), FactsCache.open())

    def report(facts: Facts) -> None:
        tell(control, "survey", facts)

    if stage == "instant":
        found.run_instant(report, control.cancelled)
    else:
        found.run(report, control.cancelled, first=texts(first, "the ids to survey first"))
    pending = len(found.pending())
    return JobResult(request, DONE, value=pending, message=f"{pending} presets not settled.")


@dataclass(frozen=True)
class Posed:
    """A drill question as the service answers it. `question` is None when no position is at
    the distance asked (`message` says why); `after` maps each legal move's text to the
    distance after it (None: unknown); `depths` is (nearest, farthest) a question can have;
    `rng_state` is the drill's random state after drawing it (the next question goes on from
    there, so a seeded drill asks the same questions as before)."""

    question: Question | None
    after: dict[str, int | None]
    depths: tuple[int, int]
    rng_state: tuple[object, ...]


@functools.lru_cache(maxsize=32)
def depth_range(puzzle_id: str) -> tuple[int, int]:
    """The distances a drill question of `puzzle_id` can have (its table must be built)."""
    return Drill.for_id(puzzle_id).depth_range()


def drill(request: JobRequest, control: Control) -> JobResult:
    """One question at the distance asked (kept within the table's), the table built first."""
    depth, rng_state = request.args
    if not isinstance(depth, int) or not isinstance(rng_state, tuple):
        raise BadInput(f"a drill question takes (depth, random state), not {request.args!r}")
    asked = Drill.for_id(request.puzzle_id, depth)
    asked.rng.setstate(rng_state)
    asked.prepare(control)
    depths = depth_range(request.puzzle_id)
    asked.depth = min(max(depth, depths[0]), depths[1])
    try:
        question = asked.question()
    except (BadInput, ValueError) as error:
        posed = Posed(None, {}, depths, asked.rng.getstate())
        return JobResult(request, DONE, value=posed, message=str(error))
    puzzle = asked.puzzle
    lookup = tables.ready(puzzle, question.state)
    after = {
        puzzle.format_move(move): (
            lookup(puzzle.apply(question.state, move)) if lookup is not None else None
        )
        for move in puzzle.moves(question.state)
    }
    posed = Posed(question, after, depths, asked.rng.getstate())
    return JobResult(request, DONE, value=posed, message=f"{asked.depth} moves from the goal.")


def analysis(request: JobRequest, control: Control) -> JobResult:
    """The distances of a won game at every position; a budget reached is one line."""
    moves_texts, known = request.args
    if not isinstance(known, tuple):
        raise BadInput(f"an analysis takes (moves, known distances), not {request.args!r}")
    puzzle = get_puzzle(request.puzzle_id)
    start = puzzle.parse(request.state)
    states: list[Hashable] = [start]
    moves: list[Hashable] = []
    for text in texts(moves_texts, "an analysis's moves"):
        moves.append(puzzle.parse_move(text, states[-1]))
        states.append(puzzle.apply(states[-1], moves[-1]))
    memo: dict[Hashable, Distance] = {}
    for entry in known:
        if not isinstance(entry, tuple) or len(entry) != 4:
            raise BadInput(f"a known distance is (index, moves, reason, exact), not {entry!r}")
        index, moves_left, reason, exact = entry
        if not isinstance(index, int) or not 0 <= index < len(states):
            raise BadInput(f"no position {index!r} in this game")
        memo[states[index]] = Distance(
            moves_left if isinstance(moves_left, int) else None,
            reason if isinstance(reason, str) else None,
            bool(exact),
        )

    def told(done: int, total: int) -> None:
        tell(control, "analysis", (done, total))

    try:
        found = analyse(puzzle, start, moves, control, memo, told)
    except BudgetExceeded as error:
        return JobResult(request, GAVE_UP, message=str(error), stats=error.stats)
    return JobResult(request, DONE, value=found, message=f"{len(moves)} moves analysed.")


def marks(request: JobRequest, control: Control) -> JobResult:
    """The coach's verdict on each move of a game from `state`; None past the budget."""
    if len(request.args) != 1:
        raise BadInput(f"a grading takes (moves,), not {request.args!r}")
    puzzle = get_puzzle(request.puzzle_id)
    start = puzzle.parse(request.state)
    try:
        grading = grade(puzzle, start, texts(request.args[0], "a game's moves"), control)
    except BudgetExceeded as error:
        return JobResult(request, DONE, value=None, message=str(error), stats=error.stats)
    return JobResult(request, DONE, value=[graded.verdict for graded in grading.moves])


KINDS: dict[JobKind, EngineKind] = {
    JobKind.DRAW: draw,
    JobKind.DAILY: daily,
    JobKind.SURVEY: survey,
    JobKind.DRILL: drill,
    JobKind.ANALYSIS: analysis,
    JobKind.GRADE: marks,
}
