"""Small numpy helpers for sets of codes kept as sorted arrays.

`np.unique` in numpy 2.4 hashes integer arrays, which measured ~100x slower than a sort on
arrays of a million codes, so the searches here sort instead.
"""

from __future__ import annotations

import numpy as np


def sorted_unique(codes: np.ndarray) -> np.ndarray:
    """The distinct values of `codes`, sorted."""
    if codes.size == 0:
        return codes
    ordered = np.sort(codes)
    keep = np.empty(ordered.size, dtype=bool)
    keep[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=keep[1:])
    return ordered[keep]


def contains_sorted(haystack: np.ndarray, needles: np.ndarray) -> np.ndarray:
    """For each needle, whether it is in the sorted array `haystack`."""
    if haystack.size == 0:
        return np.zeros(needles.shape, dtype=bool)
    at = np.searchsorted(haystack, needles)
    at[at == haystack.size] = 0
    return haystack[at] == needles
