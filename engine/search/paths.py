"""Turning parent links into move lists and state lists."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any


def walk_back(parents: Mapping[Any, tuple[Any, Any] | None], end: Hashable) -> tuple[list, list]:
    """Follow `parents` (state -> (previous state, move) or None at the root) back from `end`.

    Returns (moves, states) from the root to `end`.
    """
    moves: list = []
    states = [end]
    link = parents[end]
    while link is not None:
        before, move = link
        moves.append(move)
        states.append(before)
        link = parents[before]
    moves.reverse()
    states.reverse()
    return moves, states
