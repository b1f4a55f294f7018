"""The near-optimal search of big sliding boards (`engine.sliding.near_optimal.bounded`): every
answer replays, and its proved lower bound is honest — checked against the exact depth tables of
small
boards and the published optima of Korf & Taylor's 24-puzzles (bench/data/korf24.txt)."""

from __future__ import annotations

import json
import random
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kaeru.engine.puzzles.sliding import BOUNDED, make_sliding
from kaeru.engine.rules.control import Control
from kaeru.engine.sliding.board.geometry import grid
from kaeru.engine.sliding.board.shuffle import shuffle_solvable
from kaeru.engine.sliding.board.text import parse_state
from kaeru.engine.sliding.near_optimal.bounded import heuristic, parity_floor, solve_bounded
from kaeru.engine.sliding.optimal.full_table import full_table
from kaeru.tui.cli import main

KORF24 = Path(__file__).resolve().parents[2] / "bench" / "data" / "korf24.txt"


def korf24() -> list[tuple[int, int, tuple[int, ...]]]:
    """(number, published optimum, state) of the ten instances."""
    out = []
    for line in KORF24.read_text().splitlines():
        if line.startswith("#"):
            continue
        number, optimum, layout = line.split(" ", 2)
        out.append((int(number), int(optimum), parse_state(grid(5, 5), layout, "sliding-5x5")))
    return out


def replays(shape, states) -> bool:
    for before, after in zip(states, states[1:], strict=False):
        gap, other = before.index(0), after.index(0)
        if shape.distance(gap, other) != 1 or after[gap] != before[other]:
            return False
    return states[-1] == shape.goal


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32))
def test_the_bound_is_honest_against_the_depth_table(seed):
    shape = grid(3, 3)
    state = shuffle_solvable(shape, random.Random(seed))
    exact = full_table(shape).distance(state)
    assert exact is not None
    assert heuristic(shape, state) <= exact  # the databases are admissible, mirror and all
    found = solve_bounded(shape, state, Control(), seconds=0.5)
    assert found is not None and replays(shape, found.states)
    assert found.lower_bound <= exact <= found.length
    if found.over == 0:
        assert found.length == exact


def test_a_weight_bounds_the_length_and_the_parity_rounds_up():
    shape = grid(3, 3)
    state = (8, 6, 7, 2, 5, 4, 3, 0, 1)  # 31 moves
    found = solve_bounded(shape, state, Control(), seconds=0.0, weights=(Fraction(2),))
    assert found is not None and found.length <= 62 and found.length % 2 == 1
    assert found.lower_bound <= 31 and found.lower_bound % 2 == 1
    assert parity_floor(shape, state, 20) == 21 and parity_floor(shape, state, 21) == 21


def test_a_five_by_five_answer_states_its_bound():
    number, optimum, state = korf24()[1]  # optimum 95
    found = solve_bounded(grid(5, 5), state, Control(budget=300_000), seconds=0.5)
    assert found is not None and replays(grid(5, 5), found.states)
    assert found.lower_bound <= optimum <= found.length
    assert dict(found.stats.extra)["over optimum"] == f"at most {found.over}"


def test_a_small_budget_gets_the_reduction_with_its_bound():
    puzzle = make_sliding(5, 5)
    assert puzzle.solver == BOUNDED and not puzzle.optimal_solver
    number, optimum, state = korf24()[1]
    solution = puzzle.own_solve(state, state, Control(budget=300_000))  # a quick look
    assert solution.stats.algorithm == "row-by-row reduction" and not solution.optimal
    assert replays(puzzle.grid, solution.states)
    assert solution.lower_bound is not None and solution.lower_bound <= optimum
    assert solution.over_optimum == solution.length - solution.lower_bound


def test_reduction_answers_with_manhattan_as_its_bound():
    puzzle = make_sliding(8, 8)
    state = shuffle_solvable(puzzle.grid, random.Random(8))
    solution = puzzle.solve_reduction(state, Control())
    assert replays(puzzle.grid, solution.states)
    assert solution.lower_bound is not None and 0 < solution.lower_bound < solution.length


def test_the_cli_says_how_far_from_optimal_at_most(capsys):
    start = "/".join(" ".join(r) for r in (
        ("2", "7", "3", "4", "5"), ("1", "_", "8", "9", "10"), ("6", "12", "13", "14", "15"),
        ("11", "16", "17", "18", "19"), ("21", "22", "23", "24", "20")))
    assert main(["solve", "sliding-5x5", "--from", start, "--json", "--budget", "200000"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["over_optimum"] == out["length"] - out["lower_bound"] >= 0
    assert main(["solve", "sliding-5x5", "--from", start, "--budget", "200000"]) == 0
    text = capsys.readouterr().out
    assert "optimal" in text.splitlines()[1]


@pytest.mark.slow  # a few seconds of search per board
@pytest.mark.parametrize("case", korf24()[:4], ids=lambda c: f"korf24-{c[0]}")
def test_published_optima_lie_within_the_bound(case):
    number, optimum, state = case
    found = solve_bounded(grid(5, 5), state, Control(), seconds=3.0)
    assert found is not None and replays(grid(5, 5), found.states)
    assert found.lower_bound <= optimum <= found.length


@pytest.mark.slow  # builds the 6x6 line tables on first use
def test_line_by_line_replays_and_its_bound_stays_below_a_known_walk():
    from kaeru.engine.sliding.near_optimal.peel import solve_peeled

    shape = grid(6, 6)
    state, rng = shape.goal, random.Random(6)
    for _ in range(24):  # a walk of 24 moves: the optimum is at most 24
        state = shape.slide(state, rng.choice(shape.slides(state)))
    found = solve_peeled(shape, state, Control(), seconds=1.0)
    assert found is not None and replays(shape, found.states)
    assert found.lower_bound <= 24 and found.lower_bound <= found.length


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32))
def test_the_largest_of_several_databases_is_honest_against_the_depth_table(seed):
    from kaeru.engine.rules.control import Meter
    from kaeru.engine.sliding.databases.pdb_big import BigPartition, Views, big_database
    from kaeru.engine.sliding.near_optimal.bounded import _Runner

    shape = grid(3, 3)
    state = shuffle_solvable(shape, random.Random(seed))
    exact = full_table(shape).distance(state)
    assert exact is not None
    blocks = big_database(shape)
    rows = big_database(shape, BigPartition(((1, 2, 3), (4, 5, 6), (7, 8))))
    views = Views(shape, [(blocks, False), (rows, False), (rows, True)])
    runner = _Runner(shape, state, blocks, Meter("test", Control().unlimited()))
    for limit in (exact - 2, exact):  # no solution within exact - 2 moves; then an optimal one
        outcome, failed = runner.plain_views(views, limit, 5.0, 1 << 40)
        assert failed < exact
        if limit == exact:
            assert outcome == exact and runner.states(outcome)[-1] == shape.goal
