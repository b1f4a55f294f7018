"""The search service: the one way the app (and the CLI, if it likes) runs searches — hint,
solve, the optimal length from the start, the distance to the goal, dead-end checks and
enumeration — as jobs with progress, cancel and budget, in a thread or a worker process.

Mode "auto" picks the worker process: measured with bench/search_latency.py, a pure-Python
search in a thread of the app's process holds the GIL and makes a 20 ms timer (the stand-in for
key echo) run tens to hundreds of ms late, while in the worker process it stays within a few ms.
The price — about half a second to start the worker once, and tables loaded once more in there —
is paid off the UI thread. Auto falls back to threads where a process cannot be started.
"""

from __future__ import annotations

import itertools
import logging
import os
import threading
from typing import Protocol

from kaeru.engine.service.jobs import DoneCallback, Job, JobRequest, JobResult, ProgressCallback
from kaeru.engine.service.process_runner import WORKER_NICENESS, ProcessRunner
from kaeru.engine.service.thread_runner import ThreadRunner

log = logging.getLogger(__name__)

MODES = ("auto", "thread", "process")
MODE_ENV = "KAERU_SEARCH_MODE"


class Runner(Protocol):
    def start(self, job: Job) -> None: ...

    def shutdown(self) -> None: ...


class SearchService:
    """Submit search jobs; cancel them one by one, by tag, or all at once; shut down cleanly."""

    def __init__(
        self,
        mode: str = "auto",
        *,
        memory_limit: int | None = None,
        niceness: int = WORKER_NICENESS,
    ) -> None:
        """`mode`: "thread", "process", or "auto" ($KAERU_SEARCH_MODE if set, else process).
        `memory_limit` (bytes) and `niceness` apply to the worker process."""
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
        if mode == "auto":
            mode = os.environ.get(MODE_ENV, "auto")
            if mode not in MODES:
                raise ValueError(f"${MODE_ENV} must be one of {', '.join(MODES)}, not {mode!r}")
        self.requested_mode = mode
        self.mode = "process" if mode == "auto" else mode
        self._runner: Runner = (
            ProcessRunner(memory_limit, niceness) if self.mode == "process" else ThreadRunner()
        )
        self._ids = itertools.count(1)
        self._jobs: dict[int, Job] = {}
        self._lock = threading.Lock()
        self._closed = False

    @property
    def runner(self) -> Runner:
        return self._runner

    def submit(
        self,
        request: JobRequest,
        *,
        on_progress: ProgressCallback | None = None,
        on_done: DoneCallback | None = None,
    ) -> Job:
        """Start `request`; the callbacks run on a service thread, never the caller's."""
        with self._lock:
            if self._closed:
                raise RuntimeError("the search service is shut down")
            job = Job(next(self._ids), request, on_progress, self._forget(on_done))
            self._jobs[job.id] = job
        try:
            self._runner.start(job)
        except Exception as error:
            if self.requested_mode != "auto" or isinstance(self._runner, ThreadRunner):
                with self._lock:
                    self._jobs.pop(job.id, None)
                raise
            log.warning("no search process (%s): searching in threads instead", error)
            self._runner = ThreadRunner()
            self.mode = "thread"
            self._runner.start(job)
        return job

    def _forget(self, on_done: DoneCallback | None) -> DoneCallback:
        def done(job: Job, result: JobResult) -> None:
            with self._lock:
                self._jobs.pop(job.id, None)
            if on_done is not None:
                on_done(job, result)

        return done

    def jobs(self, tag: str | None = None) -> list[Job]:
        """The jobs not yet ended (all, or those with `tag`), oldest first."""
        with self._lock:
            return [j for j in self._jobs.values() if tag is None or j.request.tag == tag]

    def cancel_all(self, tag: str | None = None) -> None:
        """Cancel every open job, or every open job with `tag`."""
        for job in self.jobs(tag):
            job.cancel()

    def shutdown(self) -> None:
        """Cancel everything and end the worker process; no process is left behind."""
        with self._lock:
            self._closed = True
        self.cancel_all()
        self._runner.shutdown()

    def __enter__(self) -> SearchService:
        return self

    def __exit__(self, *exc: object) -> None:
        self.shutdown()
