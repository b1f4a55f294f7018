"""Every position reachable from a start, by jumps made, for the explore screen and the CLI.

Each jump removes one peg, so the layers of a breadth-first search are the positions with 1, 2,
3... fewer pegs and never meet: only the current layer is kept, not every position seen. Layers
hold one position per symmetry class (under the symmetries that fix the start), and each class
counts for the size of its orbit, so the figures are exact position counts.
"""

from __future__ import annotations

from kaeru.engine.core import CancelCheck, Progress
from kaeru.engine.pegs.bitboard import BitBoard
from kaeru.engine.pegs.boards import Board
from kaeru.engine.results import FARTHEST_LIMIT, Enumeration
from kaeru.engine.search.meter import Meter


def enumerate_positions(
    board: Board,
    root: int,
    *,
    progress: Progress = None,
    cancelled: CancelCheck = None,
    budget: int | None = None,
) -> Enumeration:
    """Positions reachable from `root` after 0, 1, 2... jumps (and classes up to symmetry)."""
    meter = Meter("layered BFS by pegs left (symmetry classes)", progress, cancelled, budget)
    group = [p for p in board.symmetries if _image(p, root) == root]
    bits = BitBoard(board, group)
    layer = {bits.canonical(root)}
    histogram, classes = [1], [1]
    while True:
        following: set[int] = set()
        for state in layer:
            meter.tick()
            for _, child in bits.children(state):
                meter.generated += 1
                following.add(bits.canonical(child))
        if not following:
            break
        layer = following
        histogram.append(sum(len(group) // _stabiliser(bits, s) for s in layer))
        classes.append(len(layer))
        meter.depth, meter.frontier = len(histogram) - 1, len(layer)
    farthest: set[str] = set()
    for state in sorted(layer):
        farthest.update(board.format_state(s) for s in bits.images(state))
        if len(farthest) >= FARTHEST_LIMIT:
            break
    return Enumeration(
        root=board.format_state(root),
        histogram=tuple(histogram),
        farthest=tuple(sorted(farthest)[:FARTHEST_LIMIT]),
        stats=meter.finish(),
        series={"classes up to symmetry": tuple(classes)},
    )


def _stabiliser(bits: BitBoard, state: int) -> int:
    """How many of the symmetries leave `state` as it is."""
    return sum(1 for image in bits.images(state) if image == state)


def _image(perm: tuple[int, ...], state: int) -> int:
    return sum(1 << perm[h] for h in range(len(perm)) if state >> h & 1)
