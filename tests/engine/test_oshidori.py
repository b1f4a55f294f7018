"""Oshidori (seed 001, problem 1): pairs slide into the double gap. The page's figures (4 and 5
moves, 125 positions generated, at most 630 positions), text forms, optimality."""

from __future__ import annotations

from collections import deque

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from line_checks import assert_chain, assert_replays, distances, random_walk

from kaeru.engine.puzzles.oshidori import FAMILY
from kaeru.engine.puzzles.registry import get_puzzle
from kaeru.engine.rules.protocol import BadInput
from kaeru.engine.search import dispatch
from kaeru.engine.search.bfs import bfs

OSHIDORI = get_puzzle("oshidori")
OSHIDORI_BW = get_puzzle("oshidori-bw")
START = "BWBWBWBW__"


def test_ids_and_goals():
    assert FAMILY.ids == ("oshidori", "oshidori-bw")
    assert OSHIDORI.initial() == OSHIDORI_BW.initial() == START
    assert OSHIDORI.goal(START) == "__WWWWBBBB"
    assert OSHIDORI_BW.goal(START) == "__BBBBWWWW"
    assert OSHIDORI.game_id(START) == "oshidori:BWBWBWBW__"


def test_moves_take_a_pair_order_kept_into_the_gap():
    assert OSHIDORI.moves(START) == [(i, 8) for i in range(7)]
    assert OSHIDORI.apply(START, (1, 8)) == "B__WBWBWWB"
    assert OSHIDORI.apply("B__WBWBWWB", (8, 1)) == START  # and back again
    assert OSHIDORI.move_cells(START, (1, 8)) == ((1, 2), (8, 9))
    assert OSHIDORI.describe((1, 8)) == "2-3 → 9-10"


# ---- the page's figures -------------------------------------------------------------------------
def test_published_solution_replays_in_four_moves():
    published = ["BWBWBWBW__", "B__WBWBWWB", "BBWW__BWWB", "BBWWWWB__B", "__WWWWBBBB"]
    assert_chain(OSHIDORI, published)
    solution = dispatch.solve(OSHIDORI, START, START)
    assert_replays(OSHIDORI, solution, START, START)
    assert solution.length == 4


def test_the_other_goal_takes_one_move_more():
    solution = dispatch.solve(OSHIDORI_BW, START, START)
    assert_replays(OSHIDORI_BW, solution, START, START)
    assert solution.length == 5


def test_the_pages_bfs_generated_125_positions():
    """The page's search in its own order (pairs from the left, a FIFO queue): 124 positions
    kept when the goal turns up, 125 with the goal itself."""
    goal = OSHIDORI.goal(START)
    queue, seen = deque([START]), [START]
    while queue:
        state = queue.popleft()
        children = [OSHIDORI.apply(state, m) for m in OSHIDORI.moves(state)]
        if goal in children:
            break
        for child in children:
            if child not in seen:
                seen.append(child)
                queue.append(child)
    assert len(seen) + 1 == 125


def test_all_630_positions_are_reachable():
    """9 places for the gap × C(8,4) = 70 colourings: the page's upper bound, all reached."""
    enumeration = dispatch.enumerate_space(OSHIDORI, START)
    assert enumeration.positions == 630 == len(distances(OSHIDORI, START))
    assert enumeration.max_depth == 7


# ---- text ----------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "says"),
    [("BWBWBWBW_", "got 9 cells"), ("BWBWBWB_W_", "side by side"), ("BWBWBWBWB_", "2 empty"),
     ("BBBBBWWW__", "4 B and 4 W"), ("BWBWBWBX__", "unexpected 'X'")],
)
def test_bad_positions_are_refused(text, says):
    with pytest.raises(BadInput, match=says):
        OSHIDORI.parse(text)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 40), st.randoms(use_true_random=False))
def test_random_positions_round_trip_and_solve_optimally(steps, rng):
    state = random_walk(OSHIDORI, START, rng, steps)
    assert OSHIDORI.parse(OSHIDORI.format(state)) == state
    for puzzle in (OSHIDORI, OSHIDORI_BW):
        solution = dispatch.solve(puzzle, state, START)
        assert_replays(puzzle, solution, state, START)
        assert solution.length == bfs(puzzle, state, START).length
