"""What searches produce and how they fail: the errors, the figures (SearchStats), a Solution
and an Enumeration. The bottom layer of the engine: it imports nothing of it."""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

S = TypeVar("S", bound=Hashable)  # a puzzle's state type
M = TypeVar("M", bound=Hashable)  # a puzzle's move type


class BadInput(ValueError):
    """Input the user typed is wrong; the message is one clear line saying what is expected."""


VERDICT_PREFIX = re.compile(r"^\s*(unsolvable|no solution)\s*:\s*", re.IGNORECASE)


def reason_words(reason: str) -> str:
    """A proof's one line as it is shown after a verdict ("cannot be won: …", "no solution —
    …"): without a verdict of its own in front ("unsolvable: sorting this layout…")."""
    return VERDICT_PREFIX.sub("", reason, count=1).strip()


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
    # What is happening in a player's words when it is not the search itself, e.g. building a
    # table on first use: "Building the 15-puzzle's distance table (110 MB, first use only,
    # about 30 s)"; and how far along it is (0.0-1.0), None when unknown.
    note: str = ""
    progress: float | None = None

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
        out.update((name, json_value(value)) for name, value in self.extra)
        return out


COUNT = re.compile(r"\d{1,3}(,\d{3})+|\d+")


def json_value(value: Any) -> Any:
    """An extra figure for JSON: a count written for players ("1,234") as the number it is."""
    if isinstance(value, str) and COUNT.fullmatch(value.strip()):
        return int(value.strip().replace(",", ""))
    return value


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
    # A proved lower bound on the optimal length, for a solution not proved optimal (the big
    # sliding boards' near-optimal search); None when the search proves none.
    lower_bound: int | None = None

    @property
    def length(self) -> int:
        return len(self.moves)

    @property
    def over_optimum(self) -> int | None:
        """At most this many moves more than an optimal solution: 0 when optimal, None when
        no bound is known."""
        if self.optimal:
            return 0
        return None if self.lower_bound is None else self.length - self.lower_bound



FARTHEST_LIMIT = 100


@dataclass(frozen=True)
class Enumeration:
    """Everything reachable from a root, by distance from it."""

    root: str  # formatted root state
    histogram: tuple[int, ...]  # positions at depth 0, 1, 2, ...
    farthest: tuple[str, ...]  # formatted, at most FARTHEST_LIMIT, sorted
    stats: SearchStats
    # Further per-depth series a family adds ("pair at the end": (1, 0, 2, ...)).
    series: dict[str, tuple[int, ...]] = field(default_factory=dict)
    # Further totals a family adds ("positions_up_to_symmetry": 23475688).
    totals: dict[str, int] = field(default_factory=dict)

    @property
    def positions(self) -> int:
        return sum(self.histogram)

    @property
    def max_depth(self) -> int:
        return len(self.histogram) - 1

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "root": self.root,
            "positions": self.positions,
            "max_depth": self.max_depth,
            "histogram": list(self.histogram),
            "farthest": list(self.farthest),
            "farthest_count": self.histogram[-1],
            "seconds": round(self.stats.seconds, 6),
        }
        for name, values in self.series.items():
            out[name] = list(values)
        out.update(self.totals)
        return out
