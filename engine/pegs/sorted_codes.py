"""Sorted arrays of distinct position codes (numpy uint64): duplicates sorted out, and many such
arrays merged into one a piece at a time.

A merge of a whole layer (millions of classes) is one long numpy sort if done at once: seconds
in which a cancel cannot be honoured. `merge_unique` cuts the value range into pieces of about
PIECE codes (split at a sample of the codes), sorts each piece's slices of every array
together into its place in the result, and calls `check` (the search's meter check: cancel,
budget, progress) between pieces, so a cancel is honoured within one piece's sort
(milliseconds). The pieces together cost no more than the one sort did (smaller sorts stay in
the cache); the result is written a piece at a time too (joining the pieces at the end, the
fresh pages of a 3.6-million-class layer, took 70 ms of its own).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

PIECE = 1 << 18  # codes sorted together in a merge: ~10-20 ms
SAMPLES_PER_PIECE = 32  # codes sampled per piece to choose where the pieces split


def sorted_unique(codes: np.ndarray) -> np.ndarray:
    """The distinct values of `codes`, sorted (in place: `codes` is consumed). A sort and a
    comparison of neighbours: much faster here than np.unique, which hashes in numpy 2.3+.

    The stable sort (timsort for uint64) merges the sorted runs these arrays are made of: a
    jump's children are its sorted parents plus a constant, a merge's piece is sorted slices,
    canonical forms come in long ascending stretches. On them it is 2-5x faster than numpy's
    default sort (on random codes about a quarter slower)."""
    if codes.size == 0:
        return codes
    codes.sort(kind="stable")
    keep = np.empty(codes.size, dtype=bool)
    keep[0] = True
    np.not_equal(codes[1:], codes[:-1], out=keep[1:])
    return codes[keep]


def split_values(parts: Sequence[np.ndarray], piece: int) -> np.ndarray:
    """Ascending values that cut the union of the sorted `parts` into pieces of at most about
    `piece` codes: every `every`-th code of each part is sampled, and a piece holds
    SAMPLES_PER_PIECE samples, so it holds at most piece + every * len(parts) codes."""
    total = sum(int(part.size) for part in parts)
    if total <= piece:
        return np.empty(0, dtype=np.uint64)
    every = max(1, piece // SAMPLES_PER_PIECE)
    sample = np.sort(np.concatenate([part[::every] for part in parts]))
    stride = max(1, piece // every)
    return sorted_unique(sample[stride::stride].copy())


def merge_unique(parts: Sequence[np.ndarray], check: Callable[[], None]) -> np.ndarray:
    """The distinct codes of the sorted arrays `parts`, sorted, merged PIECE codes or so at a
    time with `check()` after each piece. One part alone is returned as it is."""
    parts = [part for part in parts if part.size]
    if len(parts) <= 1:
        return parts[0] if parts else np.empty(0, dtype=np.uint64)
    splits = split_values(parts, PIECE)
    bounds = [
        np.concatenate(([0], np.searchsorted(part, splits), [part.size])) for part in parts
    ]  # bounds[j][k]: where piece k begins in part j
    merged = np.empty(sum(int(part.size) for part in parts), dtype=np.uint64)
    filled = 0  # written piece by piece: its pages are touched a piece at a time too
    for k in range(splits.size + 1):
        slices = [part[b[k] : b[k + 1]] for part, b in zip(parts, bounds, strict=True)]
        piece_codes = sorted_unique(np.concatenate(slices))
        merged[filled : filled + piece_codes.size] = piece_codes
        filled += piece_codes.size
        check()
    merged.resize(filled, refcheck=False)  # shrinks in place: no copy
    return merged
