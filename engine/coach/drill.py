"""The drill: "find the best move" on positions exactly a chosen distance from the goal, for
families with depth tables and random starts at a depth. The player picks a move; it is right
when it brings the position one step closer (any of the best moves counts). The drill keeps the
share found and the time taken per answer."""

from __future__ import annotations

import random
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

from kaeru.engine.coach import tables
from kaeru.engine.coach.distance import best_moves
from kaeru.engine.puzzles.registry import get_puzzle
from kaeru.engine.rules.control import QUIET, Control
from kaeru.engine.rules.protocol import BadInput, Puzzle

# Offered in the drill: a depth table that builds in seconds and draws at an exact depth.
DRILL_IDS = (
    "sliding-3x3",
    "sliding-5x2",
    "two-blank-3x3",
    "frogs-3",
    "frogs-4",
    "oshidori",
    "number-reversal-5",
    "number-reversal-6",
)
DEFAULT_DEPTH = 8


def drillable(puzzle: Puzzle[Any, Any]) -> bool:
    return puzzle.id in DRILL_IDS


def drill_ids() -> list[str]:
    return list(DRILL_IDS)


@dataclass(frozen=True)
class Question:
    """A position `distance` moves from the goal and the moves that bring it one closer."""

    state: Hashable
    distance: int
    best: tuple[Hashable, ...]


@dataclass(frozen=True)
class Answer:
    move: Hashable
    right: bool
    seconds: float
    after: int | None  # the distance after the move played


@dataclass
class Drill:
    """A run of questions on one puzzle at one distance."""

    puzzle: Puzzle[Any, Any]
    depth: int = DEFAULT_DEPTH
    seed: int | None = None
    answers: list[Answer] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not drillable(self.puzzle):
            raise BadInput(f"{self.puzzle.id}: no drill (it needs a depth table)")
        self.rng = random.Random(self.seed)

    @classmethod
    def for_id(cls, puzzle_id: str, depth: int = DEFAULT_DEPTH, seed: int | None = None) -> Drill:
        return cls(get_puzzle(puzzle_id), depth, seed)

    def prepare(self, control: Control = QUIET) -> None:
        """Build (or load) the depth table: may take seconds once; call it off the UI thread."""
        start = self.puzzle.initial()
        tables.build(self.puzzle, start, control)

    def question(self) -> Question:
        """A new position at the drill's distance (the table must be ready: `prepare`)."""
        puzzle = self.puzzle
        state = puzzle.random_start(self.rng, self.depth)
        if tables.ready(puzzle, state) is None:
            self.prepare()
        best = best_moves(puzzle, state, state)
        return Question(state, self.depth, tuple(best))

    def answer(self, question: Question, move: Hashable, seconds: float) -> Answer:
        """Record the move the player picked for `question`."""
        after_state = self.puzzle.apply(question.state, move)
        lookup = tables.ready(self.puzzle, question.state)
        after = lookup(after_state) if lookup is not None else None
        found = Answer(move, move in question.best, seconds, after)
        self.answers.append(found)
        return found

    @property
    def asked(self) -> int:
        return len(self.answers)

    @property
    def found(self) -> int:
        return sum(1 for a in self.answers if a.right)

    @property
    def percentage(self) -> float | None:
        return None if not self.answers else 100.0 * self.found / self.asked

    @property
    def seconds_per_answer(self) -> float | None:
        if not self.answers:
            return None
        return sum(a.seconds for a in self.answers) / len(self.answers)

    def depth_range(self) -> tuple[int, int]:
        """The distances a question can have (1 .. the table's farthest)."""
        farthest = self._farthest()
        return 1, farthest

    def _farthest(self) -> int:
        for depth in range(60, 0, -1):
            try:
                self.puzzle.random_start(random.Random(0), depth)
            except (BadInput, ValueError):
                continue
            return depth
        return 1

    def summary(self) -> str:
        if not self.answers:
            return "No answer yet."
        pct = self.percentage or 0.0
        return (
            f"Found {self.found}/{self.asked} ({pct:.0f}%), "
            f"{self.seconds_per_answer:.1f} s per answer"
        )
