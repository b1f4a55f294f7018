"""Frog jump (seed 001, problem 2): black only right, white only left, steps and single jumps.
The page's 15 moves, n² + 2n for n frogs a side, backward moves, dead ends, optimality."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from line_checks import assert_chain, assert_replays, random_walk

from kaeru.engine.puzzles.frogs import FAMILY
from kaeru.engine.puzzles.registry import get_puzzle
from kaeru.engine.rules.protocol import BadInput, Unsolvable
from kaeru.engine.search import dispatch
from kaeru.engine.search.bfs import bfs

THREE = get_puzzle("frogs-3")

PUBLISHED = [  # the page's run, 1 = black, 2 = white, 0 = empty
    "1110222", "1101222", "1121022", "1121202", "1120212", "1021212", "0121212", "2101212",
    "2121012", "2121210", "2121201", "2120211", "2021211", "2201211", "2221011", "2220111",
]


def as_cells(digits: str) -> str:
    return digits.translate(str.maketrans("012", "_BW"))


def test_ids_are_1_to_10_frogs_a_side():
    assert FAMILY.ids == tuple(f"frogs-{n}" for n in range(1, 11))
    assert THREE.initial() == "BBB_WWW"
    assert THREE.goal("BBB_WWW") == "WWW_BBB"


@pytest.mark.parametrize("bad", ["frogs-0", "frogs-11", "frogs-99"])
def test_out_of_range_ids_are_refused(bad):
    with pytest.raises(BadInput, match="1 to 10 frogs"):
        get_puzzle(bad)


def test_frogs_step_or_jump_one_frog_of_the_other_colour_forwards_only():
    assert THREE.moves("BBB_WWW") == [(2, 3), (4, 3)]  # no jump over a frog of one's own colour
    assert THREE.moves("BB_BWWW") == [(1, 2), (4, 2)]  # no backward step, no jump over a friend
    assert THREE.moves("WWW_BBB") == []  # the goal is a dead end
    assert THREE.apply("BBB_WWW", (2, 3)) == "BB_BWWW"
    assert THREE.apply("BB_BWWW", (4, 2)) == "BBWB_WW"


@pytest.mark.parametrize(
    ("text", "says"),
    [("BBB_WW", "got 6 cells"), ("BBBB_WW", "needs 3 B and 3 W"), ("BBB_WWX", "unexpected 'X'")],
)
def test_bad_positions_are_refused(text, says):
    with pytest.raises(BadInput, match=says):
        THREE.parse(text)


def test_published_solution_replays_in_15_moves():
    steps = [as_cells(s) for s in PUBLISHED]
    assert steps[0] == "BBB_WWW" and steps[-1] == "WWW_BBB"
    assert_chain(THREE, steps)
    solution = dispatch.solve(THREE, "BBB_WWW", "BBB_WWW")
    assert_replays(THREE, solution, "BBB_WWW", "BBB_WWW")
    assert solution.length == 15


@pytest.mark.parametrize("frogs", range(1, 11))
def test_n_frogs_a_side_take_n_squared_plus_2n(frogs):
    puzzle = get_puzzle(f"frogs-{frogs}")
    start = puzzle.initial()
    solution = dispatch.solve(puzzle, start, start)
    assert_replays(puzzle, solution, start, start)
    assert solution.length == frogs * frogs + 2 * frogs
    if frogs <= 5:
        assert bfs(puzzle, start, start).length == solution.length


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 5), st.integers(0, 30), st.randoms(use_true_random=False))
def test_predecessors_are_exactly_the_moves_backwards(frogs, steps, rng):
    """The bidirectional search walks back with predecessors(): they must mirror moves()."""
    puzzle = get_puzzle(f"frogs-{frogs}")
    state = random_walk(puzzle, puzzle.initial(), rng, steps)
    for before, move in puzzle.predecessors(state):
        assert move in puzzle.moves(before) and puzzle.apply(before, move) == state
    for move in puzzle.moves(state):
        child = puzzle.apply(state, move)
        assert (state, move) in list(puzzle.predecessors(child))


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 5), st.integers(0, 30), st.randoms(use_true_random=False))
def test_random_positions_solve_optimally_or_are_dead_ends(frogs, steps, rng):
    puzzle = get_puzzle(f"frogs-{frogs}")
    start = puzzle.initial()
    state = random_walk(puzzle, start, rng, steps)
    assert puzzle.parse(puzzle.format(state)) == state
    try:
        plain = bfs(puzzle, state, start)
    except Unsolvable:
        with pytest.raises(Unsolvable) as caught:
            dispatch.solve(puzzle, state, start)
        assert caught.value.reason and "\n" not in caught.value.reason
        return
    solution = dispatch.solve(puzzle, state, start)
    assert_replays(puzzle, solution, state, start)
    assert solution.length == plain.length


def test_a_jam_is_reported_unsolvable():
    jam = "BBWW_BW"  # frogs that met head on: nobody can reach the other side any more
    with pytest.raises(Unsolvable):
        dispatch.solve(THREE, jam, "BBB_WWW")
    with pytest.raises(Unsolvable):
        bfs(THREE, jam, "BBB_WWW")
