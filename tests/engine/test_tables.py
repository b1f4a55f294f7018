"""The depth-table package (engine.tables): the dense search against a plain dict BFS, the
walk-down solve, uniform draws at a depth, the survey, the file format, and the store (atomic
writes, one builder across processes, old versions pruned, damaged files rebuilt, an unusable
cache folder)."""

from __future__ import annotations

import errno
import multiprocessing
import random
from collections.abc import Callable, Hashable, Iterator
from pathlib import Path

import numpy as np
import pytest
from line_checks import distances

from kaeru.engine.puzzles._knights_space import KnightSpace, goal_table
from kaeru.engine.puzzles.registry import get_puzzle
from kaeru.engine.rules.control import Control, Meter
from kaeru.engine.rules.protocol import Cancelled
from kaeru.engine.search import dispatch
from kaeru.engine.sliding.board.geometry import grid
from kaeru.engine.sliding.board.perm_codes import PermutationCodes
from kaeru.engine.sliding.optimal import full_table
from kaeru.engine.tables import files, folder, store
from kaeru.engine.tables.arrangements import Arrangements
from kaeru.engine.tables.coded import coded_depths
from kaeru.engine.tables.dense import UNREACHED, dense_bfs
from kaeru.engine.tables.survey import count_depths, survey
from kaeru.engine.tables.table import DepthTable


def assert_table_is(depth: np.ndarray, expected: dict, encode: Callable[[Hashable], int]) -> None:
    assert int(np.count_nonzero(depth != UNREACHED)) == len(expected)
    for state, d in expected.items():
        assert depth[encode(state)] == d


@pytest.fixture
def cache(monkeypatch, tmp_path) -> Path:
    """A fresh cache folder, nothing in memory, no notices."""
    monkeypatch.setenv(folder.ENV_VAR, str(tmp_path / "cache"))
    store.forget()
    folder.forget_notices()
    yield tmp_path / "cache"
    store.forget()
    folder.forget_notices()


# ---- the dense search ----------------------------------------------------------------------------
@pytest.mark.parametrize(("w", "h"), [(2, 3), (3, 2), (2, 2)])
def test_sliding_tables_both_ways_equal_dict_bfs(w, h):
    g = grid(w, h)
    codes = PermutationCodes(g)
    expected = distances(get_puzzle(f"sliding-{w}x{h}"), g.goal)
    carried = full_table.layered_depths(codes, g.goal, Meter("test"))
    scanned = dense_bfs(
        codes.space_size,
        np.array([codes.encode(g.goal)]),
        codes.expand_codes,
        Meter("test"),
        chunk=7,
    )  # small chunks: many per layer
    assert np.array_equal(carried, scanned)
    assert_table_is(carried, expected, codes.encode)


@pytest.mark.parametrize("pid", ["flip-it-6", "two-blank-3x3"])
def test_coded_puzzles_equal_dict_bfs(pid):
    puzzle = get_puzzle(pid)
    root = puzzle.initial()
    expected = distances(puzzle, root)
    depth = coded_depths(puzzle, [root], Meter("test"))
    assert_table_is(depth, expected, puzzle.encode)


@pytest.mark.parametrize("pid", ["knights-3x3"])
def test_knights_placements_equal_dict_bfs(pid):
    puzzle = get_puzzle(pid)
    start = puzzle.initial()
    space = KnightSpace(puzzle.graph, start.count("B"), start.count("W"))
    expected = distances(puzzle, start)
    assert_table_is(space.depths(start, Meter("test")), expected, space.encode)


def test_arrangement_index_is_a_bijection():
    index = Arrangements(9, 2, 3)
    codes = np.arange(index.space_size)
    boards = index.unrank(codes)
    assert np.array_equal(index.rank(boards), codes)
    assert len({tuple(b) for b in boards.tolist()}) == index.space_size == 36 * 10 * 21 // 6
    assert ((boards == 1).sum(axis=1) == 2).all() and ((boards == 2).sum(axis=1) == 3).all()


def test_several_roots_give_the_nearest_distance():
    puzzle = get_puzzle("flip-it-6")
    roots = ["_BBBBB", "BB_WBW"]
    depth = coded_depths(puzzle, roots, Meter("test"))
    first, second = (distances(puzzle, r) for r in roots)
    for state in first:
        assert depth[puzzle.encode(state)] == min(first[state], second[state])


def test_a_build_is_cancelled_between_chunks():
    codes = PermutationCodes(grid(3, 3))
    calls = []

    def cancel() -> bool:
        calls.append(1)
        return len(calls) >= 3

    with pytest.raises(Cancelled):
        dense_bfs(
            codes.space_size,
            np.array([0]),
            codes.expand_codes,
            Meter("test", Control(cancelled=cancel)),
            chunk=64,
        )
    assert len(calls) == 3


# ---- a finished table: walk down, draw at a depth, survey ----------------------------------------
def sliding_table(w: int, h: int) -> tuple[DepthTable, dict]:
    g = grid(w, h)
    expected = distances(get_puzzle(f"sliding-{w}x{h}"), g.goal)
    return full_table.full_table(g), expected


def test_walk_down_is_optimal_and_legal(cache):
    table, expected = sliding_table(2, 3)
    g = grid(2, 3)
    for state, d in expected.items():
        moves, states = table.walk(state)
        assert len(moves) == d and states[0] == state and states[-1] == g.goal
        for move, before, after in zip(moves, states, states[1:], strict=False):
            assert move in g.slides(before) and g.slide(before, move) == after
    unreachable = (2, 1, 3, 4, 5, 0)  # one swap away from the goal: the other parity
    assert table.distance(unreachable) is None
    with pytest.raises(ValueError, match="cannot reach"):
        table.walk(unreachable)


def test_knights_solutions_walk_down_optimally():
    puzzle = get_puzzle("knights-3x4")
    start = puzzle.initial()
    goal = puzzle.goal(start)
    expected = distances(puzzle, goal)
    table = goal_table(puzzle.graph, goal)
    rng = random.Random(5)
    for state in rng.sample(sorted(expected), 12):
        solution = dispatch.solve(puzzle, state, start)
        assert solution.length == expected[state] == table.distance(state)
        assert solution.states[-1] == goal


def test_random_at_depth_is_uniform(cache):
    table, expected = sliding_table(2, 3)
    depth = 10
    at_depth = sorted(s for s, d in expected.items() if d == depth)
    assert len(at_depth) >= 8
    rng = random.Random(2026)
    draws = 100 * len(at_depth)
    counts = dict.fromkeys(at_depth, 0)
    for _ in range(draws):
        counts[table.random_at(rng, depth)] += 1  # KeyError if off the depth
    mean = draws / len(at_depth)
    chi_square = sum((n - mean) ** 2 / mean for n in counts.values())
    freedom = len(at_depth) - 1
    # Wilson-Hilferty: the 99.9th percentile of chi-square with `freedom` degrees
    z = 3.09
    critical = freedom * (1 - 2 / (9 * freedom) + z * (2 / (9 * freedom)) ** 0.5) ** 3
    assert chi_square < critical
    with pytest.raises(ValueError, match="no position at depth"):
        table.random_at(rng, table.max_depth + 1)


def test_survey_equals_dict_bfs(cache):
    table, expected = sliding_table(3, 2)
    found = survey(table.depth, table.decode, str, "root", Meter("test").finish())
    plain = np.bincount(list(expected.values()))
    assert found.histogram == tuple(plain.tolist())
    assert table.histogram.tolist() == plain.tolist()
    deepest = sorted(str(s) for s, d in expected.items() if d == len(plain) - 1)
    assert list(found.farthest) == deepest[: len(found.farthest)]
    assert count_depths(table.depth, 30).size == 30


# ---- the file format -----------------------------------------------------------------------------
def test_files_round_trip_and_refuse_damage(tmp_path):
    path = tmp_path / "t.table"
    table = np.arange(1000, dtype=np.uint8)
    files.write_table(path, table)
    assert np.array_equal(files.read_table(path, (1000,), np.dtype(np.uint8)), table)
    assert files.read_table(path, (999,), np.dtype(np.uint8)) is None
    assert files.read_table(path, (1000,), np.dtype(np.int16)) is None
    raw = bytearray(path.read_bytes())
    raw[-10] ^= 1  # one bit of the data flipped: the checksum says no
    path.write_bytes(bytes(raw))
    assert files.read_table(path, (1000,), np.dtype(np.uint8)) is None
    path.write_bytes(bytes(raw[:-1]))  # cut short
    assert files.read_table(path, (1000,), np.dtype(np.uint8)) is None
    assert list(tmp_path.iterdir()) == [path]  # no temporary file left behind


def stretches_of(table: np.ndarray, shape: tuple[int, ...], step: int) -> files.Stretches:
    return files.Stretches(shape, table.dtype,
                           lambda: (table[i : i + step] for i in range(0, table.size, step)))


def test_a_table_written_from_its_stretches_reads_back_whole(tmp_path):
    table = (np.arange(10_000) % 251).astype(np.uint8)
    path = tmp_path / "parts.v1.table"
    files.write_table(path, stretches_of(table, (10_000,), 999))
    assert np.array_equal(files.read_table(path, (10_000,), np.dtype(np.uint8)), table)
    with pytest.raises(ValueError):  # a stretch short: no file, no temporary file
        files.write_table(tmp_path / "short.v1.table", stretches_of(table, (10_001,), 999))
    assert list(tmp_path.iterdir()) == [path]


@pytest.mark.skipif(not hasattr(__import__("os"), "posix_fadvise"), reason="Linux")
def test_a_big_table_written_leaves_the_page_cache(tmp_path, monkeypatch):
    """Written pages are cached 4 kB at a time; read back on a fault they come in 2 MB folios,
    which a mapping advised huge pages maps whole."""
    import os

    advised: list[int] = []
    monkeypatch.setattr(files, "REREAD_FROM", 1000)
    monkeypatch.setattr(os, "posix_fadvise", lambda fd, at, size, advice: advised.append(advice))
    files.write_table(tmp_path / "big.v1.table", np.zeros(1000, dtype=np.uint8))
    files.write_table(tmp_path / "small.v1.table", np.zeros(999, dtype=np.uint8))
    assert advised == [os.POSIX_FADV_DONTNEED]


# ---- the store -----------------------------------------------------------------------------------
def tiny_build(control: Control) -> np.ndarray:
    return np.arange(256, dtype=np.uint8)


def test_store_builds_once_then_memory_then_disk(cache):
    calls = []

    def build(control: Control) -> np.ndarray:
        calls.append(1)
        return tiny_build(control)

    first = store.load_or_build("tiny", 1, build, shape=(256,))
    assert first.source == "built" and store.is_available("tiny", 1)
    assert store.load_or_build("tiny", 1, build, shape=(256,)).source == "memory"
    store.forget()
    again = store.load_or_build("tiny", 1, build, shape=(256,))
    assert again.source == "disk" and np.array_equal(again.table, first.table)
    assert len(calls) == 1
    assert (cache / "tiny.v1.table").is_file()


def test_a_build_given_in_stretches_is_written_then_mapped(cache, monkeypatch):
    table = np.arange(256, dtype=np.uint8)
    loaded = store.load_or_build("parts", 1, lambda c: stretches_of(table, (256,), 100),
                                 shape=(256,))
    assert loaded.source == "built" and np.array_equal(loaded.table, table)
    assert not loaded.table.flags.writeable  # the file, mapped: never whole in memory
    store.forget()
    monkeypatch.setattr(folder, "cache_dir", lambda: None)  # no folder: whole in memory
    monkeypatch.setattr(store, "cache_dir", lambda: None)
    kept = store.load_or_build("parts", 2, lambda c: stretches_of(table, (256,), 100),
                               shape=(256,))
    assert kept.source == "built" and np.array_equal(kept.table, table)


def test_a_damaged_file_is_rebuilt(cache):
    store.load_or_build("tiny", 1, tiny_build, shape=(256,))
    path = cache / "tiny.v1.table"
    raw = bytearray(path.read_bytes())
    raw[-1] ^= 0xFF
    path.write_bytes(bytes(raw))
    store.forget()
    rebuilt = store.load_or_build("tiny", 1, tiny_build, shape=(256,))
    assert rebuilt.source == "built" and np.array_equal(rebuilt.table, tiny_build(Control()))
    store.forget()
    assert store.load_or_build("tiny", 1, tiny_build, shape=(256,)).source == "disk"


def test_writing_a_version_prunes_the_older_ones(cache):
    cache.mkdir(parents=True)
    (cache / "tiny.v1.table").write_bytes(b"old")
    (cache / "tiny.v1.table.checked").write_bytes(b"{}")
    (cache / "tiny.v0.npy").write_bytes(b"older format")
    (cache / "tinier.v1.table").write_bytes(b"another table")
    store.load_or_build("tiny", 2, tiny_build, shape=(256,))
    names = sorted(p.name for p in cache.iterdir())
    # the new version's own stamp kept, and no lock file left behind
    assert names == ["tinier.v1.table", "tiny.v2.table", "tiny.v2.table.checked"]


def test_a_table_just_written_is_mapped_without_reading_it_again(cache, monkeypatch):
    store.load_or_build("tiny", 2, tiny_build, shape=(256,))
    store.forget()
    read: list[int] = []
    real = files.checksum
    monkeypatch.setattr(files, "checksum", lambda t: read.append(1) or real(t))
    assert store.load_or_build("tiny", 2, tiny_build, shape=(256,)).source == "disk"
    assert read == []  # the stamp written with it says it was checked


def test_a_cancelled_build_leaves_nothing_and_frees_the_lock(cache):
    def cancelled_build(control: Control) -> np.ndarray:
        raise Cancelled("search cancelled")

    with pytest.raises(Cancelled):
        store.load_or_build("tiny", 1, cancelled_build, shape=(256,))
    assert not store.is_available("tiny", 1)
    assert store.load_or_build("tiny", 1, tiny_build, shape=(256,)).source == "built"


def test_a_build_cancelled_while_its_stretches_are_written_leaves_nothing(cache):
    def stretches() -> Iterator[np.ndarray]:
        yield np.zeros(128, dtype=np.uint8)
        raise Cancelled("search cancelled")

    with pytest.raises(Cancelled):
        store.load_or_build("parts", 1, lambda c: files.Stretches((256,), np.dtype(np.uint8),
                                                                   stretches), shape=(256,))
    assert sorted(p.name for p in cache.iterdir()) == []  # no table, temporary file nor lock
    assert store.load_or_build("parts", 1, tiny_build, shape=(256,)).source == "built"


def slow_build(control: Control) -> np.ndarray:
    """Notes each call in the calls file, then takes a while (so the other process waits)."""
    import os
    import time

    with open(os.environ["TABLES_TEST_CALLS"], "a") as handle:
        handle.write(f"{os.getpid()}\n")
    time.sleep(0.5)
    return np.arange(256, dtype=np.uint8)


def build_in_process(barrier, results) -> None:  # runs in a child process
    store.forget()
    barrier.wait()
    loaded = store.load_or_build("shared", 1, slow_build, shape=(256,))
    results.put((loaded.source, int(loaded.table.sum())))


def test_two_processes_build_a_table_once(cache, monkeypatch, tmp_path):
    calls = tmp_path / "calls"
    monkeypatch.setenv("TABLES_TEST_CALLS", str(calls))
    context = multiprocessing.get_context("fork")
    barrier, results = context.Barrier(2), context.Queue()
    workers = [context.Process(target=build_in_process, args=(barrier, results)) for _ in range(2)]
    for worker in workers:
        worker.start()
    got = sorted(results.get(timeout=30) for _ in workers)
    for worker in workers:
        worker.join(timeout=30)
        assert worker.exitcode == 0
    assert len(calls.read_text().split()) == 1  # one build...
    assert got == [("built", 255 * 128), ("disk", 255 * 128)]  # ...the other loaded its file


def test_threads_wait_for_one_builder(cache):
    import threading

    calls = []

    def build(control: Control) -> np.ndarray:
        calls.append(1)
        threading.Event().wait(0.3)
        return tiny_build(control)

    sources: list[str] = []
    threads = [
        threading.Thread(
            target=lambda: sources.append(
                store.load_or_build("tiny", 1, build, shape=(256,)).source
            )
        )
        for _ in range(3)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(calls) == 1 and sorted(sources) == ["built", "memory", "memory"]


# ---- an unusable cache folder --------------------------------------------------------------------
def solve_eight_puzzle_twice() -> None:
    puzzle = get_puzzle("sliding-2x3")
    for _ in range(2):
        store.forget()
        start = puzzle.initial()
        assert dispatch.solve(puzzle, start, start).optimal


@pytest.mark.parametrize("below", ["", "cache"])
def test_a_file_in_place_of_the_cache_folder(cache, monkeypatch, tmp_path, below):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file")
    monkeypatch.setenv(folder.ENV_VAR, str(blocker / below))
    seen: list[str] = []
    folder.on_notice(seen.append)
    solve_eight_puzzle_twice()
    store.forget()
    assert not full_table.is_cached(grid(2, 3))
    assert len(folder.notices()) == 1 and seen == list(folder.notices())
    assert "unusable" in seen[0] and "\n" not in seen[0]


@pytest.mark.parametrize("error", [errno.EROFS, errno.ENOSPC, errno.EACCES])
def test_a_read_only_or_full_cache_folder(cache, monkeypatch, error):
    def refuse(path: Path, table: np.ndarray) -> int:
        raise OSError(error, __import__("os").strerror(error))

    monkeypatch.setattr(store, "write_table", refuse)
    solve_eight_puzzle_twice()
    assert not list(cache.glob("*.table"))
    (notice,) = folder.notices()
    assert __import__("os").strerror(error) in notice


def test_without_locks_tables_on_disk_are_read_and_new_ones_not_written(cache, monkeypatch):
    store.load_or_build("tiny", 1, tiny_build, shape=(256,))
    store.forget()

    def no_locks(path: Path) -> None:
        raise OSError(errno.ENOLCK, "No locks available")

    monkeypatch.setattr(store, "try_hold", no_locks)
    assert store.load_or_build("tiny", 1, tiny_build, shape=(256,)).source == "disk"
    assert store.load_or_build("other", 1, tiny_build, shape=(256,)).source == "built"
    assert not (cache / "other.v1.table").exists()
    (notice,) = folder.notices()
    assert "No locks available" in notice
