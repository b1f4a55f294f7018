"""Fewest moves for peg solitaire, where a move is one peg's chain of jumps (the count players
and puzzle books use: 18 for the English central game, Bergholt 1912, shown minimal by
Beasley). Exact, by three sweeps over the layers of the game (numpy, engine.pegs.space):

1. Forward: every position reachable from the start, layer by layer (each jump takes one peg
   off, so layer k has k pegs fewer), as symmetry classes under the symmetries that fix the
   start and the goal, dropping the positions a pagoda function proves dead.
2. Backward: from the finish, keep in each layer only the classes with a child kept in the
   next one. What is left is exactly the positions that lie on some solution.
3. Forward again, counting moves: for each position the fewest moves g that reach it, and the
   holes L its last jump can have landed in with g moves. A jump from a costs nothing more when
   a is in L (the same peg goes on), one move otherwise; no other bookkeeping is needed, since
   ending elsewhere costs at least g + 1, which a new move from there costs anyway.

When the finish is the complement of the start (a single vacancy finishing in the same hole:
the central game and the other six classic games), the complemented game is the game itself
played backwards, so sweeps 1 and 2 become one forward sweep to the middle (see
`_meet_in_the_middle`): the central game keeps 10.2 million classes instead of 15.4.

The last layer's g is the answer, optimal over every solution; a solution with it is read back
from the finish, one jump at a time. Every position has the same number of pegs as its layer,
so the layers never meet and only arrays of sorted codes are kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from kaeru.engine.pegs.boards import Board
from kaeru.engine.pegs.pagoda import PagodaTest, library
from kaeru.engine.pegs.pagoda_arrays import PagodaArrays
from kaeru.engine.pegs.space import (
    JumpTables,
    Prune,
    SymmetryTables,
    canonical_classes,
    image_of,
    layers,
    next_layer,
)
from kaeru.engine.rules.control import QUIET, Control, Meter
from kaeru.engine.rules.results import SearchStats

U64 = np.uint64
BYTES_PER_CLASS = 40  # the forward layers (8 bytes a class) and the sweeps' temporaries


@dataclass(frozen=True)
class MoveLayer:
    """The classes of one layer that lie on a solution, with their move counts."""

    classes: np.ndarray  # uint64, sorted canonical codes
    moves: np.ndarray  # int64: the fewest moves that reach each
    landings: np.ndarray  # uint64: holes (canonical frame) the last jump lands in, with those


@dataclass(frozen=True)
class FewestMoves:
    """The answer: the jumps of one solution with the fewest moves, and the figures."""

    jumps: list[int]  # indices into board.jumps
    moves: int
    forward_classes: int  # classes the forward sweep kept (after the pagoda cut)
    solution_classes: int  # classes on some solution


def fewest_move_solution(
    board: Board, start: int, goal: int | None, control: Control = QUIET
) -> tuple[list[int] | None, SearchStats]:
    """The jumps of a fewest-move solution (None when there is none) and the search figures.
    The budget counts the classes held (the forward layers); by default what memory allows."""
    meter = Meter(
        "fewest moves: forward, backward and move-count sweeps over the layers (numpy)",
        control,
        bytes_per_position=BYTES_PER_CLASS,
    )
    found = fewest_moves(board, start, goal, meter)
    if found is not None:
        meter.depth = found.moves
        meter.extra["moves"] = str(found.moves)
        meter.extra["jumps"] = str(len(found.jumps))
    return (None if found is None else found.jumps), meter.finish()


def group_fixing(board: Board, start: int, goal: int | None) -> list[tuple[int, ...]]:
    """The symmetries that map the start onto itself and the goal hole onto itself."""
    return [
        p
        for p in board.symmetries
        if image_of(p, start) == start and (goal is None or p[goal] == goal)
    ]


def _members(sorted_codes: np.ndarray, codes: np.ndarray) -> np.ndarray:
    if sorted_codes.size == 0:
        return np.zeros(codes.size, dtype=bool)
    at = np.minimum(np.searchsorted(sorted_codes, codes), sorted_codes.size - 1)
    return sorted_codes[at] == codes


def fewest_moves(
    board: Board,
    start: int,
    goal: int | None,
    meter: Meter,
    *,
    complements: bool = True,
) -> FewestMoves | None:
    """A solution from `start` to one peg (in `goal`, or anywhere when None) with the fewest
    moves, or None when no sequence of jumps gets there. Raises BudgetExceeded or Cancelled.

    `complements=False` keeps to the forward and backward sweeps even where the finish is the
    complement of the start (for tests: both ways must agree)."""
    pegs = start.bit_count()
    if pegs == 1:
        found = goal is None or start == 1 << goal
        return FewestMoves([], 0, 1, 1) if found else None
    group = group_fixing(board, start, goal)
    symmetry = SymmetryTables(board.size, group)
    jumps = JumpTables(board)
    pagodas = PagodaArrays(PagodaTest(board, goal, library(board)))

    def prune(codes: np.ndarray) -> np.ndarray:
        if codes.size == 0:
            return np.zeros(0, dtype=bool)
        return pagodas.dead(codes, int(codes[0]).bit_count())

    if complements and goal is not None and start == board.full ^ (1 << goal):
        alive, forward_classes = _meet_in_the_middle(board, start, jumps, symmetry, prune, meter)
        if alive is None:
            return None
    else:
        meter.extra["sweep"] = "forward"
        forward = [
            layer.classes
            for layer in layers(board, start, meter, group=group, prune=prune, keep_all=True)
        ]
        forward_classes = sum(int(x.size) for x in forward)
        meter.extra["forward classes"] = f"{forward_classes:,}"
        if len(forward) < pegs:
            return None
        last = forward[-1]
        if goal is not None:
            last = symmetry.canonical(np.array([1 << goal], dtype=U64))
            if not _members(forward[-1], last).all():
                return None
        alive = _backward(forward, last, jumps, symmetry, meter)
    solution_classes = sum(int(x.size) for x in alive)
    meter.extra["solution classes"] = f"{solution_classes:,}"
    counted = _count_moves(board, alive, jumps, symmetry, group, meter)
    finals = counted[-1]
    best = int(finals.moves.min())
    path = _read_back(board, counted, group, best)
    return FewestMoves(path, best, forward_classes, solution_classes)


def _meet_in_the_middle(
    board: Board,
    start: int,
    jumps: JumpTables,
    symmetry: SymmetryTables,
    prune: Prune,
    meter: Meter,
) -> tuple[list[np.ndarray] | None, int]:
    """The classes on a solution, layer by layer, for a game whose finish is the complement of
    its start (a single vacancy finishing in the same hole), and the classes swept forward.

    Complementing every position turns the game into itself played backwards, so x lies on a
    solution at layer k exactly when x is reachable and its complement is reachable at layer
    last - k. Past the middle the forward sweep keeps only such x (the mirror layers are known
    by then), so it never builds the large late layers; the early layers are the complements
    of the late ones. No backward sweep is needed."""
    meter.extra["sweep"] = "forward to the middle"
    full = U64(board.full)
    last = start.bit_count() - 1
    found: list[np.ndarray] = [symmetry.canonical(np.array([start], dtype=U64))]
    swept = 1
    meter.held = 1
    for k in range(1, last + 1):
        following = next_layer(found[-1], jumps, symmetry, meter, prune)
        swept += int(following.size)
        mirror = last - k
        if mirror <= k:
            complements = following if mirror == k else found[mirror]
            known = canonical_classes(complements ^ full, symmetry, meter)
            following = following[_members(known, following)]
        if following.size == 0:
            return None, swept
        found.append(following)
        meter.held = sum(int(x.size) for x in found)
        meter.depth, meter.frontier = k, int(following.size)
        meter.extra["forward classes"] = f"{swept:,}"
    for k in range((last + 1) // 2):  # the early layers: complements of the exact late ones
        found[k] = canonical_classes(found[last - k] ^ full, symmetry, meter)
    return found, swept


def _backward(
    forward: list[np.ndarray],
    last: np.ndarray,
    jumps: JumpTables,
    symmetry: SymmetryTables,
    meter: Meter,
) -> list[np.ndarray]:
    """Per layer, the classes with a child on a solution (the forward layers are released)."""
    meter.extra["sweep"] = "backward"
    alive: list[np.ndarray] = [last]
    for k in range(len(forward) - 2, -1, -1):
        parents = forward[k]
        following = alive[-1]
        keep = np.zeros(parents.size, dtype=bool)
        for need, empty, flip in zip(jumps.needs, jumps.empties, jumps.flips, strict=True):
            meter.check()  # a jump at a time: all of a layer's take up to half a second
            ok = np.flatnonzero(((parents & need) == need) & ((parents & empty) == U64(0)))
            if ok.size == 0:
                continue
            children = symmetry.canonical(parents[ok] ^ flip)
            keep[ok[_members(following, children)]] = True
        meter.tick(int(parents.size))
        meter.check()
        alive.append(parents[keep])
        forward[k] = parents[:0]
        forward[k + 1] = forward[k + 1][:0]
    alive.reverse()
    return alive


def _count_moves(
    board: Board,
    alive: list[np.ndarray],
    jumps: JumpTables,
    symmetry: SymmetryTables,
    group: Sequence[Sequence[int]],
    meter: Meter,
) -> list[MoveLayer]:
    """The fewest moves to each class on a solution, and where its last jump can land."""
    meter.extra["sweep"] = "moves"
    perms = np.array(group, dtype=np.int64)  # perms[s, hole]: the hole's image under s
    root = alive[0]
    out = [MoveLayer(root, np.zeros(root.size, dtype=np.int64), np.zeros(root.size, dtype=U64))]
    for k in range(1, len(alive)):
        prior, targets = out[-1], alive[k]
        codes, costs, lands = [], [], []
        for index, (a, _, c) in enumerate(board.jumps):
            meter.check()  # a jump at a time: all of a layer's take up to half a second
            need, empty, flip = jumps.needs[index], jumps.empties[index], jumps.flips[index]
            x = prior.classes
            ok = np.flatnonzero(((x & need) == need) & ((x & empty) == U64(0)))
            if ok.size == 0:
                continue
            images = symmetry.images(x[ok] ^ flip)
            best = images[0].copy()
            for image in images[1:]:
                np.minimum(best, image, out=best)
            on = _members(targets, best)
            if not on.any():
                continue
            ok, best = ok[on], best[on]
            land = np.zeros(ok.size, dtype=U64)
            for s, image in enumerate(images):
                land |= np.where(image[on] == best, U64(1) << U64(perms[s, c]), U64(0))
            chained = (prior.landings[ok] >> U64(a)) & U64(1)
            codes.append(best)
            costs.append(prior.moves[ok] + (1 - chained.astype(np.int64)))
            lands.append(land)
        out.append(_combine(np.concatenate(codes), np.concatenate(costs), np.concatenate(lands)))
        if out[-1].classes.size != targets.size:
            raise AssertionError("the move count missed classes on a solution")
        meter.tick(int(prior.classes.size))
        meter.check()
    return out


def _combine(codes: np.ndarray, costs: np.ndarray, lands: np.ndarray) -> MoveLayer:
    """Per distinct code: the least cost and the OR of the landings that have it."""
    order = np.lexsort((costs, codes))
    codes, costs, lands = codes[order], costs[order], lands[order]
    starts = np.flatnonzero(np.concatenate(([True], codes[1:] != codes[:-1])))
    least = np.repeat(costs[starts], np.diff(np.append(starts, codes.size)))
    keep = costs == least
    codes, costs, lands = codes[keep], costs[keep], lands[keep]
    starts = np.flatnonzero(np.concatenate(([True], codes[1:] != codes[:-1])))
    return MoveLayer(codes[starts], costs[starts], np.bitwise_or.reduceat(lands, starts))


def _read_back(
    board: Board, counted: list[MoveLayer], group: Sequence[Sequence[int]], best: int
) -> list[int]:
    """Jump indices of a solution with `best` moves, read back from the finish."""
    finals = counted[-1]
    at = int(np.argmin(finals.moves))
    state = int(finals.classes[at])  # a finish in its canonical frame
    needed, landing = best, _landing_of(int(finals.landings[at]), group[0])
    path: list[int] = []
    for k in range(len(counted) - 1, 0, -1):
        layer = counted[k - 1]
        for index, (a, b, c) in enumerate(board.jumps):
            if c != landing or not state >> c & 1 or state >> a & 1 or state >> b & 1:
                continue
            before = state ^ ((1 << a) | (1 << b) | (1 << c))
            found = _lookup(layer, before, group)
            if found is None:
                continue
            moves, landings, perm = found
            if moves == needed and landings >> perm[a] & 1:  # the same peg went on
                path.append(index)
                state, landing = before, a
                break
            if moves + 1 == needed:  # a new move began here
                path.append(index)
                state, needed = before, moves
                landing = _landing_of(landings, perm) if k > 1 else -1
                break
        else:
            raise AssertionError("no jump leads back along a fewest-move solution")
    path.reverse()
    return path


def _lookup(
    layer: MoveLayer, state: int, group: Sequence[Sequence[int]]
) -> tuple[int, int, Sequence[int]] | None:
    """(moves, landings in the canonical frame, the symmetry to it) of `state`, if kept."""
    images = [image_of(p, state) for p in group]
    code = min(images)
    at = int(np.searchsorted(layer.classes, code))
    if at >= layer.classes.size or int(layer.classes[at]) != code:
        return None
    perm = group[images.index(code)]
    return int(layer.moves[at]), int(layer.landings[at]), perm


def _landing_of(landings: int, perm: Sequence[int]) -> int:
    """A hole h (in the position's own frame) whose image perm[h] is in `landings`."""
    for hole, image in enumerate(perm):
        if landings >> image & 1:
            return hole
    raise AssertionError("a position on a solution without a landing hole")
