"""Numbering the arrangements of n tiles that have a given parity: n!/2 ranks for each parity.

Two-blank boards keep the parity of each column class tied to the pair's row, so a class is
indexed by the rank of its tile order among the permutations of that parity.
"""

from __future__ import annotations

from functools import cache
from itertools import permutations

import numpy as np

Perm = tuple[int, ...]


def parity(perm: Perm) -> int:
    """0 for an even permutation of 0..n-1, 1 for an odd one (by counting cycles)."""
    seen = [False] * len(perm)
    swaps = 0
    for start in range(len(perm)):
        length = 0
        i = start
        while not seen[i]:
            seen[i] = True
            i = perm[i]
            length += 1
        if length:
            swaps += length - 1
    return swaps & 1


class ParityRanks:
    """Ranks 0..n!/2-1 of the permutations of 0..n-1 of one parity, in lexicographic order."""

    def __init__(self, n: int) -> None:
        self.n = n
        by_parity: tuple[list[Perm], list[Perm]] = ([], [])
        for perm in permutations(range(n)):
            by_parity[parity(perm)].append(perm)
        self.perms = by_parity
        self.size = len(by_parity[0])
        self._rank = tuple({p: i for i, p in enumerate(perms)} for perms in by_parity)

    def rank(self, perm: Perm) -> tuple[int, int]:
        """(parity, rank within that parity)."""
        even = self._rank[0].get(perm)
        return (0, even) if even is not None else (1, self._rank[1][perm])

    def unrank(self, par: int, rank: int) -> Perm:
        return self.perms[par][rank]

    def table(self, par: int, shuffle: Perm) -> np.ndarray:
        """For every rank of parity `par`: the rank of the permutation reordered by `shuffle`
        (new[i] = old[shuffle[i]]); the result's parity is par ^ parity(shuffle)."""
        target = self._rank[par ^ parity(shuffle)]
        return np.fromiter(
            (target[tuple(p[j] for j in shuffle)] for p in self.perms[par]),
            dtype=np.int32,
            count=self.size,
        )


@cache
def parity_ranks(n: int) -> ParityRanks:
    return ParityRanks(n)
