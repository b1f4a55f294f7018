"""Boards past 5×5: near-optimal line by line, then the 5×5 search, with a proved bound.

While the unsolved part is wider or taller than five, one line of it (its top row or its left
column) is brought home by the weighted A* of `wastar_kernel`, aiming only at that line's tiles
and looking for shorter ways with lighter weights while its share of the time lasts. That search
tells positions apart by the line's tiles and the blank alone (the other tiles count nothing and
block nothing), and its value is the larger of the line's additive databases (groups of three or
four of its tiles, plus the blank's way to the nearest) and tables that count the blank
(`line_tables`: a few of its tiles and the blank, exact). A 6×6 line goes at once; past 36 cells
a line goes two tiles at a time. What is left, at most 5×5, is relabelled as a board of its own
and solved by `bounded.solve_bounded`; then windows along the whole path are shortened
(`shortcut`).

On the 6×6 (a row and a column to bring home) the lines are brought home with an eye on the
rest (`rest_aware`: the line's search also counts the tiles still to come, with a few weights,
in both orders): 10-20 candidates, whose 5×5 left differs by 20 moves or more.
`candidates.finish_best` screens each one's 5×5 and polishes the best few. Should none of those
runs find its lines (a small budget), the lines are brought home for themselves: both orders,
every way the first line's weights found (within WAY_MARGIN moves of its shortest) followed,
every way of the second line kept.

The lower bound is the whole board's: a spell of plain IDA* on the whole board raises it past
the heuristic's value (`lower_bound`: up to 7×7 on Manhattan + linear conflicts + last moves),
so `over` is honest for the whole answer.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from fractions import Fraction

from kaeru.engine.rules.control import Control, Meter
from kaeru.engine.rules.results import DEFAULT_BUDGET
from kaeru.engine.sliding.board.geometry import Grid, State
from kaeru.engine.sliding.databases.pdb_big import (
    BigDatabase,
    big_database,
)
from kaeru.engine.sliding.near_optimal.bounded import (
    Bounded,
    _polish,
    _Runner,
    heuristic,
    max_nodes_for,
    over_words,
    parity_floor,
)
from kaeru.engine.sliding.near_optimal.candidates import finish_best
from kaeru.engine.sliding.near_optimal.line_database import LineDatabase, line_tiles
from kaeru.engine.sliding.near_optimal.lower_bound import lower_bound
from kaeru.engine.sliding.near_optimal.peeled import Peeled, play_part
from kaeru.engine.sliding.near_optimal.rest_aware import rest_aware_ways
from kaeru.engine.sliding.near_optimal.shortcut import shorten
from kaeru.engine.sliding.near_optimal.wastar_kernel import EXHAUSTED as LINE_EXHAUSTED

FINISH = 5  # the side at most of what `solve_bounded` finishes
LINE_WEIGHTS = (Fraction(5), Fraction(3), Fraction(2), Fraction(7, 4), Fraction(3, 2),
                Fraction(5, 4), Fraction(9, 8), Fraction(1))  # w = 1: the line's optimum
CHUNK = 6  # tiles of a line aimed at together (a 6×6 line at once)
BIG_CHUNK = 2  # ... on boards past 36 cells, where the blank has far to go between them
HEAVY_WEIGHTS = (Fraction(12), Fraction(40))  # when the first weight fills its memory
FIRST_SECONDS = 30.0  # CPU a stage's first answer may take (a cancel stops it sooner)
BRANCH = 6  # ways of the first line followed, on boards of up to 36 cells
LAST_BRANCH = 6  # ways of the last line kept, likewise
WAY_MARGIN = 10  # a line's way longer than its shortest by more is not followed
TRACE = False


@dataclass(frozen=True)
class Shares:
    """How a board's time is shared out: the lines take what the others leave."""

    finish: float  # the last 5×5
    shorten: float  # windows along the whole path (`shortcut`)
    lower: float  # plain IDA* on the whole board (the lower bound)


SIX_SHARES = Shares(finish=0.40, shorten=0.02, lower=0.18)  # 6×6: near-optimal lines
BIG_SHARES = Shares(finish=0.20, shorten=0.30, lower=0.10)  # past 36 cells: long paths


def shares_for(full: Grid) -> Shares:
    return SIX_SHARES if full.cells <= 36 else BIG_SHARES


def chunk_for(shape: Grid) -> int:
    return CHUNK if shape.cells <= 36 else BIG_CHUNK


def _reduced(full: Grid, states: list[State], state: State, database: BigDatabase,
             meter: Meter) -> Bounded:
    """A stage found nothing in its time or memory: row-by-row reduction finishes from where
    the lines got to, bounded below by the whole board's databases."""
    from kaeru.engine.sliding.near_optimal.reduction import reduce_solve

    moves, _ = reduce_solve(full, states[-1], Control())
    whole, _ = reduce_solve(full, state, Control())  # from the start: kept when shorter
    if len(whole) < len(states) - 1 + len(moves):
        states[1:], moves = [], whole
    for move in moves:
        states.append(full.slide(states[-1], move))
    lower = min(parity_floor(full, state, heuristic(full, state, database)), len(states) - 1)
    meter.extra["finished by"] = "row-by-row reduction"
    meter.extra["lower bound"] = str(lower)
    meter.extra["over optimum"] = over_words(len(states) - 1 - lower)
    meter.depth = len(states) - 1
    return Bounded(states, lower, meter.finish())


def _line_lengths(full: Grid) -> list[int]:
    """The lengths of the lines brought home before the last 5×5, in order."""
    out, width, height = [], full.width, full.height
    while width > FINISH or height > FINISH:
        if height >= width:
            out.append(width)
            height -= 1
        else:
            out.append(height)
            width -= 1
    return out


def _orders(full: Grid) -> list[tuple[bool, ...]]:
    """The orders to take the lines in (True: a row): the usual one (the top row while at least
    as tall as wide, else the left column) and, when a row and a column are left, the other
    way round too (which one costs less differs from board to board)."""
    usual: list[bool] = []
    width, height = full.width, full.height
    while width > FINISH or height > FINISH:
        usual.append(height >= width)
        height, width = (height - 1, width) if usual[-1] else (height, width - 1)
    orders = [tuple(usual)]
    if len(usual) == 2 and usual[0] != usual[1]:
        orders.append((usual[1], usual[0]))
    return orders


def _peel(full: Grid, state: State, order: tuple[bool, ...], meter: Meter, seconds: float,
          nodes_cap: int, branch: int = 1, last_branch: int = 1,
          until: float | None = None) -> list[Peeled]:
    """Bring the lines home in `order`, a few tiles of a line at a time (`seconds` each, and
    the first line's followers' no later than `until`); the first line's `branch` shortest ways
    are each followed, and the last line's `last_branch` shortest ways each kept (those within
    WAY_MARGIN of the shortest): which one leaves the easiest rest is known only once the rest
    is solved."""
    starts = [Peeled([state])]
    out: list[Peeled] = []
    i = 0
    while i < len(starts):
        peeled = starts[i]
        for number in range(1 if i else 0, len(order)):  # the others: from the second line
            is_row = order[number]
            shape = peeled.rest(full)
            sub = peeled.rest_state(full)
            tiles = line_tiles(shape, is_row)
            chunk = chunk_for(shape)
            for upto in range(chunk, len(tiles) + chunk, chunk):  # a long line, in chunks
                spend = seconds if until is None or not i else min(
                    seconds, max(until - time.process_time(), 0.0))
                ways = _line_ways(shape, sub, tiles[:upto], meter, spend, nodes_cap)
                if not ways:
                    peeled.failed = True
                    break
                if upto >= len(tiles):  # the line's other ways, kept or followed
                    others = ways[1:branch] if number == 0 and not i else []
                    if number == len(order) - 1:
                        others = ways[1:last_branch]
                    others = [w for w in others if len(w) <= len(ways[0]) + WAY_MARGIN]
                    for way in others:
                        other = Peeled(list(peeled.states), peeled.top + is_row,
                                        peeled.left + (not is_row))
                        play_part(full, other.states, way, peeled.top, peeled.left, shape)
                        (out if number == len(order) - 1 else starts).append(other)
                play_part(full, peeled.states, ways[0], peeled.top, peeled.left, shape)
                sub = ways[0][-1]
            if peeled.failed:
                break
            if is_row:
                peeled.top += 1
            else:
                peeled.left += 1
            meter.extra["lines"] = f"{peeled.top + peeled.left} of {len(order)}"
        out.append(peeled)
        i += 1
    return out


def solve_peeled(full: Grid, state: State, control: Control, seconds: float) -> Bounded | None:
    """A solution line by line then the last 5×5, with the whole board's proved lower bound;
    when a line's stage finds nothing, reduction finishes from there; None when the last 5×5
    finds nothing (the caller's reduction answers)."""
    began = time.process_time()
    database = big_database(full, control=control)
    meter = Meter(f"line by line, weighted A* + {database.name}", control.unlimited())
    nodes_cap = control.budget if control.budget not in (None, DEFAULT_BUDGET) else 1 << 62
    assert nodes_cap is not None
    h0 = heuristic(full, state, database)
    meter.extra["h"] = str(h0)
    orders = _orders(full)
    stages = sum(-(-side // chunk_for(full)) for side in _line_lengths(full))
    shares = shares_for(full)
    line_share = 1 - shares.finish - shares.shorten - shares.lower
    branch = BRANCH if full.cells <= 36 else 1
    line_seconds = seconds * line_share / max(1, len(orders) * stages)
    whole: list[Peeled] = []
    if branch > 1:  # up to 36 cells: lines that leave the rest near its goal
        whole = rest_aware_ways(full, state, orders, meter, began + seconds * line_share,
                                nodes_cap)
        line_seconds = max(0.0, began + seconds * line_share - time.process_time()) / max(
            1, len(orders) * stages)  # what they left, for the lines below should none be found
    if not whole:  # the lines brought home for themselves
        tried = [p for n, order in enumerate(orders)  # each order's followers: within its share
                 for p in _peel(full, state, order, meter, line_seconds, nodes_cap, branch,
                                LAST_BRANCH if branch > 1 else 1,
                                began + seconds * line_share * (n + 1) / len(orders))]
        whole = [p for p in tried if not p.failed]
        if not whole:
            return _reduced(full, tried[0].states, state, database, meter)
    finish_until = began + seconds * (1 - shares.lower - shares.shorten)
    if TRACE:
        print(f"  lines: {len(whole)} candidates in {time.process_time() - began:.1f} s")
    states = finish_best(full, whole, control, meter, finish_until, nodes_cap)
    if states is None:
        return None
    states = shorten(full, states, began + seconds * (1 - shares.lower) - time.process_time(),
                     meter.check)
    lower = lower_bound(full, state, database, meter, len(states) - 1,
                        began + seconds - time.process_time(), nodes_cap)
    lower = min(max(lower, parity_floor(full, state, h0)), len(states) - 1)
    meter.extra["lower bound"] = str(lower)
    meter.extra["over optimum"] = over_words(len(states) - 1 - lower)
    meter.depth = len(states) - 1
    return Bounded(states, lower, meter.finish())


def _bring_line(shape: Grid, sub: State, tiles: list[int], meter: Meter, seconds: float,
                nodes_cap: int) -> list[State] | None:
    """The shortest of `_line_ways`."""
    ways = _line_ways(shape, sub, tiles, meter, seconds, nodes_cap)
    return ways[0] if ways else None


def _line_ways(shape: Grid, sub: State, tiles: list[int], meter: Meter, seconds: float,
               nodes_cap: int) -> list[list[State]]:
    """States of the part from `sub` until the line's tiles are home: the first weight, heavier
    ones when it fills its memory with nothing found, then lighter ones while time lasts."""
    runner = _Runner(shape, sub, LineDatabase(shape, tiles), meter)
    began = time.process_time()
    best: list[State] | None = None
    limit = len(runner.path) - 2
    first, *lighter = LINE_WEIGHTS
    for weight in (first, *HEAVY_WEIGHTS):
        outcome = runner.weighted(weight, limit, FIRST_SECONDS, nodes_cap,
                                  max_nodes_for(shape, nodes_cap))
        if TRACE:
            print(f"  line {tiles} w={float(weight):.2f} -> {outcome} nodes={runner.nodes:,}")
        if outcome >= 0:
            best = runner.states(outcome, to_goal=False)
            limit = outcome - 2
            break
    if best is None:
        return []
    ways = [best]  # every weight's answer, shortest first: each leaves the rest differently
    for weight in lighter:
        left = began + seconds - time.process_time()
        if left <= 0:
            break
        outcome = runner.weighted(weight, limit, left, nodes_cap, max_nodes_for(shape, nodes_cap))
        if TRACE:
            print(f"  line {tiles} w={float(weight):.2f} -> {outcome} nodes={runner.nodes:,}")
        if outcome == LINE_EXHAUSTED:
            return ways  # nothing shorter exists
        if outcome < 0:
            break
        best = runner.states(outcome, to_goal=False)
        ways.insert(0, best)
        limit = outcome - 2
    polished = _polish(shape, best, runner.db, meter, began + seconds, nodes_cap,
                       to_goal=False)
    return [polished, *ways[1:]] if polished is not best else ways
