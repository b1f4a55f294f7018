"""Two-blank puzzles: the rule, text forms, refusals, solving by the table, the problem set."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kaeru.engine.game.session import Session
from kaeru.engine.puzzles.registry import all_ids, get_puzzle
from kaeru.engine.rules.protocol import BadInput, Unsolvable
from kaeru.engine.search import dispatch
from kaeru.engine.search.bidirectional import bidirectional_bfs
from kaeru.engine.two_blank.problems import ProblemSet

SEVEN = get_puzzle("two-blank-3x3")
TEN = get_puzzle("two-blank-4x3")


def replays(puzzle, solution, start) -> bool:
    state = solution.states[0]
    for move, after in zip(solution.moves, solution.states[1:], strict=True):
        assert move in puzzle.moves(state), puzzle.describe(move)
        state = puzzle.apply(state, move)
        assert state == after
    return puzzle.is_goal(state, start)


# ---- the family ----------------------------------------------------------------------------------
def test_three_boards_are_offered():
    assert {"two-blank-3x3", "two-blank-4x3", "two-blank-4x4"} <= set(all_ids())
    assert get_puzzle("two-blank-4x3").board == "two-blank"


@pytest.mark.parametrize("bad", ["two-blank-5x3", "two-blank-4", "two-blank-axb", "two-blank-2x2"])
def test_bad_ids_say_what_exists(bad):
    with pytest.raises(BadInput, match="two-blank"):
        get_puzzle(bad)


# ---- the rule ------------------------------------------------------------------------------------
def test_moves_from_the_goal_and_their_cells():
    goal = TEN.geometry.goal  # 1 2 3 4/5 6 7 8/9 10 _ _
    assert TEN.moves(goal) == [("down", (7, 8)), ("right", (10,))]
    assert TEN.move_cells(goal, ("down", (7, 8))) == ((6, 7), (10, 11))
    assert TEN.move_cells(goal, ("right", (10,))) == ((9,), (11,))
    after = TEN.apply(goal, ("right", (10,)))
    assert TEN.format(after) == "1 2 3 4/5 6 7 8/9 _ _ 10"
    assert TEN.describe(("down", (7, 8))) == "7, 8 down"


def test_pair_in_the_middle_has_four_moves():
    state = TEN.parse("1 2 3 4/5 _ _ 8/9 6 7 10")
    assert [d for d, _ in TEN.moves(state)] == ["up", "down", "left", "right"]
    assert TEN.apply(state, ("up", (6, 7))) == TEN.parse("1 2 3 4/5 6 7 8/9 _ _ 10")
    assert TEN.apply(state, ("down", (2, 3))) == TEN.parse("1 _ _ 4/5 2 3 8/9 6 7 10")
    assert TEN.apply(state, ("left", (8,))) == TEN.parse("1 2 3 4/5 8 _ _/9 6 7 10")
    assert TEN.apply(state, ("right", (5,))) == TEN.parse("1 2 3 4/_ _ 5 8/9 6 7 10")


def test_every_move_is_undone_by_the_opposite_one():
    rng = random.Random(5)
    state = TEN.initial()
    opposite = {"up": "down", "down": "up", "left": "right", "right": "left"}
    for _ in range(200):
        move = rng.choice(TEN.moves(state))
        after = TEN.apply(state, move)
        back = [m for m in TEN.moves(after) if m[0] == opposite[move[0]]]
        assert back and TEN.apply(after, back[0]) == state
        state = after


def test_illegal_moves_are_explained():
    goal = TEN.geometry.goal
    assert "no tile below" in TEN.explain_illegal(goal, ("up", (1, 2)))
    assert "are 10, not 9" in TEN.explain_illegal(goal, ("right", (9,)))
    session = Session(TEN, goal)
    with pytest.raises(BadInput, match="no tile right of the empty pair"):
        session.push(("left", (3,)))


# ---- text ----------------------------------------------------------------------------------------
@settings(max_examples=80, deadline=None)
@given(st.integers(0, TEN.space_size - 1))
def test_text_round_trips(code):
    state = TEN.decode(code)
    assert TEN.parse(TEN.format(state)) == state


def test_other_spellings_are_accepted():
    goal = TEN.geometry.goal
    assert TEN.parse("123456789a__") == goal
    assert TEN.parse("1 2 3 4\n5 6 7 8\n9 10 . .") == goal
    assert TEN.parse("1 2 3 4 5 6 7 8 9 10 0 0") == goal


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("", "empty"),
        ("1 2 3 4/5 6 7 8/9 10 _", "row 3 has 3 cells"),
        ("1 2 3 4 5 6 7 8 9 10 _", "got 11 cells"),
        ("1 2 3 4/5 6 7 8/9 11 _ _", "'11' is not a tile"),
        ("1 2 3 4/5 6 7 8/9 9 _ _", "tile 9 appears 2 times"),
        ("1 2 3 4/5 6 7 _/_ 9 10 8", "side by side"),
        ("1 2 3 _/5 6 7 8/9 10 4 _", "side by side"),
        ("1 2 3 4/5 6 7 8/9 10 _ x", "not a tile"),
        ("12345678!a__", "compact form"),
    ],
)
def test_bad_text_is_refused_in_one_line(text, says):
    with pytest.raises(BadInput, match=says) as caught:
        TEN.parse(text)
    assert "\n" not in str(caught.value)


# ---- what cannot be solved -----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("puzzle", "text", "says"),
    [
        (TEN, "2 1 3 4/5 6 7 8/9 10 _ _", "tile 2 stands in an odd-numbered column"),
        (TEN, "3 2 1 4/5 6 7 8/9 10 _ _", "odd-numbered columns are one swap away"),
        (TEN, "1 4 3 2/5 6 7 8/9 10 _ _", "even-numbered columns are one swap away"),
        (SEVEN, "1 5 3/4 2 6/7 _ _", "must stay in the order 2, 5"),
    ],
)
def test_unsolvable_positions_say_why(puzzle, text, says):
    state = puzzle.parse(text)
    assert says in puzzle.unsolvable_reason(state, state)
    with pytest.raises(Unsolvable, match=says):
        dispatch.solve(puzzle, state, state)


def test_solvable_exactly_when_reachable_from_the_goal():
    """The column-class and parity rules are exact: after one or two swaps of tiles in a
    reachable position, the verdict matches membership in the goal's component (plain BFS)."""
    reachable = set()
    layer = [TEN.geometry.goal]
    reachable.update(layer)
    while layer:
        layer = [c for s in layer for c in (TEN.apply(s, m) for m in TEN.moves(s))]
        layer = [c for c in dict.fromkeys(layer) if c not in reachable]
        reachable.update(layer)
    rng = random.Random(11)
    verdicts = set()
    for _ in range(300):
        cells = list(TEN.decode(rng.randrange(TEN.space_size)))
        for _ in range(rng.choice((1, 2))):
            column = rng.choice((0, 1))  # swaps inside one column class keep the classes right
            tiles = [k for k, t in enumerate(cells) if t and (k % 4) % 2 == column]
            anywhere = [k for k in range(12) if cells[k]]
            i, j = rng.sample(tiles if rng.random() < 0.8 else anywhere, 2)
            cells[i], cells[j] = cells[j], cells[i]
        state = tuple(cells)
        solvable = TEN.unsolvable_reason(state, state) is None
        assert solvable == (state in reachable)
        verdicts.add(solvable)
    assert verdicts == {True, False}


# ---- solving by the table ------------------------------------------------------------------------
@settings(max_examples=40, deadline=None)
@given(st.integers(0, TEN.space_size - 1))
def test_solutions_replay_and_are_optimal(code):
    state = TEN.decode(code)
    solution = dispatch.solve(TEN, state, state)
    assert solution.optimal and replays(TEN, solution, state)
    assert solution.length == TEN.distance(state)


def test_solution_length_equals_a_generic_search():
    rng = random.Random(7)
    for _ in range(8):
        state = TEN.decode(rng.randrange(TEN.space_size))
        expected = bidirectional_bfs(TEN, state, state).length
        assert dispatch.solve(TEN, state, state).length == expected


def test_default_starts_are_problems_of_the_stated_depth():
    assert TEN.distance(TEN.initial()) == 8  # the page's figure
    assert SEVEN.distance(SEVEN.initial()) == 16
    tall = get_puzzle("two-blank-3x4")
    assert tall.distance(tall.initial()) == 16
    for puzzle in (SEVEN, TEN, tall):
        start = puzzle.initial()
        assert start.index(0) == len(start) - 2  # the pair at the bottom right


def test_hint_is_a_first_step_of_an_optimal_solution():
    session = Session(TEN)
    session.hint()  # the inline searcher answers at once, as hint_move
    hint = session.hint_move
    assert hint is not None
    before = TEN.distance(session.state)
    session.push(hint)
    assert TEN.distance(session.state) == before - 1


# ---- the problem set -----------------------------------------------------------------------------
def test_problem_set_counts_and_order():
    problems = ProblemSet(TEN.index, TEN.depth_table())
    assert len(problems) == 3_600
    listed = list(problems)
    assert [p.depth for p in listed] == sorted(p.depth for p in listed)
    assert listed[0].state == TEN.geometry.goal
    assert all(p.state.index(0) == 10 for p in listed)
    assert sum(problems.counts()) == 3_600
    assert problems.available_depths() == list(range(4, 35, 2))


def test_new_games_by_depth_and_by_band():
    rng = random.Random(3)
    start = TEN.random_start(rng, 24)
    assert TEN.distance(start) == 24 and start.index(0) == 10
    start = TEN.random_start_in_band(rng, 20, 23)
    assert TEN.distance(start) in (20, 22)
    with pytest.raises(BadInput, match="4-34 \\(even only\\)"):
        TEN.random_start(rng, 23)
    any_start = TEN.random_start(rng)
    assert any_start != TEN.geometry.goal and any_start.index(0) == 10


def test_random_start_without_depth_needs_no_table():
    fourteen = get_puzzle("two-blank-4x4")
    start = fourteen.random_start(random.Random(1))
    assert start.index(0) == 14 and fourteen.unsolvable_reason(start, start) is None
