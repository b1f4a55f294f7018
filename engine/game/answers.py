"""What the midend does with a search's answer: the quiet "optimal from the start" search and
the player's hint or solve. Functions that read a game's public surface and change it only
through the `GameHooks` it hands them, so the session module keeps the game and its modes, and
this one the answers and their words.

Words count moves the way players count them: a peg solitaire solution is counted in moves
(one peg's chain of jumps) with its jumps beside, and never called optimal, since every peg
solution has the same number of jumps (`Capabilities.chains`).
"""

from __future__ import annotations

import re
from collections.abc import Hashable
from typing import Any, Protocol

from kaeru.engine.coach.session_coach import SessionCoach
from kaeru.engine.game.record import GameHooks, SearchStatus
from kaeru.engine.rules.protocol import Puzzle
from kaeru.engine.rules.results import Solution, reason_words
from kaeru.engine.rules.words import plural
from kaeru.engine.service.jobs import JobOutcome, JobResult


class Game(Protocol):
    """What an answer reads of its game (`engine.game.session.Session`, which imports this module,
    so it is described here rather than imported; mypy checks Session against it). It changes the
    game only through the `GameHooks` it is handed."""

    @property
    def puzzle(self) -> Puzzle[Any, Any]: ...

    @property
    def start(self) -> Hashable: ...

    @property
    def state(self) -> Hashable: ...

    @property
    def coach(self) -> SessionCoach: ...


SEARCH_STATUS: dict[JobOutcome, SearchStatus] = {  # a job's outcome as the stats panel says it
    "done": "done", "unsolvable": "no solution", "gave_up": "gave up", "cancelled": "cancelled",
    "failed": "failed",
}


def length_words(puzzle: Puzzle[Any, Any], solution: Solution[Any, Any], *,
                 to_go: bool = False) -> str:
    """"12 moves (optimal)", "12 moves (not optimal)"; pegs: "9 moves (31 jumps)". With
    `to_go`: "12 moves to go, optimal"; pegs: "31 jumps to go, 9 moves" (jumps first, as the
    coach and the search panel count the distance)."""
    if puzzle.capabilities.chains:
        count = plural(len(puzzle.chains(solution.moves)), "move")
        aside = plural(solution.length, "jump")
        if to_go:
            return f"{aside} to go, {count}"
    else:
        count = plural(solution.length, "move")
        aside = "optimal" if solution.optimal else "not optimal"
    return f"{count} to go, {aside}" if to_go else f"{count} ({aside})"


RAN_OUT = re.compile(r"the search from one end ran out after ([\d,]+) positions?")


def unsolvable_words(message: str) -> str:
    """Why a search found no solution, in a player's words: the job's "No solution: <reason>"
    without its prefix, the search's own account ("the search from one end ran out after 2
    positions") said as what it means."""
    reason = reason_words(message.removeprefix("No solution: "))
    ran_out = RAN_OUT.fullmatch(reason)
    if ran_out:
        return f"no series of moves from here reaches the goal ({ran_out[1]} positions tried)"
    return reason


def lost_here(reason: str, hooks: GameHooks) -> None:
    """The current position is proved lost: the verdict at once."""
    hooks.lose(reason)
    hooks.changed("outcome")


def reach_done(session: Game, result: JobResult, hooks: GameHooks) -> None:
    """The quiet check after a move in a family with no way back (frogs): lost, or how far."""
    solution = result.solution
    if result.outcome == "unsolvable":
        lost_here(unsolvable_words(result.message), hooks)
    elif result.outcome == "done" and solution is not None and solution.optimal:
        session.coach.learn(solution)  # how far from here: the coach's memo
        hooks.changed("outcome")


def optimal_done(session: Game, result: JobResult, hooks: GameHooks) -> None:
    """The quiet search from the start answered: the optimal length, or no solution at all."""
    solution = result.solution
    if result.outcome == "done" and solution is not None and solution.optimal:
        session.coach.learn(solution)
        hooks.know_optimal(solution.length)
        hooks.changed("outcome")
    elif result.outcome == "unsolvable":
        reason = unsolvable_words(result.message)
        hooks.say(f"From the start, there is no solution: {reason}")
        hooks.changed("outcome")


def user_search_done(session: Game, tag: str, result: JobResult, hooks: GameHooks) -> None:
    """The player's hint or solve answered: show the hint, or start the playback."""
    hooks.end_search(tag, SEARCH_STATUS[result.outcome], result.stats)
    solution = result.solution
    if result.outcome == "unsolvable":
        reason = unsolvable_words(result.message)
        hooks.say(f"This position cannot be won: {reason}")
        lost_here(reason, hooks)
        return
    if result.outcome != "done" or solution is None:
        hooks.say(result.message)
        hooks.changed("search")
        return
    if solution.optimal:
        session.coach.learn(solution)
        if session.state == session.start:
            hooks.know_optimal(solution.length)
    puzzle = session.puzzle
    if not solution.moves:
        hooks.say("Already solved.")
    elif tag == "hint" and session.coach.enabled:
        session.coach.hint_found(solution)
        return
    elif tag == "hint":
        session.coach.count_whole_move()  # the whole move at once: a last-level hint
        hooks.count_hint(solution.moves[0])
        hooks.say(
            f"Hint: {puzzle.describe(solution.moves[0])}  "
            f"({length_words(puzzle, solution, to_go=True)}; m plays it)"
        )
    else:
        plays = hooks.show_solution(solution)
        hooks.say(
            f"Solution: {length_words(puzzle, solution)}. "
            f"Space {'pauses' if plays else 'plays'}, t takes over."
        )
    hooks.persist()
    hooks.changed("search")
