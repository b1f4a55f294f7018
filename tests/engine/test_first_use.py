"""First-use waits explained: a table built on first use reports what it is, how big, about how
long, and how far along (SearchStats.note / .progress), through the same progress path as any
search; the cache folder can be measured and cleared without touching a build under way."""

from __future__ import annotations

import math
import os
import pickle
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from kaeru.engine.catalogue import cache_folder
from kaeru.engine.puzzles.registry import get_puzzle
from kaeru.engine.rules import control
from kaeru.engine.rules.control import Control, Meter
from kaeru.engine.rules.results import Cancelled, SearchStats
from kaeru.engine.service.execute import execute
from kaeru.engine.service.jobs import JobKind, JobRequest
from kaeru.engine.sliding.board.geometry import grid
from kaeru.engine.sliding.databases import pattern_db
from kaeru.engine.sliding.optimal import full_table, ida
from kaeru.engine.tables import dense, first_use, store
from kaeru.engine.tables.first_use import Announcer, BuildPlan
from kaeru.engine.tables.lock_file import try_hold


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty cache folder of the test's own, nothing in memory, every check reported."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("KAERU_CACHE_DIR", str(folder))
    monkeypatch.setattr(control, "REPORT_INTERVAL", 0.0)
    store.forget()
    first_use.forget_told()
    yield folder
    store.forget()


def build_reports(reports: list[SearchStats]) -> list[SearchStats]:
    return [s for s in reports if s.note.startswith("Building")]


def assert_rising_to_one(reports: list[SearchStats]) -> None:
    values = [s.progress for s in reports]
    assert len(values) >= 3 and all(v is not None for v in values)
    assert values == sorted(values)  # type: ignore[type-var]
    assert values[0] < 0.5 and values[-1] >= 0.99


# ---- notes and progress of builds ---------------------------------------------------------------
def test_a_sliding_table_build_says_what_how_big_and_how_far(cache: Path) -> None:
    reports: list[SearchStats] = []
    table = full_table.full_table(grid(4, 2), Control(progress=reports.append))
    assert table.positions == 20160  # 8!/2: every solvable layout
    building = build_reports(reports)
    assert_rising_to_one(building)
    note = building[0].note
    assert "the distance table of the 7-puzzle (4×2)" in note
    assert "once only" in note and "MB on disk" in note and "left" in note
    # the first note of the process also says where tables are kept and how much is there
    assert "Tables are kept in" in note and "Settings" in note
    assert str(cache.name) in note
    saving = [s for s in reports if s.note.startswith("Saving")]
    assert saving and saving[-1].progress == 1.0


def test_the_cache_folder_is_named_once_per_process(cache: Path) -> None:
    first: list[SearchStats] = []
    full_table.full_table(grid(2, 3), Control(progress=first.append))
    second: list[SearchStats] = []
    get_puzzle("two-blank-3x3").depth_table(Control(progress=second.append))
    assert any("Tables are kept in" in s.note for s in first)
    assert second and not any("Tables are kept in" in s.note for s in second)


def test_a_two_blank_build_reports_progress_through_the_search_service_path(cache: Path) -> None:
    """execute() is what the service runs, in a thread or the worker process: the reports it
    passes on carry the note, and they survive the pipe to the app (pickle)."""
    puzzle = get_puzzle("two-blank-4x3")
    start = puzzle.format(puzzle.initial())
    reports: list[SearchStats] = []
    request = JobRequest(kind=JobKind.SOLVE, puzzle_id=puzzle.id, state=start, start=start)
    result = execute(request, reports.append, lambda: False)
    assert result.outcome == "done"
    building = build_reports(reports)
    assert "10-puzzle (two blanks, 4×3)" in building[0].note
    assert_rising_to_one(building)
    assert pickle.loads(pickle.dumps(building[-1])) == building[-1]
    again: list[SearchStats] = []
    execute(request, again.append, lambda: False)  # in memory now: nothing to build
    assert not build_reports(again)


def test_the_session_shows_the_build_while_a_first_hint_waits(cache: Path) -> None:
    """The note reaches the game (Session "progress" -> the play screen's stats panel)."""
    from kaeru.engine.game.session import Session

    session = Session(get_puzzle("two-blank-4x3"))
    shown: list[SearchStats] = []

    def changed(what: str) -> None:
        if what == "progress" and session.search.stats is not None:
            shown.append(session.search.stats)

    session.subscribe(changed)
    session.hint()
    assert session.hint_move is not None
    assert_rising_to_one(build_reports(shown))


def test_pattern_database_parts_are_named_and_counted(cache: Path) -> None:
    pattern_db.forget_loaded()
    reports: list[SearchStats] = []
    pattern_db.pattern_database(grid(4, 3), control=Control(progress=reports.append))
    parts = {s.note.split("part ")[1][:6] for s in build_reports(reports)}
    assert parts == {"1 of 3", "2 of 3", "3 of 3"}
    assert all(s.progress is not None for s in build_reports(reports))
    assert build_reports(reports)[-1].progress == 1.0
    pattern_db.forget_loaded()


def test_waiting_for_another_program_s_build_says_so(cache: Path) -> None:
    """A build another process holds (its lock): the wait is explained, and cancel works."""
    cache.mkdir(parents=True)
    key = full_table.table_key(grid(2, 4))
    lock = try_hold(cache / f"{key}.lock")  # as another process's build holds it
    assert lock is not None
    reports: list[SearchStats] = []
    stop = threading.Event()

    def progress(stats: SearchStats) -> None:
        reports.append(stats)
        if len(reports) >= 2:
            stop.set()

    try:
        with pytest.raises(Cancelled):
            full_table.full_table(grid(2, 4), Control(progress=progress, cancelled=stop.is_set))
    finally:
        lock.release()
    assert reports[0].note.startswith("Waiting for the distance table of the 7-puzzle (2×4)")
    assert "another window" in reports[0].note


def test_a_kernel_compiling_on_first_use_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    """While the compiled search has not begun its first iteration (numba compiling), the
    reports say the solver is being prepared; once it runs, the note goes."""
    monkeypatch.setattr(ida, "SAY_COMPILING_AFTER", 0.0)
    monkeypatch.setattr(control, "REPORT_INTERVAL", 0.0)
    from kaeru.engine.sliding.optimal.ida_kernels import ITERATIONS

    def kernel(ctl: np.ndarray, path: np.ndarray) -> int:
        time.sleep(0.2)  # "compiling"
        ctl[ITERATIONS] = 1
        time.sleep(0.2)  # searching
        return 0

    def background(meter: Meter) -> None:  # e.g. the databases building beside the search
        meter.note, meter.done = "In the background: building something", 0.5

    reports: list[SearchStats] = []
    plan = BuildPlan("the 15-puzzle's solver", 200_000, 1.0, verb="Preparing")
    meter = Meter("test kernel", Control(progress=reports.append))
    assert ida.run_kernel(kernel, meter, compiling=plan, annotate=background) is not None
    preparing = [s for s in reports if s.note.startswith("Preparing the 15-puzzle's solver")]
    assert preparing and all(0 < (s.progress or 0) < 1 for s in preparing)
    assert reports[-1].note.startswith("In the background") and reports[-1].progress == 0.5
    assert ida.compile_plan(object()) is not None  # nothing compiled: a plan


def test_the_15_puzzle_databases_say_which_part_and_advance_with_the_levels() -> None:
    from kaeru.engine.sliding.databases import pdb78

    plan = pdb78.build_plan(pdb78.GROUPS[0])
    assert "15-puzzle's lookup tables, part 1 of 2 (tiles 1–8)" in plan.what
    assert first_use.megabytes(plan.size) == "519 MB"
    middle = pdb78.build_plan(pdb78.TIERS[pdb78.MIDDLE][1])
    assert "part 2 of 3 (tiles 1, 2, 3, 5, 6, 7, 8)" in middle.what
    assert middle.seconds < 30  # the middle tier: built on first use in seconds


# ---- the wording and the estimate ---------------------------------------------------------------
def test_time_left_moves_from_the_measured_figure_to_the_rate_so_far() -> None:
    assert first_use.seconds_left(30.0, None, 10.0) == 20.0
    assert first_use.seconds_left(30.0, 0.01, 10.0) == 20.0  # too early to trust the rate
    assert first_use.seconds_left(30.0, 0.5, 10.0) == pytest.approx(10.0)  # the rate alone
    assert first_use.seconds_left(30.0, 0.2, 10.0) == pytest.approx(40.0)  # the rate alone
    assert first_use.say_time_left(first_use.seconds_left(5.0, None, 8.0)) == (
        "taking longer than usual"
    )
    assert first_use.say_time_left(3) == "a few seconds left"
    assert first_use.say_time_left(13) == "about 15 s left"
    assert first_use.say_time_left(250) == "about 4 min left"
    assert first_use.megabytes(76_204_800) == "76 MB" and first_use.megabytes(0) == "0 MB"


class FakeClock:
    """Seconds that pass only when the test says."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_build_s_time_left_comes_from_its_rate_and_falls_towards_the_truth() -> None:
    """Issue 25: the 14-puzzle's first build said "about 15 s left" at 1 %, 10 % and 44 % and
    took 27 s. The measured figure (15 s) is wrong on this machine; the rate so far is not."""
    clock, seen = FakeClock(), []
    announce = Announcer(BuildPlan("the 14-puzzle's table", 76_204_800, 15.3), seen.append, clock)
    truth = 27.0
    says: dict[float, str] = {}
    for percent in range(1, 100):
        clock.now = 100.0 + truth * percent / 100  # a steady build of 27 s
        announce(SearchStats("bfs", progress=percent / 100))
        says[percent / 100] = seen[-1].note
    assert first_use.ESTIMATING in says[0.01]  # too early: no figure yet, not the 15 s
    assert "about 25 s left" in says[0.10]  # 24.3 s to go
    assert "about 15 s left" in says[0.44]  # 15.1 s to go
    assert "a few seconds left" in says[0.90]  # 2.7 s to go

    def figure(note: str) -> float:
        if first_use.ESTIMATING in note:
            return math.inf
        if "a few seconds" in note:
            return 0.0
        return float(note.split("about ")[1].split(" s left")[0])

    figures = [figure(note) for note in says.values()]
    assert figures == sorted(figures, reverse=True)  # it only falls as the build goes


def test_a_rate_is_taken_over_the_last_reports_smoothed_and_waits_for_enough_progress() -> None:
    pace = first_use.Pace()
    assert pace.left(0.02, 5.0) is None  # too little done
    pace = first_use.Pace()
    assert pace.left(0.5, 0.5) is None  # too little time spent
    pace = first_use.Pace()
    for tenth in range(1, 11):  # a slow start: 1 % a second for 10 s
        pace.left(0.001 * tenth * 10, float(tenth))
    assert pace.left(0.1, 10.0) == pytest.approx(90.0)  # 1 % a second: 90 % in 90 s
    for step in range(1, 21):  # then 4 % a second: the figure follows within a few seconds,
        left = pace.left(0.1 + 0.02 * step, 10.0 + 0.5 * step)  # the slow start forgotten
    assert left is not None and left == pytest.approx(0.5 / 0.04, rel=0.05)
    burst = pace.left(0.9, 20.5)  # a burst: 10 % in half a second (alone: under 1 s left)
    assert burst is not None and 1.0 < burst < left - 0.5  # smoothed: half way between


def test_an_announcer_without_the_builder_s_fraction_uses_the_time_and_stays_below_one() -> None:
    seen: list[SearchStats] = []
    announce = Announcer(BuildPlan("a table", 1_000_000, 0.01), seen.append)
    time.sleep(0.02)
    announce(SearchStats("x"))
    assert first_use.MOST < (seen[0].progress or 0) < 1.0
    note = seen[0].note
    assert note.startswith("Building a table: once only") and "1.0 MB on disk" in note
    guesses = [first_use.guess_fraction(t, 10.0) for t in (0, 5, 10, 20, 100, 10_000)]
    assert guesses == sorted(guesses) and guesses[2] == first_use.MOST and guesses[-1] < 1.0


def test_gathering_small_layers_gives_the_same_table_as_reading_them_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    index = get_puzzle("two-blank-4x3").index
    root = np.array([index.encode(index.geometry.goal)], dtype=np.int64)

    def table(share: int) -> np.ndarray:
        monkeypatch.setattr(dense, "GATHER_SHARE", share)
        return dense.dense_bfs(index.space_size, root, index.expand_codes, Meter("t"), chunk=64)

    read_back, gathered = table(1 << 40), table(1)  # layers past 64 codes read back / none
    assert np.array_equal(read_back, gathered)


# ---- the cache folder ---------------------------------------------------------------------------
@pytest.mark.posix  # lock files a crash left: free for flock and Windows, held for a soft lock
def test_clearing_the_cache_deletes_tables_and_keeps_a_build_under_way(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "cache"
    (folder / "numba" / "kernels").mkdir(parents=True)
    monkeypatch.setenv("KAERU_CACHE_DIR", str(folder))
    (folder / "a.depth.v1.table").write_bytes(b"x" * 1000)
    (folder / "a.depth.lock").touch()
    (folder / "b.depth.v2.table").write_bytes(b"y" * 500)
    (folder / ".b.depth.v2.table.abc.tmp").write_bytes(b"y" * 10)  # b's build is saving
    (folder / "b.depth.lock").touch()
    (folder / "sliding-4x3.pdb-1-2.v2.npy").write_bytes(b"z" * 100)
    (folder / "numba" / "kernels" / "ida.nbi").write_bytes(b"n" * 50)
    old_tmp = folder / ".c.v1.table.old.tmp"
    old_tmp.write_bytes(b"o" * 5)
    os.utime(old_tmp, (time.time() - 3600, time.time() - 3600))
    assert cache_folder.location() == folder
    assert cache_folder.size_on_disk() == 1000 + 500 + 10 + 100 + 50 + 5

    held = try_hold(folder / "b.depth.lock")  # as b's build holds it
    assert held is not None
    try:
        cleared = cache_folder.clear()
    finally:
        held.release()  # not let_go: the file stays, as a crashed build's would
    assert sorted(p.name for p in folder.iterdir()) == [
        ".b.depth.v2.table.abc.tmp",
        "b.depth.lock",
        "b.depth.v2.table",
        "numba",
    ]
    assert cleared.freed == 1000 + 100 + 50 + 5 and cleared.removed == 5
    assert "Kept 3 files" in cleared.summary()
    assert (folder / "numba" / "kernels").is_dir()  # folders stay for numba

    again = cache_folder.clear(grace=0.0)  # the build is over: everything goes
    assert again.removed == 3 and cache_folder.size_on_disk() == 0
    assert cache_folder.clear().summary() == "The cache folder was already empty."


def test_a_table_cleared_while_in_memory_keeps_serving_and_is_rebuilt_later(cache: Path) -> None:
    puzzle = get_puzzle("two-blank-3x3")
    before = puzzle.depth_table().copy()
    assert puzzle.has_table()
    cache_folder.clear()
    assert np.array_equal(puzzle.depth_table(), before)  # still in memory
    store.forget()
    assert not puzzle.has_table()
    assert np.array_equal(puzzle.depth_table(), before)  # built again on next use
    assert puzzle.has_table()


def test_a_server_s_shared_cache_is_not_the_player_s_to_clear(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(cache_folder.PLAYER_ENV, raising=False)
    assert not cache_folder.shared()
    monkeypatch.setenv(cache_folder.PLAYER_ENV, "frog")
    assert cache_folder.shared()
