"""The order a 15-puzzle pattern database is stored and looked up in, and the conversion into it.

The build (`pdb_build`) works in blocks: its entry of a placement is `colex(cells) * k! +
lehmer(slots)` (`pdb_index`), so every move of a tile changes the cells and lands k! bytes away
(40 kB for 8 tiles): each lookup of the search missed the cache (0.71-0.78 s of Korf's 100 in
memory against 0.43-0.45 s in the order below, the same 3,867,612 nodes).

Stored, a group's table is in *tile order*: the entry of tiles t_0..t_{k-1} on cells p_0..p_{k-1}
is the Lehmer code of the cells, sum of d_i * (15 - i)! / (16 - k)!, where d_i counts the cells
below p_i not taken by t_0..t_{i-1}. A move of the last tiles changes only the low digits, so
most of a search's lookups land near the one before.

`gather` fills a stretch of the tile order from a table in block order, in one sequential pass
over the output (the reads are scattered but independent): from the build's level nibbles, or
from a table of the block order kept by an earlier version (`pdb78` converts those on first
use, much cheaper than building again).
"""

from __future__ import annotations

from collections.abc import Iterator
from math import perm
from typing import Any

import numpy as np

from kaeru.engine.rules.control import Meter
from kaeru.engine.sliding.databases.pdb_index import FACT, colex_table
from kaeru.engine.sliding.jit import njit
from kaeru.engine.tables.files import Stretches

CELLS = 16
STRETCH_ENTRIES = 1 << 21  # output entries one kernel call writes, about: a few milliseconds


def tile_order_index(cells: list[int] | tuple[int, ...]) -> int:
    """The entry of the group's tiles on `cells` (cell of tile i, in group order)."""
    code, used = 0, 0
    for i, p in enumerate(cells):
        code = code * (CELLS - i) + p - (used & ((1 << p) - 1)).bit_count()
        used |= 1 << p
    return code


def tile_order_cells(k: int, index: np.ndarray) -> np.ndarray:
    """int64[len(index), k]: the cells of the group's tiles for each entry (inverse of
    `tile_order_index`, vectorised)."""
    rest = np.asarray(index, dtype=np.int64).copy()
    cells = np.zeros((rest.size, k), dtype=np.int64)
    free = np.ones((rest.size, CELLS), dtype=np.int64)
    for i in range(k):
        radix = perm(CELLS - i - 1, k - i - 1)
        digit = rest // radix
        rest -= digit * radix
        before = np.cumsum(free, axis=1) - free  # free cells below each cell
        chosen = (free == 1) & (before == digit[:, None])
        cells[:, i] = np.argmax(chosen, axis=1)
        free[np.arange(rest.size), cells[:, i]] = 0
    return cells


@njit(cache=True, nogil=True)
def gather(
    source: np.ndarray,  # uint8: the table in block order (levels, or nibbles when `nibbles`)
    nibbles: bool,  # source holds the build's level codes, two a byte (decoded with `decode`)
    out: np.ndarray,  # uint8: entries [first * span, last * span) of the tile order, from 0
    first: int,
    last: int,  # prefixes [first, last): placements of the first `split` tiles, in tile order
    k: int,
    split: int,
    colex: np.ndarray,  # int32[65536]: colex rank of each cell mask
    fact: np.ndarray,  # int64[17]: factorials
    distance: np.ndarray,  # int64[k, 16]: from tile i's home to each cell (for `decode`)
    decode: np.ndarray,  # uint8[16, 64]: a level from its nibble and Manhattan distance
) -> int:
    """Write the tile order's entries under prefixes [first, last) into `out`; returns how
    many were written. Each entry's block-order index comes incrementally, depth by depth:
    the Lehmer rank of its order adds, per tile placed on cell c, the factorials of the tiles
    placed before it on higher cells (`weight`)."""
    orders = fact[k]
    weight = np.zeros((k + 1, CELLS), dtype=np.int64)  # per depth: what a tile on c adds
    rank = np.zeros(k + 1, dtype=np.int64)
    md = np.zeros(k + 1, dtype=np.int64)
    mask = np.zeros(k + 1, dtype=np.int64)
    cand = np.zeros(k + 1, dtype=np.int64)
    n = 0
    for prefix in range(first, last):
        rest = prefix
        d = 0
        for i in range(split):  # the prefix's digits, most significant first
            radix = 1
            for j in range(i + 1, split):
                radix *= CELLS - j
            digit = rest // radix
            rest -= digit * radix
            c = 0
            while True:  # the digit-th cell not taken
                if (mask[d] >> c) & 1 == 0:
                    if digit == 0:
                        break
                    digit -= 1
                c += 1
            mask[d + 1] = mask[d] | (1 << c)
            rank[d + 1] = rank[d] + weight[d, c]
            md[d + 1] = md[d] + distance[d, c]
            for x in range(CELLS):
                weight[d + 1, x] = weight[d, x] + (fact[k - 1 - d] if x < c else 0)
            d += 1
        cand[d] = 0
        while d >= split:
            if d == k - 1:  # the last tile: every free cell, one entry each
                base = mask[d]
                for c in range(CELLS):
                    if (base >> c) & 1:
                        continue
                    at = colex[base | (1 << c)] * orders + rank[d] + weight[d, c]
                    if nibbles:
                        code = (source[at >> 1] >> ((at & 1) << 2)) & 15
                        out[n] = decode[code, md[d] + distance[d, c]]
                    else:
                        out[n] = source[at]
                    n += 1
                d -= 1
                continue
            c = cand[d]
            while c < CELLS and (mask[d] >> c) & 1:
                c += 1
            if c == CELLS:
                d -= 1
                continue
            cand[d] = c + 1
            mask[d + 1] = mask[d] | (1 << c)
            rank[d + 1] = rank[d] + weight[d, c]
            md[d + 1] = md[d] + distance[d, c]
            for x in range(CELLS):
                weight[d + 1, x] = weight[d, x] + (fact[k - 1 - d] if x < c else 0)
            d += 1
            cand[d] = 0
    return n


def _split(k: int) -> int:
    """How many leading tiles a prefix places: each prefix a stretch of whole entries."""
    split = 0
    while split < k and perm(CELLS - split, k - split) > STRETCH_ENTRIES:
        split += 1
    return split


def tile_order(
    source: np.ndarray,
    k: int,
    meter: Meter,
    *,
    nibbles: bool = False,
    distance: np.ndarray | None = None,
    decode: np.ndarray | None = None,
    done_from: float = 0.0,
) -> Stretches:
    """A k-tile table in tile order, from `source` in block order (levels; or the build's
    nibbles, with each tile's `distance` from home and the nibbles' `decode`), as stretches
    gathered as they are written (one buffer, reused: each stretch is gone at the next). Each
    stretch reports progress and checks cancel through `meter` (its `done` goes from
    `done_from` to 1), finished after the last."""
    total = perm(CELLS, k)
    split = _split(k)
    span = perm(CELLS - split, k - split)
    prefixes = perm(CELLS, split)
    per_call = max(1, STRETCH_ENTRIES // span)
    colex = colex_table().astype(np.int32)
    far = np.zeros((k, CELLS), dtype=np.int64) if distance is None else distance
    levels = np.zeros((16, 64), dtype=np.uint8) if decode is None else decode

    def each() -> Iterator[np.ndarray]:
        buffer = np.empty(per_call * span, dtype=np.uint8)
        for first in range(0, prefixes, per_call):
            last = min(prefixes, first + per_call)
            part = buffer[: (last - first) * span]
            gather(source, nibbles, part, first, last, k, split, colex, FACT, far, levels)
            meter.done = done_from + (1.0 - done_from) * last / prefixes
            meter.check()
            yield part
        meter.finish()

    return Stretches((total,), np.dtype(np.uint8), each)


def to_tile_order(source: np.ndarray, k: int, meter: Meter, **how: Any) -> np.ndarray:
    """`tile_order` whole in memory."""
    return tile_order(source, k, meter, **how).whole()
