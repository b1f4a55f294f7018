"""Depth tables: seed 002's 8-puzzle figures, optimal walks, exact-depth games, the disk cache."""

from __future__ import annotations

import random

import numpy as np
import pytest

from kaeru.engine.game.session import Session
from kaeru.engine.puzzles.registry import get_puzzle
from kaeru.engine.puzzles.sliding import make_sliding
from kaeru.engine.rules.control import Control
from kaeru.engine.rules.protocol import BadInput, Cancelled
from kaeru.engine.search import dispatch
from kaeru.engine.sliding.board.geometry import grid
from kaeru.engine.sliding.optimal import full_table as ft
from kaeru.engine.tables import store
from kaeru.engine.tables.folder import cache_file
from tests.engine.test_sliding_parity import reachable


def bfs_depths(w: int, h: int) -> dict[tuple[int, ...], int]:
    """Distances from the goal by a plain dict-and-queue search (the seed pages' way)."""
    g = grid(w, h)
    depth = {g.goal: 0}
    layer = [g.goal]
    while layer:
        following = []
        for state in layer:
            for move in g.slides(state):
                child = g.slide(state, move)
                if child not in depth:
                    depth[child] = depth[state] + 1
                    following.append(child)
        layer = following
    return depth


def test_eight_puzzle_figures_of_seed_002():
    p = get_puzzle("sliding-3x3")
    result = dispatch.enumerate_space(p, p.explore_root())
    assert result.positions == 181_440
    assert result.max_depth == 31
    assert result.farthest == ("6 4 7/8 5 _/3 2 1", "8 6 7/2 5 4/3 _ 1")  # 64785_321, 8672543_1


def test_eight_puzzle_histogram_equals_a_plain_bfs():
    depths = bfs_depths(3, 3)
    plain = np.bincount(np.fromiter(depths.values(), dtype=np.int64))
    table = ft.full_table(grid(3, 3))
    assert table.histogram.tolist() == plain.tolist()


@pytest.mark.parametrize(("w", "h"), [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2)])
def test_table_distance_equals_bfs_for_every_position(w, h):
    depths = bfs_depths(w, h)
    table = ft.full_table(grid(w, h))
    assert all(table.distance(s) == d for s, d in depths.items())
    assert int((table.depth != 255).sum()) == len(depths)


@pytest.mark.parametrize(("w", "h"), [(3, 3), (2, 5), (3, 2)])
def test_solutions_walk_down_the_table_and_replay(w, h):
    p = make_sliding(w, h)
    table = ft.full_table(p.grid)
    rng = random.Random(w * 10 + h)
    for _ in range(20):
        state = p.random_start(rng)
        solution = dispatch.solve(p, state, state)
        assert solution.optimal and solution.length == table.distance(state)
        current = state
        for move, after in zip(solution.moves, solution.states[1:], strict=True):
            assert move in p.moves(current)
            current = p.apply(current, move)
            assert current == after
        assert current == p.grid.goal


def test_hint_is_one_step_closer():
    p = get_puzzle("sliding-3x3")
    table = ft.full_table(p.grid)
    session = Session(p, p.initial())
    for _ in range(5):
        before = table.distance(session.state)
        session.hint()  # the answer arrives as hint_move (at once with the inline searcher)
        assert session.hint_move is not None
        session.push(session.hint_move)
        assert table.distance(session.state) == before - 1


def test_games_of_exact_difficulty_are_drawn_from_that_depth():
    p = get_puzzle("sliding-3x3")
    table = ft.full_table(p.grid)
    rng = random.Random(20)
    assert p.depth_range() == (0, 31)
    for depth in (0, 1, 20, 31):
        for _ in range(5):
            assert table.distance(p.random_start(rng, depth)) == depth
    seen = {p.random_start(rng, 1) for _ in range(200)}
    assert len(seen) == 2  # both positions one move from the goal turn up
    with pytest.raises(BadInput, match="depth must be 0 to 31"):
        p.random_start(rng, 32)
    with pytest.raises(BadInput, match="exact difficulty"):
        get_puzzle("sliding-4x4").random_start(rng, 20)
    assert get_puzzle("sliding-4x4").depth_range() is None


def test_enumerating_a_big_board_is_refused_at_once():
    from kaeru.engine.rules.protocol import BudgetExceeded

    with pytest.raises(BudgetExceeded, match="10,461,394,944,000 positions"):
        dispatch.enumerate_space(get_puzzle("sliding-4x4"), get_puzzle("sliding-4x4").initial())


def test_tables_are_cached_on_disk_and_rebuilt_when_damaged():
    g = grid(2, 4)
    store.forget()
    first = ft.full_table(g)
    path = cache_file(store.file_name(ft.table_key(g), ft.VERSION))
    assert path.exists()
    store.forget()
    assert np.array_equal(ft.full_table(g).depth, first.depth)  # read back from the disk
    damaged = path.with_name(path.name + ".tmp")  # damaged the way files change here: whole
    damaged.write_bytes(b"not a table")  # (the table is mapped: never written in place)
    damaged.replace(path)
    store.forget()
    assert np.array_equal(ft.full_table(g).depth, first.depth)  # rebuilt
    assert reachable(g) == {s for s in reachable(g) if ft.full_table(g).distance(s) is not None}


def test_a_table_build_reports_progress_and_can_be_cancelled():
    g = grid(5, 2)
    store.forget()
    path = cache_file(store.file_name(ft.table_key(g), ft.VERSION))
    if path.exists():
        path.unlink()
    with pytest.raises(Cancelled):
        ft.full_table(g, Control(cancelled=lambda: True))
    assert not path.exists()
    reports = []
    table = ft.full_table(g, Control(progress=reports.append))
    assert table.max_depth == 55 and int(table.histogram.sum()) == 1_814_400
    assert reports and reports[-1].algorithm.startswith("building depth table")
