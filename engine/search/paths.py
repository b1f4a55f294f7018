"""Turning parent links into move lists and state lists."""

from __future__ import annotations

from collections.abc import Mapping

from kaeru.engine.rules.results import M, S


def walk_back(parents: Mapping[S, tuple[S, M] | None], end: S) -> tuple[list[M], list[S]]:
    """Follow `parents` (state -> (previous state, move) or None at the root) back from `end`.

    Returns (moves, states) from the root to `end`.
    """
    moves: list[M] = []
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
