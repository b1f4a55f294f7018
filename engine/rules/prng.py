"""A small random generator the project owns, so that a seed gives the same games on every
machine and every Python version (daily puzzles, `kaeru random --seed`).

`SplitMix64` is Steele, Lea and Flood's SplitMix64 in plain Python ints: a 64-bit counter
advanced by the golden-ratio constant, then mixed. It subclasses `random.Random` so that it can
be passed wherever a puzzle's `random_start(rng, depth)` expects one, and it overrides every
method the engine draws with (`randrange`, `randint`, `choice`, `shuffle`, `random`,
`getrandbits`), so no result depends on CPython's own algorithms, which the language does not
promise to keep. `randrange` is unbiased (rejection on the top bits); `shuffle` is Fisher–Yates
from the last cell down.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import MutableSequence
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from _typeshed import SupportsLenAndGetItem

MASK64 = (1 << 64) - 1
GOLDEN_GAMMA = 0x9E3779B97F4A7C15

T = TypeVar("T")


def mix64(z: int) -> int:
    """SplitMix64's output function (a bijection of 64-bit words)."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def seed_from_text(text: str) -> int:
    """A 64-bit seed from the first 8 bytes of the SHA-256 of `text` (UTF-8)."""
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")


class SplitMix64(random.Random):
    """A seeded generator whose every draw is defined here (see the module docstring)."""

    def __init__(self, seed: int = 0) -> None:
        self._state = 0
        super().__init__(seed)

    @classmethod
    def from_text(cls, text: str) -> SplitMix64:
        return cls(seed_from_text(text))

    # ---- the core --------------------------------------------------------------------------
    def seed(self, a: Any = 0, version: int = 2) -> None:
        if not isinstance(a, int):
            a = seed_from_text(str(a))
        self._state = a & MASK64

    def next64(self) -> int:
        self._state = (self._state + GOLDEN_GAMMA) & MASK64
        return mix64(self._state)

    def getstate(self) -> Any:
        return ("splitmix64", self._state)

    def setstate(self, state: Any) -> None:
        self._state = int(state[1])

    def getrandbits(self, k: int) -> int:
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        value, have = 0, 0
        while have < k:
            value = (value << 64) | self.next64()
            have += 64
        return value >> (have - k)

    def random(self) -> float:
        return (self.next64() >> 11) / float(1 << 53)

    # ---- draws -----------------------------------------------------------------------------
    def below(self, n: int) -> int:
        """Uniform in 0 .. n-1: the top bits of fresh words, rejecting those past n."""
        if n <= 0:
            raise ValueError("empty range")
        bits = (n - 1).bit_length()
        while True:
            value = self.getrandbits(bits) if bits else 0
            if value < n:
                return value

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        if stop is None:
            start, stop = 0, start
        width = stop - start
        if step == 1:
            return start + self.below(width)
        count = (width + step - 1) // step if step > 0 else (width + step + 1) // step
        return start + step * self.below(count)

    def randint(self, a: int, b: int) -> int:
        return a + self.below(b - a + 1)

    def choice(self, seq: SupportsLenAndGetItem[T]) -> T:
        return seq[self.below(len(seq))]

    def shuffle(self, x: MutableSequence[Any]) -> None:
        """Fisher–Yates, from the last cell down."""
        for i in range(len(x) - 1, 0, -1):
            j = self.below(i + 1)
            x[i], x[j] = x[j], x[i]
