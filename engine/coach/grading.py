"""A verdict for each move of a game: `optimal` (the distance went down by one), `wasted` (it went
up or stayed level) or `lost` (the goal can no longer be reached after it; for pegs, with the
reason when a position-class or pagoda argument proves it)."""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field
from typing import Any

from kaeru.engine.coach.distance import Distance, Memo, distance
from kaeru.engine.rules.control import QUIET, Control
from kaeru.engine.rules.protocol import BadInput, Puzzle

OPTIMAL, WASTED, LOST = "optimal", "wasted", "lost"
VERDICTS = (OPTIMAL, WASTED, LOST)


def verdict(before: Distance, after: Distance) -> str:
    """The verdict on a move from a position `before` away to one `after` away."""
    if after.moves is None:
        return LOST
    if before.moves is not None and after.moves == before.moves - 1:
        return OPTIMAL
    return WASTED


@dataclass(frozen=True)
class GradedMove:
    """One move (in its text form), the distances on each side and the verdict."""

    move: str
    before: Distance
    after: Distance
    verdict: str

    @property
    def reason(self) -> str | None:
        return self.after.reason if self.verdict == LOST else None

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "move": self.move,
            "before": self.before.as_json(),
            "after": self.after.as_json(),
            "verdict": self.verdict,
        }
        if self.reason is not None:
            out["reason"] = self.reason
        return out


@dataclass(frozen=True)
class Grading:
    """The graded moves and the distance left after the last."""

    moves: tuple[GradedMove, ...]
    final: Distance

    def count(self, wanted: str) -> int:
        return sum(1 for graded in self.moves if graded.verdict == wanted)

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "moves": [graded.as_json() for graded in self.moves],
            "final": self.final.as_json(),
        }
        if self.final.lost:
            out["final_reason"] = self.final.reason
        return out


@dataclass
class IllegalMove(BadInput):
    """A move that is not legal where it is played: the grading ends there."""

    text: str
    index: int  # 1-based
    why: str
    graded: tuple[GradedMove, ...] = field(default=())

    def __str__(self) -> str:
        if f"'{self.text.strip()}'" in self.why:  # the reason names the move already
            return f"move {self.index}: {self.why}"
        return f"move {self.index} '{self.text}' is not legal: {self.why}"


def grade(
    puzzle: Puzzle[Any, Any],
    start: Hashable,
    moves: Iterable[str],
    control: Control = QUIET,
    memo: Memo | None = None,
) -> Grading:
    """Grade `moves` (texts) played from `start`. IllegalMove (a BadInput) at the first move
    that is not legal; BudgetExceeded/Cancelled when a distance search stops first."""
    memo = {} if memo is None else memo
    state = start
    here = distance(puzzle, state, start, control, memo)
    graded: list[GradedMove] = []
    for index, text in enumerate(moves, 1):
        try:
            move = puzzle.parse_move(text, state)
        except BadInput as error:
            raise IllegalMove(text, index, str(error), tuple(graded)) from None
        state = puzzle.apply(state, move)
        after = distance(puzzle, state, start, control, memo)
        graded.append(GradedMove(puzzle.format_move(move), here, after, verdict(here, after)))
        here = after
    return Grading(tuple(graded), here)
