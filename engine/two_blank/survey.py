"""Turning a depth array into the `Enumeration` the CLI and the explorer show: positions per
depth, the pair-at-the-end count per depth, and the farthest positions."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from kaeru.engine.core import SearchStats
from kaeru.engine.results import FARTHEST_LIMIT, Enumeration
from kaeru.engine.two_blank.geometry import State
from kaeru.engine.two_blank.index import TwoBlankIndex

COUNT_CHUNK = 1 << 23  # bincount widens bytes to 8-byte ints: count a slice at a time
FARTHEST_DECODED = 5000  # farthest positions turned into text before sorting and cutting

PAIR_AT_END = "pair_at_end"


def survey(
    index: TwoBlankIndex,
    depth: np.ndarray,
    root_text: str,
    stats: SearchStats,
    format_state: Callable[[State], str],
    rename: dict[int, int] | None = None,
) -> Enumeration:
    """The figures of a finished depth array. `rename` maps the tiles of the positions the
    array is about back to the names the player used (see `TwoBlankIndex.relabel`)."""
    histogram = count_depths(depth)
    last = len(histogram) - 1
    end_block = depth[index.geometry.goal_pair * index.block :]
    pair_at_end = count_depths(end_block, len(histogram))
    far_codes = np.flatnonzero(depth == last)[:FARTHEST_DECODED]
    far_states = [index.decode(int(c)) for c in far_codes]
    if rename:
        far_states = [tuple(rename.get(t, t) for t in s) for s in far_states]
    farthest = tuple(sorted(format_state(s) for s in far_states)[:FARTHEST_LIMIT])
    return Enumeration(
        root=root_text,
        histogram=tuple(int(n) for n in histogram),
        farthest=farthest,
        stats=stats,
        series={PAIR_AT_END: tuple(int(n) for n in pair_at_end)},
    )


def count_depths(depth: np.ndarray, length: int | None = None) -> np.ndarray:
    """Positions per depth of a uint8 depth array, in bounded memory."""
    counts = np.zeros(256, dtype=np.int64)
    for begin in range(0, depth.size, COUNT_CHUNK):
        counts += np.bincount(depth[begin : begin + COUNT_CHUNK], minlength=256)
    top = int(np.flatnonzero(counts).max()) + 1 if counts.any() else 0
    return counts[: max(top, length or 0)]
