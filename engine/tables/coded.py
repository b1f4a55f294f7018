"""Puzzles that number their positions 0 .. space_size-1 and expand whole arrays of codes at
once (those declaring `perfect_index`): enumerated by the dense breadth-first search."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Protocol, cast

import numpy as np

from kaeru.engine.rules.control import QUIET, Control, Meter
from kaeru.engine.rules.protocol import M, Puzzle, S
from kaeru.engine.rules.results import Enumeration
from kaeru.engine.tables.dense import dense_bfs
from kaeru.engine.tables.survey import survey


class CodedPuzzle(Protocol):
    """A puzzle whose positions have a perfect index and a vectorised move generator."""

    space_size: int

    def encode(self, state: Hashable) -> int: ...

    def decode(self, code: int) -> Hashable: ...

    def expand_codes(self, codes: np.ndarray) -> np.ndarray:
        """Every child code of every code in `codes` (int64 arrays; order and repeats free)."""
        ...


def coded_depths(puzzle: Puzzle[S, M], roots: Sequence[S], meter: Meter) -> np.ndarray:
    """Distance from the nearest of `roots` for every code of a puzzle declaring
    `perfect_index` (UNREACHED where none)."""
    coded = as_coded(puzzle)
    codes = np.array([coded.encode(r) for r in roots], dtype=np.int64)
    return dense_bfs(coded.space_size, codes, coded.expand_codes, meter)


def enumerate_codes(puzzle: Puzzle[S, M], root: S, control: Control = QUIET) -> Enumeration:
    """Every position reachable from `root` by depth, from its depth table; the figures match
    the generic BFS. The budget does not apply: memory is a byte a position."""
    coded = as_coded(puzzle)
    meter = Meter("numpy BFS enumeration", control.unlimited())
    depth = coded_depths(puzzle, [root], meter)
    decode = cast("Callable[[int], S]", coded.decode)
    return survey(depth, decode, puzzle.format, puzzle.format(root), meter.finish())


def as_coded(puzzle: Puzzle[S, M]) -> CodedPuzzle:
    if not puzzle.capabilities.perfect_index:
        raise ValueError(f"{puzzle.id} declares no perfect index")
    return cast(CodedPuzzle, puzzle)
