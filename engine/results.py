"""The result of enumerating a state space: counts per depth and the farthest positions."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kaeru.engine.core import SearchStats

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
        return out
