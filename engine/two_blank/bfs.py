"""A layered breadth-first search over two-blank codes: one byte of depth per position.

The frontier of each layer is read back from the table itself (`depth == d`), so memory stays
at the table plus one chunk of children; chunks are small so a cancel lands quickly.
"""

from __future__ import annotations

import numpy as np

from kaeru.engine.search.meter import Meter
from kaeru.engine.two_blank.index import TwoBlankIndex

UNREACHED = 255
CHUNK = 1 << 18  # frontier codes expanded at once: ~0.05 s of work between cancel checks


def layered_bfs(index: TwoBlankIndex, root: int, meter: Meter) -> np.ndarray:
    """Distance from `root` for every code (uint8). Every code is reachable by construction."""
    depth = np.full(index.space_size, UNREACHED, dtype=np.uint8)
    depth[root] = 0
    frontier = np.array([root], dtype=np.int64)
    found = 1
    d = 0
    meter.extra["positions"] = f"{found:,} of {index.space_size:,}"
    while frontier.size:
        if d + 1 >= UNREACHED:
            raise OverflowError("depth table overflow: more than 254 layers")
        meter.depth, meter.frontier = d, int(frontier.size)
        for begin in range(0, frontier.size, CHUNK):
            chunk = frontier[begin : begin + CHUNK]
            children = index.expand_codes(chunk)
            meter.generated += int(children.size)
            fresh = children[depth[children] == UNREACHED]
            depth[fresh] = d + 1
            meter.tick(int(chunk.size))
            meter.check()
        d += 1
        frontier = np.flatnonzero(depth == d)
        found += int(frontier.size)
        meter.extra["positions"] = f"{found:,} of {index.space_size:,}"
    if found != index.space_size:
        raise RuntimeError(
            f"two-blank index is wrong: {found:,} of {index.space_size:,} codes reached"
        )
    meter.depth = d - 1
    return depth
