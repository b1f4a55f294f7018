"""Shortest paths over a perfect index: breadth-first layers marked in a byte table (one byte a
position, as enumeration holds), so no layer is ever sorted against the others and the search
stops the moment the two ends meet.

- with `mirror` (an involution of the rules taking the source onto the target, Flip It's colour
  swap): one search from the source serves both ends; x at depth k meets the target side when
  mirror(x) is known at depth j, d(x, target) being j;
- otherwise two searches, the smaller frontier grown each time, meeting in the middle.

Layers are expanded a chunk at a time with the meter checked between chunks (a few
milliseconds each), so a cancel stops the search at once.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from kaeru.engine.rules.control import Meter

UNREACHED = 255
CHUNK = 1 << 15  # codes expanded between checks of the meter
GATHER_SHARE = 64  # layers up to 1/64 of the table are gathered, larger ones read back

Expand = Callable[[np.ndarray], np.ndarray]
Mirror = Callable[[np.ndarray], np.ndarray]


class _Side:
    """One breadth-first search: its depth table and its last layer."""

    def __init__(self, space_size: int, root: int) -> None:
        self.depth = np.full(space_size, UNREACHED, dtype=np.uint8)
        self.depth[root] = 0
        self.last = np.array([root], dtype=np.int64)
        self.level = 0
        self.stored = 1

    def grow(self, expand: Expand, meter: Meter) -> np.ndarray:
        """Mark and return the next layer (empty when everything reachable is marked). A small
        layer is gathered from the children marked; a large one is read back from the table
        (one pass, already sorted and distinct)."""
        if self.level + 1 >= UNREACHED:  # pragma: no cover - far beyond these puzzles
            raise OverflowError("search deeper than a byte can count")
        parts: list[np.ndarray] | None = []
        gathered = 0
        gather_limit = max(CHUNK, self.depth.size // GATHER_SHARE)
        for begin in range(0, self.last.size, CHUNK):
            children = expand(self.last[begin : begin + CHUNK])
            meter.generated += int(children.size)
            fresh = children[self.depth[children] == UNREACHED]
            self.depth[fresh] = self.level + 1
            if parts is not None:
                gathered += int(fresh.size)
                parts = parts + [fresh] if gathered <= gather_limit else None
            meter.tick(min(CHUNK, self.last.size - begin))
            meter.check()
        self.level += 1
        if parts is None:
            self.last = np.flatnonzero(self.depth == self.level).astype(np.int64)
        else:
            self.last = np.unique(np.concatenate(parts)) if parts else self.last[:0]
        self.stored += int(self.last.size)
        return self.last

    def path_to(self, code: int, expand: Expand) -> list[int]:
        """Codes from this side's root to `code` (marked), one step down the table at a time."""
        path = [code]
        for k in range(int(self.depth[code]) - 1, -1, -1):
            around = expand(np.array([path[-1]], dtype=np.int64))
            path.append(int(around[self.depth[around] == k][0]))
        path.reverse()
        return path


def dense_path(
    space_size: int,
    expand: Expand,
    source: int,
    target: int,
    meter: Meter,
    mirror: Mirror | None = None,
) -> list[int] | None:
    """Codes of a shortest path from `source` to `target`, None when there is none. `expand`
    must list the neighbours of an int64 array of codes (moves can be undone)."""
    if source == target:
        return [source]
    fwd = _Side(space_size, source)
    meter.held = fwd.stored  # the budget counts positions marked
    if mirror is not None:
        return _mirrored(fwd, expand, mirror, meter)
    bwd = _Side(space_size, target)
    while True:
        side, other = (fwd, bwd) if fwd.last.size <= bwd.last.size else (bwd, fwd)
        layer = side.grow(expand, meter)
        _report(meter, fwd, bwd, layer)
        if layer.size == 0:
            return None
        seen = other.depth[layer]
        hit = seen != UNREACHED
        if not hit.any():
            continue
        meet = int(layer[hit][np.argmin(seen[hit])])
        head = fwd.path_to(meet, expand)
        tail = bwd.path_to(meet, expand)
        return head + tail[-2::-1]


def _mirrored(fwd: _Side, expand: Expand, mirror: Mirror, meter: Meter) -> list[int] | None:
    while True:
        layer = fwd.grow(expand, meter)
        _report(meter, fwd, None, layer)
        if layer.size == 0:
            return None
        seen = fwd.depth[mirror(layer)]
        d = fwd.level
        for back in (d - 1, d):  # the shorter total first
            hit = seen == back
            if hit.any():
                meet = int(layer[np.argmax(hit)])
                head = fwd.path_to(meet, expand)
                image = int(mirror(np.array([meet], dtype=np.int64))[0])
                tail = fwd.path_to(image, expand)  # source .. mirror(meet)
                back_half = mirror(np.array(tail[-2::-1], dtype=np.int64))
                return head + [int(c) for c in back_half]


def _report(meter: Meter, fwd: _Side, bwd: _Side | None, layer: np.ndarray) -> None:
    meter.depth = fwd.level + (bwd.level if bwd is not None else 0)
    meter.frontier = int(layer.size)
    stored = fwd.stored + (bwd.stored if bwd is not None else 0)
    meter.extra["positions"] = f"{stored:,}"
    meter.held = stored
