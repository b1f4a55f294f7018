"""The problem set of seed 002: every position with the pair at the bottom right, by depth.

These are the positions that look like the goal's frame (the empty pair where it ends), so
they make fair puzzles; the 10-puzzle has 3,600 of them (the goal included). They are the last
block of codes in the index (the goal's pair place comes last), so the set is a view of the
depth table: nothing more is stored.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from kaeru.engine.rules.protocol import BadInput
from kaeru.engine.tables.survey import count_depths
from kaeru.engine.two_blank.geometry import State
from kaeru.engine.two_blank.index import TwoBlankIndex
from kaeru.engine.two_blank.table import descend
from kaeru.engine.two_blank.text import format_compact


@dataclass(frozen=True)
class Problem:
    state: State
    depth: int


class ProblemSet:
    """The pair-at-the-end positions of one board, with their distances to the goal."""

    def __init__(self, index: TwoBlankIndex, depth: np.ndarray) -> None:
        self.index = index
        self.offset = index.geometry.goal_pair * index.block
        self.depths = depth[self.offset :]  # a view: code = offset + position in it

    def __len__(self) -> int:
        return int(self.depths.size)

    def counts(self, length: int | None = None) -> tuple[int, ...]:
        """Problems per depth, 0, 1, 2, ... (padded with zeros to `length`)."""
        return tuple(int(n) for n in count_depths(self.depths, length))

    def available_depths(self) -> list[int]:
        """Depths that have at least one problem, the goal's 0 left out."""
        return [d for d, n in enumerate(self.counts()) if n and d]

    def codes_at(self, depth: int) -> np.ndarray:
        return np.flatnonzero(self.depths == depth) + self.offset

    def pick(
        self,
        rng: random.Random,
        depth: int | None = None,
        band: tuple[int, int] | None = None,
    ) -> Problem:
        """A random problem at exactly `depth`, or within `band` (inclusive), or any but the
        goal; BadInput naming the depths there are when none fits."""
        if depth is not None:
            band = (depth, depth)
        low, high = band if band is not None else (1, 255)
        wanted = (self.depths >= max(low, 1)) & (self.depths <= high)
        count = int(np.count_nonzero(wanted))
        if count == 0:
            depths = self.available_depths()
            where = f"{low}" if low == high else f"{low}-{high}"
            raise BadInput(
                f"no problem {where} moves from the goal; there are problems at depths "
                f"{_ranges(depths)}"
            )
        choice = rng.randrange(count)
        position = int(np.flatnonzero(wanted)[choice])
        return Problem(self.index.decode(self.offset + position), int(self.depths[position]))

    def __iter__(self) -> Iterator[Problem]:
        """Every problem, easiest first (ties in code order)."""
        order = np.argsort(self.depths, kind="stable")
        for position in order:
            yield Problem(
                self.index.decode(self.offset + int(position)), int(self.depths[position])
            )

    def record(self, depth_table: np.ndarray, state: State) -> str:
        """The seed's problem line: `16329a5478__:8:9|8|4|5|1|2|6|10` — position, depth, and
        the cell of the left empty after each move of a shortest solution."""
        path = descend(self.index, depth_table, state)
        trail = "|".join(str(self.index.geometry.pair_of(after)) for _, after in path)
        return f"{format_compact(state)}:{len(path)}:{trail}"


def _ranges(depths: list[int]) -> str:
    """[4, 6, 8, 10] -> "4-10 (even)"; other lists joined by commas."""
    if not depths:
        return "(none)"
    steps = {b - a for a, b in zip(depths, depths[1:], strict=False)}
    if len(depths) > 2 and steps == {2}:
        return (
            f"{depths[0]}-{depths[-1]} (even only)"
            if depths[0] % 2 == 0
            else (f"{depths[0]}-{depths[-1]} (odd only)")
        )
    if len(depths) > 2 and steps == {1}:
        return f"{depths[0]}-{depths[-1]}"
    return ", ".join(str(d) for d in depths)
