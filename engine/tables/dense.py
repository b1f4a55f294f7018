"""The breadth-first search that fills a depth table: one byte per position of a space with a
perfect index (codes 0 .. size-1), UNREACHED where no root leads.

Two ways to hold the frontier, one search:
- `dense_bfs` reads each layer back from the table (`depth == d`), so memory stays at the table
  plus one chunk of children; the expander turns codes into child codes (it may unrank);
- `dense_bfs_carrying` keeps the frontier as arrays with a payload per code (a packed board,
  say) that the expander updates along with the codes, so nothing is ever unranked; repeats
  within a layer are dropped with a scratch array in linear time.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import numpy as np

from kaeru.engine.rules.control import Meter

UNREACHED = 255
MAX_DEPTH = UNREACHED - 1
CHUNK = 1 << 18  # frontier codes expanded at once: a few hundredths of a second between checks
GATHER_SHARE = 64  # a next layer up to 1/64 of the table is gathered from the children found;
# a larger one is read back from the table (sorting it would cost more than one pass)

Expand = Callable[[np.ndarray], np.ndarray]
"""Every child code of every code in an int64 array (order and repeats free)."""

Payload = tuple[np.ndarray, ...]
"""Arrays carried along with the frontier's codes, one entry per code in each."""

ExpandCarrying = Callable[
    [np.ndarray, Payload], Iterable[tuple[np.ndarray, np.ndarray, np.ndarray]]
]
"""(codes, payload) -> parts of (child codes, parent row of each child, how each was made)."""

Advance = Callable[[Payload, np.ndarray], Payload]
"""(payload of the parents, how each child was made) -> payload of the children."""


def empty_table(space_size: int, roots: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A table of UNREACHED with the roots at 0, and the distinct roots (int64)."""
    depth = np.full(space_size, UNREACHED, dtype=np.uint8)
    frontier = np.unique(np.asarray(roots, dtype=np.int64))
    depth[frontier] = 0
    return depth, frontier


def dense_bfs(
    space_size: int,
    roots: np.ndarray,
    expand: Expand,
    meter: Meter,
    chunk: int = CHUNK,
    expected: int | None = None,
) -> np.ndarray:
    """Distance from the nearest root for every code (uint8; UNREACHED where none).

    `meter.done` follows the positions expanded against `expected`, the positions reachable when
    the caller knows it: each is expanded once, and the time goes mostly there (small
    layers are gathered from the children found, so the many thin layers at the start and the
    end of a search cost no pass over the whole table)."""
    depth, frontier = empty_table(space_size, roots)
    gather_limit = max(chunk, space_size // GATHER_SHARE)
    d = 0
    found = int(frontier.size)
    expanded = 0
    while frontier.size:
        _layer(meter, d, frontier.size, found, space_size)
        gathered: list[np.ndarray] | None = []
        held = 0
        for begin in range(0, frontier.size, chunk):
            part = frontier[begin : begin + chunk]
            children = expand(part)
            meter.generated += int(children.size)
            fresh = children[depth[children] == UNREACHED]
            depth[fresh] = d + 1
            if gathered is not None:
                held += int(fresh.size)
                if held <= gather_limit:
                    gathered.append(fresh)
                else:
                    gathered = None  # too big: read back from the table below
            expanded += int(part.size)
            if expected:
                meter.done = min(1.0, expanded / expected)
            meter.tick(int(part.size))
            meter.check()
        d += 1
        if gathered is None:
            frontier = np.flatnonzero(depth == d)
        elif gathered:
            frontier = _distinct(np.concatenate(gathered))
        else:
            frontier = frontier[:0]
        found += int(frontier.size)
    meter.depth = max(d - 1, 0)
    meter.extra["positions"] = f"{found:,} of {space_size:,}"
    return depth


def dense_bfs_carrying(
    space_size: int,
    roots: np.ndarray,
    payload: Payload,
    expand: ExpandCarrying,
    advance: Advance,
    meter: Meter,
    expected: int | None = None,
) -> np.ndarray:
    """`dense_bfs` with the frontier carried as (codes, payload) rows; `payload[i]` belongs to
    `roots[i]` (distinct roots). Payloads are worked out only for children kept. `meter.done`
    follows the positions found against `expected` (when the caller knows it)."""
    depth, _ = empty_table(space_size, roots)
    frontier = np.asarray(roots, dtype=np.int64)
    owner = np.zeros(space_size, dtype=np.int32)  # scratch: which new row claims a code
    d = 0
    found = int(frontier.size)
    while frontier.size:
        _layer(meter, d, frontier.size, found, space_size)
        parts: list[list[np.ndarray]] = [[], [], []]
        for children, parents, how in expand(frontier, payload):
            meter.generated += int(children.size)
            fresh = depth[children] == UNREACHED
            for part, array in zip(parts, (children, parents, how), strict=True):
                part.append(array[fresh])
        children, parents, how = (np.concatenate(p) if p else frontier[:0] for p in parts)
        rows = np.arange(children.size, dtype=np.int32)
        owner[children] = rows
        keep = owner[children] == rows  # the last row writing a code keeps it
        frontier, parents = children[keep], parents[keep]
        payload = advance(tuple(p[parents] for p in payload), how[keep])
        depth[frontier] = d + 1
        found += int(frontier.size)
        if expected:
            meter.done = min(1.0, found / expected)
        meter.tick(int(frontier.size))
        meter.check()
        d += 1
    meter.depth = max(d - 1, 0)
    meter.extra["positions"] = f"{found:,} of {space_size:,}"
    return depth


def _distinct(codes: np.ndarray) -> np.ndarray:
    """The distinct codes, sorted, by a sort (np.unique hashes in numpy 2.4: far slower)."""
    ordered = np.sort(codes.astype(np.int64, copy=False))
    keep = np.empty(ordered.size, dtype=bool)
    keep[:1] = True
    np.not_equal(ordered[1:], ordered[:-1], out=keep[1:])
    return ordered[keep]


def _layer(meter: Meter, d: int, frontier: int, found: int, space_size: int) -> None:
    if d >= MAX_DEPTH:
        raise OverflowError(f"depth table overflow: more than {MAX_DEPTH} layers")
    meter.depth, meter.frontier = d, int(frontier)
    meter.extra["positions"] = f"{found:,} of {space_size:,}"
