"""The distance oracle: how many moves an optimal player still needs from a position (the
fewest jumps for pegs, where every jump takes one peg), or why the game can no longer be won.

At once from a depth table where the family has one (`engine.coach.tables`), else from the
optimal solver (`dispatch.solve`): its solution's length is the distance, and every position
along an optimal solution learns its own distance on the way (`learn`), so a game that follows
the hint asks the solver once. `known_distance` never searches (for a UI thread);
`distance` may (for a worker, the CLI, the drill).
"""

from __future__ import annotations

from collections.abc import Hashable, MutableMapping
from dataclasses import dataclass
from typing import Any

from kaeru.engine.coach import tables
from kaeru.engine.rules.control import QUIET, Control
from kaeru.engine.rules.protocol import BadInput, Puzzle, Solution, Unsolvable
from kaeru.engine.search import dispatch

UNREACHABLE = "no sequence of moves reaches the goal from here"

Memo = MutableMapping[Hashable, "Distance"]  # position -> its distance


@dataclass(frozen=True)
class Distance:
    """`moves` still needed (None: the game is lost, `reason` says why when known); `exact`
    is False for a solver's length not proved optimal."""

    moves: int | None
    reason: str | None = None
    exact: bool = True

    @property
    def lost(self) -> bool:
        return self.moves is None

    def words(self, unit: str = "move") -> str:
        """ "12 moves to go", "solved", "lost: <reason>"."""
        if self.moves is None:
            return f"lost: {self.reason or UNREACHABLE}"
        if self.moves == 0:
            return "solved"
        about = "" if self.exact else "at most "
        return f"{about}{self.moves} {unit}{'' if self.moves == 1 else 's'} to go"

    def as_json(self) -> int | None:
        return self.moves


def unit_of(puzzle: Puzzle[Any, Any]) -> str:
    """What a distance counts: jumps for puzzles whose moves group into chains, else moves."""
    return "jump" if puzzle.capabilities.chains else "move"


def lost_reason(puzzle: Puzzle[Any, Any], state: Hashable, start: Hashable) -> str:
    return puzzle.unsolvable_reason(state, start) or UNREACHABLE


def from_table(
    puzzle: Puzzle[Any, Any], state: Hashable, start: Hashable, lookup: tables.Lookup
) -> Distance:
    moves = lookup(state)
    if moves is None:
        return Distance(None, lost_reason(puzzle, state, start))
    return Distance(moves)


def known_distance(
    puzzle: Puzzle[Any, Any], state: Hashable, start: Hashable, memo: Memo | None = None
) -> Distance | None:
    """The distance when it can be had without searching: the goal, a memo entry, a table at
    hand, or a quick proof that the game is lost. None when only a search can tell."""
    if memo is not None and (found := memo.get(state)) is not None:
        return found
    if puzzle.is_goal(state, start):
        return Distance(0)
    lookup = tables.ready(puzzle, start)
    if lookup is not None:
        return from_table(puzzle, state, start, lookup)
    if puzzle.capabilities.dead_ends and (reason := puzzle.unsolvable_reason(state, start)):
        return Distance(None, reason)
    return None


def distance(
    puzzle: Puzzle[Any, Any],
    state: Hashable,
    start: Hashable,
    control: Control = QUIET,
    memo: Memo | None = None,
) -> Distance:
    """The distance from `state` (a table, built if need be, else an optimal solve). Raises
    BudgetExceeded or Cancelled when the search stops first."""
    found = known_distance(puzzle, state, start, memo)
    if found is not None:
        return found
    lookup = tables.build(puzzle, start, control)
    if lookup is not None:
        return from_table(puzzle, state, start, lookup)
    try:
        solution = dispatch.solve(puzzle, state, start, control)
    except Unsolvable as error:
        lost = Distance(None, error.reason)
        if memo is not None:
            memo[state] = lost
        return lost
    if memo is not None:
        learn(memo, solution)
    return Distance(solution.length, exact=solution.optimal)


def learn(memo: Memo, solution: Solution[Any, Any]) -> None:
    """Every position along an optimal solution is as far as the moves left on it."""
    if not solution.optimal:
        return
    length = solution.length
    for i, state in enumerate(solution.states):
        memo[state] = Distance(length - i)


class AlreadySolved(BadInput):
    """A hint was asked for a position that is already won."""


def best_move(
    puzzle: Puzzle[Any, Any],
    state: Hashable,
    start: Hashable,
    control: Control = QUIET,
    memo: Memo | None = None,
) -> tuple[Hashable, Distance]:
    """A first move of an optimal solution from `state`, and the distance from `state` before
    it. BadInput when `state` is already won; Unsolvable when it cannot be."""
    if puzzle.is_goal(state, start):
        raise AlreadySolved("the position is already solved: there is no move to hint")
    lookup = tables.ready(puzzle, start) or tables.build(puzzle, start, control)
    if lookup is not None:
        here = from_table(puzzle, state, start, lookup)
        if here.moves is None:
            raise Unsolvable(here.reason or UNREACHABLE)
        for move in puzzle.moves(state):
            if lookup(puzzle.apply(state, move)) == here.moves - 1:
                return move, here
        raise RuntimeError(f"{puzzle.id}: the depth table has no step down from {here.moves}")
    solution = dispatch.solve(puzzle, state, start, control)
    if memo is not None:
        learn(memo, solution)
    return solution.moves[0], Distance(solution.length, exact=solution.optimal)


def best_moves(puzzle: Puzzle[Any, Any], state: Hashable, start: Hashable) -> list[Hashable]:
    """Every move that brings `state` one step closer (needs a table at hand; [] without)."""
    lookup = tables.ready(puzzle, start)
    if lookup is None or puzzle.is_goal(state, start):
        return []
    here = lookup(state)
    if here is None:
        return []
    return [m for m in puzzle.moves(state) if lookup(puzzle.apply(state, m)) == here - 1]
