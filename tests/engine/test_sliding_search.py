"""Optimal search on boards up to 16 cells (pattern databases, Manhattan + linear conflict),
and the fast non-optimal reduction beyond: lengths, legality, cancel and budget."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kaeru.engine.puzzles.sliding import HEURISTICS, SlidingPuzzle, make_sliding
from kaeru.engine.rules.control import Control, Meter
from kaeru.engine.rules.protocol import BudgetExceeded, Cancelled
from kaeru.engine.search import dispatch
from kaeru.engine.sliding.board.geometry import grid
from kaeru.engine.sliding.board.packed import PackedBoard
from kaeru.engine.sliding.board.perm_codes import PermutationCodes
from kaeru.engine.sliding.databases import pattern_db
from kaeru.engine.sliding.databases.pattern_db import (
    Partition,
    group_file,
    pattern_database,
    row_partition,
)
from kaeru.engine.sliding.optimal import full_table as ft
from kaeru.engine.sliding.optimal.frontier import frontier_search
from kaeru.engine.sliding.optimal.heuristics import ManhattanLC, manhattan_lc
from kaeru.engine.tables.folder import cache_file
from tests.engine.sliding_cases import EASY, KORF, korf_length, korf_state

LIGHT_15 = Partition(((1, 2, 5, 6), (3, 4, 7, 8), (9, 10, 13, 14), (11, 12, 15)))


def replays(puzzle: SlidingPuzzle, solution) -> bool:
    state = solution.states[0]
    for move in solution.moves:
        if move not in puzzle.moves(state):
            return False
        state = puzzle.apply(state, move)
    return state == puzzle.grid.goal and list(solution.states) == list(
        _states(puzzle, solution.states[0], solution.moves)
    )


def _states(puzzle, state, moves):
    yield state
    for move in moves:
        state = puzzle.apply(state, move)
        yield state


def all_codes(table: ft.SlidingTable, packed: PackedBoard) -> tuple[np.ndarray, np.ndarray]:
    """Every reachable position packed for `packed`, and its distance from the table."""
    index = PermutationCodes(packed.grid)
    codes = np.flatnonzero(table.depth != 255)
    cells = index.index.unrank(codes).astype(np.uint64)  # [code, tile 1.., blank] -> cell
    packed_codes = np.zeros(codes.size, dtype=np.uint64)
    last = cells.shape[1] - 1
    for i, tile in enumerate(packed.order):
        packed_codes |= cells[:, tile - 1 if tile else last] << np.uint64(4 * i)
    sample = [int(k) for k in codes[:: max(1, codes.size // 50)]]
    assert all(  # the vectorised packing agrees with packing one state at a time
        packed.pack(index.decode(k)) == int(packed_codes[np.searchsorted(codes, k)])
        for k in sample
    )
    return packed_codes, table.depth[codes].astype(np.int32)


@pytest.mark.parametrize(("w", "h"), [(3, 3), (2, 4)])
def test_heuristics_never_overestimate_on_every_position(w, h):
    g = grid(w, h)
    table = ft.full_table(g)
    database = pattern_database(g, row_partition(g, 4))
    codes, depth = all_codes(table, database.packed)
    assert (database.lookup(codes) <= depth).all()
    md_lc = ManhattanLC(database.packed)
    assert (md_lc.lookup(codes) <= depth).all()
    assert (database.lookup(codes).mean()) > 0


def test_scalar_and_vectorised_linear_conflict_agree():
    g = grid(4, 4)
    packed = PackedBoard(g, tuple(range(16)))
    rng = random.Random(4)
    states = [make_sliding(4, 4).random_start(rng) for _ in range(200)]
    vector = ManhattanLC(packed).lookup(np.array([packed.pack(s) for s in states], np.uint64))
    assert vector.tolist() == [manhattan_lc(g, s) for s in states]


@pytest.mark.parametrize("heuristic", ["pdb", "md-lc"])
@pytest.mark.parametrize(("w", "h"), [(3, 3), (2, 4), (3, 2)])
def test_frontier_search_lengths_equal_bfs_lengths(w, h, heuristic):
    g = grid(w, h)
    table = ft.full_table(g)
    if heuristic == "pdb":
        h_fn = pattern_database(g, row_partition(g, 4))
    else:
        h_fn = ManhattanLC(PackedBoard(g, tuple(range(g.cells))))
    rng = random.Random(w + 10 * h)
    for _ in range(15):
        state = make_sliding(w, h).random_start(rng)
        path = frontier_search(g, state, h_fn, Meter("test"), 10**7)
        assert len(path) - 1 == table.distance(state)
        assert path[0] == state and path[-1] == g.goal
        steps = zip(path, path[1:], strict=False)
        assert all(b in [g.slide(a, m) for m in g.slides(a)] for a, b in steps)


@pytest.mark.parametrize("number", EASY)
def test_fifteen_puzzle_known_lengths_with_a_light_database(number):
    puzzle = SlidingPuzzle(4, 4)
    puzzle.partition = LIGHT_15
    state = korf_state(number)
    solution = dispatch.solve(puzzle, state, state)
    assert solution.optimal and solution.length == korf_length(number)
    assert replays(puzzle, solution)
    stats = solution.stats.as_dict()
    assert str(stats["bound"]) == str(korf_length(number)) and "h(start)" in stats


def test_both_heuristics_find_the_same_length_and_the_database_looks_at_less():
    puzzle = SlidingPuzzle(4, 4)
    puzzle.partition = LIGHT_15
    state = korf_state(55)
    with_db = dispatch.solve(puzzle, state, state, heuristic=HEURISTICS[0])
    with_md = dispatch.solve(puzzle, state, state, heuristic=HEURISTICS[1])
    assert with_db.length == with_md.length == korf_length(55)
    assert with_db.stats.generated < with_md.stats.generated
    assert int(dict(with_db.stats.extra)["h(start)"]) > int(dict(with_md.stats.extra)["h(start)"])


def test_eleven_puzzle_is_solved_optimally():
    puzzle = make_sliding(4, 3)
    rng = random.Random(11)
    md_lc = ManhattanLC(PackedBoard(puzzle.grid, tuple(range(12))))
    for _ in range(3):
        state = puzzle.random_start(rng)
        solution = dispatch.solve(puzzle, state, state)
        assert solution.optimal and replays(puzzle, solution)
        check = frontier_search(puzzle.grid, state, md_lc, Meter("check"), 10**8)
        assert solution.length == len(check) - 1


def test_search_can_be_cancelled_and_has_a_budget():
    puzzle = SlidingPuzzle(4, 4)
    puzzle.partition = LIGHT_15
    state = korf_state(1)
    with pytest.raises(Cancelled):
        dispatch.solve(puzzle, state, state, Control(cancelled=lambda: True))
    with pytest.raises(BudgetExceeded, match="held more than 1,000 positions"):
        dispatch.solve(puzzle, state, state, Control(budget=1_000))


def test_pattern_database_build_reports_progress_cancels_cleanly_and_is_cached():
    g = grid(4, 4)
    partition = Partition(((1, 2, 3), (4, 5, 6), (7, 8, 9), (10, 11, 12), (13, 14, 15)))
    pattern_db.forget_loaded()
    for group in partition.groups:
        cache_file(group_file(g, group)).unlink(missing_ok=True)
    with pytest.raises(Cancelled):
        pattern_database(g, partition, Control(cancelled=lambda: True))
    assert not any(cache_file(group_file(g, grp)).exists() for grp in partition.groups)
    reports = []
    built = pattern_database(g, partition, Control(progress=reports.append))
    assert any(r.algorithm.startswith("building pattern database") for r in reports)
    assert all(cache_file(group_file(g, grp)).exists() for grp in partition.groups)
    pattern_db.forget_loaded()
    loaded = pattern_database(g, partition)
    assert all(np.array_equal(a, b) for a, b in zip(built.sparse, loaded.sparse, strict=True))


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 8), st.integers(2, 8), st.integers(0, 2**32))
def test_reduction_solutions_replay_on_every_size(w, h, seed):
    puzzle = make_sliding(w, h)
    state = puzzle.random_start(random.Random(seed))
    if puzzle.solver != "row-by-row reduction":
        from kaeru.engine.sliding.near_optimal.reduction import reduce_solve

        moves, _ = reduce_solve(puzzle.grid, state)
        state_after = state
        for move in moves:
            assert move in puzzle.moves(state_after)
            state_after = puzzle.apply(state_after, move)
        assert state_after == puzzle.grid.goal
        return
    solution = dispatch.solve(puzzle, state, state)
    assert not solution.optimal and replays(puzzle, solution)


def test_big_boards_are_labelled_not_optimal_with_their_bound():
    """A quick look (a small budget) gets the reduction; its answer is never called optimal and
    states how far from the optimum it can be (the full search: tests/engine/test_sliding_big)."""
    for w, h in ((5, 5), (6, 6), (8, 8)):
        puzzle = make_sliding(w, h)
        start = puzzle.initial()
        solution = dispatch.solve(puzzle, start, start, Control(budget=300_000))
        assert solution.optimal is False and solution.length > 0 and replays(puzzle, solution)
        assert solution.stats.algorithm == "row-by-row reduction"
        assert solution.lower_bound is not None and 0 < solution.lower_bound < solution.length
        assert solution.over_optimum == solution.length - solution.lower_bound


@pytest.mark.slow
@pytest.mark.parametrize("number", sorted(KORF))
def test_fifteen_puzzle_korf_instances_with_the_full_databases(number):
    puzzle = make_sliding(4, 4)  # the 6-6-3 databases: built once (about a minute), then cached
    state = korf_state(number)
    solution = dispatch.solve(puzzle, state, state)
    assert solution.optimal and solution.length == korf_length(number)
    assert replays(puzzle, solution)


def test_a_search_waiting_for_a_table_another_builds_reports_and_can_cancel():
    import threading

    g = grid(4, 4)
    outcome: list[object] = []
    reports: list[object] = []

    def wait() -> None:
        try:
            pattern_database(
                g, LIGHT_15, Control(reports.append, lambda: len(reports) >= 2)
            )
        except Cancelled as error:
            outcome.append(error)

    with pattern_db._lock:  # another search is "building"
        waiter = threading.Thread(target=wait)
        waiter.start()
        waiter.join(timeout=10)
    assert outcome and isinstance(outcome[0], Cancelled)
    assert all("waiting for the pattern databases" in r.algorithm for r in reports)
