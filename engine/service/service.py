"""The search service: the one way the app (and the CLI, if it likes) runs searches — hint,
solve, the optimal length from the start, the distance to the goal, dead-end checks and
enumeration — and the rest of its engine work (the job kinds of `job_kinds`: random and daily
draws, the catalogue survey, drill questions, a game's analysis) as jobs with progress, cancel
and budget, in a thread or a worker process.

Mode "auto" ($KAERU_SEARCH_MODE, else "process") picks the worker process, by measurement
(bench/search_latency.py, 2 cores shared with other heavy work): with three pure-Python
searches (sliding-4x4 hints) running, a Textual key reached its handler in p50 14.6 ms / p90
43 ms with the searches in threads of the app (they hold the GIL), against 4.2 / 11.2 ms with
them in the worker process (2.7 / 12 ms with one search; 1.4 / 6.5 ms with none); a 20 ms
timer ran 6.5 ms late (p50) against 0.8 ms. The price is paid once and off the UI thread: the
worker is ready ~0.6 s after the first submit, and tables it needs are read once more in there.
Auto falls back to threads where a process cannot be started. An arcade served by `kaeru serve
ssh` ($KAERU_SEARCH_POOL set) sends its jobs to the server's shared pool instead ("pool").
"""

from __future__ import annotations

import itertools
import logging
import os
import threading
from typing import Protocol

from kaeru.engine.service.jobs import DoneCallback, Job, JobRequest, JobResult, ProgressCallback
from kaeru.engine.service.pool_runner import PoolRunner, pool_address
from kaeru.engine.service.process_runner import WORKER_NICENESS, ProcessRunner
from kaeru.engine.service.thread_runner import ThreadRunner

log = logging.getLogger(__name__)

MODES = ("auto", "thread", "process")
MODE_ENV = "KAERU_SEARCH_MODE"


class Runner(Protocol):
    def start(self, job: Job) -> None: ...

    def shutdown(self) -> None: ...


def start_resource_tracker() -> None:
    """Start multiprocessing's resource tracker now, while stderr is a real file: started later
    from inside a Textual app (whose stderr has no usable file descriptor) it fails with "bad
    value(s) in fds_to_keep", and the service would fall back to threads."""
    from multiprocessing import resource_tracker

    try:
        resource_tracker.ensure_running()
    except (OSError, ValueError) as error:  # the first submit falls back to threads
        log.warning("no resource tracker (%s)", error)


class SearchService:
    """Submit search jobs; cancel them one by one, by tag, or all at once; shut down cleanly."""

    def __init__(
        self,
        mode: str = "auto",
        *,
        memory_limit: int | None = None,
        niceness: int | None = None,
    ) -> None:
        """`mode`: "thread", "process", or "auto" ($KAERU_SEARCH_MODE if set, else process).
        `memory_limit` (bytes) applies to the worker process; `niceness` is added to the
        worker's nice value (default WORKER_NICENESS) or, in thread mode, to each search
        thread's (Linux sets nice per thread; default 0: a niced thread that holds the GIL while
        the CPU is busy elsewhere would keep the UI thread waiting for it)."""
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
        if mode == "auto":
            mode = os.environ.get(MODE_ENV, "auto")
            if mode not in MODES:
                raise ValueError(f"${MODE_ENV} must be one of {', '.join(MODES)}, not {mode!r}")
        self.requested_mode = mode
        self._niceness = 0 if niceness is None else niceness
        self.mode = "process" if mode == "auto" else mode
        pool = pool_address() if self.mode == "process" else None
        if pool is not None:  # served: the server's shared pool instead of a worker of our own
            self.mode = "pool"
            self._runner: Runner = PoolRunner(pool)
        elif self.mode == "process":
            self._runner = ProcessRunner(
                memory_limit, WORKER_NICENESS if niceness is None else niceness
            )
            start_resource_tracker()
        else:
            self._runner = ThreadRunner(self._niceness)
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
            self._runner = ThreadRunner(self._niceness)
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
