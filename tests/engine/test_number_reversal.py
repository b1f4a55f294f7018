"""Number reversal (seed 001, problem 4): steps and single jumps into the gap. The page's 25 moves,
its farthest-position claim and n! positions; packed codes; optimality against BFS and A*."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from line_checks import assert_chain, assert_replays, distances

from kaeru.engine.puzzles.number_reversal import FAMILY
from kaeru.engine.puzzles.registry import get_puzzle
from kaeru.engine.rules.protocol import BadInput
from kaeru.engine.search import dispatch
from kaeru.engine.search.astar import astar, ida_star
from kaeru.engine.search.bfs import bfs

SEVEN = get_puzzle("number-reversal-7")

PUBLISHED = [  # the page's run, 0 = empty
    "1234560", "1234065", "1204365", "0214365", "2014365", "2104365", "2140365", "2041365",
    "0241365", "4201365", "4231065", "4231605", "4230615", "4032615", "4302615", "4362015",
    "4362510", "4362501", "4360521", "4063521", "0463521", "6403521", "6453021", "6450321",
    "6054321", "0654321",
]


@st.composite
def arrangements(draw: st.DrawFn, sizes: range = range(4, 8)) -> tuple[int, str]:
    """Any size, any order of the numbers and the gap."""
    size = draw(st.sampled_from(sizes))
    cells = draw(st.permutations(["_", *(str(k) for k in range(1, size))]))
    return size, "".join(cells)


def test_ids_are_4_to_10_cells():
    assert FAMILY.ids == tuple(f"number-reversal-{n}" for n in range(4, 11))
    assert SEVEN.initial() == "123456_"
    assert SEVEN.goal("123456_") == "_654321"
    assert SEVEN.goal("_123456") == "_654321"  # one goal whatever the start


@pytest.mark.parametrize("bad", ["number-reversal-3", "number-reversal-11"])
def test_out_of_range_ids_are_refused(bad):
    with pytest.raises(BadInput, match="4 to 10 cells"):
        get_puzzle(bad)


@pytest.mark.parametrize(
    ("text", "says"),
    [("123456", "got 6 cells"), ("1234566", "exactly 1 empty"), ("123455_", "must appear once"),
     ("12345_7", "unexpected '7'"), ("1234_6_", "exactly 1 empty")],
)
def test_bad_positions_are_refused(text, says):
    with pytest.raises(BadInput, match=says):
        SEVEN.parse(text)


def test_moves_step_or_jump_exactly_one_number():
    assert SEVEN.moves("123456_") == [(4, 6), (5, 6)]
    assert SEVEN.moves("123_456") == [(1, 3), (2, 3), (4, 3), (5, 3)]
    assert SEVEN.apply("123456_", (4, 6)) == "1234_65"
    assert SEVEN.describe((4, 6)) == "5 → 7"


# ---- the page's figures -------------------------------------------------------------------------
def test_published_solution_replays_in_25_moves():
    steps = [s.replace("0", "_") for s in PUBLISHED]
    assert_chain(SEVEN, steps)
    solution = dispatch.solve(SEVEN, "123456_", "123456_")
    assert_replays(SEVEN, solution, "123456_", "123456_")
    assert solution.length == 25 == len(steps) - 1


def test_the_goal_is_the_one_farthest_position():
    enumeration = dispatch.enumerate_space(SEVEN, "123456_")
    assert enumeration.max_depth == 25
    assert enumeration.farthest == ("_654321",)
    assert enumeration.histogram[-1] == 1


@pytest.mark.parametrize("size", range(4, 10))
def test_every_arrangement_is_reachable(size):
    """The page: n! positions for n cells."""
    puzzle = get_puzzle(f"number-reversal-{size}")
    enumeration = dispatch.enumerate_space(puzzle, puzzle.initial())
    assert enumeration.positions == math.factorial(size)
    if size <= 7:
        depth = distances(puzzle, puzzle.initial())
        histogram = [0] * (max(depth.values()) + 1)
        for d in depth.values():
            histogram[d] += 1
        assert tuple(histogram) == enumeration.histogram


@pytest.mark.slow
def test_ten_cells_have_ten_factorial_positions():
    puzzle = get_puzzle("number-reversal-10")
    assert dispatch.enumerate_space(puzzle, puzzle.initial()).positions == math.factorial(10)


@pytest.mark.parametrize(("size", "length"), [(4, 6), (5, 12), (6, 15), (7, 25), (8, 28)])
def test_default_starts_agree_with_a_star(size, length):
    puzzle = get_puzzle(f"number-reversal-{size}")
    start = puzzle.initial()
    solution = dispatch.solve(puzzle, start, start)
    assert solution.stats.algorithm == "mirror-image bidirectional BFS"
    assert_replays(puzzle, solution, start, start)
    assert solution.length == astar(puzzle, start, start).length == length


@pytest.mark.parametrize("size", [9, 10])
def test_large_boards_solve_fast_and_replay(size):
    puzzle = get_puzzle(f"number-reversal-{size}")
    start = puzzle.initial()
    solution = dispatch.solve(puzzle, start, start)
    assert_replays(puzzle, solution, start, start)
    assert solution.length == {9: 42, 10: 45}[size]  # checked by A* (slow: -m slow)


@pytest.mark.slow
def test_nine_cells_agree_with_a_star():
    puzzle = get_puzzle("number-reversal-9")
    start = puzzle.initial()
    assert astar(puzzle, start, start).length == 42


# ---- any start -----------------------------------------------------------------------------------
@settings(max_examples=60, deadline=None)
@given(arrangements())
def test_any_start_solves_optimally(case):
    size, start = case
    puzzle = get_puzzle(f"number-reversal-{size}")
    assert puzzle.parse(puzzle.format(start)) == start
    solution = dispatch.solve(puzzle, start, start)
    assert_replays(puzzle, solution, start, start)
    assert solution.length == bfs(puzzle, start, start).length


@settings(max_examples=20, deadline=None)
@given(arrangements(range(4, 7)))
def test_ida_star_agrees(case):
    size, start = case
    puzzle = get_puzzle(f"number-reversal-{size}")
    assert ida_star(puzzle, start, start).length == dispatch.solve(puzzle, start, start).length


def test_the_heuristic_never_overestimates():
    puzzle = get_puzzle("number-reversal-7")
    goal = puzzle.goal(puzzle.initial())
    for state, d in distances(puzzle, goal).items():  # moves undo, so d is also state -> goal
        assert puzzle.heuristic(state, state) <= d


# ---- packed codes --------------------------------------------------------------------------------
@settings(deadline=None)
@given(arrangements(range(4, 11)))
def test_packed_codes_match_the_string_rules(case):
    size, state = case
    puzzle = get_puzzle(f"number-reversal-{size}")
    code = puzzle.pack(state)
    assert puzzle.unpack(code) == state
    around = puzzle.neighbours_packed(np.array([code], dtype=np.int64))
    assert sorted(int(c) for c in around) == sorted(
        puzzle.pack(puzzle.apply(state, m)) for m in puzzle.moves(state)
    )
    mirrored = puzzle.unpack(int(puzzle.mirror_packed(np.array([code]))[0]))
    assert mirrored == state[::-1]


def test_reading_right_to_left_is_a_symmetry_of_the_rules():
    """What the mirror search needs: reflecting, moving, reflecting back is a legal move."""
    rng = random.Random(7)
    puzzle = get_puzzle("number-reversal-8")
    cells = list(puzzle.initial())
    for _ in range(50):
        rng.shuffle(cells)
        state = "".join(cells)
        forward = sorted(puzzle.apply(state, m) for m in puzzle.moves(state))
        reflected = sorted(puzzle.apply(state[::-1], m)[::-1] for m in puzzle.moves(state[::-1]))
        assert forward == reflected
    assert puzzle.initial()[::-1] == puzzle.goal(puzzle.initial())
