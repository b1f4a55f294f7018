"""The two-blank state space: the perfect index, the depth tables against plain BFS, the disk
cache, and (slow) the 14-puzzle's full enumeration."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kaeru.engine.puzzles.registry import get_puzzle
from kaeru.engine.rules.control import Control
from kaeru.engine.rules.protocol import Cancelled
from kaeru.engine.search import dispatch
from kaeru.engine.search.bidirectional import bidirectional_bfs
from kaeru.engine.tables import store
from kaeru.engine.two_blank import table as tables
from kaeru.engine.two_blank.survey import PAIR_AT_END

SMALL = ["two-blank-3x3", "two-blank-4x3", "two-blank-3x4"]
FOURTEEN = get_puzzle("two-blank-4x4")


def tuple_bfs(puzzle, root) -> dict:
    """Distances from `root` by the rules alone (moves/apply on tuples): the reference."""
    seen = {root: 0}
    layer = [root]
    while layer:
        following = []
        for state in layer:
            for move in puzzle.moves(state):
                child = puzzle.apply(state, move)
                if child not in seen:
                    seen[child] = seen[state] + 1
                    following.append(child)
        layer = following
    return seen


@pytest.mark.parametrize("puzzle_id", SMALL)
def test_index_numbers_exactly_the_reachable_positions(puzzle_id):
    puzzle = get_puzzle(puzzle_id)
    distances = tuple_bfs(puzzle, puzzle.geometry.goal)
    assert len(distances) == puzzle.space_size
    codes = {puzzle.encode(s) for s in distances}
    assert codes == set(range(puzzle.space_size))
    assert all(puzzle.decode(puzzle.encode(s)) == s for s in distances)


@pytest.mark.parametrize("puzzle_id", SMALL)
def test_depth_table_equals_bfs_distance_for_every_position(puzzle_id):
    puzzle = get_puzzle(puzzle_id)
    distances = tuple_bfs(puzzle, puzzle.geometry.goal)
    table = puzzle.depth_table()
    for state, d in distances.items():
        assert table[puzzle.encode(state)] == d


@pytest.mark.parametrize("puzzle_id", SMALL)
def test_vectorised_children_equal_the_rules(puzzle_id):
    puzzle = get_puzzle(puzzle_id)
    codes = np.arange(puzzle.space_size, dtype=np.int64)
    children = puzzle.expand_codes(codes)
    expected = sum(len(puzzle.moves(puzzle.decode(int(c)))) for c in codes)
    assert children.size == expected
    for code in range(0, puzzle.space_size, 7):
        state = puzzle.decode(code)
        got = sorted(puzzle.expand_codes(np.array([code])).tolist())
        assert got == sorted(puzzle.encode(puzzle.apply(state, m)) for m in puzzle.moves(state))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, FOURTEEN.space_size - 1))
def test_fourteen_index_round_trips_and_children_follow_the_rules(code):
    state = FOURTEEN.decode(code)
    assert FOURTEEN.encode(state) == code
    assert FOURTEEN.unsolvable_reason(state, state) is None
    assert FOURTEEN.parse(FOURTEEN.format(state)) == state
    got = sorted(FOURTEEN.expand_codes(np.array([code])).tolist())
    assert got == sorted(FOURTEEN.encode(FOURTEEN.apply(state, m)) for m in FOURTEEN.moves(state))


@pytest.mark.parametrize("puzzle_id", SMALL)
def test_enumeration_from_the_goal_matches_plain_bfs(puzzle_id):
    puzzle = get_puzzle(puzzle_id)
    goal = puzzle.geometry.goal
    distances = tuple_bfs(puzzle, goal)
    found = dispatch.enumerate_space(puzzle, goal)
    assert found.histogram == tuple(np.bincount(list(distances.values())).tolist())
    end = puzzle.geometry.pair_cells[-1]
    pair = [0] * len(found.histogram)
    for state, d in distances.items():
        pair[d] += state.index(0) == end
    assert found.series[PAIR_AT_END] == tuple(pair)
    deepest = found.max_depth
    assert sorted(found.farthest) == sorted(
        puzzle.format(s) for s, d in distances.items() if d == deepest
    )


def test_enumeration_from_an_unsolvable_root_is_a_renamed_copy():
    """From a position outside the goal's component the same machinery counts that component."""
    puzzle = get_puzzle("two-blank-4x3")
    root = puzzle.parse("3 2 1 4/5 6 7 8/9 10 _ _")  # 1 and 3 swapped: odd, unsolvable
    assert puzzle.unsolvable_reason(root, root)
    distances = tuple_bfs(puzzle, root)
    found = dispatch.enumerate_space(puzzle, root)
    assert found.positions == len(distances) == 32_400
    assert found.histogram == tuple(np.bincount(list(distances.values())).tolist())
    deepest = [puzzle.format(s) for s, d in distances.items() if d == found.max_depth]
    assert sorted(found.farthest) == sorted(deepest)


def test_enumeration_from_a_solvable_non_goal_root_matches_bfs():
    puzzle = get_puzzle("two-blank-3x3")
    root = puzzle.initial()
    distances = tuple_bfs(puzzle, root)
    found = dispatch.enumerate_space(puzzle, root)
    assert found.histogram == tuple(np.bincount(list(distances.values())).tolist())


def test_table_is_cached_on_disk_and_reloaded(monkeypatch, tmp_path):
    monkeypatch.setenv("KAERU_CACHE_DIR", str(tmp_path))
    store.forget()
    puzzle = get_puzzle("two-blank-4x3")
    assert not puzzle.has_table()
    built = tables.load_or_build(puzzle.id, puzzle.index)
    assert built.source == "built"
    path = tables.table_path(puzzle.id)
    assert path.exists() and path.stat().st_size < 40_000
    store.forget()
    again = tables.load_or_build(puzzle.id, puzzle.index)
    assert again.source == "disk"
    assert np.array_equal(again.table, built.table)
    assert tables.load_or_build(puzzle.id, puzzle.index).source == "memory"


def test_a_damaged_cache_file_is_rebuilt(monkeypatch, tmp_path):
    monkeypatch.setenv("KAERU_CACHE_DIR", str(tmp_path))
    store.forget()
    puzzle = get_puzzle("two-blank-3x3")
    tables.table_path(puzzle.id).write_bytes(b"not a table")
    loaded = tables.load_or_build(puzzle.id, puzzle.index)
    assert loaded.source == "built"
    assert int(loaded.table.max()) == 21
    store.forget()


def test_fourteen_build_can_be_cancelled_and_leaves_nothing(monkeypatch, tmp_path):
    monkeypatch.setenv("KAERU_CACHE_DIR", str(tmp_path))
    store.forget()
    with pytest.raises(Cancelled):
        tables.load_or_build(FOURTEEN.id, FOURTEEN.index, Control(cancelled=lambda: True))
    assert not tables.table_path(FOURTEEN.id).exists()
    assert not FOURTEEN.has_table()


def test_fourteen_default_start_depth_by_bidirectional_bfs():
    start = FOURTEEN.initial()
    solution = bidirectional_bfs(FOURTEEN, start, start)
    assert solution.length == 24
    assert start.index(0) == FOURTEEN.geometry.cells - 2  # a problem: the pair at the end


# ---- slow: the whole 14-puzzle -------------------------------------------------------------------
@pytest.fixture(scope="module")
def fourteen_enumeration():
    return dispatch.enumerate_space(FOURTEEN, FOURTEEN.geometry.goal)


@pytest.mark.slow
def test_fourteen_enumeration_reaches_76204800_positions(fourteen_enumeration):
    found = fourteen_enumeration
    assert found.positions == 76_204_800
    assert sum(found.series[PAIR_AT_END]) == 2520 * 2520 == 6_350_400
    assert found.max_depth == 55 and found.histogram[-1] == 1
    assert sum(found.histogram[0::2]) == sum(found.histogram[1::2])  # no odd/even bumps on 4×4
    path = tables.table_path(FOURTEEN.id)
    assert path.stat().st_size <= 80_000_000


@pytest.mark.slow
def test_fourteen_table_agrees_with_bfs_on_sampled_positions(fourteen_enumeration):
    table = FOURTEEN.depth_table()
    rng = random.Random(14)
    samples = [FOURTEEN.index.decode(rng.randrange(FOURTEEN.space_size)) for _ in range(3)]
    near = []  # the generic two-sided search is fine up to ~30 moves
    for d in (5, 13, 22, 28):
        hits = np.flatnonzero(table == d)
        code = int(hits[rng.randrange(hits.size)])
        near.append(FOURTEEN.index.decode(code))
    for state in near:
        assert bidirectional_bfs(FOURTEEN, state, state).length == table[FOURTEEN.encode(state)]
    for state in samples + near:
        solution = dispatch.solve(FOURTEEN, state, state)
        assert solution.length == table[FOURTEEN.encode(state)]
        replayed = state
        for move in solution.moves:
            assert move in FOURTEEN.moves(replayed)
            replayed = FOURTEEN.apply(replayed, move)
        assert replayed == FOURTEEN.geometry.goal
