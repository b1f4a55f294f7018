"""A shared win as a replay: its positions step by step (a `Solution` the playback bar drives)
and, when the search can tell within a budget, the coach's mark on each move (optimal, wasted,
lost: `engine.coach.grading`)."""

from __future__ import annotations

from typing import Any

from kaeru.engine.catalogue.game_ids import parse_game_id
from kaeru.engine.coach.grading import grade
from kaeru.engine.place.ranking import Result
from kaeru.engine.rules.control import Control
from kaeru.engine.rules.protocol import BadInput, BudgetExceeded, Cancelled
from kaeru.engine.rules.results import Solution

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


def coach_marks(result: Result, control: Control | None = None) -> list[str] | None:
    """Each move's verdict ("optimal", "wasted", "lost"), or None when not known in budget."""
    puzzle, start = parse_game_id(result.game_id)
    try:
        grading = grade(puzzle, start, result.moves, control or Control(budget=GRADE_BUDGET))
    except (BudgetExceeded, Cancelled, BadInput):
        return None
    return [graded.verdict for graded in grading.moves]
