"""The 6×6's lines brought home with an eye on the rest: the split that is not greedy.

Brought home for themselves alone (`peel._line_ways`), a row and a column cost 128-144 moves and
leave a 5×5 as scrambled as any (its best answer 105-125 moves), so the whole answer came to
1.4-1.6× the proved bound. Here each line's weighted A* also counts the tiles still to come: f =
g + w·h + λ·r, with h the line's value (`LineDatabase`) and r the rest's additive value (their
Manhattan distance, or tables of four of them); the goal is still the line home. A line then
costs a few moves more (and its run holds whole positions, not the line's alone), but the 5×5
it leaves is 10-30 moves nearer: on Random(6)'s second board, lines of 146 moves leave a rest
of 81 where lines of 135 left 109.

Which weights leave the easiest rest differs from board to board by 10-20 moves, so every pair
of `RUNS` (w, λ, rest groups) is tried in each order of the lines, each run in at most
RUN_SECONDS (a run that fills its memory gives nothing): 10-20 candidates for
`candidates.finish_best`, in under a second each when they succeed.
"""

from __future__ import annotations

import time
from fractions import Fraction

from kaeru.engine.rules.control import Meter
from kaeru.engine.sliding.board.geometry import Grid, State
from kaeru.engine.sliding.near_optimal.bounded import _Runner, max_nodes_for
from kaeru.engine.sliding.near_optimal.line_database import LineDatabase, line_tiles
from kaeru.engine.sliding.near_optimal.peeled import Peeled, play_part

RUNS = (  # (w, λ, tiles per rest group), the likeliest first
    (Fraction("3/2"), Fraction("1/2"), 1),
    (Fraction("3/2"), Fraction("3/4"), 4),
    (Fraction("3/2"), Fraction("3/4"), 1),
    (Fraction("5/4"), Fraction("5/8"), 4),
    (Fraction("5/4"), Fraction("3/4"), 1),
    (Fraction("3/2"), Fraction("1"), 4),
    (Fraction("3/2"), Fraction("1/2"), 4),
    (Fraction("3/2"), Fraction("1"), 1),
    (Fraction("5/4"), Fraction("5/8"), 1),
    (Fraction("5/4"), Fraction("3/4"), 4),
)
RUN_SECONDS = 4.0  # CPU at most per line's run
LIMIT = 400  # the longest line looked for
TRACE = False


def rest_aware_ways(full: Grid, state: State, orders: list[tuple[bool, ...]], meter: Meter,
                    until: float, nodes_cap: int) -> list[Peeled]:
    """Lines brought home in each order by each of `RUNS`, while the time lasts (`until`,
    process time); the runs that found every line."""
    out: list[Peeled] = []
    for weight, rest_weight, group in RUNS:
        for order in orders:
            if time.process_time() >= until:
                return out
            peeled = _brought_home(full, state, order, weight, rest_weight, group, meter,
                                   until, nodes_cap)
            if peeled is not None:
                out.append(peeled)
    return out


def _brought_home(full: Grid, state: State, order: tuple[bool, ...], weight: Fraction,
                  rest_weight: Fraction, group: int, meter: Meter, until: float,
                  nodes_cap: int) -> Peeled | None:
    peeled = Peeled([state])
    for is_row in order:
        shape = peeled.rest(full)
        sub = peeled.rest_state(full)
        runner = _Runner(shape, sub, LineDatabase(shape, line_tiles(shape, is_row), group),
                         meter)
        seconds = min(RUN_SECONDS, until - time.process_time())
        took = time.process_time()
        outcome = runner.weighted(weight, LIMIT, seconds, nodes_cap,
                                  max_nodes_for(shape, nodes_cap), rest_weight)
        if TRACE:
            print(f"  rest-aware {'row' if is_row else 'column'} w={weight} λ={rest_weight} "
                  f"groups of {group}: {outcome}, {runner.nodes:,} nodes, "
                  f"{time.process_time() - took:.1f} s")
        if outcome < 0:
            return None
        play_part(full, peeled.states, runner.states(outcome, to_goal=False), peeled.top,
                  peeled.left, shape)
        peeled.top += is_row
        peeled.left += not is_row
    return peeled
