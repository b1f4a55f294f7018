"""Whole peg spaces in numpy: every position reachable from a start, one layer of symmetry
classes at a time.

A position is an int of up to 63 bits (bit h = a peg in hole h) held in numpy uint64 arrays.
Every jump takes one peg off, so layer k (the positions k jumps from the root, all with k pegs
fewer) only ever leads to layer k + 1: the search keeps two layers and nothing else.

- Successors of a whole array at once: for each of the board's jumps a mask test (pegs in the
  jumper's and the jumped hole, the target empty) and an xor.
- Symmetry classes: each position is replaced by its smallest image under the symmetries that
  fix the root; an image is a bit permutation, computed from per-symmetry lookup tables on
  11-bit chunks of the position (three or four table reads per symmetry).
- Sorting removes the duplicates: the raw children first (a position is reached from many
  parents, so this cuts the symmetry work about threefold), then their canonical forms.
- A cancel is honoured within one bounded step (tens of milliseconds on the English board):
  PARENTS_PER_STEP parents at a time, each step's classes merged into the layer's a piece at a
  time (engine.pegs.sorted_codes), orbit sizes CLASSES_PER_CHECK classes at a time, the meter
  checked between. A worker ends itself when a cancelled job runs on past a second.

A class counts for its orbit (the number of its distinct images), so the exact number of
positions comes with the number of classes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from kaeru.engine.pegs.boards import Board
from kaeru.engine.pegs.sorted_codes import merge_unique, sorted_unique
from kaeru.engine.rules.control import Meter
from kaeru.engine.rules.results import BudgetExceeded

CHUNK_BITS = 11
PARENTS_PER_STEP = 1 << 16  # parents expanded at once, between two cancel checks (~50 ms)
CLASSES_PER_CHECK = 1 << 18  # classes sized at once, between two cancel checks (~25 ms)
U64 = np.uint64
Prune = Callable[[np.ndarray], np.ndarray]  # codes -> mask of those to drop


@dataclass(frozen=True)
class Layer:
    """The classes of one layer (sorted, canonical) and the positions they stand for."""

    classes: np.ndarray  # uint64, sorted, each the smallest image of its class (or emptied)
    count: int  # how many classes
    positions: int  # the sum of their orbit sizes


class SymmetryTables:
    """Bit-permutation lookup tables for a group of board symmetries (identity first)."""

    def __init__(self, size: int, symmetries: Sequence[Sequence[int]]) -> None:
        self.size = size
        self.chunks = (size + CHUNK_BITS - 1) // CHUNK_BITS
        self.tables: list[list[np.ndarray]] = []
        for perm in symmetries:
            per_chunk = []
            for k in range(self.chunks):
                start = k * CHUNK_BITS
                width = min(CHUNK_BITS, size - start)
                values = np.arange(1 << width, dtype=U64)
                table = np.zeros(1 << width, dtype=U64)
                for j in range(width):
                    bit = (values >> U64(j)) & U64(1)
                    table |= bit << U64(perm[start + j])
                per_chunk.append(table)
            self.tables.append(per_chunk)

    def _indices(self, codes: np.ndarray) -> list[np.ndarray]:
        mask = U64((1 << CHUNK_BITS) - 1)
        return [((codes >> U64(k * CHUNK_BITS)) & mask).astype(np.intp) for k in range(self.chunks)]

    def images(self, codes: np.ndarray) -> list[np.ndarray]:
        """Each code's image under each symmetry (identity first)."""
        indices = self._indices(codes)
        return [codes.copy()] + [self._image(s, indices) for s in range(1, len(self.tables))]

    def _image(self, symmetry: int, indices: list[np.ndarray]) -> np.ndarray:
        tables = self.tables[symmetry]
        image = tables[0][indices[0]]
        for table, index in zip(tables[1:], indices[1:], strict=True):
            image |= table[index]
        return image

    def canonical(self, codes: np.ndarray) -> np.ndarray:
        """The smallest image of each code."""
        if len(self.tables) == 1:
            return codes.copy()
        indices = self._indices(codes)
        best = self._image(1, indices)
        np.minimum(best, codes, out=best)
        for symmetry in range(2, len(self.tables)):
            np.minimum(best, self._image(symmetry, indices), out=best)
        return best

    def orbit_sizes(self, codes: np.ndarray) -> np.ndarray:
        """How many distinct images each code has: the group's order over its stabiliser's."""
        indices = self._indices(codes)
        fixed = np.ones(codes.size, dtype=np.int64)
        for symmetry in range(1, len(self.tables)):
            fixed += self._image(symmetry, indices) == codes
        return len(self.tables) // fixed


class JumpTables:
    """Per jump: the pegs it needs, the hole it needs empty, and the bits it flips."""

    def __init__(self, board: Board) -> None:
        self.needs = np.array([(1 << a) | (1 << b) for a, b, _ in board.jumps], dtype=U64)
        self.empties = np.array([1 << c for _, _, c in board.jumps], dtype=U64)
        self.flips = self.needs | self.empties

    def children(self, codes: np.ndarray) -> np.ndarray:
        """Every position one jump from any of `codes` (with repeats)."""
        out = []
        zero = U64(0)
        for need, empty, flip in zip(self.needs, self.empties, self.flips, strict=True):
            ok = (codes & need) == need
            ok &= (codes & empty) == zero
            out.append(codes[ok] ^ flip)
        return np.concatenate(out) if out else codes[:0]


def symmetries_fixing(board: Board, root: int) -> list[tuple[int, ...]]:
    """The board's symmetries that map `root` onto itself (identity first)."""
    return [p for p in board.symmetries if image_of(p, root) == root]


def image_of(perm: Sequence[int], state: int) -> int:
    """The position `state` under the hole permutation `perm`."""
    return sum(1 << perm[h] for h in range(len(perm)) if state >> h & 1)


def next_layer(
    layer: np.ndarray,
    jumps: JumpTables,
    symmetry: SymmetryTables,
    meter: Meter,
    prune: Prune | None = None,
) -> np.ndarray:
    """The sorted canonical classes one jump on from the classes in `layer`, without those
    `prune` rules out (it returns a mask of the codes to drop).

    The meter is checked (cancel, budget) after every numpy step of bounded size: at most
    PARENTS_PER_STEP parents' children at once, merges a piece at a time (sorted_codes)."""
    stored = meter.held or int(layer.size)  # the layers kept, this one included
    merged = layer[:0]  # the classes found so far, merged
    parts: list[np.ndarray] = []  # classes found since, one sorted array per step
    for begin in range(0, layer.size, PARENTS_PER_STEP):
        parents = layer[begin : begin + PARENTS_PER_STEP]
        children = jumps.children(parents)
        meter.generated += int(children.size)
        children = sorted_unique(children)
        meter.check()
        if prune is not None:
            children = children[~prune(children)]
        parts.append(sorted_unique(symmetry.canonical(children)))
        waiting = sum(int(part.size) for part in parts)
        if waiting > merged.size:  # merged as it doubles: held stays near the classes found
            merged, parts, waiting = merge_unique([merged, *parts], meter.check), [], 0
        meter.held = stored + int(merged.size) + waiting
        meter.tick(int(parents.size))
        meter.check()
    merged = merge_unique([merged, *parts], meter.check)
    meter.held = stored + int(merged.size)
    return merged


def positions_of(classes: np.ndarray, symmetry: SymmetryTables, meter: Meter) -> int:
    """The positions `classes` stand for (the sum of their orbit sizes), CLASSES_PER_CHECK
    classes at a time with the meter checked between."""
    total = 0
    for begin in range(0, classes.size, CLASSES_PER_CHECK):
        total += int(symmetry.orbit_sizes(classes[begin : begin + CLASSES_PER_CHECK]).sum())
        meter.check()
    return total


def canonical_classes(codes: np.ndarray, symmetry: SymmetryTables, meter: Meter) -> np.ndarray:
    """The sorted distinct canonical forms of `codes`, CLASSES_PER_CHECK codes at a time and
    merged a piece at a time, with the meter checked between."""
    parts = []
    for begin in range(0, codes.size, CLASSES_PER_CHECK):
        parts.append(sorted_unique(symmetry.canonical(codes[begin : begin + CLASSES_PER_CHECK])))
        meter.check()
    return merge_unique(parts, meter.check)


def layers(
    board: Board,
    root: int,
    meter: Meter,
    out: list[Layer] | None = None,
    *,
    group: Sequence[Sequence[int]] | None = None,
    prune: Prune | None = None,
    keep_all: bool = False,
) -> list[Layer]:
    """Every layer reachable from `root` (root first), appended to `out` as each is finished
    (so a caller still has them when the budget stops the search). Only the last layer keeps
    its classes (for the farthest positions) unless `keep_all`. Classes are taken under
    `group` (by default the symmetries fixing the root); `prune` drops positions on the way.

    When the next layer, at the growth rate of the last step, would take the classes held past
    the budget, BudgetExceeded is raised at once rather than after building most of it."""
    out = [] if out is None else out
    group = symmetries_fixing(board, root) if group is None else group
    symmetry = SymmetryTables(board.size, group)
    jumps = JumpTables(board)
    current = symmetry.canonical(np.array([root], dtype=U64))
    out.append(Layer(current, 1, 1))
    meter.held = 1
    while True:
        following = next_layer(current, jumps, symmetry, meter, prune)
        if following.size == 0:
            break
        positions = positions_of(following, symmetry, meter)
        if not keep_all:
            out[-1] = Layer(out[-1].classes[:0], out[-1].count, out[-1].positions)  # release
        out.append(Layer(following, int(following.size), positions))
        held = sum(int(x.classes.size) for x in out)
        meter.depth, meter.frontier = len(out) - 1, int(following.size)
        meter.extra["classes"] = f"{sum(x.count for x in out):,}"
        heading = following.size * following.size // max(1, current.size)
        current = following
        meter.held = held
        if meter.budget is not None and held + heading > meter.budget:
            raise BudgetExceeded(
                f"the next layer is heading for about {heading:,} classes, which would take "
                f"the classes held past the budget of {meter.budget:,}",
                meter.snapshot(),
            )
    return out


def images(board: Board, root: int, code: int) -> list[int]:
    """Every image of `code` under the symmetries fixing `root`."""
    return sorted({image_of(p, code) for p in symmetries_fixing(board, root)})
