"""A depth table's figures as the `Enumeration` the CLI and the explorer show: positions per
depth and the farthest positions (and any per-depth series a family adds)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TypeVar

import numpy as np

from kaeru.engine.rules.results import FARTHEST_LIMIT, Enumeration, SearchStats
from kaeru.engine.tables.dense import UNREACHED

S = TypeVar("S")

COUNT_CHUNK = 1 << 23  # bincount widens bytes to 8-byte ints: count a slice at a time
FARTHEST_DECODED = 5000  # farthest positions turned into text before sorting and cutting


def count_depths(depth: np.ndarray, length: int | None = None) -> np.ndarray:
    """Positions per depth of a uint8 table, unreached left out, in bounded memory; padded with
    zeros to `length`."""
    counts = np.zeros(256, dtype=np.int64)
    for begin in range(0, depth.size, COUNT_CHUNK):
        counts += np.bincount(depth[begin : begin + COUNT_CHUNK], minlength=256)
    counts[UNREACHED] = 0
    top = int(np.flatnonzero(counts).max()) + 1 if counts.any() else 0
    return counts[: max(top, length or 0)]


def survey(
    depth: np.ndarray,
    decode: Callable[[int], S],
    format_state: Callable[[S], str],
    root_text: str,
    stats: SearchStats,
    series: Mapping[str, tuple[int, ...]] | None = None,
) -> Enumeration:
    """The figures of a finished table: histogram, the farthest positions as sorted text."""
    histogram = count_depths(depth)
    far = np.flatnonzero(depth == len(histogram) - 1)[:FARTHEST_DECODED]
    farthest = sorted(format_state(decode(int(c))) for c in far)
    return Enumeration(
        root=root_text,
        histogram=tuple(int(n) for n in histogram),
        farthest=tuple(farthest[:FARTHEST_LIMIT]),
        stats=stats,
        series=dict(series or {}),
    )
