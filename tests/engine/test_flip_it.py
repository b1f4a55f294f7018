"""Flip It (seed 000): the rule, ids and text, the page's published figures and solutions, the
colour-swap symmetry its solver relies on, optimality against plain BFS, unsolvable sizes."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from line_checks import assert_chain, assert_replays, distances, random_walk

from kaeru.engine.puzzles._chosen_goal import swap_colours
from kaeru.engine.puzzles.flip_it import FAMILY
from kaeru.engine.puzzles.registry import get_puzzle
from kaeru.engine.rules.protocol import BadInput, Unsolvable
from kaeru.engine.search import dispatch
from kaeru.engine.search.bfs import bfs
from kaeru.engine.search.bidirectional import bidirectional_bfs

FIVE = get_puzzle("flip-it-5")
SIX = get_puzzle("flip-it-6")


def all_black(size: int, empty: int) -> str:
    return "B" * empty + "_" + "B" * (size - empty - 1)


@st.composite
def flip_starts(draw: st.DrawFn, sizes: range = range(5, 10)) -> tuple[int, str]:
    """Any size, any empty cell, any colours."""
    size = draw(st.sampled_from(sizes))
    cells = draw(st.lists(st.sampled_from("BW"), min_size=size - 1, max_size=size - 1))
    cells.insert(draw(st.integers(0, size - 1)), "_")
    return size, "".join(cells)


# ---- ids, text and the rule ----------------------------------------------------------------------
def test_offered_ids_are_5_to_16_cells():
    assert FAMILY.ids == tuple(f"flip-it-{n}" for n in range(5, 17))
    for pid in FAMILY.ids:
        assert get_puzzle(pid).id == pid


@pytest.mark.parametrize("bad", ["flip-it-2", "flip-it-21", "flip-it-99"])
def test_out_of_range_ids_are_refused(bad):
    with pytest.raises(BadInput, match="flip-it takes"):
        get_puzzle(bad)


def test_a_stranger_id_is_not_ours():
    with pytest.raises(BadInput, match="unknown puzzle id"):
        get_puzzle("flip-it-six")


@settings(deadline=None)
@given(flip_starts(range(3, 17)))
def test_parse_format_round_trip(case):
    size, text = case
    puzzle = get_puzzle(f"flip-it-{size}")
    assert puzzle.format(puzzle.parse(text)) == text
    assert puzzle.parse(text.lower()) == text
    assert puzzle.parse(" ".join(text)) == text  # spaces between cells are allowed


@pytest.mark.parametrize(
    ("text", "says"),
    [("_BBB", "got 4 cells"), ("_BBBBB", "got 6 cells"), ("_BXBB", "unexpected 'X'"),
     ("BBBBB", "exactly 1 empty"), ("__BBB", "exactly 1 empty"), ("", "got 0 cells")],
)
def test_bad_positions_are_one_clear_line(text, says):
    with pytest.raises(BadInput, match=says) as caught:
        FIVE.parse(text)
    assert "\n" not in str(caught.value)


def test_moves_jump_at_least_one_stone_and_flip_what_they_pass():
    assert FIVE.moves("_BBBB") == [(2, 0), (3, 0), (4, 0)]
    assert FIVE.moves("BB_BB") == [(0, 2), (4, 2)]
    assert FIVE.apply("_BBBB", (2, 0)) == "BW_BB"
    assert FIVE.apply("_BBBB", (4, 0)) == "BWWW_"
    assert FIVE.apply("BW_BB", (0, 2)) == "_BBBB"  # every move can be taken back
    assert FIVE.apply("W_BWB", (4, 1)) == "WBWB_"  # the jumper keeps its colour
    assert FIVE.move_cells("_BBBB", (3, 0)) == ((3,), (0,))


def test_the_goal_is_every_stone_flipped_in_place():
    assert FIVE.goal("_BBBB") == "_WWWW"
    assert FIVE.goal("BW_WB") == "WB_BW"
    assert FIVE.is_goal("WB_BW", "BW_WB")
    assert not FIVE.is_goal("_WWWW", "BW_WB")
    assert SIX.game_id("B_BBBB") == "flip-it-6:B_BBBB"


# ---- the page's figures -------------------------------------------------------------------------
PUBLISHED = {
    "_BBBB": "_BBBB BWW_B B_BWB BBWB_ BB_WW _WBWW WBWB_ WB_WW _WWWW",
    "B_BBB": "B_BBB BBWW_ BB_BW _WBBW BBW_W B_BBW BWWW_ BW_BW _BBBW BWW_W B_BWW BWWB_ "
    "BW_WW _BBWW WWWB_ WW_WW _BWWW WWB_W W_WWW",
    "BB_BB": "BB_BB BBBW_ _WWBB WB_BB WBBW_ W_WBB WBB_B _WWWB WB_WB WBBB_ W_WWB WWB_B "
    "_BWWB WW_WB WWBB_ _BWWW WW_WW",
    "_BBBBB": "_BBBBB BW_BBB BWBW_B _BWBBB WW_BBB WWBW_B W_WBWB WBBWB_ WBB_WW _WWWWW",
    "B_BBBB": "B_BBBB BBW_BB BBWBW_ _WBWBB WBW_BB WBWBW_ W_BWBB WWW_BB WWWBW_ WW_WBW "
    "WWBB_W W_WWWW",
    "BB_BBB": "BB_BBB _WBBBB BBW_BB BBWBW_ _WBWBB WBW_BB WBWBW_ W_BWBB WWW_BB WWWBW_ "
    "WW_WBW WWBB_W _BWWWW WW_WWW",
}


@pytest.mark.parametrize("start", list(PUBLISHED))
def test_published_solutions_replay_and_are_optimal(start):
    puzzle = get_puzzle(f"flip-it-{len(start)}")
    steps = PUBLISHED[start].split()
    assert steps[0] == start and steps[-1] == swap_colours(start)
    assert_chain(puzzle, steps)
    solution = dispatch.solve(puzzle, start, start)
    assert_replays(puzzle, solution, start, start)
    assert solution.length == len(steps) - 1
    assert solution.optimal


def test_published_lengths_five_and_six_cells():
    lengths = {s: dispatch.solve(get_puzzle(f"flip-it-{len(s)}"), s, s).length for s in PUBLISHED}
    assert lengths == {"_BBBB": 8, "B_BBB": 18, "BB_BB": 16, "_BBBBB": 9, "B_BBBB": 11,
                       "BB_BBB": 13}


def test_the_pages_hashes_after_two_moves():
    """%head holds the start and what it reaches in two moves; %tail is its colour swap."""
    depth = distances(FIVE, "_BBBB")
    near = {s for s, d in depth.items() if d <= 2}
    head = {"_BBBB", "BW_BB", "BWW_B", "BWWW_", "BWBW_", "B_BWB", "BW_BW", "B_BBW"}
    assert near == head
    tail = {"_WWWW", "WB_WW", "WBB_W", "WBBB_", "WBWB_", "W_WBW", "WB_WB", "W_WWB"}
    assert {swap_colours(s) for s in head} == tail
    assert {s for s, d in distances(FIVE, "_WWWW").items() if d <= 2} == tail


# ---- the colour-swap trick -----------------------------------------------------------------------
@settings(deadline=None)
@given(flip_starts(range(3, 17)), st.randoms(use_true_random=False))
def test_colour_swap_commutes_with_every_move(case, rng):
    """What the trick needs: swap(apply(x, m)) == apply(swap(x), m) and swap is an involution."""
    size, state = case
    puzzle = get_puzzle(f"flip-it-{size}")
    for _ in range(5):
        for move in puzzle.moves(state):
            after = puzzle.apply(state, move)
            assert swap_colours(after) == puzzle.apply(swap_colours(state), move)
        assert swap_colours(swap_colours(state)) == state
        state = random_walk(puzzle, state, rng, 1)


@settings(deadline=None)
@given(flip_starts(range(3, 17)))
def test_packed_codes_match_the_string_rules(case):
    size, state = case
    puzzle = get_puzzle(f"flip-it-{size}")
    code = puzzle.pack(state)
    assert puzzle.unpack(code) == state
    around = puzzle.neighbours_packed(np.array([code], dtype=np.int64))
    assert sorted(int(c) for c in around) == sorted(
        puzzle.pack(puzzle.apply(state, m)) for m in puzzle.moves(state)
    )
    assert int(puzzle.mirror_packed(np.array([code]))[0]) == puzzle.pack(swap_colours(state))


# ---- optimality against plain BFS ---------------------------------------------------------------
@pytest.mark.parametrize("size", range(5, 10))
def test_every_all_black_start_matches_plain_bfs(size):
    puzzle = get_puzzle(f"flip-it-{size}")
    for empty in range(size):
        start = all_black(size, empty)
        solution = dispatch.solve(puzzle, start, start)
        assert solution.stats.algorithm == "colour-swap bidirectional BFS"
        assert_replays(puzzle, solution, start, start)
        assert solution.length == bfs(puzzle, start, start).length


@settings(max_examples=60, deadline=None)
@given(flip_starts())
def test_any_start_colour_swap_equals_plain_bfs(case):
    size, start = case
    puzzle = get_puzzle(f"flip-it-{size}")
    solution = dispatch.solve(puzzle, start, start)
    assert_replays(puzzle, solution, start, start)
    assert solution.length == bfs(puzzle, start, start).length
    assert solution.length == bidirectional_bfs(puzzle, start, start).length


@settings(max_examples=40, deadline=None)
@given(flip_starts(), st.integers(1, 12), st.randoms(use_true_random=False))
def test_mid_game_solutions_equal_plain_bfs(case, steps, rng):
    """Away from the start the trick does not apply: the two-sided search must still be optimal."""
    size, start = case
    puzzle = get_puzzle(f"flip-it-{size}")
    state = random_walk(puzzle, start, rng, steps)
    solution = dispatch.solve(puzzle, state, start)
    assert_replays(puzzle, solution, state, start)
    assert solution.length == bfs(puzzle, state, start).length


@pytest.mark.parametrize("size", [12])
def test_every_start_of_twelve_cells(size):
    puzzle = get_puzzle(f"flip-it-{size}")
    lengths = []
    for empty in range(size):
        start = all_black(size, empty)
        solution = dispatch.solve(puzzle, start, start)
        assert_replays(puzzle, solution, start, start)
        lengths.append(solution.length)
    assert lengths == lengths[::-1]  # a start and its reflection need as many moves


@pytest.mark.slow
@pytest.mark.parametrize("size", range(13, 17))
def test_every_start_of_the_large_boards(size):
    puzzle = get_puzzle(f"flip-it-{size}")
    for empty in range(size):
        start = all_black(size, empty)
        solution = dispatch.solve(puzzle, start, start)
        assert_replays(puzzle, solution, start, start)
        mirrored = start[::-1]
        assert dispatch.solve(puzzle, mirrored, mirrored).length == solution.length


# ---- solvable sizes ------------------------------------------------------------------------------
@pytest.mark.parametrize("size", range(5, 13))
def test_from_five_cells_every_position_is_reachable(size):
    """n × 2^(n-1) positions, all in one piece: so every start of every offered size is solvable."""
    puzzle = get_puzzle(f"flip-it-{size}")
    assert dispatch.enumerate_space(puzzle, puzzle.initial()).positions == size * 2 ** (size - 1)


@pytest.mark.parametrize("size", [3, 4])
def test_three_and_four_cells_have_no_solution_from_any_start(size):
    puzzle = get_puzzle(f"flip-it-{size}")
    rng = random.Random(size)
    for empty in range(size):
        start = "".join(rng.choice("BW") for _ in range(size - 1))
        start = start[:empty] + "_" + start[empty:]
        with pytest.raises(Unsolvable, match="searched") as caught:
            dispatch.solve(puzzle, start, start)
        assert "\n" not in caught.value.reason
        with pytest.raises(Unsolvable):
            bfs(puzzle, start, start)


def test_flip_it_4_default_start_is_proved_unsolvable():
    puzzle = get_puzzle("flip-it-4")
    with pytest.raises(Unsolvable) as caught:
        dispatch.solve(puzzle, "_BBB", "_BBB")
    assert caught.value.stats is not None
    assert "_BBB" in caught.value.reason
