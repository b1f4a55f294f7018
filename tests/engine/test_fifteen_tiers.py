"""The 15-puzzle's tiers, budgets, cancel and reuse (issue 24): IDA* honours a budget of
positions generated and says the bound it reached; a cancelled search stops; a window of bounds
settles a distance known to within one move; optimal lines found before answer at once and next
to them with one iteration, every answer as long as a fresh search's; the 7-8 databases are
never built unasked by a one-shot process, and a failed build is not tried again; tables are
mapped read-only and checked once per file version."""

from __future__ import annotations

import random
import threading
from pathlib import Path

import numpy as np
import pytest

from kaeru.engine.rules.control import Control
from kaeru.engine.rules.results import BudgetExceeded, Cancelled
from kaeru.engine.sliding.board.geometry import grid
from kaeru.engine.sliding.databases import pdb78
from kaeru.engine.sliding.optimal import ida, known_lines
from kaeru.engine.tables import files
from tests.engine.sliding_cases import EASY, korf_length, korf_state

FREE = Control(budget=None)
HARD = (0, 12, 9, 13, 15, 11, 10, 14, 3, 7, 2, 5, 4, 8, 6, 1)  # 80 moves (the example)


@pytest.fixture
def no_tier_builds(monkeypatch: pytest.MonkeyPatch) -> None:
    """Walking distance only: no tier in memory, none built behind the test's back."""
    monkeypatch.setattr(pdb78, "_loaded", {})
    monkeypatch.setattr(pdb78, "may_build_unasked", lambda tier: False)
    monkeypatch.setattr(pdb78, "ready", lambda tier=pdb78.FULL: False)
    monkeypatch.setattr(ida, "LINES", known_lines.Lines())


def test_the_budget_counts_positions_generated_and_says_the_bound(no_tier_builds: None) -> None:
    with pytest.raises(BudgetExceeded) as stopped:
        ida.solve_fifteen(HARD, Control(budget=300_000))
    assert "positions generated (budget 300,000)" in str(stopped.value)
    assert "every solution is at least" in str(stopped.value)
    assert stopped.value.stats is not None and stopped.value.stats.generated >= 300_000


def test_no_budget_chosen_means_a_bounded_search() -> None:
    from kaeru.engine.rules.results import DEFAULT_BUDGET

    assert ida.node_budget(Control()).budget == ida.DEFAULT_NODES
    assert Control().budget == DEFAULT_BUDGET  # the session's hint and solve send this one
    assert ida.node_budget(Control(budget=5)).budget == 5


def test_a_cancelled_search_stops(no_tier_builds: None) -> None:
    asked = threading.Event()
    seen: list[int] = []
    outcome: list[BaseException] = []

    def progress(stats: object) -> None:
        seen.append(1)

    def run() -> None:
        try:
            ida.solve_fifteen(HARD, Control(progress, asked.is_set, None))
        except BaseException as error:  # handed to the test
            outcome.append(error)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    while not seen and worker.is_alive():
        worker.join(0.05)
    asked.set()
    worker.join(10)  # the bench measures the time (bench/fifteen.py); here: it does stop
    assert not worker.is_alive()
    assert outcome and isinstance(outcome[0], Cancelled)


def test_a_window_of_bounds_settles_a_distance_known_to_within_one(no_tier_builds: None) -> None:
    state = korf_state(EASY[0])
    length = korf_length(EASY[0])
    found = ida.solve_walking(4, state, FREE, window=(length, length))
    assert found is not None and len(found.states) - 1 == length
    with pytest.raises(ida.NotWithin):
        ida.solve_walking(4, state, FREE, window=(length - 2, length - 2))


def test_known_lines_answer_at_once_and_next_to_them_optimally(no_tier_builds: None) -> None:
    g = grid(4, 4)
    rng = random.Random(24)
    state = korf_state(EASY[1])
    first = ida.solve_fifteen(state, FREE)
    assert len(first.states) - 1 == korf_length(EASY[1])
    again = ida.solve_fifteen(state, FREE)  # `s` after `i`: no search
    assert again.states == first.states and "found before" in again.stats.algorithm
    for _ in range(8):  # a walk on and off the line, each answer against a fresh search
        state = rng.choice([g.slide(state, m) for m in g.slides(state)])
        answer = ida.solve_fifteen(state, FREE)
        fresh = ida.solve_walking(4, state, FREE)
        assert fresh is not None and len(answer.states) == len(fresh.states)
        assert answer.states[0] == state and answer.states[-1] == g.goal
        for a, b in zip(answer.states, answer.states[1:], strict=False):
            assert b in [g.slide(a, m) for m in g.slides(a)]


def test_lines_forget_the_oldest_past_their_limit() -> None:
    lines = known_lines.Lines(limit=5)
    lines.remember([(1,), (2,), (3,)])
    lines.remember([(4,), (5,), (6,)])
    assert lines.path_from((2,)) is None and lines.path_from((5,)) == [(5,), (6,)]


def test_the_7_8_databases_are_never_built_unasked_by_a_one_shot_process(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(pdb78.AUTO_BUILD_ENV, "on")
    monkeypatch.setattr(pdb78, "_long_lived", [False])
    assert pdb78.may_build_unasked(pdb78.MIDDLE) and not pdb78.may_build_unasked(pdb78.FULL)
    pdb78.allow_unasked_builds()
    assert pdb78.may_build_unasked(pdb78.FULL)  # the search worker
    monkeypatch.setenv(pdb78.AUTO_BUILD_ENV, "middle")
    assert pdb78.may_build_unasked(pdb78.MIDDLE) and not pdb78.may_build_unasked(pdb78.FULL)
    monkeypatch.setenv(pdb78.AUTO_BUILD_ENV, "off")
    assert not pdb78.may_build_unasked(pdb78.MIDDLE)


def test_a_failed_background_build_is_not_tried_again(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []

    def out_of_memory(tier: str, control: Control) -> None:
        calls.append(tier)
        raise MemoryError

    monkeypatch.setattr(pdb78, "_background", {})
    monkeypatch.setattr(pdb78, "pattern_set", out_of_memory)
    monkeypatch.setattr(pdb78, "may_build_unasked", lambda tier: True)
    monkeypatch.setattr(pdb78, "ready", lambda tier=pdb78.FULL: False)
    for _ in range(3):
        pdb78.start_background_build(pdb78.FULL)
        thread = pdb78._background[pdb78.FULL].thread
        assert thread is not None
        thread.join(5)
    assert calls == [pdb78.FULL]
    assert "out of memory" in pdb78.background_failure(pdb78.FULL)
    assert "out of memory" in pdb78.failure_to_tell()  # told once
    assert pdb78.failure_to_tell() == ""


def test_tables_are_mapped_read_only_and_checked_once_per_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "t.v1.table"
    table = np.arange(4096, dtype=np.uint8)
    files.write_table(path, table)
    mapped = files.map_table(path, (4096,), np.dtype(np.uint8))
    assert mapped is not None and np.array_equal(mapped, table)
    assert not mapped.flags.writeable
    assert (tmp_path / "t.v1.table.checked").is_file()
    checked: list[int] = []
    real = files.checksum
    monkeypatch.setattr(files, "checksum", lambda t: checked.append(1) or real(t))
    assert files.map_table(path, (4096,), np.dtype(np.uint8)) is not None
    assert checked == []  # the same file version: not read again
    damaged = bytearray(path.read_bytes())
    damaged[-1] ^= 0xFF
    path.unlink()
    path.write_bytes(bytes(damaged))  # another version (inode, mtime): checked, and refused
    assert files.map_table(path, (4096,), np.dtype(np.uint8)) is None
    assert checked == [1]


def advice_of_mapping(path: Path) -> set[str]:
    """The VmFlags of this process's mapping of `path` (Linux's /proc/self/smaps)."""
    inside = False
    for line in Path("/proc/self/smaps").read_text().splitlines():
        head = line.split()
        if head and "-" in head[0] and len(head) >= 5:
            inside = line.endswith(str(path))
        elif inside and head[0] == "VmFlags:":
            return set(head[1:])
    return set()


@pytest.mark.skipif(not Path("/proc/self/smaps").exists()
                    or not Path("/sys/kernel/mm/transparent_hugepage/enabled").exists(),
                    reason="Linux with transparent huge pages")
def test_a_mapped_table_is_advised_random_lookups_in_huge_pages(tmp_path: Path) -> None:
    """Random access (no read-ahead around a lookup) and huge pages: a page read in comes as a
    2 MB folio mapped whole, so lookups over 577 MB cost no 4 kB TLB misses (the 7-8 search ran
    1.3-1.5x slower without, bench/fifteen_mapping.py)."""
    path = tmp_path / "t.v1.table"
    files.write_table(path, np.zeros(4 << 20, dtype=np.uint8))
    mapped = files.map_table(path, (4 << 20,), np.dtype(np.uint8))
    assert mapped is not None
    assert {"rr", "hg"} <= advice_of_mapping(path)


# ---- slow: the middle tier built (about 12 s of CPU), then searched ---------------------------
@pytest.mark.slow
@pytest.mark.parametrize("number", [1, 17, 60, 88])
def test_the_middle_tier_solves_hard_korf_instances_optimally(number: int) -> None:
    found = ida.solve_pattern(korf_state(number), FREE, pdb78.MIDDLE)
    assert found is not None and len(found.states) - 1 == korf_length(number)
    assert "7-7-1" in found.stats.algorithm


@pytest.mark.slow
@pytest.mark.parametrize("which", [5, 6])  # two of the quicker 80-move positions (~10 s each)
def test_the_middle_tier_solves_80_move_positions(which: int) -> None:
    from tests.engine.test_sliding_ida import eighty_movers

    state = eighty_movers()[which]
    found = ida.solve_pattern(state, FREE, pdb78.MIDDLE)
    assert found is not None and len(found.states) - 1 == 80
    assert ida.path_states(4, state, np.array([s.index(0) for s in found.states]))[-1] == (
        grid(4, 4).goal
    )


def test_the_databases_of_the_earlier_index_are_deleted(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KAERU_CACHE_DIR", str(tmp_path))
    old = tmp_path / "sliding-4x4.pdb78-1-2-3-4-5-6-7-8.v2.table"
    kept = tmp_path / "sliding-4x4.pdb-1-2-3-4-5-6-7-8.v3.table"
    old.write_bytes(b"x")
    kept.write_bytes(b"x")
    assert pdb78.drop_legacy() == [old.name]
    assert not old.exists() and kept.exists()


@pytest.mark.slow  # compiles the build and a search kernel
def test_a_position_walking_distance_does_not_settle_soon_gets_the_middle_tier(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    small = ((1, 2, 3), (4, 7, 8), (5, 6, 9), (10, 13, 14), (11, 12, 15))  # builds in a second
    monkeypatch.setitem(pdb78.TIERS, pdb78.MIDDLE, small)
    monkeypatch.setattr(pdb78, "_loaded", {})
    monkeypatch.setattr(pdb78, "may_build_unasked", lambda tier: tier == pdb78.MIDDLE)
    monkeypatch.setattr(ida, "MIDDLE_AFTER", 0.0)
    monkeypatch.setattr(ida, "LINES", known_lines.Lines())
    reports: list[str] = []
    found = ida.solve_fifteen(korf_state(60), Control(lambda s: reports.append(s.note), None,
                                                       None))
    assert len(found.states) - 1 == korf_length(60)
    assert "7-7-1 pattern databases" in found.stats.algorithm  # the tier's name, small groups
    assert any("lookup tables" in note for note in reports)  # the build was shown
