"""The compiled 15-puzzle solver: walking distance (admissible, exact where it must be), the
pattern database build (against a plain breadth-first search), and both IDA* kernels optimal.
The 7-8 databases themselves (minutes to build) are exercised by the slow tests."""

from __future__ import annotations

import random
from collections import deque
from math import perm
from pathlib import Path

import numpy as np
import pytest

from kaeru.engine.puzzles.sliding import FIFTEEN_ONLY, make_sliding
from kaeru.engine.rules.control import Control, Meter
from kaeru.engine.sliding.board.geometry import grid
from kaeru.engine.sliding.databases import pattern_db, pdb78, pdb_index, pdb_order
from kaeru.engine.sliding.optimal import full_table as ft
from kaeru.engine.sliding.optimal import ida
from kaeru.engine.sliding.optimal.walking_distance import (
    axis_parts,
    walking_inversion,
    walking_tables,
)
from tests.engine.sliding_cases import EASY, korf_length, korf_state

DATA = Path(__file__).resolve().parents[2] / "bench" / "data"
FREE = Control(budget=None)


def eighty_movers() -> list[tuple[int, ...]]:
    lines = (DATA / "fifteen_80.txt").read_text().splitlines()
    return [tuple(int(t) for t in line.split()) for line in lines
            if line and not line.startswith("#")]


def distances_near_goal(n: int, depth: int) -> dict[tuple[int, ...], int]:
    """Exact distances of every side-n position within `depth` moves of the goal."""
    g = grid(n, n)
    seen = {g.goal: 0}
    queue = deque([g.goal])
    while queue:
        state = queue.popleft()
        if seen[state] == depth:
            continue
        for move in g.slides(state):
            after = g.slide(state, move)
            if after not in seen:
                seen[after] = seen[state] + 1
                queue.append(after)
    return seen


def test_walking_tables_have_the_published_size():
    assert walking_tables(4).size == 24_964
    assert int(walking_tables(4).distance[0]) == 0


def test_walking_inversion_never_overestimates_on_the_8_puzzle():
    table = ft.full_table(grid(3, 3))
    rng = random.Random(3)
    puzzle = make_sliding(3, 3)
    states = [puzzle.random_start(rng) for _ in range(400)]
    states += list(distances_near_goal(3, 10))
    for state in states:
        assert walking_inversion(3, state) <= table.distance(state)


def test_walking_inversion_never_overestimates_near_the_15_goal():
    near = distances_near_goal(4, 12)
    assert len(near) > 10_000
    for state, d in near.items():
        parts = axis_parts(4, state)
        assert parts.value <= d
        assert (parts.value - d) % 2 == 0  # each move changes both sides' parity


def test_walking_inversion_is_zero_only_at_the_goal():
    near = distances_near_goal(4, 6)
    assert [s for s, d in near.items() if walking_inversion(4, s) == 0] == [grid(4, 4).goal]


@pytest.mark.slow  # compiles the build kernel: a few seconds
def test_pattern_build_matches_the_numpy_build_that_tracks_the_blank():
    g = grid(4, 4)
    for group in [(1, 2, 3), (9, 10, 15), (11, 12, 15), (2, 7, 12, 13)]:
        table = pdb78.build_group(group).whole()
        sparse = pattern_db.build_group(g, group, Meter("reference"))
        cells = pdb_order.tile_order_cells(len(group), np.arange(table.size))
        nibbles = sum(cells[:, i] << (4 * i) for i in range(len(group)))
        assert (table == sparse[nibbles]).all()


def test_the_placement_index_is_a_bijection():
    for k in (1, 2, 3):
        entries = np.arange(perm(16, k))
        cells = pdb_index.placement_cells(k, entries)
        assert len({tuple(c) for c in cells.tolist()}) == entries.size  # distinct placements
        for entry in range(0, entries.size, 7):
            assert pdb_index.placement_index(cells[entry].tolist()) == entry


def test_the_tile_order_is_a_bijection_the_search_computes_alike():
    _, _, _, popcount = pdb78._geometry()
    for k in (1, 2, 3):
        entries = np.arange(perm(16, k))
        cells = pdb_order.tile_order_cells(k, entries)
        assert len({tuple(c) for c in cells.tolist()}) == entries.size  # distinct placements
        for entry in range(0, entries.size, 7):
            pos = np.zeros(16, dtype=np.int64)
            pos[1 : k + 1] = cells[entry]
            assert pdb_order.tile_order_index(cells[entry].tolist()) == entry
            assert pdb78._rank(pos, np.arange(1, k + 1), popcount) == entry


def test_walking_ida_is_optimal_on_the_8_puzzle():
    g = grid(3, 3)
    table = ft.full_table(g)
    rng = random.Random(8)
    for _ in range(25):
        state = make_sliding(3, 3).random_start(rng)
        found = ida.solve_walking(3, state, FREE)
        assert found is not None
        assert len(found.states) - 1 == table.distance(state)
        for a, b in zip(found.states, found.states[1:], strict=False):
            assert b in [g.slide(a, m) for m in g.slides(a)]


@pytest.mark.parametrize("number", EASY)
def test_walking_ida_solves_korf_instances_optimally(number):
    puzzle = make_sliding(4, 4)
    solution = puzzle.solve_with(FIFTEEN_ONLY[0], korf_state(number), korf_state(number), FREE)
    assert solution.length == korf_length(number)
    assert dict(solution.stats.extra)["heuristic"].startswith("walking distance")


def small_pattern_set() -> pdb78.PatternSet:
    groups = ((1, 2, 3), (4, 7, 8), (5, 6, 9), (10, 13, 14), (11, 12, 15))
    return pdb78.make_set(groups, tuple(pdb78.build_group(g).whole() for g in groups))


@pytest.mark.slow  # compiles the build and search kernels
def test_pattern_ida_agrees_with_walking_ida_on_random_scrambles():
    from kaeru.engine.sliding.optimal.ida_kernels import ida_pattern

    patterns = small_pattern_set()
    _, transpose, mirror, popcount = pdb78._geometry()
    nbr = grid(4, 4).neighbour_array
    walking = ida.walking_arrays(4)[1:]
    puzzle = make_sliding(4, 4)
    rng = random.Random(15)
    for steps in (10, 20, 30, 36):
        state = puzzle.grid.goal
        for _ in range(steps):
            state = puzzle.apply(state, rng.choice(puzzle.moves(state)))
        board = np.array(state, dtype=np.int64)
        start = ida.walking_start(4, state)
        ran = ida.run_kernel(
            lambda ctl, path, board=board, start=start: ida_pattern(
                board, nbr, patterns.tables, patterns.group_tiles, patterns.group_size,
                patterns.tile_group, mirror, transpose, popcount, *walking, start, ctl, path),
            Meter("test", FREE),
        )
        assert ran is not None
        reference = ida.solve_walking(4, state, FREE)
        assert reference is not None
        assert ran[0] == len(reference.states) - 1
        assert ida.path_states(4, state, ran[1])[-1] == puzzle.grid.goal
        assert patterns.value(state) <= ran[0]


def test_the_default_15_solver_serves_with_walking_distance_without_tables():
    puzzle = make_sliding(4, 4)
    assert puzzle.tables_ready()
    state = korf_state(EASY[0])
    solution = puzzle.own_solve(state, state, FREE)
    assert solution.optimal and solution.length == korf_length(EASY[0])
    assert "walking distance" in solution.stats.algorithm


def test_the_published_hardest_positions_are_stored_whole():
    hardest = eighty_movers()
    assert len(hardest) == 17 == len(set(hardest))
    for state in hardest:
        assert sorted(state) == list(range(16))
        assert make_sliding(4, 4).unsolvable_reason(state, state) is None


# ---- slow: the 7-8 databases (a few minutes to build, once per cache folder) -------------------
@pytest.mark.slow
@pytest.mark.parametrize("number", [1, 17, 53, 60, 82, 88])
def test_pattern_ida_solves_hard_korf_instances(number):
    puzzle = make_sliding(4, 4)
    solution = puzzle.solve_with(FIFTEEN_ONLY[1], korf_state(number), korf_state(number), FREE)
    assert solution.length == korf_length(number)


@pytest.mark.slow
@pytest.mark.parametrize("which", range(17))
def test_the_80_move_positions(which):
    puzzle = make_sliding(4, 4)
    state = eighty_movers()[which]
    solution = puzzle.solve_with(FIFTEEN_ONLY[1], state, state, FREE)
    assert solution.length == 80
    replayed = state
    for move in solution.moves:
        assert move in puzzle.moves(replayed)
        replayed = puzzle.apply(replayed, move)
    assert replayed == puzzle.grid.goal
