"""The explorer's verdict (`explore_refusal`) and its count (`count_to_goal`): distances are to the
standard goal, the farthest positions are that far by the solver too, progress reports name
the layers, and the refusals come from the engine's figures."""

from __future__ import annotations

import pytest

from kaeru.engine.catalogue.explorable import (
    NUMPY_LIMIT,
    PYTHON_LIMIT,
    arrangements,
    count_to_goal,
    explore_refusal,
    game_towards_goal,
    goal_of,
    position_count,
)
from kaeru.engine.game.session import Session
from kaeru.engine.puzzles._random import reachable_layers
from kaeru.engine.puzzles.registry import all_ids, get_puzzle
from kaeru.engine.rules import control as control_module
from kaeru.engine.rules.control import Control
from kaeru.engine.rules.protocol import SearchStats
from kaeru.engine.search import dispatch
from kaeru.engine.tables import store

SMALL = (
    "wolf-goat-cabbage",
    "jealous-husbands-3",
    "frogs-3",
    "oshidori",
    "number-reversal-5",
    "two-blank-3x3",
    "sliding-3x3",
    "knights-3x3",
    "flip-it-6",
)


@pytest.mark.parametrize("puzzle_id", SMALL)
def test_depth_is_the_distance_to_the_standard_goal(puzzle_id):
    puzzle = get_puzzle(puzzle_id)
    goal = goal_of(puzzle)
    counted = count_to_goal(puzzle)
    assert counted.histogram[0] == 1 and counted.root == puzzle.format(goal)
    for text in counted.farthest[:3]:  # the solver agrees: that many moves to the usual goal
        state = puzzle.parse(text)
        game = Session.from_game_id(game_towards_goal(puzzle, state))  # as the explorer opens it
        assert game.start == state and game.puzzle.goal(state) == goal
        assert dispatch.solve(game.puzzle, state, state).length == counted.max_depth


def test_the_river_counts_from_the_far_bank():
    """The play-test's case: the farthest crossing is the whole crossing, not one move."""
    river = get_puzzle("wolf-goat-cabbage")
    counted = count_to_goal(river)
    assert counted.max_depth == 7
    assert counted.farthest == (river.format(river.initial()),)


def test_frogs_count_backwards_over_predecessors():
    """Frogs never hop back: the count goes back from the goal, finding every position that can
    still reach it (the standard start farthest), and none that is stuck."""
    frogs = get_puzzle("frogs-4")
    counted = count_to_goal(frogs)
    assert counted.max_depth == 24 and counted.farthest == ("BBBB_WWWW",)
    by_random_games = reachable_layers(frogs, goal_of(frogs))  # the random draws' own search
    assert counted.histogram == tuple(len(layer) for layer in by_random_games)
    stuck = frogs.parse("BBBBWWWW_")  # reached from the start, but no way on to the goal
    assert stuck not in {s for layer in by_random_games for s in layer}


def test_progress_reports_name_whole_layers(monkeypatch):
    """Every report's (depth, frontier) is (a distance, the positions at it): what the chart
    draws while the count runs."""
    monkeypatch.setattr(control_module, "REPORT_INTERVAL", 0.0)
    for puzzle_id in ("frogs-6", "number-reversal-7", "flip-it-10", "sliding-3x3", "oshidori"):
        puzzle = get_puzzle(puzzle_id)
        reports: list[SearchStats] = []
        counted = count_to_goal(puzzle, Control(progress=reports.append))
        layers = [(s.depth, s.frontier) for s in reports if s.frontier > 0]
        assert layers, puzzle_id
        assert all(counted.histogram[d] == n for d, n in layers), puzzle_id


def test_refusals_name_the_figure():
    fifteen = explore_refusal(get_puzzle("sliding-4x4"))
    assert fifteen == "15-puzzle (4×4) has 10,461,394,944,000 positions: too many to count"
    assert "× 10^88" in (explore_refusal(get_puzzle("sliding-8x8")) or "")
    assert "cannot be taken back" in (explore_refusal(get_puzzle("pegs-english")) or "")
    for puzzle_id in SMALL + ("frogs-10", "number-reversal-10", "sliding-5x2", "flip-it-16"):
        assert explore_refusal(get_puzzle(puzzle_id)) is None, puzzle_id


def test_every_offered_puzzle_is_within_its_limit():
    for puzzle_id in all_ids():
        puzzle = get_puzzle(puzzle_id)
        if explore_refusal(puzzle) is not None:
            continue
        positions, _ = position_count(puzzle)
        read_from_table = puzzle.capabilities.tables and puzzle.tables_ready()
        assert positions <= NUMPY_LIMIT or read_from_table, puzzle_id
        if not puzzle.capabilities.reversible:
            assert positions <= PYTHON_LIMIT, puzzle_id


def test_a_big_table_is_offered_once_built(monkeypatch, tmp_path):
    monkeypatch.setenv("KAERU_CACHE_DIR", str(tmp_path))
    store.forget()
    try:
        refusal = explore_refusal(get_puzzle("two-blank-4x4"))
        assert refusal is not None and "76,204,800 positions" in refusal and "hint" in refusal
    finally:
        store.forget()


def test_arrangements_are_exact_for_one_gap_boards():
    eight = get_puzzle("sliding-3x3")
    assert arrangements(eight.layout(eight.initial())) == (181_440, True)
    assert count_to_goal(eight).positions == 181_440
    frogs = get_puzzle("frogs-3")
    count, exact = arrangements(frogs.layout(frogs.initial()))
    assert count == 140 and not exact and count_to_goal(frogs).positions <= count
