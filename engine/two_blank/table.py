"""The depth table of a two-blank board: distance to the goal for every position, one byte each
(the 14-puzzle's is 76,204,800 bytes), filled by `engine.tables.dense` over the perfect index
and kept by `engine.tables.store` (in memory, and in the cache folder across runs and
processes). Solving walks down it (`engine.tables.table.DepthTable`).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np

from kaeru.engine.rules.control import QUIET, Control, Meter
from kaeru.engine.tables import store
from kaeru.engine.tables.dense import UNREACHED, dense_bfs
from kaeru.engine.tables.first_use import BuildPlan
from kaeru.engine.tables.folder import cache_file
from kaeru.engine.tables.table import DepthTable
from kaeru.engine.two_blank.geometry import State
from kaeru.engine.two_blank.index import TwoBlankIndex

FORMAT = 2  # bump when the index layout changes: older files are then deleted
# Measured from an empty cache (bench/first_use.py, 2 cores shared with other work): the
# 14-puzzle's 76,204,800 positions in 14-49 s by the load; the 7- and 10-puzzles' in 0.1 s.
BUILD_START = 0.1  # seconds before the search runs (the index's move tables)
BUILD_RATE = 5_000_000  # positions per second

Walker = DepthTable[State, str]  # moves named by the direction the tiles travel


def table_key(name: str) -> str:
    return f"{name}.depth"


def table_path(name: str) -> Path:
    """Where board `name`'s table is kept in the cache folder."""
    return cache_file(store.file_name(table_key(name), FORMAT))


def has_table(name: str) -> bool:
    """Whether the table can be had without building it."""
    return store.is_available(table_key(name), FORMAT)


def load_or_build(name: str, index: TwoBlankIndex, control: Control = QUIET) -> store.Loaded:
    """The depth table of board `name` from memory, disk, or a fresh build (saved to disk)."""

    goal = index.encode(index.geometry.goal)
    return store.depth_table(
        table_key(name),
        FORMAT,
        index.space_size,
        "depth table: numpy BFS",
        lambda meter: index_depths(index, goal, meter),
        control,
        build_plan(index),
    )


def build_plan(index: TwoBlankIndex) -> BuildPlan:
    """What building the board's table means for a player: what, how big, how long."""
    g = index.geometry
    return BuildPlan(
        f"the distance table of the {g.tiles}-puzzle (two blanks, {g.width}×{g.height})",
        index.space_size,
        BUILD_START + index.space_size / BUILD_RATE,
    )


def index_depths(index: TwoBlankIndex, root: int, meter: Meter) -> np.ndarray:
    """Distance from code `root` for every code. Every code is reachable by construction."""
    roots = np.array([root], dtype=np.int64)
    depth = dense_bfs(index.space_size, roots, index.expand_codes, meter, expected=index.space_size)
    if int(np.count_nonzero(depth == UNREACHED)):
        raise RuntimeError("two-blank index is wrong: some codes were not reached")
    return depth


def walker(index: TwoBlankIndex, depth: np.ndarray) -> Walker:
    """The table as a `DepthTable` whose moves are directions."""
    g = index.geometry

    def successors(state: State) -> Iterator[tuple[str, State]]:
        for direction in g.directions(g.pair_of(state)):
            yield direction, g.slide(state, direction)

    return DepthTable(depth, index.encode, index.decode, successors)


def descend(index: TwoBlankIndex, depth: np.ndarray, state: State) -> list[tuple[str, State]]:
    """(direction, position after it) for each move of a shortest path to the goal.

    `state` must be reachable from the goal (`index.encode` raises ValueError otherwise).
    """
    directions, states = walker(index, depth).walk(state)
    return list(zip(directions, states[1:], strict=True))
