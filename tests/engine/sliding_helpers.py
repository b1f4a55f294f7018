"""Helpers shared by the big sliding boards' tests: whether a path of positions replays."""

from __future__ import annotations

from kaeru.engine.sliding.board.geometry import Grid, State


def replays(shape: Grid, states: list[State]) -> bool:
    """Whether each position follows from the one before by one slide into the blank."""
    for before, after in zip(states, states[1:], strict=False):
        gap, other = before.index(0), after.index(0)
        if shape.distance(gap, other) != 1 or after[gap] != before[other]:
            return False
    return True
