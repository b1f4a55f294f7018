"""A shared game's moves as positions: a win as a replay (a `Solution` the playback bar drives),
a live game's board as a watcher sees it, and the search service's job for the coach's mark on
each move of a win (optimal, wasted, lost: `engine.coach.grading`, within a budget)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from kaeru.engine.catalogue.game_ids import parse_game_id
from kaeru.engine.place.ranking import Result
from kaeru.engine.rules.layout import Layout
from kaeru.engine.rules.results import Solution
from kaeru.engine.service.jobs import JobKind, JobRequest

GRADE_BUDGET = 2_000_000  # positions the marks may cost; past it the replay has none


@dataclass(frozen=True)
class WatchedBoard:
    """What a watcher draws of a live game: the board after the moves the place reports, and
    the last of them (None at the game's start)."""

    layout: Layout
    last_move: Any


def game_line(game_id: str, moves: Sequence[str]) -> tuple[Any, Solution[Any, Any]]:
    """The puzzle and the game `moves` (as text) from `game_id`'s start as a path of positions;
    BadInput when the id or a move does not parse."""
    puzzle, start = parse_game_id(game_id)
    states: list[Any] = [start]
    made: list[Any] = []
    for text in moves:
        move = puzzle.parse_move(text, states[-1])
        made.append(move)
        states.append(puzzle.apply(states[-1], move))
    return puzzle, Solution(tuple(made), tuple(states), optimal=False)


def replay_line(result: Result) -> tuple[Any, Solution[Any, Any]]:
    """The puzzle and the win as a path of positions; BadInput when a move no longer parses."""
    return game_line(result.game_id, result.moves)


def watched_board(game_id: str, moves: Sequence[str]) -> WatchedBoard:
    """A live game's board after `moves`, with its last move; BadInput as `game_line`."""
    puzzle, line = game_line(game_id, moves)
    return WatchedBoard(puzzle.layout(line.states[-1]), line.moves[-1] if line.moves else None)


def marks_request(result: Result) -> JobRequest:
    """The search service's job for the coach's mark on each move of `result` (a GRADE job:
    "optimal", "wasted", "lost", or None past GRADE_BUDGET)."""
    puzzle, start = parse_game_id(result.game_id)
    return JobRequest(
        JobKind.GRADE, puzzle.id, puzzle.format(start), "", budget=GRADE_BUDGET, tag="marks",
        args=(tuple(result.moves),),
    )
