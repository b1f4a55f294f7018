"""Knight exchange (seed 001, problem 5) and Guarini's problem: published figures, rules, text."""

from __future__ import annotations

import functools
import random
from collections import deque

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kaeru.engine.game.session import Session
from kaeru.engine.puzzles.registry import get_puzzle
from kaeru.engine.rules.protocol import BadInput, Unsolvable
from kaeru.engine.search import dispatch
from kaeru.engine.search.bfs import bfs

EXCHANGE = get_puzzle("knights-3x4")
GUARINI = get_puzzle("knights-3x3")


def replays(puzzle, solution, start) -> bool:
    """The solution's moves are legal one by one and its states follow from them."""
    state = solution.states[0]
    for move, after in zip(solution.moves, solution.states[1:], strict=True):
        assert move in list(puzzle.moves(state)), puzzle.describe(move)
        state = puzzle.apply(state, move)
        assert state == after
    return puzzle.is_goal(state, start)


def random_walk(puzzle, seed: int, steps: int) -> str:
    rng = random.Random(seed)
    state = puzzle.initial()
    for _ in range(steps):
        state = puzzle.apply(state, rng.choice(puzzle.moves(state)))
    return state


# ---- the published figures -----------------------------------------------------------------------
def test_exchange_takes_16_moves_as_published():
    start = EXCHANGE.initial()
    solution = dispatch.solve(EXCHANGE, start, start)
    assert solution.length == 16 and solution.optimal
    assert replays(EXCHANGE, solution, start)
    assert EXCHANGE.format(solution.states[-1]) == "WWW/___/___/BBB"


def test_exchange_optimum_equals_plain_bfs():
    start = EXCHANGE.initial()
    assert bfs(EXCHANGE, start, start).length == dispatch.solve(EXCHANGE, start, start).length == 16


def test_exchange_has_18480_positions_farthest_22_two_up_to_symmetry():
    start = EXCHANGE.initial()
    found = dispatch.enumerate_space(EXCHANGE, start)
    assert found.positions == 18_480  # C(12,3) * C(9,3): every placement is reachable
    assert found.max_depth == 22
    farthest = [EXCHANGE.parse(text) for text in found.farthest]
    assert len(farthest) == found.histogram[-1] == 3
    # "2 up to symmetry": the mirror, and the half turn or top-bottom flip with colours swapped,
    # all leave the start (so every distance from it) unchanged.
    group = EXCHANGE.start_symmetries(start)
    assert len(group) == 4
    orbits = {min(EXCHANGE.transform(s, image, swap) for image, swap in group) for s in farthest}
    assert len(orbits) == 2


def test_guarini_takes_16_moves():
    # The classic answer to Guarini's problem (1512) is 16 moves — e.g. Dudeney's "buttons and
    # string" unrolling of the 3x3 knight graph into an 8-cycle. Our BFS finds the same.
    start = GUARINI.initial()
    assert GUARINI.format(start) == "W_W/___/B_B"
    solution = dispatch.solve(GUARINI, start, start)
    assert solution.length == 16 and solution.optimal
    assert bfs(GUARINI, start, start).length == 16
    assert replays(GUARINI, solution, start)
    assert GUARINI.format(solution.states[-1]) == "B_B/___/W_W"


def test_guarini_goal_is_among_the_farthest():
    start = GUARINI.initial()
    found = dispatch.enumerate_space(GUARINI, start)
    assert found.max_depth == 16
    assert "B_B/___/W_W" in found.farthest
    assert found.positions == 280  # the centre square is unreachable; the ring keeps its order


# ---- rules ---------------------------------------------------------------------------------------
def test_knight_graph_of_the_seed():
    # The seed's adjacency list, 1-based: 1->6,8  2->7,9  3->4,8  4->3,9,11  5->10,12 ...
    seed = [[6, 8], [7, 9], [4, 8], [3, 9, 11], [10, 12], [1, 7, 11],
            [2, 6, 12], [1, 3], [2, 4, 10], [5, 9], [4, 6], [5, 7]]
    assert [[t + 1 for t in targets] for targets in EXCHANGE.graph] == seed


def test_guarini_centre_is_isolated():
    assert GUARINI.graph[4] == ()


def test_moves_only_onto_empty_squares():
    start = EXCHANGE.initial()
    moves = EXCHANGE.moves(start)
    assert {EXCHANGE.describe(m) for m in moves} == {
        "a1-c2", "a1-b3", "b1-a3", "b1-c3", "c1-a2", "c1-b3",
        "a4-b2", "a4-c3", "b4-a2", "b4-c2", "c4-a3", "c4-b2",
    }
    for src, dst in moves:
        assert start[src] != "_" and start[dst] == "_"


@given(st.integers(0, 10_000), st.integers(0, 40))
@settings(max_examples=40, deadline=None)
def test_every_move_can_be_taken_back(seed, steps):
    state = random_walk(EXCHANGE, seed, steps)
    for src, dst in EXCHANGE.moves(state):
        after = EXCHANGE.apply(state, (src, dst))
        assert (dst, src) in EXCHANGE.moves(after)
        assert EXCHANGE.apply(after, (dst, src)) == state
    preds = set(EXCHANGE.predecessors(state))
    assert all(EXCHANGE.apply(before, move) == state for before, move in preds)
    assert len(preds) == len(EXCHANGE.moves(state))


@functools.cache
def distances_to_goal() -> dict[str, int]:
    """Plain BFS outwards from the goal (knight moves are reversible, so this is the distance
    of every position to the goal): an independent check of the solver."""
    goal = EXCHANGE.goal(EXCHANGE.initial())
    depth = {goal: 0}
    queue = deque([goal])
    while queue:
        state = queue.popleft()
        for move in EXCHANGE.moves(state):
            child = EXCHANGE.apply(state, move)
            if child not in depth:
                depth[child] = depth[state] + 1
                queue.append(child)
    return depth


@given(st.integers(0, 10_000), st.integers(1, 30))
@settings(max_examples=15, deadline=None)
def test_optimal_from_any_position_equals_bfs(seed, steps):
    start = EXCHANGE.initial()
    state = random_walk(EXCHANGE, seed, steps)
    solution = dispatch.solve(EXCHANGE, state, start)
    assert solution.length == distances_to_goal()[state]
    assert replays(EXCHANGE, solution, start)


def test_goal_of_any_start_is_its_colour_swap():
    assert EXCHANGE.goal(EXCHANGE.parse("B__/_W_/___/___")) == EXCHANGE.parse("W__/_B_/___/___")


def test_a_knight_stuck_in_the_centre_cannot_swap():
    start = GUARINI.parse("B__/_W_/___")
    with pytest.raises(Unsolvable):
        dispatch.solve(GUARINI, start, start)


def test_unequal_teams_are_refused_at_once():
    start = EXCHANGE.parse("BB_/___/___/W__")
    with pytest.raises(Unsolvable, match=r"as many black as white knights \(2 B, 1 W\)"):
        dispatch.solve(EXCHANGE, start, start)


def test_explain_illegal_names_squares():
    start = EXCHANGE.initial()
    assert EXCHANGE.explain_illegal(start, (3, 8)) == "there is no knight on a2"
    assert EXCHANGE.explain_illegal(start, (0, 3)) == "a knight cannot jump from a1 to a2"
    assert EXCHANGE.explain_illegal(start, (0, 11)) == "a knight cannot jump from a1 to c4"
    crowded = EXCHANGE.parse("BBB/___/W__/_WW")  # a3 is white; b1-a3 blocked
    assert EXCHANGE.explain_illegal(crowded, (1, 6)) == (
        "a3 is taken: knights move only onto empty squares"
    )
    assert "not a move" in EXCHANGE.explain_illegal(start, (0, 99))


def test_session_refuses_with_the_reason():
    session = Session(EXCHANGE)
    with pytest.raises(BadInput, match="no knight on a2"):
        session.push((3, 8))
    session.push((0, 5))  # a1-c2
    assert EXCHANGE.format(session.state) == "_BB/__B/___/WWW"


# ---- squares and text ----------------------------------------------------------------------------
def test_squares_are_named_by_row_from_the_top():
    assert [EXCHANGE.square_name(i) for i in (0, 2, 9, 11)] == ["a1", "c1", "a4", "c4"]
    assert EXCHANGE.describe((0, 5)) == "a1-c2"
    assert EXCHANGE.move_cells(EXCHANGE.initial(), (0, 5)) == ((0,), (5,))


def test_text_round_trip():
    state = random_walk(EXCHANGE, 7, 25)
    assert EXCHANGE.parse(EXCHANGE.format(state)) == state
    assert EXCHANGE.format(EXCHANGE.initial()) == "BBB/___/___/WWW"
    assert EXCHANGE.parse(" bbb / ___ / ___ / www ") == EXCHANGE.initial()
    assert EXCHANGE.parse("BBB______WWW") == EXCHANGE.initial()


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("BBB/___/WWW", "expected 4 rows of 3"),
        ("BBBB/___/___/WW", "expected 4 rows of 3"),
        ("BBB/_x_/___/WWW", "unexpected 'X'"),
        ("___/___/___/___", "no knights"),
        ("BBB/BBB/WWW/WWW", "full"),
    ],
)
def test_bad_text_is_one_clear_line(text, words):
    with pytest.raises(BadInput, match=words) as error:
        EXCHANGE.parse(text)
    assert "\n" not in str(error.value)


def test_unknown_board_is_refused():
    with pytest.raises(BadInput, match="knights-3x4"):
        get_puzzle("knights-5x5")


def test_game_id_round_trip():
    session = Session.from_game_id("knights-3x4:BBB/___/___/WWW")
    assert session.game_id == "knights-3x4:BBB/___/___/WWW"
    assert session.puzzle is EXCHANGE
