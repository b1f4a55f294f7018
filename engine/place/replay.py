"""A shared win as a replay: its positions step by step (a `Solution` the playback bar drives)
and the search service's job for the coach's mark on each move (optimal, wasted, lost:
`engine.coach.grading`, within a budget)."""

from __future__ import annotations

from typing import Any

from kaeru.engine.catalogue.game_ids import parse_game_id
from kaeru.engine.place.ranking import Result
from kaeru.engine.rules.results import Solution
from kaeru.engine.service.jobs import JobKind, JobRequest

GRADE_BUDGET = 2_000_000  # positions the marks may cost; past it the replay has none


def replay_line(result: Result) -> tuple[Any, Solution[Any, Any]]:
    """The puzzle and the game as a path of positions; BadInput when a move no longer parses."""
    puzzle, start = parse_game_id(result.game_id)
    states: list[Any] = [start]
    moves: list[Any] = []
    for text in result.moves:
        move = puzzle.parse_move(text, states[-1])
        moves.append(move)
        states.append(puzzle.apply(states[-1], move))
    return puzzle, Solution(tuple(moves), tuple(states), optimal=False)


def marks_request(result: Result) -> JobRequest:
    """The search service's job for the coach's mark on each move of `result` (a GRADE job:
    "optimal", "wasted", "lost", or None past GRADE_BUDGET)."""
    puzzle, start = parse_game_id(result.game_id)
    return JobRequest(
        JobKind.GRADE, puzzle.id, puzzle.format(start), "", budget=GRADE_BUDGET, tag="marks",
        args=(tuple(result.moves),),
    )
