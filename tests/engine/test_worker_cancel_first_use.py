"""Escape during first-use work frees the search worker at once (issue 24): a kernel that numba
is compiling, or a 15-puzzle table being built, cannot stop at a cancel, so the worker ends
itself once every job it holds is cancelled, and the next search gets a fresh one. Before, a
compile kept a core busy for seconds after the cancel.

Each test waits on the condition (the worker gone, or idle), never for a fixed time, and prints
how long it took from the cancel (`pytest -s`)."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from service_helpers import request

from kaeru.engine.service import CANCELLED, DONE, JobKind, JobRequest, SearchService
from kaeru.engine.service.process_runner import ProcessRunner

HARD = "_ 12 9 13/15 11 10 14/3 7 2 5/4 8 6 1"  # 80 moves: no search ends before the cancel
WAIT = 120.0  # seconds for first-use work to begin on a loaded machine


@pytest.fixture
def empty_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A cache folder with no tables and no compiled code (numba's cache follows it)."""
    monkeypatch.setenv("KAERU_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)


def running_threads(pid: int) -> int | None:
    """How many of the process's threads are running or ready to run (a compile is, however
    little CPU a niced worker gets on a busy machine); None once the process is gone."""
    try:
        tasks = list(Path(f"/proc/{pid}/task").iterdir())
    except OSError:
        return None
    running = 0
    for task in tasks:
        try:
            state = (task / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        running += state == "R"
    return running


def freed(pid: int) -> bool:
    """The worker is gone, or none of its threads ran in five looks 10 ms apart."""
    for _ in range(5):
        running = running_threads(pid)
        if running is None:
            return True
        if running:
            return False
        time.sleep(0.01)
    return True


def cancel_when(note_has: str, monkeypatch: pytest.MonkeyPatch) -> float:
    """Start a hint on the 80-move position in a worker process, cancel it once a progress
    note says `note_has`, wait until the worker is freed; seconds from the cancel."""
    service = SearchService("process")
    seen = threading.Event()

    notes: list[str] = []  # what the worker said, for the failure's message

    def progress(_: object, stats: object) -> None:
        notes.append(str(getattr(stats, "note", "") or ""))
        if note_has in (getattr(stats, "note", "") or ""):
            seen.set()

    try:
        job = service.submit(JobRequest(JobKind.SOLVE, "sliding-4x4", HARD, HARD, tag="hint",
                                        budget=None), on_progress=progress)
        assert seen.wait(WAIT), (
            f"no {note_has!r} note in {WAIT:.0f} s: {len(notes)} reports, the last "
            f"{notes[-3:]}; runner {type(service.runner).__name__}, workers started "
            f"{getattr(service.runner, 'workers_started', None)}; the job: {job.wait(1)}"
        )
        runner = service.runner
        assert isinstance(runner, ProcessRunner)
        pid = runner.pid
        assert pid is not None
        asked = time.perf_counter()
        job.cancel()
        deadline = asked + 1.0  # the compile or build takes seconds: this is far less
        while running_threads(pid) and time.perf_counter() < deadline:
            time.sleep(0.005)
        took = time.perf_counter() - asked  # when first seen idle or gone
        assert freed(pid), "the worker kept working after the cancel"
        result = job.wait(10)
        assert result is not None and result.outcome == CANCELLED
        assert service.submit(request("frogs-3")).wait(60).outcome == DONE  # a fresh worker
        print(f"worker freed {took * 1000:.0f} ms after the cancel ({note_has})")
        return took
    finally:
        service.shutdown()


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_a_cancel_while_the_solver_compiles_frees_the_worker(
    empty_cache: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KAERU_PDB_BUILD", "off")  # walking distance only
    cancel_when("compiling", monkeypatch)


@pytest.mark.slow  # walking distance compiles and searches 2 s before the build begins
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_a_cancel_while_the_first_tables_are_built_frees_the_worker(
    empty_cache: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("KAERU_PDB_BUILD", raising=False)
    cancel_when("lookup tables", monkeypatch)
