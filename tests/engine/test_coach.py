"""The coach's oracle and grading: distances against independent breadth-first searches, optimal
solutions graded all optimal, deliberately bad moves graded wasted or lost, peg verdicts."""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Hashable
from typing import Any

import pytest
from peg_games import PAGODA_LOSS

from kaeru.engine.coach import tables
from kaeru.engine.coach.distance import best_move, distance, known_distance
from kaeru.engine.coach.grading import IllegalMove, grade, verdict
from kaeru.engine.puzzles.registry import get_puzzle
from kaeru.engine.rules.protocol import BadInput, Puzzle, Unsolvable
from kaeru.engine.search import dispatch

SMALL = (
    "frogs-2",
    "flip-it-5",
    "oshidori",
    "number-reversal-4",
    "knights-3x3",
    "wolf-goat-cabbage",
)


def forward_bfs(puzzle: Puzzle[Any, Any], state: Hashable, start: Hashable) -> int | None:
    """Moves from `state` to a goal by plain forward search (moves and apply only)."""
    seen = {state}
    queue = deque([(state, 0)])
    while queue:
        here, depth = queue.popleft()
        if puzzle.is_goal(here, start):
            return depth
        for move in puzzle.moves(here):
            after = puzzle.apply(here, move)
            if after not in seen:
                seen.add(after)
                queue.append((after, depth + 1))
    return None


def reachable(puzzle: Puzzle[Any, Any], root: Hashable) -> list[Any]:
    seen = {root}
    order = [root]
    for here in order:
        for move in puzzle.moves(here):
            after = puzzle.apply(here, move)
            if after not in seen:
                seen.add(after)
                order.append(after)
    return order


@pytest.mark.parametrize("puzzle_id", SMALL)
def test_distances_match_an_independent_search(puzzle_id: str) -> None:
    puzzle = get_puzzle(puzzle_id)
    start = puzzle.initial()
    states = reachable(puzzle, start)
    for state in random.Random(puzzle_id).sample(states, min(25, len(states))):
        expected = forward_bfs(puzzle, state, start)
        found = distance(puzzle, state, start)
        assert found.moves == expected, (puzzle_id, puzzle.format(state))
        assert found.lost == (expected is None)


def test_sliding_table_distances_match_a_search_near_the_goal() -> None:
    puzzle = get_puzzle("sliding-3x3")
    goal = puzzle.goal(puzzle.initial())
    rng = random.Random(3)
    state = goal
    for _ in range(14):  # a short random walk: the forward search stays small
        state = puzzle.apply(state, rng.choice(list(puzzle.moves(state))))
    assert distance(puzzle, state, state).moves == forward_bfs(puzzle, state, state)


def test_known_distance_never_searches_without_a_table() -> None:
    tables.forget()
    puzzle = get_puzzle("frogs-3")
    start = puzzle.initial()
    assert known_distance(puzzle, start, start) is None  # only a search can tell
    assert known_distance(puzzle, puzzle.goal(start), start).moves == 0
    tables.build(puzzle, start)
    assert known_distance(puzzle, start, start).moves == dispatch.solve(puzzle, start, start).length


@pytest.mark.parametrize(
    "puzzle_id", ("sliding-3x3", "knights-3x4", "flip-it-6", "pegs-english", "jealous-husbands-3")
)
def test_an_optimal_solution_grades_all_optimal_counting_down(puzzle_id: str) -> None:
    puzzle = get_puzzle(puzzle_id)
    start = puzzle.initial()
    solution = dispatch.solve(puzzle, start, start)
    moves = [puzzle.format_move(m) for m in solution.moves]
    if puzzle_id == "pegs-english":
        moves = moves[:8]  # a prefix: every position on the way stays winnable
    grading = grade(puzzle, start, moves)
    assert [g.verdict for g in grading.moves] == ["optimal"] * len(moves)
    befores = [g.before.moves for g in grading.moves]
    assert befores == list(range(solution.length, solution.length - len(moves), -1))
    assert grading.final.moves == solution.length - len(moves)


def test_a_move_and_its_reverse_are_wasted_once() -> None:
    puzzle = get_puzzle("sliding-3x3")
    start = puzzle.initial()
    state, played = start, []
    while True:  # along an optimal line until a move leads away from the goal
        best, here = best_move(puzzle, state, start)
        worse = [
            m
            for m in puzzle.moves(state)
            if distance(puzzle, puzzle.apply(state, m), start).moves == here.moves + 1
        ]
        if worse:
            break
        played.append(puzzle.format_move(best))
        state = puzzle.apply(state, best)
    after = puzzle.apply(state, worse[0])
    back = next(m for m in puzzle.moves(after) if puzzle.apply(after, m) == state)
    texts = [
        *played,
        puzzle.format_move(worse[0]),
        puzzle.format_move(back),
        puzzle.format_move(best),
    ]
    grading = grade(puzzle, start, texts)
    n = len(played)
    assert [g.verdict for g in grading.moves[n:]] == ["wasted", "optimal", "optimal"]
    assert grading.moves[n].after.moves == here.moves + 1
    assert grading.final.moves == here.moves - 1


def test_a_frog_jammed_is_lost() -> None:
    puzzle = get_puzzle("frogs-2")  # one goal whatever the start: WW_BB
    start = puzzle.initial()
    jam = next(
        (state, move)
        for state in reachable(puzzle, start)
        if forward_bfs(puzzle, state, start) is not None
        for move in puzzle.moves(state)
        if forward_bfs(puzzle, puzzle.apply(state, move), start) is None
    )
    state, move = jam
    grading = grade(puzzle, state, [puzzle.format_move(move)])
    assert grading.moves[0].before.moves == forward_bfs(puzzle, state, start)
    assert grading.moves[0].verdict == "lost"
    assert grading.moves[0].reason


def test_peg_move_lost_by_a_pagoda_argument_names_it() -> None:
    puzzle = get_puzzle("pegs-english")
    start = puzzle.initial()
    prefix = PAGODA_LOSS[:-1]
    grading = grade(puzzle, start, PAGODA_LOSS)
    assert [g.verdict for g in grading.moves[:-1]] == ["optimal"] * len(prefix)
    lost = grading.moves[-1]
    assert lost.verdict == "lost" and lost.after.moves is None
    assert lost.reason is not None and "d4" in lost.reason
    assert grading.as_json()["moves"][-1]["reason"] == lost.reason


def test_peg_start_lost_by_the_position_class() -> None:
    puzzle = get_puzzle("pegs-english@c1")
    start = puzzle.initial()
    here = distance(puzzle, start, start)
    assert here.lost and "position-class" in (here.reason or "")
    with pytest.raises(Unsolvable):
        best_move(puzzle, start, start)


def test_verdicts() -> None:
    from kaeru.engine.coach.distance import Distance

    assert verdict(Distance(5), Distance(4)) == "optimal"
    assert verdict(Distance(5), Distance(5)) == "wasted"
    assert verdict(Distance(5), Distance(6)) == "wasted"
    assert verdict(Distance(5), Distance(None, "stuck")) == "lost"
    assert verdict(Distance(None), Distance(None)) == "lost"


def test_an_illegal_move_ends_the_grading_naming_it() -> None:
    puzzle = get_puzzle("frogs-2")
    with pytest.raises(IllegalMove) as raised:
        grade(puzzle, puzzle.initial(), ["2->3", "9->1"])
    assert isinstance(raised.value, BadInput)
    assert str(raised.value).startswith("move 2: '9->1' is not a legal move here")
    assert len(raised.value.graded) == 1


def test_best_move_at_the_goal_is_bad_input() -> None:
    puzzle = get_puzzle("frogs-2")
    goal = puzzle.goal(puzzle.initial())
    with pytest.raises(BadInput):
        best_move(puzzle, goal, puzzle.initial())
