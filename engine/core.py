"""The puzzle protocol every family implements, and the values and errors searches produce.

A puzzle is a small object of pure functions over immutable, hashable states (the "backend" of
Simon Tatham's collection). Everything else — undo, hints, solving, playback — is built on top of
it by `engine.session` and `engine.search`, so a new family only writes its rules here.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeVar

if TYPE_CHECKING:
    from kaeru.engine.results import Enumeration

S = TypeVar("S", bound=Hashable)
M = TypeVar("M", bound=Hashable)


class BadInput(ValueError):
    """Input the user typed is wrong; the message is one clear line saying what is expected."""


class Unsolvable(Exception):
    """The engine proved there is no solution; `reason` says why in one line."""

    def __init__(self, reason: str, stats: SearchStats | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.stats = stats


class Cancelled(Exception):
    """A search stopped because its cancel check said so."""


class BudgetExceeded(Exception):
    """A search gave up after visiting more positions than it was allowed."""

    def __init__(self, message: str, stats: SearchStats | None = None) -> None:
        super().__init__(message)
        self.stats = stats


@dataclass(frozen=True)
class SearchStats:
    """What a search did so far (or in all): the figures the stats panel shows."""

    algorithm: str
    depth: int = 0
    expanded: int = 0
    generated: int = 0
    frontier: int = 0
    seconds: float = 0.0
    # Algorithm-specific figures, already formatted: (("bound", "48"), ("memo", "12,034")).
    extra: tuple[tuple[str, str], ...] = ()

    @property
    def rate(self) -> float:
        """Positions generated per second."""
        return self.generated / self.seconds if self.seconds > 0 else 0.0

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "algorithm": self.algorithm,
            "depth": self.depth,
            "expanded": self.expanded,
            "generated": self.generated,
            "frontier": self.frontier,
            "seconds": round(self.seconds, 6),
        }
        out.update(dict(self.extra))
        return out


Progress = Callable[[SearchStats], None] | None
CancelCheck = Callable[[], bool] | None

DEFAULT_BUDGET = 20_000_000


@dataclass(frozen=True)
class Solution(Generic[S, M]):
    """A path from a start to a goal: `states` has one more entry than `moves`."""

    moves: tuple[M, ...]
    states: tuple[S, ...]
    optimal: bool
    stats: SearchStats = field(default_factory=lambda: SearchStats("none"))

    @property
    def length(self) -> int:
        return len(self.moves)


class Puzzle(ABC, Generic[S, M]):
    """One puzzle variant: its rules as pure functions. Subclasses set the class attributes.

    `board` names the board shape a front end draws it with ("row", "grid", "knights", "river",
    "pegs"); the engine never looks at it.
    """

    id: str
    title: str
    family: str
    board: str = "row"
    rules: str = ""

    # ---- the required core ------------------------------------------------------------------
    @abstractmethod
    def initial(self) -> S:
        """The default start position."""

    @abstractmethod
    def moves(self, state: S) -> Iterable[M]:
        """Legal moves from `state`, in a deterministic order."""

    @abstractmethod
    def apply(self, state: S, move: M) -> S:
        """The position after `move`; never mutates `state`."""

    @abstractmethod
    def parse(self, text: str) -> S:
        """A state from its text form; raises BadInput with one clear line."""

    @abstractmethod
    def format(self, state: S) -> str:
        """The text form of a state: `parse(format(s)) == s`."""

    @abstractmethod
    def describe(self, move: M) -> str:
        """A move in words a player reads: "4 right", "d2-d4"."""

    # ---- goals -------------------------------------------------------------------------------
    def goal(self, start: S) -> S | None:
        """The one goal position for games begun at `start`, or None when the goal is a test."""
        return None

    def is_goal(self, state: S, start: S) -> bool:
        """Whether `state` finishes a game begun at `start`."""
        target = self.goal(start)
        if target is None:
            raise NotImplementedError(f"{type(self).__name__} must define goal() or is_goal()")
        return state == target

    def goal_text(self, start: S) -> str:
        """The goal in words or state text, for the UI and JSON."""
        target = self.goal(start)
        return self.format(target) if target is not None else "solved"

    # ---- optional capabilities (override where the puzzle can do better) ---------------------
    reversible: bool = False
    """Every move can be undone by one legal move (lets generic searches go backwards)."""

    def unsolvable_reason(self, state: S, start: S) -> str | None:
        """A quick proof that `state` cannot be won (a parity rule), or None when not known."""
        return None

    def heuristic(self, state: S, start: S) -> int | None:
        """An admissible lower bound on the moves left, or None when the puzzle has none."""
        return None

    def move_cells(self, state: S, move: M) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """(cells the move takes pieces from, cells it puts them on), in the board's own cell
        numbering: board widgets use it to pick a move from a cursor and to highlight hints."""
        return (), ()

    def explain_illegal(self, state: S, move: M) -> str:
        """Why `move` is refused in `state`, in words ("Wa would be with Hb while Ha is away")."""
        return f"not a legal move here: {self.describe(move)}"

    def predecessors(self, state: S) -> Iterable[tuple[S, M]]:
        """(previous state, move from it to `state`) pairs; the default needs `reversible`."""
        if not self.reversible:
            raise NotImplementedError(f"{self.id} cannot search backwards")
        for move in self.moves(state):
            before = self.apply(state, move)
            for back in self.moves(before):
                if self.apply(before, back) == state:
                    yield before, back
                    break

    def solve(
        self,
        state: S,
        start: S,
        *,
        progress: Progress = None,
        cancelled: CancelCheck = None,
        budget: int = DEFAULT_BUDGET,
    ) -> Solution[S, M]:
        """An optimal solution from `state` (for a game begun at `start`).

        Raises Unsolvable, Cancelled or BudgetExceeded. The default picks a generic search by
        the capabilities the puzzle has; families with a better method override it.
        """
        from kaeru.engine.search.choose import solve_generic

        return solve_generic(
            self, state, start, progress=progress, cancelled=cancelled, budget=budget
        )

    def enumerate(
        self,
        root: S,
        *,
        progress: Progress = None,
        cancelled: CancelCheck = None,
        budget: int = DEFAULT_BUDGET,
    ) -> Enumeration:
        """Every position reachable from `root`, by depth."""
        from kaeru.engine.search.enumerate import enumerate_space

        return enumerate_space(self, root, progress=progress, cancelled=cancelled, budget=budget)

    def chains(self, moves: Iterable[M]) -> list[str] | None:
        """Moves grouped the way players count them (peg chains `d2-d4-f4`), or None."""
        return None

    checks_dead_ends: bool = False
    """The front end should ask `dead_end_check` after each player move (in a worker)."""

    def dead_end_check(self, state: S, start: S, cancelled: CancelCheck = None) -> str | None:
        """Why `state` can no longer be won, or None while it still can (or is not known)."""
        return None

    def explore_root(self) -> S:
        """Where the state-space explorer enumerates from: the start, unless a family says."""
        return self.initial()

    can_shuffle: bool = False

    def random_start(self, rng: random.Random, depth: int | None = None) -> S:
        """A random start position (at exactly `depth` moves from the goal where supported)."""
        raise NotImplementedError(f"{self.id} has no random starts")

    def game_id(self, start: S) -> str:
        """A shareable text that names the puzzle and its start: `flip-it-6:B_BBBB`."""
        return f"{self.id}:{self.format(start)}"

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.id}>"
