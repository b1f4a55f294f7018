"""Big boards line by line (`engine.sliding.near_optimal.peel`): the tables that count the blank are
exact, a line's search finds near-shortest ways, windows shorten a path without changing its ends,
and 6×6 answers replay and stay near their proved lower bound."""

from __future__ import annotations

import random
import time
from collections import deque

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kaeru.engine.puzzles.sliding import make_sliding
from kaeru.engine.rules.control import Control, Meter
from kaeru.engine.sliding.board.geometry import Grid, State, grid
from kaeru.engine.sliding.board.shuffle import shuffle_solvable
from kaeru.engine.sliding.databases.line_tables import _bfs_with_blank, blank_table, line_groups
from kaeru.engine.sliding.near_optimal.candidates import finish_best
from kaeru.engine.sliding.near_optimal.peel import _bring_line
from kaeru.engine.sliding.near_optimal.peeled import Peeled
from kaeru.engine.sliding.near_optimal.shortcut import shorten
from kaeru.engine.sliding.optimal.full_table import full_table
from tests.engine.sliding_helpers import replays


def plain_bfs(shape: Grid, group: tuple[int, ...]) -> dict[tuple[int, ...], int]:
    """(blank's cell, the group's cells) -> fewest moves until the group is home, by a plain
    breadth-first search over those placements."""
    homes = tuple(shape.home(t) for t in group)
    queue: deque[tuple[int, ...]] = deque()
    depth: dict[tuple[int, ...], int] = {}
    for blank in range(shape.cells):
        if blank not in homes:
            depth[(blank, *homes)] = 0
            queue.append((blank, *homes))
    while queue:
        key = queue.popleft()
        blank, cells = key[0], list(key[1:])
        for q in shape.neighbours[blank]:
            moved = [blank if c == q else c for c in cells]
            child = (q, *moved)
            if child not in depth:
                depth[child] = depth[key] + 1
                queue.append(child)
    return depth


@pytest.mark.parametrize(("shape", "group"), [(grid(3, 3), (1, 2)), (grid(4, 3), (1, 2, 3))])
def test_a_table_that_counts_the_blank_is_the_exact_distance(shape, group):
    homes = np.array([shape.home(t) for t in group], dtype=np.int64)
    table = _bfs_with_blank(shape.neighbour_array, homes, shape.cells)
    exact = plain_bfs(shape, group)
    n = shape.cells
    for key, moves in exact.items():
        index = sum(cell * n**i for i, cell in enumerate(key))
        assert table[index] == moves
    assert int((table != 255).sum()) == len(exact)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32))
def test_the_blank_tables_never_overestimate(seed):
    shape = grid(3, 3)
    state = shuffle_solvable(shape, random.Random(seed))
    exact = full_table(shape).distance(state)
    assert exact is not None
    for group in line_groups(shape, [1, 2, 3]):
        table = blank_table(shape, group)
        index = state.index(0) + sum(
            state.index(t) * shape.cells ** (i + 1) for i, t in enumerate(group))
        assert table[index] <= exact


@settings(max_examples=6, deadline=None)
@given(st.integers(0, 2**32))
def test_a_line_comes_home_near_its_shortest_way(seed):
    shape = grid(4, 4)
    state = shuffle_solvable(shape, random.Random(seed))
    line = [1, 2, 3, 4]
    homes = np.array([shape.home(t) for t in line], dtype=np.int64)
    exact_table = _bfs_with_blank(shape.neighbour_array, homes, shape.cells)
    index = state.index(0) + sum(state.index(t) * 16 ** (i + 1) for i, t in enumerate(line))
    shortest = int(exact_table[index])
    seconds = 30.0  # room for compiling on a cold cache: a warm run finishes in well under one
    found = _bring_line(shape, state, line, Meter("test", Control()), seconds, 200_000)
    assert found is not None and replays(shape, found) and found[0] == state
    assert all(found[-1][t - 1] == t for t in line)
    assert shortest <= len(found) - 1 <= shortest * 5 // 4  # the last weight, 1.25, finished


def walk(shape: Grid, state: State, rng: random.Random, steps: int) -> list[State]:
    states = [state]
    for _ in range(steps):
        states.append(shape.slide(states[-1], rng.choice(shape.slides(states[-1]))))
    return states


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**32))
def test_shortening_keeps_the_ends_and_never_lengthens(seed):
    shape = grid(4, 4)
    rng = random.Random(seed)
    path = walk(shape, shuffle_solvable(shape, rng), rng, 80)
    shorter = shorten(shape, path, 1.0)
    assert shorter[0] == path[0] and shorter[-1] == path[-1] and replays(shape, shorter)
    assert len(shorter) <= len(path) and (len(path) - len(shorter)) % 2 == 0


def test_a_detour_is_cut_out():
    shape = grid(5, 5)
    rng = random.Random(5)
    there = walk(shape, shape.goal, rng, 30)
    path = there + there[-2::-1]  # out 30 moves and back: the same position at both ends
    path = path + walk(shape, path[-1], rng, 10)[1:]
    shorter = shorten(shape, path, 2.0)
    assert shorter[0] == path[0] and shorter[-1] == path[-1] and replays(shape, shorter)
    assert len(shorter) - 1 <= 10  # the detour is gone


@pytest.mark.slow  # 58 s of CPU per board
@pytest.mark.parametrize(("seed", "board"), [(6, 0), (36, 2)])  # 1.44x; the worst, 1.50x
def test_six_by_six_answers_replay_near_their_proved_bound(seed, board):
    puzzle = make_sliding(6, 6)
    rng = random.Random(seed)
    states = [puzzle.random_start(rng) for _ in range(board + 1)]  # bench/six_boards.py's
    state = states[board]
    solution = puzzle.own_solve(state, state, Control())
    assert replays(puzzle.grid, list(solution.states)) and solution.states[-1] == puzzle.grid.goal
    assert solution.lower_bound is not None
    assert solution.over_optimum == solution.length - solution.lower_bound
    assert solution.length <= 1.5 * solution.lower_bound  # lines for themselves: 1.39-1.59x


@pytest.mark.slow  # about 8 s of CPU
def test_ten_by_ten_answers_line_by_line_shorter_than_reduction():
    puzzle = make_sliding(10, 10)
    state = puzzle.random_start(random.Random(10))
    solution = puzzle.own_solve(state, state, Control())
    reduction = puzzle.solve_reduction(state, Control())
    assert replays(puzzle.grid, list(solution.states)) and solution.states[-1] == puzzle.grid.goal
    assert solution.stats.algorithm.startswith("line by line")
    assert solution.length < reduction.length



def blank_moved(state: State, *steps: int) -> State:
    """`state` with the blank swapped with the tile `step` cells away, for each step."""
    out = list(state)
    for step in steps:
        gap = out.index(0)
        out[gap], out[gap + step] = out[gap + step], 0
    return tuple(out)


@pytest.mark.parametrize("flip", [False, True])
def test_the_candidate_with_the_shortest_whole_answer_is_kept(flip):
    """Of the ways the lines came home (each a part left to solve: a 5×5 on the 6×6, a 3×3
    here), the one whose lines plus rest are shortest: not the shortest lines, nor the first
    in the list."""
    full = grid(4, 4)
    start = blank_moved(full.goal, -1, -1)  # the blank on the rest's bottom left
    up = blank_moved(start, -4)
    short_lines = Peeled([start], top=1, left=1)  # the rest: 2 moves
    long_lines = Peeled([start, up, start, up], top=1, left=1)  # 3 moves, then a rest of 3
    other = Peeled([start, up], top=1, left=1)  # 1 + 3
    whole = [long_lines, other, short_lines][:: -1 if flip else 1]
    until = time.process_time() + 20.0
    states = finish_best(full, whole, Control(), Meter("test", Control()), until, 100_000)
    assert states is not None and replays(full, states)
    assert states[0] == start and states[-1] == full.goal and len(states) - 1 == 2
