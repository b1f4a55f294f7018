"""Process mode end to end: one warm worker reused, progress and cancel across the boundary,
a killed worker reported as "failed" and replaced, and nothing left running after shutdown."""

from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from service_helpers import Recorder, child_pids, long_request, request, running

from kaeru.engine.service import CANCELLED, DONE, FAILED, JobKind, SearchService
from kaeru.engine.service.process_runner import ProcessRunner

WAIT = 30.0


def worker_pid(service: SearchService) -> int:
    runner = service.runner
    assert isinstance(runner, ProcessRunner)
    pid = runner.pid
    assert pid is not None
    return pid


def test_auto_mode_runs_searches_in_a_process(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv("KAERU_SEARCH_MODE", raising=False)
    assert SearchService("auto").mode == "process"
    monkeypatch.setenv("KAERU_SEARCH_MODE", "thread")
    assert SearchService("auto").mode == "thread"
    assert SearchService("process").mode == "process"
    monkeypatch.setenv("KAERU_SEARCH_MODE", "fork")
    with pytest.raises(ValueError, match="KAERU_SEARCH_MODE"):
        SearchService()


def test_process_mode_end_to_end():
    """One warm worker reused; a kill mid-search is "failed" and the next job gets a fresh
    worker; cancel reaches the worker without ending it; shutdown leaves no process."""
    recorder = Recorder()
    svc = SearchService("process")
    try:
        assert svc.submit(request("frogs-3")).wait(WAIT).outcome == DONE
        first = worker_pid(svc)
        assert svc.submit(request("frogs-4")).wait(WAIT).outcome == DONE
        assert worker_pid(svc) == first  # reused: tables stay warm
        assert first in child_pids()

        job = svc.submit(long_request(), on_progress=recorder.on_progress, on_done=recorder.on_done)
        assert recorder.first_progress.wait(WAIT), "no progress from the worker"
        os.kill(first, signal.SIGKILL)
        result = job.wait(WAIT)
        assert result is not None and result.outcome == FAILED
        limit = svc.runner.memory_limit // 2**20  # type: ignore[attr-defined]
        assert result.message == (
            f"The search process was killed (SIGKILL); memory limit {limit:,} MB."
        )
        assert [r.outcome for _, r, _ in recorder.done] == [FAILED]

        assert svc.submit(request("frogs-3")).wait(WAIT).outcome == DONE
        second = worker_pid(svc)
        assert second != first and first not in child_pids()

        recorder = Recorder()
        hint = svc.submit(long_request(tag="hint"), on_progress=recorder.on_progress)
        assert recorder.first_progress.wait(WAIT)
        svc.cancel_all("hint")
        result = hint.wait(WAIT)
        assert result is not None and result.outcome == CANCELLED
        assert svc.submit(request("frogs-3")).wait(WAIT).outcome == DONE
        assert worker_pid(svc) == second, (  # cancel stopped the search, not the worker
            "the worker was replaced: the cancelled search ran on past the worker's "
            "STUCK_AFTER, so it ended itself as stuck"
        )

        running = svc.submit(long_request(tag="optimal"))
        svc.shutdown()
        result = running.wait(WAIT)
        assert result is not None and result.outcome == CANCELLED
        assert multiprocessing.active_children() == []
        assert child_pids() == []
    finally:
        svc.shutdown()  # also when an assertion failed: no worker left for the next tests


APP = """
import sys
from kaeru.engine.service import JobKind, JobRequest, SearchService
from kaeru.engine.puzzles.registry import get_puzzle
from multiprocessing import resource_tracker
import threading
if __name__ == "__main__":
    puzzle = get_puzzle("pegs-english@any")
    root = puzzle.format(puzzle.initial())
    service = SearchService("process")
    started = threading.Event()
    service.submit(JobRequest(JobKind.ENUMERATE, "pegs-english@any", root, root),
                   on_progress=lambda job, stats: started.set())
    started.wait(60)
    print(service.runner.pid, resource_tracker._resource_tracker._pid, flush=True)
    threading.Event().wait(120)
"""


@pytest.mark.slow
def test_an_app_killed_mid_search_leaves_no_process_behind():
    """As when an SSH player disconnects: the worker and multiprocessing's helper end too."""
    app = subprocess.Popen([sys.executable, "-c", APP], stdout=subprocess.PIPE, text=True)
    try:
        line = app.stdout.readline() if app.stdout else ""
        worker, tracker = (int(word) for word in line.split())
        assert running(worker) and running(tracker)
    finally:
        app.kill()
        app.wait()
    deadline = time.monotonic() + WAIT
    while (running(worker) or running(tracker)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not running(worker) and not running(tracker)


def address_space(pid: int) -> int:
    """VmSize of a process, in bytes."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmSize:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmSize")


@pytest.mark.slow
def test_a_runaway_search_fails_as_out_of_memory_not_the_app():
    """A limit 40 MB above an idle worker's size: the 14-puzzle's 76 MB table cannot fit."""
    with SearchService("process") as probe:
        assert probe.submit(request("frogs-3")).wait(WAIT).outcome == DONE
        idle = address_space(worker_pid(probe))
    with SearchService("process", memory_limit=idle + 40 * 2**20) as svc:
        result = svc.submit(request("two-blank-4x4", JobKind.ENUMERATE)).wait(120)
        assert result is not None and result.outcome == FAILED
        assert "memory" in result.message
        assert svc.submit(request("frogs-3")).wait(WAIT).outcome == DONE
