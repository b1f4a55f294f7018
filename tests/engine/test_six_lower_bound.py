"""The big boards' proved lower bound (`near_optimal.lower_bound`): Manhattan + linear conflicts +
last moves (`databases.line_conflicts`) never exceeds the exact depth, and the compiled IDA* that
keeps it up to date move by move (`max_kernel.ida_max`) finds the optimum at the optimum's
limit and nothing two moves shorter, checked against the depth tables of small boards."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kaeru.engine.rules.control import Control, Meter
from kaeru.engine.sliding.board.geometry import grid
from kaeru.engine.sliding.board.parity import is_solvable
from kaeru.engine.sliding.board.shuffle import shuffle_solvable
from kaeru.engine.sliding.databases.line_conflicts import (
    conflict_moves,
    conflict_value,
    conflicts,
)
from kaeru.engine.sliding.databases.pdb_big import BigPartition, Views, big_database
from kaeru.engine.sliding.near_optimal.bounded import _Runner, heuristic, parity_floor
from kaeru.engine.sliding.near_optimal.bounded_kernels import EXHAUSTED
from kaeru.engine.sliding.near_optimal.lower_bound import _hopeless, lower_bound, plain_max
from kaeru.engine.sliding.optimal.full_table import full_table

SHAPES = [(3, 3), (2, 5), (5, 2), (2, 4), (4, 2)]


def test_a_line_needs_two_moves_for_each_tile_out_of_its_longest_run():
    assert conflict_moves([0, 0, 0]) == 0
    assert conflict_moves([1, 2, 3]) == 0
    assert conflict_moves([3, 0, 1]) == 2
    assert conflict_moves([3, 2, 1]) == 4
    assert conflict_moves([2, 1, 4, 3]) == 4  # two runs of two: two tiles out, not four pairs
    table = conflicts(grid(3, 3)).table  # base 4, three places
    for code in range(table.size):
        digits = [(code // 4**i) % 4 for i in range(3)]
        assert table[code] == conflict_moves(digits)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(SHAPES), st.integers(0, 2**32))
def test_conflicts_and_last_moves_never_pass_the_exact_depth(shape_size, seed):
    shape = grid(*shape_size)
    state = shuffle_solvable(shape, random.Random(seed))
    exact = full_table(shape).distance(state)
    assert exact is not None
    assert conflict_value(shape, state) <= exact


@pytest.mark.slow  # every solvable position of five small boards: about 4 s
def test_conflicts_and_last_moves_never_pass_the_exact_depth_anywhere():
    for size in ((3, 3), (2, 4), (4, 2), (2, 3), (3, 2)):
        shape = grid(*size)
        table = full_table(shape)
        for layout in itertools.permutations(range(shape.cells)):
            exact = table.distance(layout)
            assert exact is None or conflict_value(shape, layout) <= exact, layout


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(SHAPES), st.integers(0, 2**32), st.booleans())
def test_the_search_on_conflicts_proves_nothing_shorter_than_the_optimum(shape_size, seed,
                                                                        with_views):
    shape = grid(*shape_size)
    state = shuffle_solvable(shape, random.Random(seed))
    exact = full_table(shape).distance(state)
    assert exact is not None
    blocks = big_database(shape)
    views = Views(shape, [(blocks, False), (blocks, True)]) if with_views else None
    runner = _Runner(shape, state, blocks, Meter("test", Control().unlimited()))
    outcome, failed = plain_max(runner, views, exact - 2, 30.0, 1 << 40)
    assert failed < exact  # every bound it passed is below the optimum
    assert outcome == (EXHAUSTED if exact >= 2 else 0)
    outcome, failed = plain_max(runner, views, exact, 30.0, 1 << 40)
    assert outcome == exact and runner.states(outcome)[-1] == shape.goal
    assert failed < exact


def test_the_kernel_starts_from_the_plain_value():
    shape = grid(3, 3)
    runner_db = big_database(shape, BigPartition(((1, 2, 3, 4), (5, 6, 7, 8))))
    for seed in range(20):
        state = shuffle_solvable(shape, random.Random(seed))
        value = conflict_value(shape, state)
        runner = _Runner(shape, state, runner_db, Meter("test", Control().unlimited()))
        outcome, failed = plain_max(runner, None, value - 1, 5.0, 1 << 40)
        assert outcome == EXHAUSTED and failed == -1  # its first value is past value - 1
        assert runner.nodes == 0


def test_a_six_by_six_of_reversed_rows_starts_at_its_conflicts():
    shape = grid(6, 6)
    rows = [list(range(r * 6 + 1, r * 6 + 7)) for r in range(5)]
    layout = [t for row in rows for t in reversed(row)] + list(reversed(range(31, 36))) + [0]
    layout[0], layout[1] = layout[1], layout[0]  # five odd reversals: one swap more to solve
    state = tuple(layout)
    assert is_solvable(shape, state)
    value = conflict_value(shape, state)
    assert value >= heuristic(shape, state, big_database(shape)) + 10  # blocks see few
    meter = Meter("test", Control().unlimited())
    found = lower_bound(shape, state, big_database(shape), meter, 400, 0.5, 1 << 40)
    assert found >= value
    assert int(np.max(conflicts(shape).table)) == 10  # a line of six reversed: five out


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(SHAPES), st.integers(0, 2**32), st.integers(0, 6))
def test_the_bound_is_the_optimum_on_small_boards_given_the_time(shape_size, seed, extra):
    shape = grid(*shape_size)
    state = shuffle_solvable(shape, random.Random(seed))
    exact = full_table(shape).distance(state)
    assert exact is not None
    meter = Meter("test", Control().unlimited())
    length = exact + 2 * extra  # an answer that long: the bound proved is the optimum
    assert lower_bound(shape, state, big_database(shape), meter, length, 30.0, 1 << 40) == exact
    no_time = lower_bound(shape, state, big_database(shape), meter, length, 0.0, 1 << 40)
    assert no_time == min(parity_floor(shape, state, conflict_value(shape, state)), length)


def test_a_bound_is_not_started_when_it_cannot_finish_in_the_time_left():
    assert not _hopeless([0.001, 0.01], 0.001)  # runs too quick to foretell from
    assert not _hopeless([0.5, 6.0], 100.0)  # 12 times 6 s: 72 s, in 100 s
    assert _hopeless([0.5, 6.0], 4.0)  # 72 s in 4 s: no
    assert _hopeless([0.01, 1.0], 5.0)  # the run before too quick: 12 times assumed
    assert not _hopeless([1.0, 1.0], 5.0)  # at least 4 times: 4 s in 5 s


def test_past_seven_cells_a_side_the_databases_bound_a_walk_from_the_goal():
    shape = grid(8, 2)  # no conflict table past 7: the default databases with the mirror
    rng = random.Random(3)
    layout, came_from = list(shape.goal), -1
    for _ in range(30):
        blank = layout.index(0)
        step = rng.choice([c for c in shape.neighbour_array[blank] if c >= 0 and c != came_from])
        layout[blank], layout[step], came_from = layout[step], 0, blank
    state = tuple(layout)
    database = big_database(shape)
    meter = Meter("test", Control().unlimited())
    found = lower_bound(shape, state, database, meter, 30, 30.0, 1 << 40)
    assert parity_floor(shape, state, heuristic(shape, state, database)) <= found <= 30
    assert found % 2 == 0  # an optimum, with the parity of the 30-move walk
