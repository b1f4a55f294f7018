"""6×6 lines brought home with an eye on the rest (`near_optimal.rest_aware`): a line's weighted
A* with a rest weight still ends with the line home on a path that replays, and leaves the tiles
still to come nearer their goal than the line brought home for itself alone."""

from __future__ import annotations

import random
import time
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kaeru.engine.puzzles.sliding import make_sliding
from kaeru.engine.rules.control import Control, Meter
from kaeru.engine.sliding.board.geometry import Grid, State, grid
from kaeru.engine.sliding.board.shuffle import shuffle_solvable
from kaeru.engine.sliding.near_optimal import rest_aware
from kaeru.engine.sliding.near_optimal.bounded import _Runner
from kaeru.engine.sliding.near_optimal.line_database import LineDatabase, line_tiles
from tests.engine.sliding_helpers import replays


def rest_distance(shape: Grid, state: State, line: list[int]) -> int:
    return sum(shape.distance(cell, shape.home(t)) for cell, t in enumerate(state)
               if t and t not in line)


def line_run(shape: Grid, state: State, line: list[int], weight: Fraction,
             rest_weight: Fraction, group: int, max_nodes: int = 1_500_000) -> list[State]:
    runner = _Runner(shape, state, LineDatabase(shape, line, group), Meter("test", Control()))
    outcome = runner.weighted(weight, 400, 60.0, 1 << 62, max_nodes, rest_weight)
    assert outcome >= 0, outcome
    return runner.states(outcome, to_goal=False)


def test_a_rest_weight_leaves_the_rest_nearer_than_the_line_alone():
    shape = grid(6, 6)
    state = make_sliding(6, 6).random_start(random.Random(36))
    row = line_tiles(shape, True)
    alone = line_run(shape, state, row, Fraction(3, 2), Fraction(0), 0)
    with_rest = line_run(shape, state, row, Fraction(3, 2), Fraction(3, 4), 1)
    for states in (alone, with_rest):
        assert states[0] == state and replays(shape, states)
        assert all(states[-1][t - 1] == t for t in row)  # the goal is still the line home
    assert rest_distance(shape, with_rest[-1], row) + 20 <= rest_distance(shape, alone[-1], row)


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from([(Fraction(3, 2), Fraction(1, 2), 1),
                                               (Fraction(5, 4), Fraction(3, 4), 4),
                                               (Fraction(3, 2), Fraction(1), 4)]))
def test_a_rest_weighted_run_brings_its_line_home_on_a_path_that_replays(seed, run):
    shape = grid(4, 4)
    state = shuffle_solvable(shape, random.Random(seed))
    line = line_tiles(shape, seed % 2 == 0)
    weight, rest_weight, group = run
    states = line_run(shape, state, line, weight, rest_weight, group, 200_000)
    assert states[0] == state and replays(shape, states)
    assert all(states[-1][shape.home(t)] == t for t in line)


def test_the_ways_found_bring_the_row_and_the_column_home(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(rest_aware, "RUNS", rest_aware.RUNS[:1])
    full = grid(6, 6)
    state = make_sliding(6, 6).random_start(random.Random(6))
    orders = [(False, True)]  # the column, then the row
    ways = rest_aware.rest_aware_ways(full, state, orders, Meter("test", Control()),
                                      time.process_time() + 60, 1 << 62)
    assert len(ways) == 1
    for peeled in ways:
        assert (peeled.top, peeled.left) == (1, 1)
        last = peeled.states[-1]
        assert peeled.states[0] == state and replays(full, peeled.states)
        assert all(last[full.home(t)] == t for t in range(1, 7))
        assert all(last[full.home(t)] == t for t in (7, 13, 19, 25, 31))
