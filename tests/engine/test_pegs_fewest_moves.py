"""Fewest moves for pegs (a move = one peg's chain of jumps) against brute force on small
boards, the solutions replayed, `kaeru solve --metric moves`, and the English central game's 18
(Bergholt 1912, Beasley) in the slow run."""

from __future__ import annotations

import json
from collections import deque

import pytest

from kaeru.engine.pegs.boards import Board, english, triangle
from kaeru.engine.pegs.fewest_moves import fewest_move_solution, fewest_moves
from kaeru.engine.pegs.shapes import SHAPES, shape_state
from kaeru.engine.puzzles.pegs import make_pegs
from kaeru.engine.rules.control import Control, Meter
from kaeru.engine.rules.results import Unsolvable
from kaeru.tui.cli.main import main


def brute_force_moves(board: Board, start: int, goal: int | None) -> int | None:
    """Fewest moves by a 0-1 breadth-first search over (position, hole the last jump landed
    in): a jump from that hole is free, any other costs one move."""
    best: dict[tuple[int, int], int] = {(start, -1): 0}
    queue = deque([(0, start, -1)])
    while queue:
        cost, state, last = queue.popleft()
        if best[(state, last)] < cost:
            continue
        if state.bit_count() == 1:
            if goal is None or state == 1 << goal:
                return cost
            continue
        for a, b, c in board.jumps:
            if state >> a & 1 and state >> b & 1 and not state >> c & 1:
                child = (state ^ (1 << a | 1 << b | 1 << c), c)
                step = 0 if a == last else 1
                if best.get(child, 1 << 30) > cost + step:
                    best[child] = cost + step
                    (queue.appendleft if step == 0 else queue.append)((cost + step, *child))
    return None


def replay_moves(board: Board, start: int, goal: int | None, jumps: list[int]) -> int:
    """Plays the jumps (each must be legal), checks the finish, returns the move count."""
    state, last, moves = start, -1, 0
    for index in jumps:
        a, b, c = board.jumps[index]
        assert state >> a & 1 and state >> b & 1 and not state >> c & 1
        state ^= 1 << a | 1 << b | 1 << c
        moves += a != last
        last = c
    assert state.bit_count() == 1 and (goal is None or state == 1 << goal)
    return moves


SMALL = [
    *(
        (f"triangle {h}", triangle(), triangle().full & ~(1 << triangle().hole(h)), None)
        for h in ("a1", "a2", "a3", "b3")
    ),
    *(
        (
            f"triangle {h} to {h}",
            triangle(),
            triangle().full & ~(1 << triangle().hole(h)),
            triangle().hole(h),
        )
        for h in ("a1", "a2", "a3", "b3")
    ),
    ("triangle a3 to a1", triangle(), triangle().full & ~(1 << triangle().hole("a3")), 0),
    *(
        (f"english {k}", english(), shape_state(k), english().centre)
        for k in ("cross", "plus", "fireplace", "t")
    ),
    ("english fireplace anywhere", english(), shape_state("fireplace"), None),
]


@pytest.mark.parametrize(("name", "board", "start", "goal"), SMALL, ids=[c[0] for c in SMALL])
def test_fewest_moves_match_brute_force(name, board, start, goal):
    jumps, stats = fewest_move_solution(board, start, goal)
    expected = brute_force_moves(board, start, goal)
    if expected is None:
        assert jumps is None
        return
    assert jumps is not None
    assert replay_moves(board, start, goal, jumps) == expected
    assert dict(stats.extra)["moves"] == str(expected)
    assert len(jumps) == start.bit_count() - 1


@pytest.mark.parametrize("hole", ["a1", "a2", "a3", "b3"])
def test_the_complement_shortcut_agrees_with_the_two_sweeps(hole):
    board = triangle()
    goal = board.hole(hole)
    start = board.full & ~(1 << goal)
    results = []
    for complements in (True, False):
        found = fewest_moves(board, start, goal, Meter("test"), complements=complements)
        results.append(None if found is None else (found.moves, found.solution_classes))
    assert results[0] == results[1]


def test_no_solution_is_reported_as_none():
    board = english()
    start = shape_state("cross") | 1  # an extra peg in c1: the finish in d4 is out of reach
    assert brute_force_moves(board, start, board.centre) is None
    assert fewest_move_solution(board, start, board.centre)[0] is None


def test_the_puzzle_gives_a_solution_of_jumps_optimal_in_moves():
    puzzle = make_pegs("pegs-english-fireplace")
    solution = puzzle.solve_fewest_moves(puzzle.start, puzzle.start, Control())
    assert solution.optimal and solution.states[-1] == 1 << english().centre
    assert len(puzzle.chains(solution.moves)) == brute_force_moves(
        english(), shape_state("fireplace"), english().centre
    )


def test_the_puzzle_refuses_what_a_quick_proof_rules_out():
    puzzle = make_pegs("pegs-french")
    with pytest.raises(Unsolvable):
        puzzle.solve_fewest_moves(puzzle.start, puzzle.start, Control())


def test_cli_metric_moves(capsys):
    assert main(["solve", "pegs-english-fireplace", "--metric", "moves", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["length"] == len(out["chains"]) == 8
    assert out["jumps"] == len(out["moves"]) == 10
    assert main(["solve", "pegs-english-fireplace", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["length"] == 10


def test_cli_metric_moves_refused_where_moves_do_not_chain(capsys):
    assert main(["solve", "flip-it-5", "--metric", "moves"]) == 2
    assert "--metric moves" in capsys.readouterr().err


@pytest.mark.slow
def test_english_central_game_needs_18_moves():
    board = english()
    start = board.full & ~(1 << board.centre)
    jumps, stats = fewest_move_solution(board, start, board.centre, Control(budget=None))
    assert jumps is not None and replay_moves(board, start, board.centre, jumps) == 18
    assert dict(stats.extra)["solution classes"] == "1,679,072"


@pytest.mark.slow
@pytest.mark.parametrize("shape", list(SHAPES))
def test_classic_shapes_match_brute_force(shape):
    board, start = english(), shape_state(shape)
    if start.bit_count() > 20:
        pytest.skip("too many pegs for the brute force")
    jumps, _ = fewest_move_solution(board, start, board.centre)
    expected = brute_force_moves(board, start, board.centre)
    assert jumps is not None and replay_moves(board, start, board.centre, jumps) == expected
