"""The search worker under faults: it starts whatever the caller's `__main__` is (a program read
from standard input), and a worker that crashes is restarted with its job retried once without
the compiled cache; a second crash fails the job."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

from service_helpers import Recorder, long_request

from kaeru.engine.service import CANCELLED, FAILED, SearchService
from kaeru.engine.service.process_runner import ProcessRunner
from kaeru.engine.tables.folder import notices

WAIT = 30.0

FROM_STDIN = """
from kaeru.engine.puzzles.registry import get_puzzle
from kaeru.engine.service import JobKind, JobRequest, SearchService

puzzle = get_puzzle("frogs-3")
start = puzzle.format(puzzle.initial())
with SearchService("process") as service:
    result = service.submit(JobRequest(JobKind.SOLVE, "frogs-3", start, start)).wait(60)
    print(result.outcome if result else "no answer", result.message if result else "")
"""


def test_the_worker_starts_for_a_program_read_from_standard_input():
    done = subprocess.run(
        [sys.executable, "-"], input=FROM_STDIN, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[0] == "done", (done.stdout, done.stderr)


def live_pid(service: SearchService) -> int:
    runner = service.runner
    assert isinstance(runner, ProcessRunner) and runner.pid is not None
    return runner.pid


def wait_for_a_new_worker(runner: ProcessRunner, old: int) -> int:
    import time

    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        pid = runner.pid
        if pid is not None and pid != old:
            return pid
        time.sleep(0.02)
    raise AssertionError("no new worker")


def test_a_crashed_worker_is_restarted_and_its_job_retried_once_without_the_cache():
    with SearchService("process") as service:
        runner = service.runner
        assert isinstance(runner, ProcessRunner)
        recorder = Recorder()
        job = service.submit(long_request(), on_progress=recorder.on_progress)
        assert recorder.first_progress.wait(WAIT)
        first = live_pid(service)
        os.kill(first, signal.SIGSEGV)  # as damaged compiled code would
        second = wait_for_a_new_worker(runner, first)
        assert job.wait(0.5) is None  # retried, not failed
        assert any("The search process crashed" in line for line in notices())  # told
        assert runner.handle is not None and runner.handle.compiled_cache is False
        os.kill(second, signal.SIGSEGV)  # a second crash: the job fails with one line
        result = job.wait(WAIT)
        assert result is not None and result.outcome == FAILED
        assert result.message.startswith("The search process was killed (SIGSEGV)")
        again = service.submit(long_request(), on_progress=(later := Recorder()).on_progress)
        assert later.first_progress.wait(WAIT)
        again.cancel()
        assert (r := again.wait(WAIT)) is not None and r.outcome == CANCELLED


def test_the_workers_notices_reach_the_app(tmp_path, monkeypatch):
    """An unusable cache folder is said by the worker; the app hears it as its own notice."""
    from service_helpers import request

    from kaeru.engine.tables import folder

    (tmp_path / "a-file").write_text("not a folder")
    monkeypatch.setenv(folder.ENV_VAR, str(tmp_path / "a-file" / "cache"))
    folder.forget_notices()
    heard: list[str] = []
    folder.on_notice(heard.append)
    try:
        with SearchService("process") as service:
            result = service.submit(request("sliding-3x3")).wait(WAIT)
            assert result is not None and result.outcome == "done"
        assert any("is unusable" in line for line in heard), heard
    finally:
        folder.forget_notices()
